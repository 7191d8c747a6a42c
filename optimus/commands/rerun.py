"""Re-run a solved run's program on a changed data.json, with no model call, re-checked like any run.

A what-if that changes data only needs no new formulation or program: the program reads data.json. It runs in
the sandbox on the variant folder's data, then the harness's checks, the family's re-check (the re-solve of the
captured model) and, in a mode with tests, the tests the run used. The variant gets a run folder and a
report.json like any solve; its llm_usage shows the calls (none: the client has no model behind it).
"""

from __future__ import annotations

import time
from pathlib import Path

from optimus.core import families
from optimus.core.checks import failed as failed_checks
from optimus.core.checks import run_checks
from optimus.core.datasummary import summarize
from optimus.core.errors import LLMError
from optimus.core.llm import LLMClient
from optimus.core.llm.client import Completion
from optimus.core.loop import TEST_MODES, VariantResult, finish
from optimus.core.outcomes import FOUND
from optimus.core.problem import Problem
from optimus.core.report import Report
from optimus.core.runstore import RunStore, attempt_path
from optimus.core.sandbox import Limits
from optimus.core.sandbox.base import Backend as SandboxBackend
from optimus.core.stages.context import Context
from optimus.core.stages.execute import execute
from optimus.core.stages.testrun import run_tests
from optimus.core.tables import row_counts


class NoModel:
    """The client's backend for a re-run: asking it anything is a bug, so it refuses loudly."""

    name, model, cacheable = "none", "none (the run's program re-ran)", False

    def complete(self, stage: str, messages: list[dict]) -> Completion:
        raise LLMError(f"a data-only re-run asks no model (stage {stage!r})")


def rerun(problem: Problem, run_dir: Path, attempt: Path, mode: str, family: str | None, sandbox: SandboxBackend,
          limits: Limits) -> Report:
    """Run `attempt`'s program (of run `run_dir`) on `problem` (the variant folder) in `mode`."""
    started = time.monotonic()
    run = RunStore(problem.root)
    client = LLMClient(NoModel(), transcript=run.dir / "transcript.jsonl")
    fam = families.load(family) if family else families.choose(problem)
    report = Report(problem=str(problem.root), mode=mode, llm={"backend": "none", "model": NoModel.model},
                    sandbox=sandbox.name, expected=problem.expected, run_dir=str(run.dir))
    ctx = Context(problem, problem.snop, client, sandbox, limits, run,
                  summarize(problem.data, problem.snop.input_format), family=fam, mode=mode)
    code = (attempt / fam.artifact).read_text()
    run.write("v0/rerun-of.txt", f"{attempt}\n")
    result = VariantResult(attempt=attempt_path(0, 1))
    ex = execute(ctx, code, run.path(result.attempt))
    result.execution, result.executed = ex, ex.executed
    report.executed = ex.executed
    if not ex.ok:
        result.message = f"the run's program failed on the changed data: {ex.evidence.splitlines()[0]}"
    else:
        harness = run_checks(problem.snop.output_format, problem.snop.input_format, problem.data, ex.output,
                             ex.solution, row_counts(problem.root))
        result.checks = [c.to_dict() for c in harness]
        check = fam.recheck(ctx, ex)
        result.verification = check.to_dict()
        status = ex.solution.get("status")
        tests = _run_tests(ctx, run_dir, ex, mode) if status in FOUND else None
        result.tests = tests
        failing = failed_checks(harness)
        if failing or check.disagrees:
            result.message = f"not verified: {failing[0].message if failing else check.summary}"
        elif tests is not None and not tests.ok:
            result.message = f"the run's tests fail on the changed data: {tests.evidence().splitlines()[0]}"
        else:
            result.verified = check.outcome == "agrees" or bool(tests and tests.ok)
            result.ran = not result.verified and status in FOUND
            how = f"verified by {check.summary}" if check.outcome == "agrees" else f"not verified: {check.summary}"
            result.message = f"solver status {status}; {how}" + (f"; {tests.passed} tests passed" if tests else "")
    report.variants.append({"variant": 0, "executed": result.executed, "verified": result.verified,
                            "message": result.message, "program": str(attempt)})
    report.winning_variant = 0 if result.verified else None
    finish(report, result, ctx, client, started)
    run.write("report.json", report.to_dict())
    return report


def _run_tests(ctx: Context, run_dir: Path, ex, mode: str):
    """The tests the run itself ran (its tests/ folder), in a mode that has tests; None otherwise."""
    files = {p.name: p.read_text() for p in sorted((run_dir / "tests").glob("test_*.py"))}
    if mode not in TEST_MODES or not files:
        return None
    outcome = run_tests(ctx.sandbox, ctx.limits, ctx.problem.data_path, files, ex, ex.workdir / "tests",
                        ctx.family.conftest(), ctx.family.test_files(ex.workdir))
    ctx.sandbox_seconds += outcome.seconds
    return outcome
