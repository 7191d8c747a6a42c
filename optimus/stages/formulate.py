"""formulate: SNOP + data summary → formulation.md (variables, objective, constraints tied to statements)."""

from __future__ import annotations

from optimus.prompts import render
from optimus.stages.context import Context


def formulate(ctx: Context) -> str:
    prompt = render("formulate", ctx.spec_values())
    return ctx.ask("formulate", prompt).text.strip() + "\n"
