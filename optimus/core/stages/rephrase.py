"""rephrase: rewrite problem_info in other words. A rewrite that loses or invents a \\param or \\var is rejected."""

from __future__ import annotations

import json
import re
from dataclasses import replace

from optimus.core.prompts import render
from optimus.core.snop import Snop, marked
from optimus.core.stages.context import Context, numbered

_JSON_BLOCK = re.compile(r"```(?:json)?\s*\n(.*?)```", re.DOTALL)


class Rejected(ValueError):
    """The rewrite cannot be used; the message says why."""


def marks(statements: list[str]) -> set[tuple[str, str]]:
    return {(kind, m) for s in statements for kind in ("param", "var") for m in marked(s, kind)}


def rephrase(ctx: Context, original: Snop, number: int) -> Snop:
    """Rewrite `number` of the statements (the number keeps repeated requests distinct, so a cached answer
    is never reused for the next rewrite). Raises Rejected when the answer is unusable or changes the marks."""
    prompt = render("rephrase", statements=numbered(original.problem_info), number=str(number))
    text = ctx.ask("rephrase", prompt).text
    statements = parse_statements(text)
    check_marks(original.problem_info, statements)
    return replace(original, problem_info=statements)


def parse_statements(text: str) -> list[str]:
    block = _JSON_BLOCK.search(text)
    try:
        value = json.loads(block.group(1) if block else text)
    except json.JSONDecodeError as exc:
        raise Rejected(f"the answer is not a JSON list of statements ({exc.msg})") from None
    if not isinstance(value, list) or not value or not all(isinstance(s, str) and s.strip() for s in value):
        raise Rejected("the answer is not a non-empty JSON list of statements")
    return [re.sub(r"^\(s\d+\)\s*", "", " ".join(s.split())) for s in value]


def check_marks(before: list[str], after: list[str]) -> None:
    old, new = marks(before), marks(after)
    lost, invented = old - new, new - old
    if lost or invented:
        parts = [f"lost {_names(lost)}" if lost else "", f"invented {_names(invented)}" if invented else ""]
        raise Rejected("the rewrite " + " and ".join(p for p in parts if p))


def _names(found: set[tuple[str, str]]) -> str:
    return ", ".join(f"\\{kind}{{{name}}}" for kind, name in sorted(found))
