"""PDDL: classical planning the LLM+P way. The model writes only problem.pddl (objects, initial state, goal)
for the domain.pddl an expert wrote; Fast Downward's translator reads the pair (what it reads, optimus reads);
Fast Downward searches; the harness validates the plan (planval), never taking the planner's word. Parse errors, unknown names and unreachable goals come back as evidence, each
quoted with its line or named by its facts.

A planning folder: domain.pddl (given, never generated), a SNOP with problem_type PLANNING and solver pddl, an
optional example/ (problem.nl or snop.json, and problem.pddl) shown as the one demonstration, and
reference/problem.pddl (known good; also the problem the plans of `--mode direct` are validated against).
"""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path
from typing import TYPE_CHECKING

from optimus.core.errors import ConfigError, OptimusError, SpecError
from optimus.core.families import Family, write_verdict
from optimus.core.families.given import check_pddl
from optimus.core.families.pddl.pddl_sandbox.sexpr import Domain, PddlSyntaxError, read_domain, typed
from optimus.core.outcomes import FOUND, Execution, Verdict
from optimus.core.planval.validate import failure
from optimus.core.problem import inside
from optimus.core.sandbox import Limits, read_result_file
from optimus.core.sandbox.files import take_out
from optimus.core.snop import objective_sense

if TYPE_CHECKING:
    from optimus.core.problem import Problem
    from optimus.core.stages.context import Context

HERE = Path(__file__).parent
RUNNER = HERE / "pddl_sandbox"
PLANVAL = HERE.parents[1] / "planval"  # optimus/core/planval
CONFTEST = HERE / "pddl_conftest.py"
VALIDATE_BUDGET_S = 60.0
_COPY = shutil.ignore_patterns("__pycache__")


class PddlFamily(Family):
    def takes(self, problem: Problem) -> bool:
        return (problem.root / "domain.pddl").is_file()

    def found_statuses(self, problem_type: str) -> tuple[str, ...]:
        return ("optimal", "feasible")  # Fast Downward's A* with LM-cut under --optimal; lama-first's plan

    def check_given(self, problem: Problem) -> None:
        load_domain(problem.root)  # missing, or our reader names the line
        check_pddl(inside(problem.root, problem.root / "domain.pddl"))

    def prompt_values(self, ctx: Context) -> dict[str, str]:
        domain = load_domain(ctx.problem.root)
        return {"domain_name": domain.name, "predicates": "\n".join(domain.signatures()),
                "actions": "\n".join(action_signatures(domain)), "example": example(ctx.problem.root)}

    def conftest(self) -> Path:
        return CONFTEST

    def test_files(self, workdir: Path) -> dict[str, Path]:
        return {"problem.pddl": workdir / "problem.pddl", "domain.pddl": workdir / "domain.pddl",
                "pddl_sexpr.py": RUNNER / "sexpr.py"}

    def prepare(self, ctx: Context, workdir: Path, code: str) -> list[str]:
        root = ctx.problem.root
        shutil.copy(inside(root, root / "domain.pddl"), workdir / "domain.pddl")
        if ctx.mode == "direct":  # LLM-as-planner: the model's plan, against the expert's problem file
            given = root / "reference" / "problem.pddl"
            if not given.is_file():
                raise ConfigError(f"{given}: --mode direct validates the model's plan against this file; "
                                  "there is none")
            shutil.copy(inside(root, given), workdir / "problem.pddl")
            (workdir / "plan.json").write_text(code)
        else:
            (workdir / "problem.pddl").write_text(code)
        for package in (RUNNER, PLANVAL):
            shutil.copytree(package, workdir / package.name, ignore=_COPY, dirs_exist_ok=True)
        # the shortest plan when the folder asks for it (its objective minimises), not a satisficing one
        # whose extra steps would read as a mistake in the problem file
        shortest = ctx.optimal or objective_sense(ctx.snop.objective) == "min"
        request = {"mode": "direct" if ctx.mode == "direct" else "plan", "optimal": shortest,
                   "timeout": max(1.0, 0.8 * ctx.limits.wall_s)}
        (workdir / "request.json").write_text(json.dumps(request))
        return ["python", "-m", RUNNER.name, "request.json"]

    def no_solution_hint(self, status: str, known: bool = True) -> str:
        if status == "time_limit":
            return ("Fast Downward ran out of time before it found any plan: the planner's limit, not an error "
                    "shown in problem.pddl. Change the file only where it misses or contradicts a statement "
                    "(objects or facts the statements do not give only make the search larger).")
        why = "the problem is expected to have one" if known else "nothing has proven that the problem has none"
        return (f"The planner found no plan ({status}), but {why}. LLM+P's most "
                "common cause is a missing or wrong initial fact: re-check the initial facts the goal depends on.")

    def recheck(self, ctx: Context, ex: Execution) -> Verdict:
        verdict = recheck_plan(ctx, ex)
        ctx.sandbox_seconds += verdict.seconds
        write_verdict(ex.workdir, verdict)
        return verdict


