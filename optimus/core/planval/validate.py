"""Read the PDDL with unified-planning, turn the JSON plan into action instances, and validate it.

Each way a plan can be wrong is named: a step that is not an action of the domain, the wrong number of
arguments, an unknown object, a precondition that does not hold (which one, at which step), a goal left unmet.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

MAX_QUOTE = 200


def validate_files(domain: str, problem: str, plan_path: str) -> dict[str, Any]:
    try:
        steps = read_plan(Path(plan_path).read_text())
    except (OSError, ValueError) as exc:
        return verdict(False, None, reason=f"{plan_path}: {exc}")
    try:
        task = read_pddl(domain, problem)
    except PddlError as exc:
        return verdict(False, len(steps), reason=str(exc))
    return validate(task, steps)


class PddlError(Exception):
    pass


class PlanFormatError(ValueError):
    pass


def read_plan(text: str) -> list[tuple[str, list[str]]]:
    """(action, args) per step, lower-cased as PDDL names are."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise PlanFormatError(f"not valid JSON: {exc}") from None
    if isinstance(value, dict):
        if "plan" not in value:
            raise PlanFormatError('the plan file has no "plan" key')
        value = value["plan"]
    if not isinstance(value, list):
        raise PlanFormatError(f"the plan must be a list of steps, found {type(value).__name__}")
    steps = []
    for k, step in enumerate(value, 1):
        if isinstance(step, str):
            words = step.strip().strip("()").replace(",", " ").split()
            step = {"action": words[0] if words else "", "args": words[1:]}
        if not isinstance(step, dict) or not isinstance(step.get("args", []), list):
            raise PlanFormatError(f'step {k} is {str(step)[:MAX_QUOTE]}; each step must be {{"action": NAME, '
                             '"args": [OBJECT, …]}')
        steps.append((str(step.get("action", "")).strip().lower(), [str(a).strip().lower() for a in
                                                                     step.get("args", [])]))
    return steps


def read_pddl(domain: str, problem: str):
    """The pair as Fast Downward reads it (planval.reader); PddlError naming the file that does not read."""
    from .reader import read_pddl as read

    try:
        return read(domain, problem)
    except Exception as exc:  # noqa: BLE001 — pyparsing and UP raise many kinds; each becomes words
        failed = exc
    try:  # the domain alone: so the error names the file it is in (read twice only when something is wrong)
        read(domain)
    except Exception as exc:  # noqa: BLE001
        raise PddlError(parse_error(exc, domain)) from None
    raise PddlError(parse_error(failed, problem)) from None


def parse_error(exc: Exception, path: str) -> str:
    """The reader's complaint, with the offending line of that file quoted when the exception says where."""
    line = getattr(exc, "lineno", None)
    text = " ".join(str(exc).split()) or type(exc).__name__
    if line is None:
        match = re.search(r"line[: ]+(\d+)", text)
        line = int(match.group(1)) if match else None
    said = f"cannot read {Path(path).name} ({type(exc).__name__}: {text[:MAX_QUOTE]})"
    try:
        lines = Path(path).read_text().splitlines()
    except OSError:
        return said
    if line is not None and 0 < line <= len(lines):
        return f"{said}; line {line}: {lines[line - 1].strip()[:MAX_QUOTE]}"
    if line is not None and line > len(lines):
        return f"{said}; the file ends before the expression is closed"
    return said


def validate(task, steps: list[tuple[str, list[str]]]) -> dict[str, Any]:
    from unified_planning.engines import ValidationResultStatus
    from unified_planning.plans import ActionInstance, SequentialPlan
    from unified_planning.shortcuts import PlanValidator, get_environment

    get_environment().credits_stream = None
    actions = {a.name.lower(): a for a in task.actions}
    objects = {o.name.lower(): o for o in task.all_objects}
    instances = []
    for k, (name, args) in enumerate(steps, 1):
        shown = f"{name}({', '.join(args)})"
        if name not in actions:
            return verdict(False, len(steps), k, shown, f"{name!r} is not an action of the domain "
                           f"(actions: {', '.join(sorted(actions))})")
        action = actions[name]
        params = action.parameters
        if len(args) != len(params):
            signature = ", ".join(f"{p.name} - {p.type}" for p in params)
            return verdict(False, len(steps), k, shown, f"{name} takes {len(params)} argument(s) "
                           f"({signature}), given {len(args)}")
        for arg, param in zip(args, params):
            if arg not in objects:
                return verdict(False, len(steps), k, shown, f"{arg!r} is not an object of the problem "
                               f"(objects: {', '.join(sorted(objects))})")
            if not objects[arg].type.is_subtype(param.type):
                return verdict(False, len(steps), k, shown, f"{arg} is a {objects[arg].type}, but {name} takes "
                               f"a {param.type} as {param.name}")
        instances.append(ActionInstance(action, tuple(objects[a] for a in args)))
    plan = SequentialPlan(instances)
    with PlanValidator(problem_kind=task.kind, plan_kind=plan.kind) as validator:
        result = validator.validate(task, plan)
    if result.status == ValidationResultStatus.VALID:
        return verdict(True, len(steps))
    message = " ".join(m.message for m in result.log_messages or []) or str(result.reason)
    if result.inapplicable_action is not None:
        k = len(result.trace) if result.trace else None  # the trace holds the states before the failing step
        shown = f"{steps[k - 1][0]}({', '.join(steps[k - 1][1])})" if k else str(result.inapplicable_action)
        match = re.search(r"Preconditions \[(.*)\] of", message)
        reason = f"unmet precondition ({match.group(1)})" if match else message
        return verdict(False, len(steps), k, shown, reason)
    match = re.search(r"Goals \[(.*)\] are not", message)
    return verdict(False, len(steps), reason=f"goal not reached: {match.group(1)} does not hold after the "
                                             f"last step" if match else message)


def failure(result: dict[str, Any]) -> str:
    """An invalid verdict in words: where the plan fails (its step and action, or the plan as a whole) and why."""
    step = result.get("failing_step")
    where = f"step {step} ({result.get('action')})" if step is not None else "the plan"
    return f"{where}: {result.get('reason') or 'rejected by the validator'}"


def verdict(valid: bool, length: int | None, failing_step: int | None = None, action: str | None = None,
            reason: str | None = None) -> dict[str, Any]:
    return {"valid": valid, "length": length, "failing_step": failing_step, "action": action,
            "reason": reason or ("every precondition holds and the goal is reached" if valid else None)}
