"""Z3: constraint satisfaction and optimisation over logic (CSP), and multi-step planning encoded over a horizon.

The program tracks every assertion under its statement's name (`s4_not_same_day_3`) and captures the model as
model.smt2 (the solver's sexpr()); the harness re-solves that file with Z3 in a fresh sandbox dir, substitutes
solution.json's values into every assertion, and explains unsat by a minimal set of statements. A PLANNING
program reads the horizon T from argv; the harness owns the loop over T (z3_sandbox/horizon.py, run in the same
sandbox call), so the first feasible T is a shortest plan, and checks the plan with planval on the folder's
validate/ PDDL, which the model never sees. (PLANNING folders with a domain.pddl belong to the pddl family.)
A program on the incremental contract (a `Horizon` class, z3_sandbox/incremental.py) is driven on one solver
instead of being run once per T; either way the re-check proves T-1 unsat from its own SMT-LIB.
"""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path
from typing import TYPE_CHECKING

from optimus.core.errors import OptimusError, SpecError
from optimus.core.families import Family, write_verdict
from optimus.core.families.given import check_pddl
from optimus.core.families.z3.judge import judge
from optimus.core.outcomes import FOUND, Execution, Verdict
from optimus.core.problem import inside
from optimus.core.sandbox import Limits, read_result_file
from optimus.core.sandbox.files import take_out

if TYPE_CHECKING:
    from optimus.core.problem import Problem
    from optimus.core.stages.context import Context

HERE = Path(__file__).parent
RUNNER = HERE / "z3_sandbox"
PLANVAL = HERE.parents[1] / "planval"  # optimus/core/planval
DEFAULT_MAX_HORIZON = 12
HORIZON_SHARE = 0.9  # of the run's wall limit, for the horizon loop (the rest: start-up and the files)
RECHECK_BUDGET_S = 60.0
_COPY = shutil.ignore_patterns("__pycache__")


class Z3Family(Family):
    def takes(self, problem: Problem) -> bool:
        return problem.snop.problem_type != "PLANNING" or not (problem.root / "domain.pddl").is_file()

    def found_statuses(self, problem_type: str) -> tuple[str, ...]:
        # a plan: the harness's horizon search writes solution.json, "optimal" for the shortest plan it proved
        # ("feasible" for a plan returned before the proof finished: the harness's word, never the program's);
        # otherwise Optimize's sat, or Solver's when there is no objective
        return ("optimal", "feasible")

    def check_given(self, problem: Problem) -> None:
        if problem.snop.problem_type == "PLANNING" and (files := validate_files(problem.root)):
            check_pddl(*files)  # a plan's validate/*.pddl, the user's

    def prepare(self, ctx: Context, workdir: Path, code: str) -> list[str]:
        (workdir / self.artifact).write_text(code)
        if not planning(ctx):
            return ["python", self.artifact]
        shutil.copytree(RUNNER, workdir / RUNNER.name, ignore=_COPY, dirs_exist_ok=True)
        request = {"program": self.artifact, "max_horizon": max_horizon(ctx.problem),
                   "budget_s": max(1.0, HORIZON_SHARE * ctx.limits.wall_s - 2)}
        (workdir / "horizon_request.json").write_text(json.dumps(request))
        return ["python", "-m", RUNNER.name, "horizon", "horizon_request.json"]

    def recheck(self, ctx: Context, ex: Execution) -> Verdict:
        started = time.monotonic()
        verdict = judge(ctx, ex, run_recheck(ctx, ex))
        verdict.seconds = round(time.monotonic() - started, 4)
        ctx.sandbox_seconds += verdict.seconds
        write_verdict(ex.workdir, verdict)
        return verdict


def planning(ctx: Context) -> bool:
    return ctx.snop.problem_type == "PLANNING"


def max_horizon(problem: Problem) -> int:
    """data.json "max_horizon" when given (read by the harness only), else the default."""
    value = problem.data.get("max_horizon", DEFAULT_MAX_HORIZON)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise SpecError(problem.data_path, "max_horizon", f"must be a non-negative integer, found {value!r}")
    return value


def validate_files(root: Path) -> tuple[Path, Path] | None:
    domain, problem = root / "validate" / "domain.pddl", root / "validate" / "problem.pddl"
    return (inside(root, domain), inside(root, problem)) if domain.is_file() and problem.is_file() else None


def run_recheck(ctx: Context, ex: Execution) -> dict:
    """z3_sandbox's recheck on what the run left, in a fresh sandboxed dir; its result (or {"error"/"absent"})."""
    work = ex.workdir
    if not (work / "model.smt2").exists():
        return {"absent": "model.smt2"}
    job = work / "recheck"
    shutil.rmtree(job, ignore_errors=True)
    job.mkdir()
    shutil.copytree(RUNNER, job / RUNNER.name, ignore=_COPY)
    shutil.copytree(PLANVAL, job / PLANVAL.name, ignore=_COPY)
    try:  # copied with O_NOFOLLOW: a planted symlink must not carry a host file into the sandbox
        for name in ("model.smt2", "solution.json", "output.json", "shorter.smt2"):
            if (work / name).exists() or (work / name).is_symlink():
                (job / name).write_bytes(read_result_file(work, name))
    except OptimusError as exc:
        return {"error": str(exc)}
    budget = max(1.0, min(RECHECK_BUDGET_S, 0.8 * ctx.limits.wall_s))
    request: dict = {"model": "model.smt2", "solution": "solution.json", "budget_s": budget,
                     "shorter": "shorter.smt2" if (job / "shorter.smt2").exists() else None}
    pddl = validate_files(ctx.problem.root) if planning(ctx) else None
    if pddl and (ex.solution or {}).get("status") in ("optimal", "feasible", "infeasible"):
        shutil.copy(pddl[0], job / "domain.pddl")
        shutil.copy(pddl[1], job / "problem.pddl")
        request["plan"] = {"domain": "domain.pddl", "problem": "problem.pddl", "plan": "output.json",
                           "validate": (ex.solution or {}).get("status") in FOUND}  # no plan: only the planner
        request["planner"] = True
    (job / "request.json").write_text(json.dumps(request))
    limits = Limits(wall_s=budget + 20, cpu_s=int(budget) + 20, memory_mb=ctx.limits.memory_mb,
                    file_size_mb=ctx.limits.file_size_mb)
    result = ctx.sandbox.run(["python", "-m", RUNNER.name, "recheck", "request.json", "result.json"], workdir=job,
                             limits=limits)
    take_out(job, RUNNER.name, PLANVAL.name)
    try:
        raw = json.loads(read_result_file(job, "result.json"))
    except (OptimusError, json.JSONDecodeError, UnicodeDecodeError):
        reason = result.killed_by or f"exit code {result.exit_code}"
        return {"error": f"the re-check stopped without a result ({reason}): {(result.stderr or '')[-300:]}"}
    if planning(ctx) and (work / "horizon.json").exists():
        try:
            raw["horizon"] = json.loads(read_result_file(work, "horizon.json"))
        except (OptimusError, json.JSONDecodeError, UnicodeDecodeError):
            raw["horizon"] = None
    raw["validated"] = pddl is not None
    return raw


FAMILY = Z3Family("z3", "constraint satisfaction or optimisation over logic (Z3: Booleans, integers, reals, "
                  "if-then-else, all-different), and multi-step planning encoded over a horizon of T steps",
                  problem_types=("CSP", "PLANNING"), sandbox_side=(RUNNER.name,))
