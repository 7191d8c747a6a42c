"""formulate: SNOP + data summary → formulation.md (variables, objective, constraints tied to statements)."""

from __future__ import annotations

from optimus.core import families
from optimus.core.prompts import render
from optimus.core.stages.context import Context

CHOOSE = ("Choose the solver family that fits the problem best:\n{choices}\n"
          "Write your choice on the first line of the formulation as `Family: NAME — why`.")


def formulate(ctx: Context) -> str:
    if ctx.family is None:
        name, note = "formulate", CHOOSE.format(choices=families.choices())
    else:
        name, note = ctx.family.prompt_name("formulate"), f"It will be solved with {ctx.family.name}: {ctx.family.what}."
    if ctx.sample:  # one of several samples: its own wording, so that even a temperature-0 model reads afresh
        note += "\n\n" + render("independent", sample=str(ctx.sample + 1)).text.strip()
    prompt = render(name, ctx.spec_values(), solver_note=note)
    return ctx.ask("formulate", prompt).text.strip() + "\n"
