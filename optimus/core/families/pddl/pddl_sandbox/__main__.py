"""python -m pddl_sandbox request.json: the harness's own run of a planning problem, in the sandbox.

Read domain.pddl and problem.pddl with Fast Downward's own translator (planval.translator: what it reads, we
read; when it refuses, our checks name the line in words), plan with Fast Downward's driver on the same files
(or, in direct mode, take the model's plan.json), validate the plan on the translator's task (planval, never
the planner's word), and write output.json and solution.json. A problem file that does not read, and a plan
that does not validate, end the run with exit 1 and the quoted error on stderr: evidence for the repair. A
planner that runs out of time is no error of the file: status time_limit, exit 0. The harness's re-check
validates again in a fresh sandbox (optimus.core.families.pddl.recheck_plan).
Imports nothing from optimus; the harness copies this package (and planval) into the work dir.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from planval.planner import plan as fast_downward
from planval.translator import TranslatorError, lisp, read_pair, relaxed_unreachable_goals
from planval.validate import PlanFormatError, failure, read_plan
from planval.validate import validate as planval

from .check import problem_errors, quote_line
from .reach import unreachable
from .sexpr import PddlSyntaxError, read_domain, read_problem

DOMAIN, PROBLEM, PLAN = "domain.pddl", "problem.pddl", "plan.json"
OPTIMAL_SHARE = 0.7  # of the time, for A*; lama-first gets the rest when A* runs out
READ_AS = ("translated-domain.pddl", "translated-problem.pddl")  # the pair with an older planner's fix applied


def main(argv: list[str]) -> int:
    request = json.loads(Path(argv[1]).read_text())
    try:
        reading = read_pair(DOMAIN, PROBLEM)
    except TranslatorError as exc:
        return fail(explain(str(exc)))
    for warning in reading.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    files = (DOMAIN, PROBLEM)
    if reading.warnings:  # the planner gets the pair as the translator read it, fixes applied
        for name, nested in zip(READ_AS, (reading.domain, reading.problem)):
            Path(name).write_text(lisp(nested) + "\n")
        files = READ_AS
    if request.get("mode") == "direct":
        plan, error = _direct_plan(Path(PLAN), {a.name for a in reading.task.actions})
        if error:
            return fail([error])
        status, found = "feasible", {}
        write(PLAN, {"plan": plan})  # planval's form, the model's spelling normalised
    else:
        found = plan_with_fast_downward(files, bool(request.get("optimal")), float(request.get("timeout", 60)))
        status, plan = found["status"], found["plan"]
        if plan is None:
            return no_plan(status, found, reading)
        write(PLAN, {"plan": plan})
    verdict = validate(reading)
    if not verdict.get("valid"):
        return fail([f"The plan is not valid: {failure(verdict)}"])
    write("output.json", {"plan": plan, "length": len(plan), "optimal": status == "optimal"})
    write("solution.json", {"status": status, "objective": len(plan), "validated": True,
                            **({"warnings": reading.warnings} if reading.warnings else {}),
                            **({"shortest": found["shortest"]} if found.get("shortest") else {})})
    return 0


def plan_with_fast_downward(files: tuple[str, str], optimal: bool, timeout: float) -> dict:
    """A shortest plan (A* with LM-cut) when asked, in OPTIMAL_SHARE of the time; when A* runs out of it,
    lama-first's plan in the rest, said to be not proven shortest (status feasible) — a plan, not an error."""
    started = time.monotonic()
    found = fast_downward(*files, optimal=optimal, timeout=OPTIMAL_SHARE * timeout if optimal else timeout)
    left = timeout - (time.monotonic() - started)
    if optimal and found["status"] in ("time_limit", "memory_limit") and left > 1:
        quick = fast_downward(*files, optimal=False, timeout=left)
        if quick["plan"] is not None:
            spent = round(time.monotonic() - started - (timeout - left), 1)
            return {**quick, "shortest": f"not proven: A* with LM-cut stopped at its limit ({found['status']}); "
                                         f"this plan is lama-first's ({spent} s)"}
    return found


def explain(said: str) -> list[str]:
    """The translator's refusal; about the problem file, our check's words first when it finds the mistakes
    (each named with its line). The domain is checked before any model call, so its errors are said as such."""
    if f"cannot read {DOMAIN}" in said:
        return [f"{DOMAIN} (given, not yours to change) does not read: {said}"]
    text = Path(PROBLEM).read_text(encoding="latin-1")
    try:
        domain, problem = read_domain(Path(DOMAIN).read_text(encoding="latin-1")), read_problem(text)
    except PddlSyntaxError as exc:
        return [f"{PROBLEM} is not valid PDDL: {exc}{quote_line(text.splitlines(), exc.line)}"]
    errors = problem_errors(domain, problem, text.splitlines())
    if problem.domain and domain.name and problem.domain != domain.name:
        errors.insert(0, f"{PROBLEM} names domain {problem.domain}, but the domain is {domain.name}")
    return [*errors, said] if errors else [said]


def no_plan(status: str, found: dict, reading) -> int:
    """No plan: why, when the relaxed check can say (no plan exists); the planner's log when it failed. Which
    goal atoms are unreachable is Fast Downward's relaxed exploration's word; the facts behind them, ours."""
    why, warnings = None, reading.warnings
    if status == "infeasible":
        theirs = relaxed_unreachable_goals(reading.task)
        try:
            why = unreachable(read_domain(Path(DOMAIN).read_text(encoding="latin-1")),
                              read_problem(Path(PROBLEM).read_text(encoding="latin-1")), theirs)
        except Exception:  # noqa: BLE001 — an explanation only: the translator's reading and the planner stand
            why = None if not theirs else {"checked": True, "unreachable_goals": theirs, "missing": {},
                                           "message": f"These goal facts can never become true from the initial "
                                                      f"state: {', '.join(theirs)}."}
    write("output.json", {"plan": [], "length": None, "optimal": False})
    write("solution.json", {"status": status, "objective": None, "unreachable": why,
                            **({"warnings": warnings} if warnings else {})})
    if status == "time_limit":
        print("Fast Downward ran out of time before it found a plan (the planner's limit, not an error in "
              "problem.pddl).", file=sys.stderr)
    if status == "error":
        print(f"Fast Downward failed on the problem:\n{found.get('log', '')}", file=sys.stderr)
        return 1
    return 0


def _direct_plan(path: Path, actions: set[str]) -> tuple[list | None, str | None]:
    """The model's plan, read as planval reads it: a JSON list of {"action", "args"} or of "(action arg …)"
    strings (or {"plan": …}); each action must be the domain's."""
    try:
        steps = read_plan(path.read_text())
    except (OSError, PlanFormatError) as exc:
        return None, f"plan.json: {exc}"
    for k, (action, _) in enumerate(steps, 1):
        if action not in actions:
            return None, f"step {k}: {action!r} is not an action of the domain (actions: {', '.join(sorted(actions))})"
    return [{"action": action, "args": args} for action, args in steps], None


def validate(reading) -> dict:
    """planval's verdict on plan.json against the pair as the translator read it (kept as validation.json)."""
    try:
        verdict = planval(reading, read_plan(Path(PLAN).read_text()))
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
