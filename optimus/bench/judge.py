"""The benchmark's verdict on a run, independent of what the loop itself concluded.

Executed: the final solver.py ran and wrote an output.json that parses (the paper's execution rate).
Success: the problem's own supervised tests pass on the final output (run by the same harness, sandboxed)
and the objective matches expected.json; when the expected status is infeasible or unbounded, the
status alone decides.
"""

from __future__ import annotations

import shutil
from dataclasses import asdict, dataclass
from pathlib import Path

from optimus import groundtruth
from optimus.problem import Problem
from optimus.report import ABS_TOL, REL_TOL, objective_matches
from optimus.runstore import attempts
from optimus.sandbox import Limits
from optimus.sandbox.base import Backend as SandboxBackend
from optimus.stages.execute import Execution, read_object
from optimus.stages.testgen import GENERATED
from optimus.stages.testrun import TestOutcome, run_tests


@dataclass
class Verdict:
    executed: bool = False
    success: bool = False
    status: str | None = None
    objective: float | None = None
    objective_match: bool | None = None
    tests_passed: int = 0
    tests_failed: int = 0
    reason: str = ""  # why it is not a success ("" when it is)

    def to_dict(self) -> dict:
        return asdict(self)


def supervised_tests(problem: Problem) -> dict[str, str]:
    """The problem's own test modules (never the generated one)."""
    return {p.name: p.read_text() for p in problem.test_files() if p.name != GENERATED}


def judge(
    problem: Problem,
    expected: dict,
    attempt: Path | None,
    sandbox: SandboxBackend,
    limits: Limits,
    evaldir: Path,
    rel: float = REL_TOL,
    abs_tol: float = ABS_TOL,
    tests: dict[str, str] | None = None,
    passed: TestOutcome | None = None,
) -> Verdict:
    """Judge the program run in `attempt` (a folder holding its output.json and solution.json).

    `passed`: the loop's own passing run of these very tests on this very output (supervised mode), which
    need not be run again."""
    v = Verdict()
    if attempt is None:
        v.reason = "no program ran"
        return v
    output = read_object(attempt, "output.json")[0]
    solution = read_object(attempt, "solution.json")[0] or {}
    v.executed = output is not None
    v.status, v.objective = solution.get("status"), solution.get("objective")
    want = expected.get("status", "optimal")
    if not v.executed:
        v.reason = "no output.json that parses"
    elif want != "optimal":
        v.success = v.status == want
        v.reason = "" if v.success else f"status {v.status}, expected {want}"
    elif v.status != "optimal":
        v.reason = f"status {v.status}, expected optimal"
    else:
        v.objective_match = objective_matches(v.objective, expected["objective"], rel, abs_tol)
        if not v.objective_match:  # a failure already: the tests would not change the verdict
            v.reason = f"objective {v.objective}, expected {expected['objective']}"
            return v
        outcome = (
            passed
            if passed is not None and passed.ok
            else _run_tests(problem, executed(attempt), sandbox, limits, evaldir, tests)
        )
        v.tests_passed, v.tests_failed = outcome.passed, outcome.failed
        v.success = outcome.ok
        if not outcome.ok:
            first = outcome.broken or (outcome.failures[0] if outcome.failures else "no tests")
            v.reason = f"supervised tests: {outcome.failed} failed — {first.splitlines()[0][:160]}"
    return v


def executed(attempt: Path) -> Execution:
    """What run_tests needs of a run: its folder and the output.json and solution.json it left (read safely)."""
    return Execution(
        attempt,
        None,
        read_object(attempt, "output.json")[0],
        read_object(attempt, "solution.json")[0],
    )


def _run_tests(
    problem: Problem,
    ex: Execution,
    sandbox: SandboxBackend,
    limits: Limits,
    evaldir: Path,
    tests: dict[str, str] | None,
) -> TestOutcome:
    tests = supervised_tests(problem) if tests is None else tests
    if not tests:
        return TestOutcome(broken="the problem has no supervised tests")
    if evaldir.exists():
        shutil.rmtree(evaldir)
    return run_tests(sandbox, limits, problem.data_path, tests, ex, evaldir)


def final_attempt(run_dir: Path) -> Path | None:
    """The folder of the run's last executed program: the last attempt of the last variant tried."""
    found = attempts(run_dir)
    return found[-1] if found else None


def ground_truth(folder: Path, timeout: float = groundtruth.TIMEOUT) -> tuple[dict | None, str]:
    """expected.json, or — when the folder has none — computed now from the reference solver cross-checked
    by two solvers (optimus.groundtruth) and written into `folder` (a bench copy, never the original).
    Returns (expected, where it came from or why there is none)."""
    path = folder / "expected.json"
    if path.exists():
        return read_object(folder, "expected.json")[0], "expected.json"
    if not (folder / "reference" / "solver.py").exists():
        return None, "no expected.json and no reference/solver.py to compute it"
    result = groundtruth.check(folder, write=True, timeout=timeout)
    if not result.agree:
        return None, "reference solvers disagree: " + "; ".join(result.problems)
    return result.expected, f"computed ({result.primary['solver']} and {result.secondary['solver']} agree)"
