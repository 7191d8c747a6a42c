"""Choosing a family: the SNOP names it, the problem type implies it, or the formulation's first line says it."""

from __future__ import annotations

from optimus.core import families


def test_the_formulation_s_family_line_picks_the_family_and_is_quoted():
    family, why = families.from_formulation("## Choice\n**Family: z3 — either/or rules and a rota**\n## Sets\n")
    assert family.name == "z3" and why == "**Family: z3 — either/or rules and a rota**"
    assert families.from_formulation("Family: highspy, a plain LP")[0].name == "pulp"  # an alias of pulp


def test_no_known_family_named_falls_back_to_pulp_and_says_so():
    for text in ("## Sets\nno choice here", "Family: gurobi — fast"):
        family, why = families.from_formulation(text)
        assert family.name == "pulp" and "named no known family" in why