def recheck_plan(ctx: Context, ex: Execution) -> Verdict:
    """A found plan: planval again, in a fresh sandbox dir, on the domain from the folder and the problem file
    and plan the run left — so a solution.json that claims a plan never stands on the run's word. No plan: the
    run's delete-relaxed reachability check explains why (said to be the run's)."""

    started = time.monotonic()
    claimed = ex.solution or {}
    status = claimed.get("status")
    if status not in FOUND:
        why = claimed.get("unreachable") or {}
        if status != "infeasible":
            return Verdict("skipped", f"no plan to validate (status {status})", claimed=claimed)
        proven = bool(why.get("unreachable_goals"))
        summary = ("the relaxed reachability check confirms it: goal facts "
                   f"{', '.join(why['unreachable_goals'])} can never hold" if proven else
                   "no plan exists, says the planner; the relaxed reachability check cannot confirm which goal fails")
        return Verdict("agrees" if proven else "unconfirmed", summary, claimed=claimed,
                       diagnosis={"message": why.get("message", ""), **why} if why else None)
    plan = (ex.output or {}).get("plan")
    job = ex.workdir / "recheck"
    shutil.rmtree(job, ignore_errors=True)
    job.mkdir()
    try:
        (job / "problem.pddl").write_bytes(read_result_file(ex.workdir, "problem.pddl"))
    except OptimusError as exc:
        return Verdict("error", f"the problem file could not be read back: {exc}", claimed=claimed)
    shutil.copy(inside(ctx.problem.root, ctx.problem.root / "domain.pddl"), job / "domain.pddl")
    shutil.copytree(PLANVAL, job / PLANVAL.name, ignore=_COPY)
    (job / "plan.json").write_text(json.dumps({"plan": plan}))
    budget = max(1.0, min(VALIDATE_BUDGET_S, 0.8 * ctx.limits.wall_s))
    limits = Limits(wall_s=budget, cpu_s=int(budget), memory_mb=ctx.limits.memory_mb)
    result = ctx.sandbox.run(["python", "-m", PLANVAL.name, "domain.pddl", "problem.pddl", "plan.json",
                              "result.json"], workdir=job, limits=limits)
    take_out(job, PLANVAL.name)
    seconds = round(time.monotonic() - started, 4)
    try:
        found = json.loads(read_result_file(job, "result.json"))
    except (OptimusError, json.JSONDecodeError, UnicodeDecodeError):
        return Verdict("error", f"the validator stopped without a verdict ({result.killed_by or result.exit_code}):"
                                f" {(result.stderr or '')[-300:]}", claimed=claimed, seconds=seconds)
    findings = []
    if not found.get("valid"):
        findings.append(f"the plan in output.json is not valid: {failure(found)}")
    elif claimed.get("objective") != found.get("length"):
        findings.append(f"solution.json gives objective {claimed.get('objective')!r}, but the validated plan has "
                        f"{found.get('length')} steps")
    if findings:
        return Verdict("disagrees", f"re-validation disagrees: {findings[0]}", findings, claimed, seconds=seconds)
    read_as = "".join(f"; warning: {w}" for w in found.get("warnings") or [])
    return Verdict("agrees", f"planval re-validated the plan: {found.get('length')} steps, every precondition "
                             f"holds and the goal is reached{read_as}", claimed=claimed, seconds=seconds)


def load_domain(root: Path) -> Domain:
    path = root / "domain.pddl"
    if not path.is_file():
        raise SpecError(path, "", "a planning problem needs the domain file (written by you, never generated)")
    try:
        return read_domain(inside(root, path).read_text())
    except PddlSyntaxError as exc:
        raise SpecError(path, "", str(exc)) from None


def action_signatures(domain: Domain) -> list[str]:
    out = []
    for name, action in domain.actions.items():
        parts = dict(zip(action[2::2], action[3::2]))
        params = "".join(f" {v} - {t}" for v, t in typed(parts.get(":parameters", [])))
        out.append(f"({name}{params})")
    return out


def example(root: Path) -> str:
    """The one demonstration: example/problem.nl (or example/snop.json's statements) and its problem.pddl."""
    folder = root / "example"
    pddl = folder / "problem.pddl"
    if not pddl.is_file():
        return "(no example for this domain)"
    words = ""
    if (folder / "problem.nl").is_file():
        words = inside(root, folder / "problem.nl").read_text().strip()
    elif (folder / "snop.json").is_file():
        try:
            snop = json.loads(inside(root, folder / "snop.json").read_text())
        except json.JSONDecodeError as exc:
            raise SpecError(folder / "snop.json", "", f"not valid JSON: {exc}") from None
        words = "\n".join(f"(s{i}) {s}" for i, s in enumerate(snop.get("problem_info") or [], 1))
    return f"A problem in words:\n{words}\n\nIts problem file:\n```pddl\n{inside(root, pddl).read_text().strip()}\n```"


FAMILY = PddlFamily("pddl", "classical planning: the model writes the PDDL problem file (objects, initial "
                    "state, goal) for the given domain.pddl; Fast Downward finds the plan",
                    problem_types=("PLANNING",), artifact="problem.pddl", lang="pddl",
                    sandbox_side=(RUNNER.name, PLANVAL.name))
