"""Read the PDDL with Fast Downward's translator (planval.translator), turn the JSON plan into steps, and
validate it on the translator's task (planval.semantics).

Each way a plan can be wrong is named: a step that is not an action of the domain, the wrong number of
arguments, an unknown object, a precondition that does not hold (which one, at which step), a goal left unmet.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

MAX_QUOTE = 200


def validate_files(domain: str, problem: str, plan_path: str) -> dict[str, Any]:
    try:
        steps = read_plan(Path(plan_path).read_text())
    except (OSError, ValueError) as exc:
        return verdict(False, None, reason=f"{plan_path}: {exc}")
    try:
        reading = read_pddl(domain, problem)
    except PddlError as exc:
        return verdict(False, len(steps), reason=str(exc))
    return {**validate(reading, steps), **({"warnings": reading.warnings} if reading.warnings else {})}


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
    """The pair as Fast Downward's translator reads it (planval.translator.Reading); PddlError naming the file
    and line it refuses."""
    from .translator import TranslatorError, read_pair

    try:
        return read_pair(domain, problem)
    except TranslatorError as exc:
        raise PddlError(str(exc)) from None


def validate(reading, steps: list[tuple[str, list[str]]]) -> dict[str, Any]:
    """The plan stepped through the translator's task: the first step that cannot be done, or the goal unmet."""
    from .semantics import TooLarge, World, initial_state, step, unmet

    task = reading.task
    world = World(task)
    actions = {a.name: a for a in task.actions}
    try:
        state = world.closed(initial_state(task))
        for k, (name, args) in enumerate(steps, 1):
            said = f"{name}({', '.join(args)})"
            if name not in actions:
                return verdict(False, len(steps), k, said, f"{name!r} is not an action of the domain "
                               f"(actions: {', '.join(sorted(actions))})")
            action = actions[name]
            params = action.parameters[:action.num_external_parameters]
            wrong = _wrong_arguments(world, name, params, args)
            if wrong:
                return verdict(False, len(steps), k, said, wrong)
            binding = dict(zip((p.name for p in params), args))
            if not world.holds(action.precondition, binding, state):
                return verdict(False, len(steps), k, said, "unmet precondition "
                               f"({', '.join(unmet(world, action.precondition, binding, state))})")
            state = step(world, action, binding, state)
        if not world.holds(task.goal, {}, state):
            missing = ", ".join(unmet(world, task.goal, {}, state))
            return verdict(False, len(steps), reason=f"goal not reached: {missing} does not hold after the last step")
    except TooLarge as exc:
        return verdict(False, len(steps), reason=f"the validator cannot step this task: {exc} (too many to try)")
    return verdict(True, len(steps))


def _wrong_arguments(world, name: str, params: list, args: list[str]) -> str | None:
    if len(args) != len(params):
        signature = ", ".join(f"{p.name} - {p.type_name}" for p in params)
        return f"{name} takes {len(params)} argument(s) ({signature}), given {len(args)}"
    for arg, param in zip(args, params):
        if arg not in world.objects:
            return f"{arg!r} is not an object of the problem (objects: {', '.join(sorted(world.objects))})"
        if not world.is_a(arg, param.type_name):
            return f"{arg} is a {world.objects[arg]}, but {name} takes a {param.type_name} as {param.name}"
    return None


def failure(result: dict[str, Any]) -> str:
    """An invalid verdict in words: where the plan fails (its step and action, or the plan as a whole) and why."""
    step = result.get("failing_step")
    where = f"step {step} ({result.get('action')})" if step is not None else "the plan"
    return f"{where}: {result.get('reason') or 'rejected by the validator'}"


def verdict(valid: bool, length: int | None, failing_step: int | None = None, action: str | None = None,
            reason: str | None = None) -> dict[str, Any]:
    return {"valid": valid, "length": length, "failing_step": failing_step, "action": action,
            "reason": reason or ("every precondition holds and the goal is reached" if valid else None)}
