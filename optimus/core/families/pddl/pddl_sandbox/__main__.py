"""python -m pddl_sandbox request.json: the harness's own run of a planning problem, in the sandbox.

Parse problem.pddl against domain.pddl (our checks name the line; unified-planning's reader is the judge),
plan with Fast Downward (or, in direct mode, take the model's plan.json), validate the plan with `planval`
(never the planner's word), and write output.json and solution.json. A problem file that does not parse, and a
plan that does not validate, end the run with exit 1 and the quoted error on stderr: evidence for the repair.
unified-planning starts once per run (planval.up_start): the reader, the planner and planval share it; the
harness's re-check validates again in a fresh sandbox (optimus.core.families.pddl.recheck_plan).
Imports nothing from optimus; the harness copies this package (and planval) into the work dir.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from planval.validate import PlanFormatError, failure, read_plan
from planval.validate import validate as planval

from .check import problem_errors, quote_line
from .reach import unreachable
from .sexpr import PddlSyntaxError, read_domain, read_problem

DOMAIN, PROBLEM, PLAN = "domain.pddl", "problem.pddl", "plan.json"
_LINE = re.compile(r"line:?\s*(\d+)", re.IGNORECASE)


def main(argv: list[str]) -> int:
    request = json.loads(Path(argv[1]).read_text())
    domain_text, problem_text = Path(DOMAIN).read_text(), Path(PROBLEM).read_text()
    lines = problem_text.splitlines()
    try:
        domain = read_domain(domain_text)
    except PddlSyntaxError as exc:
        return fail([f"domain.pddl (given, not yours to change) does not parse: {exc}"])
    try:
        problem = read_problem(problem_text)
    except PddlSyntaxError as exc:
        return fail([f"problem.pddl is not valid PDDL: {exc}{quote_line(lines, exc.line)}"])
    errors = problem_errors(domain, problem, lines)
    if problem.domain and domain.name and problem.domain != domain.name:
        errors.insert(0, f"problem.pddl names domain {problem.domain}, but the domain is {domain.name}")
    if errors:
        return fail(errors)
    up_problem, error = _read_up(lines)
    if error:
        return fail([error])
    if request.get("mode") == "direct":
        plan, error = _direct_plan(Path(PLAN), domain)
        if error:
            return fail([error])
        status, optimal = "feasible", False
        write(PLAN, {"plan": plan})  # planval's form, the model's spelling normalised
    else:
        status, plan = _plan(up_problem, bool(request.get("optimal")), float(request.get("timeout", 60)))
        optimal = status == "optimal"
        if plan is None:
            why = unreachable(domain, problem) if status == "infeasible" else None
            write("output.json", {"plan": [], "length": None, "optimal": False})
            write("solution.json", {"status": status, "objective": None, "unreachable": why})
            if status == "error":
                print("Fast Downward failed on the problem (see its log above).", file=sys.stderr)
                return 1
            return 0
        write(PLAN, {"plan": plan})
    verdict = validate(up_problem)
    if not verdict.get("valid"):
        return fail([f"The plan is not valid: {failure(verdict)}"])
    write("output.json", {"plan": plan, "length": len(plan), "optimal": optimal})
    write("solution.json", {"status": status, "objective": len(plan), "validated": True})
    return 0


def _read_up(lines: list[str]):
    """unified-planning's reading of the pair, as Fast Downward reads it: the problem object, or the quoted error."""
    from planval.reader import read_pddl
    from planval.up_start import start_unified_planning

    start_unified_planning()  # outside the try: a broken install is no error of problem.pddl
    try:
        return read_pddl(DOMAIN, PROBLEM), None
    except Exception as exc:  # noqa: BLE001 — the reader raises many kinds; each is evidence, quoted with its line
        failed = exc
    try:  # the domain alone: checked before any model call, so failing here means this reader differs
        read_pddl(DOMAIN)
    except Exception as exc:  # noqa: BLE001
        return None, f"domain.pddl (given, not yours to change) does not parse: {type(exc).__name__}: {exc}"
    text = str(failed).strip() or type(failed).__name__
    match = _LINE.search(text)
    quote = quote_line(lines, int(match.group(1))) if match else ""
    return None, f"problem.pddl does not parse (unified-planning: {type(failed).__name__}): {text}{quote}"


def _plan(problem, optimal: bool, timeout: float) -> tuple[str, list | None]:
    """Fast Downward: lama-first, or A* with LM-cut when an optimal plan is asked. Its status, normalised."""
    from unified_planning.engines import PlanGenerationResultStatus as S
    from unified_planning.model.metrics import MinimizeSequentialPlanLength
    from unified_planning.shortcuts import OneshotPlanner

    if optimal and not problem.quality_metrics:
        # The opt engine calls a plan optimal only when the problem states what is minimised (on a copy: the
        # problem as read is what planval validates against).
        problem = problem.clone()
        problem.add_quality_metric(MinimizeSequentialPlanLength())
    with OneshotPlanner(name="fast-downward-opt" if optimal else "fast-downward") as planner:
        result = planner.solve(problem, timeout=timeout)
    status = {S.SOLVED_OPTIMALLY: "optimal", S.SOLVED_SATISFICING: "feasible",
              S.UNSOLVABLE_PROVEN: "infeasible", S.UNSOLVABLE_INCOMPLETELY: "infeasible",
              S.TIMEOUT: "time_limit"}.get(result.status, "error")
    if status in ("error", "time_limit") and result.log_messages:
        print("\n".join(log.message for log in result.log_messages)[-1500:], file=sys.stderr)
    if result.plan is None:
        return status, None
    steps = [{"action": a.action.name, "args": [str(p) for p in a.actual_parameters]} for a in result.plan.actions]
    return status, steps


def _direct_plan(path: Path, domain) -> tuple[list | None, str | None]:
    """The model's plan, read as planval reads it: a JSON list of {"action", "args"} or of "(action arg …)"
    strings (or {"plan": …}); each action must be the domain's."""
    try:
        steps = read_plan(path.read_text())
    except (OSError, PlanFormatError) as exc:
        return None, f"plan.json: {exc}"
    for k, (action, _) in enumerate(steps, 1):
        if action not in domain.actions:
            return None, f"step {k}: {action!r} is not an action of the domain (actions: {', '.join(domain.actions)})"
    return [{"action": action, "args": args} for action, args in steps], None


def validate(up_problem) -> dict:
    """planval's verdict on plan.json against the pair as unified-planning read it (kept as validation.json).
    In this process: a process of its own would start unified-planning a second time for the same verdict."""
    try:
        verdict = planval(up_problem, read_plan(Path(PLAN).read_text()))
    except PlanFormatError as exc:
        verdict = {"valid": False, "reason": f"{PLAN}: {exc}"}
    except Exception as exc:  # noqa: BLE001 — the verdict must exist whatever went wrong, as planval's own CLI
        verdict = {"valid": False, "reason": f"the validator failed: {type(exc).__name__}: {exc}"}
    write("validation.json", verdict)
    return verdict


def fail(errors: list[str]) -> int:
    write("solution.json", {"status": "error", "objective": None})
    print("\n".join(errors), file=sys.stderr)
    return 1


def write(name: str, value) -> None:
    Path(name).write_text(json.dumps(value, indent=2) + "\n")


if __name__ == "__main__":
    sys.exit(main(sys.argv))
