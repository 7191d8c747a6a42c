"""The benchmark's verdict on a run, independent of what the loop itself concluded.

Executed: the final solver.py ran and wrote an output.json that parses (the paper's execution rate).
Success, when the expected status is optimal: the status is reached, the objective matches expected.json
(within the label's written precision, `abs_tol`) and the problem's own supervised tests pass on the final
output (run by the same harness, sandboxed). A label without an objective (`"objective": null`, e.g. a public
problem without obj.txt) is judged by status and tests alone; a problem without tests of its own by status and
objective alone; with neither there is nothing to verify against, and the row is no success. When the expected
status is infeasible or unbounded, the status alone decides. A MILP its time limit stopped with a solution
(status time_limit, with bound and gap) is an answer with a gap, not an error: "feasible within gap" when the known
optimum lies between its bound and its objective (the gap it claims is honest), never a success.
"""

from __future__ import annotations

import shutil
from dataclasses import asdict, dataclass
from pathlib import Path

from optimus.bench.groundtruth import lp as groundtruth
from optimus.core import families
from optimus.core.consensus import chosen_run_dir
from optimus.core.outcomes import Execution
from optimus.core.problem import Problem
from optimus.core.report import ABS_TOL, REL_TOL, label_abs_tol, objective_matches
from optimus.core.runstore import attempts
from optimus.core.sandbox import Limits
from optimus.core.sandbox.base import Backend as SandboxBackend
from optimus.core.sandbox.files import read_object
from optimus.core.stages.testrun import TestOutcome, run_tests
from optimus.core.terminal import gap_words


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
    gap: float | None = None  # status time_limit: the relative gap the program reported
    within_gap: bool | None = None  # status time_limit: the known optimum lies between its bound and objective

    def to_dict(self) -> dict:
        return asdict(self)


def supervised_tests(problem: Problem) -> dict[str, str]:
    """The problem's own test modules, as `optimus solve` takes them: a tests/test_generated.py the folder holds
    is the user's now (generated once, perhaps edited), so it judges too."""
    return {p.name: p.read_text() for p in problem.test_files()}


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
    ex = executed(attempt)  # read once: the verdict and the tests both use it
    solution = ex.solution or {}
    v.executed = ex.output is not None
    v.status, v.objective = solution.get("status"), solution.get("objective")
    want = expected.get("status", "optimal")
    # Planning is judged as LLM+P does: a valid plan (its tests pass) succeeds; its length against the optimum
    # is objective_match, reported beside success as the optimal-length rate.
    planning = problem.snop.problem_type == "PLANNING"
    if not v.executed:
        v.reason = "no output.json that parses"
    elif want != "optimal":
        v.success = v.status == want
        v.reason = "" if v.success else f"status {v.status}, expected {want}"
    elif v.status == "time_limit" and v.objective is not None:
        judge_gap(v, solution, expected, rel, abs_tol)
    elif v.status != "optimal" and not (v.status == "feasible" and planning):
        v.reason = f"status {v.status}, expected optimal"
    else:
        want_objective = expected.get("objective")
        if want_objective is not None:
            v.objective_match = objective_matches(v.objective, want_objective, rel, label_abs_tol(expected, abs_tol))
            if not v.objective_match and not planning:  # a failure already: the tests would not change the verdict
                v.reason = f"objective {v.objective}, expected {want_objective}"
                return v
        tests = supervised_tests(problem) if tests is None else tests
        if not tests and passed is None:
            v.success = want_objective is not None
            v.reason = "" if v.success else "nothing to verify against: no expected objective and no supervised tests"
            return v
        outcome = (
            passed
            if passed is not None and passed.ok
            else _run_tests(problem, ex, sandbox, limits, evaldir, tests)
        )
        v.tests_passed, v.tests_failed = outcome.passed, outcome.failed
        v.success = outcome.ok
        if not outcome.ok:
            first = outcome.broken or (outcome.failures[0] if outcome.failures else "no tests")
            v.reason = f"supervised tests: {outcome.failed} failed — {first.splitlines()[0][:160]}"
    return v


def judge_gap(v: Verdict, solution: dict, expected: dict, rel: float, abs_tol: float) -> None:
    """An answer with a gap: within it when the known optimum lies between the reported bound and objective."""
    bound, v.gap = solution.get("bound"), solution.get("gap")
    words = gap_words(v.gap)
    want = expected.get("objective")
    if not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in (v.objective, bound)):
        v.reason = f"{words}, but no bound to check it by"
        return
    if want is None:
        v.reason = f"{words}; no expected objective to check it by"
        return
    tol = max(rel * abs(float(want)), label_abs_tol(expected, abs_tol))
    low, high = sorted((float(bound), float(v.objective)))
    v.within_gap = low - tol <= float(want) <= high + tol
    v.reason = words if v.within_gap else f"{words}, but expected {want} lies outside [{low:g}, {high:g}]"


RIGHT, RIGHT_UNDER, WITHIN_GAP, WRONG = "right", "right under a named assumption", "feasible within gap", "wrong"


def rightness(verdict: Verdict, expected: dict, checks: list[dict] | None, rel: float = REL_TOL,
              abs_tol: float = ABS_TOL) -> tuple[str, str | None]:
    """right (a success), right under a named assumption (the expected objective is the answer under one of the
    assumption checks' alternatives, optimus.commands.assumption_checks), or wrong; and that assumption."""
    if verdict.success:
        return RIGHT, None
    if verdict.within_gap:
        return WITHIN_GAP, None
    want = expected.get("objective")
    if want is None or expected.get("status", "optimal") != "optimal":
        return WRONG, None
    tol = label_abs_tol(expected, abs_tol)
    for c in checks or []:
        if c.get("checked") and c.get("status") == "solved" and objective_matches(c.get("objective"), want, rel, tol):
            return RIGHT_UNDER, f"({c['assumption']}) {c['about']}: {c['alternative']}"
    return WRONG, None


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
    tests: dict[str, str],
) -> TestOutcome:
    if not tests:
        return TestOutcome(broken="the problem has no supervised tests")
    if evaldir.exists():
        shutil.rmtree(evaldir)
    family = family_of(problem)
    return run_tests(sandbox, limits, problem.data_path, tests, ex, evaldir, family.conftest(),
                     family.test_files(ex.workdir))


def family_of(problem: Problem) -> families.Family:
    """The problem's family; pulp where the SNOP leaves it to formulate (the reference answers with solver.py)."""
    return families.choose(problem) or families.load("pulp")


def final_attempt(run_dir: Path) -> Path | None:
    """The folder of the run's last executed program: the last attempt of the last variant tried — of the chosen
    sample when the run took several (optimus.core.consensus)."""
    found = attempts(chosen_run_dir(run_dir))
    return found[-1] if found else None


def ground_truth(folder: Path, timeout: float = groundtruth.TIMEOUT) -> tuple[dict | None, str]:
    """expected.json, or — when the folder has none — computed now from the reference solver cross-checked
    by two solvers (optimus.bench.groundtruth.lp) and written into `folder` (a bench copy, never the original).
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
