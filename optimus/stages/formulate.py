"""formulate: SNOP + data summary → formulation.md (variables, objective, constraints tied to statements)."""

from __future__ import annotations

from optimus.prompts import render
from optimus.stages.context import Context

_KEYS = ("problem_type", "statements", "objective", "input_format", "data_summary", "output_info")


def formulate(ctx: Context) -> str:
    values = ctx.spec_values()
    prompt = render("formulate", **{k: values[k] for k in _KEYS})
    return ctx.ask("formulate", prompt).text.strip() + "\n"
