"""Ground truth for the multi-constraint llmfp/ folders: a Z3 program and an independent second program agree.

    python -m optimus.bench.groundtruth.z3 DIR... [--write] [--json] [--jobs N] [--timeout S]

Each DIR is a folder with `reference/solver.py` (Z3) and a second reference written apart from it,
`reference/solver_pulp.py` (PuLP, CBC) or `reference/solver_brute.py` (plain enumeration), or a folder of such
folders. Both run in subprocesses, each in a temp dir holding a copy of data.json. They agree when the statuses
are equal and, when optimal, the objectives too (1e-6 relative). The Z3 run is also held to the contract: every
assertion of model.smt2 tracked under a statement's name (`s4_…`, statement 4 existing), solution.json's
"values" present when it found a solution, and for an unsat folder with `reference/core.json` the named
statements conflict minimally: together they are unsat, without any one of them they are sat, and the whole
model without any one of them is sat. With `--write` the agreed result goes to expected.json; without, the
existing expected.json is checked. Exit 0 when all agree, 1 on any disagreement, 2 on bad input. The references
are our own code, so they run unsandboxed. Multi-step (PLANNING) folders are not handled here.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path

from optimus.bench.groundtruth import driver
from optimus.bench.groundtruth.lp import close, snop_sense
from optimus.core.errors import SpecError
from optimus.core.problem import load_problem, short_name

SECOND_WAYS = ("solver_pulp.py", "solver_brute.py")
TIMEOUT = 120.0
TRACKED = re.compile(r"^s(\d+)_\w+$")
TRUTHS = ("optimal", "feasible", "infeasible")  # statuses that can be ground truth


def second_way(folder: Path) -> Path | None:
    return next((folder / "reference" / n for n in SECOND_WAYS if (folder / "reference" / n).exists()), None)


def multi_constraint(folder: Path) -> bool:
    """A folder this module handles: a Z3 reference, a second way, and a CSP SNOP."""
    return ((folder / "reference" / "solver.py").exists() and second_way(folder) is not None
            and load_problem(folder).snop.problem_type == "CSP")


def claim(folder: Path) -> None:
    """Refuse a DIR with a reference solver that is not multi-constraint, saying what it lacks."""
    if load_problem(folder).snop.problem_type == "PLANNING":
        raise SpecError(folder, "", "a multi-step folder: its ground truth is python -m optimus.bench.groundtruth.plans")
    if not multi_constraint(folder):
        raise SpecError(folder / "reference", "", "needs solver.py (Z3), one of "
                        f"{', '.join(SECOND_WAYS)} and a CSP problem_type")


def discover(root: Path | str) -> list[Path]:
    """Multi-constraint folders: `root` itself, or its subfolders in natural order."""
    return driver.discover(root, KIND)


def run_program(folder: Path, script: Path, timeout: float = TIMEOUT) -> dict:
    """Run `script` in a temp dir holding a copy of folder's data.json. Returns {"program", "status",
    "objective", "solution", "output", "smt2", "seconds", "error"}; a crash or timeout is status "error"."""
    result = {"program": script.name, "status": "error", "objective": None, "solution": {}, "output": None,
              "smt2": None, "error": None}
    with tempfile.TemporaryDirectory(prefix="optimus-gtz3-") as tmp:
        shutil.copy(folder / "data.json", tmp)
        start = time.perf_counter()
        try:
            proc = subprocess.run([sys.executable, str(script.resolve())], cwd=tmp, capture_output=True, text=True,
                                  timeout=timeout, check=False)
            if proc.returncode != 0:
                result["error"] = f"exit {proc.returncode}: " + (proc.stderr.strip().splitlines() or [""])[-1]
            else:
                result["solution"] = json.loads((Path(tmp) / "solution.json").read_text())
                result["output"] = json.loads((Path(tmp) / "output.json").read_text())
                smt2 = Path(tmp) / "model.smt2"
                result["smt2"] = smt2.read_text() if smt2.exists() else None
        except subprocess.TimeoutExpired:
            result["error"] = f"timed out after {timeout:g} s"
        except (OSError, json.JSONDecodeError) as exc:
            result["error"] = f"unreadable result: {exc}"
        result["seconds"] = round(time.perf_counter() - start, 3)
    if result["error"] is None:
        result["status"] = result["solution"].get("status", "error")
        objective = result["solution"].get("objective")
        result["objective"] = float(objective) if objective is not None else None
    return result


def tracked_assertions(smt2: str) -> dict[int, list]:
    """model.smt2's assertions by statement number: {4: [(tracker, assertion), …]}. Raises ValueError on an
    assertion that is not `(=> sK_name expr)`."""
    import z3  # the harness's own dependency; imported here so `--help` stays quick

    # A context of its own: z3's shared main context is not safe across threads (the checks run in a pool),
    # and a corrupted one hangs the process when it is deleted at exit.
    groups: dict[int, list] = {}
    for a in z3.parse_smt2_string(smt2, ctx=z3.Context()):
        tracker = a.arg(0) if z3.is_implies(a) else None
        match = TRACKED.match(tracker.decl().name()) if tracker is not None and z3.is_const(tracker) else None
        if match is None:
            raise ValueError(f"assertion not tracked under a statement's name: {str(a)[:120]}")
        groups.setdefault(int(match.group(1)), []).append((tracker, a))
    return groups


def contract_problems(run: dict, statements: int) -> list[str]:
    """How a Z3 run breaks the program contract (empty when it keeps it)."""
    if run["error"]:
        return []
    if not run["smt2"]:
        return ["model.smt2 was not written"]
    try:
        groups = tracked_assertions(run["smt2"])
    except ValueError as exc:
        return [str(exc)]
    problems = [f"tracked name s{k}_… names no statement (there are {statements})"
                for k in groups if not 1 <= k <= statements]
    if run["status"] in ("optimal", "feasible") and not run["solution"].get("values"):
        problems.append("solution.json has no values for a solution")
    return problems


def sat_without(groups: dict[int, list], keep: set[int]) -> bool | None:
    """Whether the assertions of the statements in `keep` are satisfiable together (None: unknown)."""
    import z3

    first = next((a for k in keep for _, a in groups.get(k, [])), None)
    solver = z3.Solver(ctx=first.ctx if first is not None else z3.Context())  # the assertions' own context
    solver.set("timeout", 30_000)
    for k in keep:
        for _, assertion in groups.get(k, []):
            solver.add(assertion)
    trackers = [t for k in keep for t, _ in groups.get(k, [])]
    verdict = solver.check(*trackers)
    return None if verdict == z3.unknown else verdict == z3.sat


def core_problems(smt2: str, core: list[int]) -> list[str]:
    """Whether `core` (statement numbers) is a minimal conflict of model.smt2, and each of its statements the one
    to drop: the core is unsat, the core without any one statement is sat, and so is the whole model."""
    groups = tracked_assertions(smt2)
    everything, problems = set(groups), []
    if missing := [k for k in core if k not in groups]:
        return [f"statements {missing} of the core have no tracked assertion"]
    if sat_without(groups, set(core)) is not False:
        problems.append(f"statements {core} together are not unsat")
    for k in core:
        if sat_without(groups, set(core) - {k}) is not True:
            problems.append(f"the core without s{k} is not sat: not minimal")
        if sat_without(groups, everything - {k}) is not True:
            problems.append(f"the whole model without s{k} is still not sat")
    return problems


@dataclass
class Check:
    """The outcome of checking one folder; `agree` is the verdict."""

    name: str
    z3: dict
    second: dict
    expected: dict | None
    agree: bool = False
    problems: list[str] = field(default_factory=list)

    def line(self) -> str:
        def fmt(r: dict) -> str:
            return f"{r['program']}=" + (f"{r['objective']:.10g}" if r["objective"] is not None else "-")

        verdict = "agree" if self.agree else "DISAGREE: " + "; ".join(self.problems)
        return f"{self.name:<20} {self.z3['status']:<10} {fmt(self.z3):<22} {fmt(self.second):<28} {verdict}"

    def row(self) -> dict:
        row = asdict(self)
        for run in (row["z3"], row["second"]):  # the statuses and objectives are the point; outputs and models
            run.pop("output", None), run.pop("smt2", None), run["solution"].pop("values", None)  # can be large
        return row


def truth(folder: Path, run: dict) -> dict:
    """expected.json for an agreed run."""
    if run["status"] != "optimal":
        return {"status": run["status"]}
    objective = run["objective"]
    return {"status": "optimal", "objective": int(objective) if objective.is_integer() else objective,
            "sense": snop_sense(folder)}


def check(folder: Path | str, write: bool = False, timeout: float = TIMEOUT) -> Check:
    """Run both references on `folder`; compare them with each other and with expected.json (or write it)."""
    folder = Path(folder)
    with ThreadPoolExecutor(2) as pool:
        z3_run, second = pool.map(lambda p: run_program(folder, p, timeout),
                                  (folder / "reference" / "solver.py", second_way(folder)))
    problem = load_problem(folder)
    result = Check(short_name(folder), z3_run, second, problem.expected)
    for run in (z3_run, second):
        if run["error"]:
            result.problems.append(f"{run['program']} failed: {run['error']}")
    if z3_run["status"] != second["status"]:
        result.problems.append(f"status {z3_run['status']} vs {second['status']}")
    elif not close(z3_run["objective"], second["objective"]):
        result.problems.append(f"objective {z3_run['objective']} vs {second['objective']}")
    if z3_run["status"] not in TRUTHS:
        result.problems.append(f"status {z3_run['status']} cannot be ground truth")
    result.problems += contract_problems(z3_run, len(problem.snop.problem_info))
    core_file = folder / "reference" / "core.json"
    if core_file.exists() and z3_run["status"] == "infeasible" and z3_run["smt2"]:
        result.problems += core_problems(z3_run["smt2"], json.loads(core_file.read_text())["statements"])
    if write and not result.problems:
        result.expected = truth(folder, z3_run)
        driver.write_expected(folder, result.expected)
    elif not write:
        result.problems += compare_expected(result.expected, z3_run, second)
    result.agree = not result.problems
    return result


def compare_expected(expected: dict | None, *runs: dict) -> list[str]:
    """Differences between expected.json and the runs (empty when they all match); only an optimum has an
    objective to compare."""
    return driver.expected_differences(expected, runs, "program",
                                       lambda run, want: run["status"] != "optimal" or close(run["objective"], want))


def _check_from_args(folder: Path, args: argparse.Namespace) -> Check:
    return check(folder, args.write, args.timeout)


KIND = driver.Kind(
    prog="python -m optimus.bench.groundtruth.z3", doc=__doc__, marker="reference/solver.py", check=_check_from_args,
    write_help="write expected.json when the two ways agree", not_found="not a directory",
    none_inside="no multi-constraint folder (reference/solver.py and a second way) here", fits=multi_constraint,
    claim=claim, timeout=TIMEOUT, timeout_help="seconds per reference run", parallel=True)


def main(argv: list[str] | None = None) -> int:
    return driver.main(KIND, argv)


if __name__ == "__main__":
    sys.exit(main())
