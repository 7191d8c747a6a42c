"""`optimus diagnose RUN_DIR`: re-verify a past run's final attempt and explain "no solution" in its statements."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from optimus.core.changes import Prober
from optimus.core.diagnose import final_attempt, name_limits
from optimus.core.errors import SpecError
from optimus.core.families.pulp.verify import verify_attempt
from optimus.core.files import read_json
from optimus.core.problem import load_problem
from optimus.core.runstore import problem_of, unfinished_message
from optimus.core.sandbox import Limits
from optimus.core.sandbox.base import Backend as SandboxBackend
from optimus.core.tables import tables_dir


def diagnose_run(run_dir: Path, sandbox: SandboxBackend, limits: Limits) -> dict[str, Any]:
    """Re-verify the final attempt of a past run (`<problem>/runs/<stamp>/`); add it to report.json as `diagnosis`."""
    run_dir = Path(run_dir)
    if not run_dir.is_dir():
        raise SpecError(run_dir, "", "no such run folder; pass <problem>/runs/<stamp>/ (or runs/latest)")
    report_path = run_dir / "report.json"
    if not report_path.exists():
        raise SpecError(run_dir, "", unfinished_message(run_dir))
    report = read_json(report_path)
    if not isinstance(report, dict):
        raise SpecError(report_path, "$", "expected a JSON object (the report `optimus solve` writes)")
    workdir = final_attempt(run_dir, report.get("winning_variant"))
    problem = load_problem(problem_of(run_dir))
    rephrased = workdir.parent / "statements.json"
    statements = read_json(rephrased) if rephrased.is_file() else problem.snop.problem_info
    if not (isinstance(statements, list) and all(isinstance(s, str) for s in statements)):
        raise SpecError(rephrased, "$", "expected a list of statement strings")
    verdict = verify_attempt(workdir, statements, sandbox, limits, data=problem.data)
    entry = {"attempt": str(workdir.relative_to(run_dir)), **verdict.to_dict()}
    diagnosis = entry.get("diagnosis") or {}
    if diagnosis.get("kind") == "infeasible" and problem.data:  # name limits by data key, as solve and repair do
        prober = Prober(workdir, sandbox, limits, tables_dir(problem.root))
        entry["diagnosis"] = name_limits(diagnosis, statements, problem.data, prober)
    report["diagnosis"] = entry
    report_path.write_text(json.dumps(report, indent=2, default=str) + "\n")
    return entry
