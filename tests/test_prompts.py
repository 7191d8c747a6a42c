"""Prompt templates: a placeholder without a value, or a value without a placeholder, is an error."""

from __future__ import annotations

import re

import pytest

from optimus.core import families
from optimus.core.prompts import PROMPT_DIR, PromptError, render

SPEC = {k: f"<{k}>" for k in ("problem_type", "statements", "objective", "input_format", "data_summary",
                              "output_info", "output_format", "solver_rules",
                              # a family's own values (Family.prompt_values): the pddl domain's
                              "domain_name", "predicates", "actions", "example", "found_status")}
# What each stage passes besides the SNOP's parts (optimus/core/stages/*.py).
EXTRA = {
    "formulate": {"solver_note": "N"}, "testgen": {},
    "codegen": {"formulation": "F"},
    "debug": {"formulation": "F", "code": "C", "evidence": "E"},
    "fix": {"formulation": "F", "code": "C", "evidence": "E"},
    "rephrase": {"number": "1"},
    "assess": {"formulation": "F", "code": "C", "lang": "python", "results": "R", "assumptions": "A", "warnings": "W"},
    "reformulate": {"formulation": "F", "evidence": "E"},
    "new": {"request": "R", "data_files": "D"},  # optimus/commands/new.py
    "repair": {"conflict": "C", "protected": "P", "answer": "A"},  # optimus/commands/repair.py
    "ambiguity": {"formulation_a": "A", "formulation_b": "B"},  # optimus/core/stages/ambiguity.py
    "review": {"status": "S", "lang": "python", "conflict": "C", "diagnosis": "D", "formulation_rows": "F",
               "code_rows": "R"},  # optimus/core/stages/review.py
    "ask": {"variables": "V", "rows": "R", "question": "Q"},  # optimus/commands/ask.py
    "ask_words": {"question": "Q", "table": "T"},
    # optimus/bench/roles.py: the model as solver, verifier and heuristic
    "roles_solver": {}, "roles_verifier": {"candidate": "C"}, "roles_heuristic": {"candidates": "C", "letters": "L"},
}
# Fragments a stage adds to its prompt: formulate's line for sample k >= 1 of --samples K.
FRAGMENTS = {"independent": {"sample": "2"}, "tables": {}, "tables_wide": {}}
# Stages only some families have (no shared prompt): direct, the model's own plan (pddl).
FAMILY_STAGES = {"direct": {}}


@pytest.mark.parametrize("family", families.NAMES)
@pytest.mark.parametrize("stage", sorted(EXTRA))
def test_every_stage_prompt_fills_every_placeholder(stage, family):
    prompt = render(families.load(family).prompt_name(stage), SPEC, **EXTRA[stage])
    assert not re.search(r"\{\{\w+\}\}", prompt.text), prompt.text
    assert len(prompt.template_hash) == 16


def test_missing_and_unused_values_are_errors_but_unused_pool_entries_are_not():
    with pytest.raises(PromptError, match="needs values for"):
        render("debug", SPEC, formulation="F", code="C")
    with pytest.raises(PromptError, match="no placeholder for"):
        render("formulate", SPEC, solver_note="N", code="C")
    text = render("formulate", SPEC, solver_note="N").text
    assert "<objective>" in text and "<output_format>" not in text


def test_every_template_file_is_a_stage_or_a_fragment():
    """Shared stage prompts, a family's own version of one (`<stage>_<family>`), a family's codegen rules."""
    names = {p.stem for p in PROMPT_DIR.glob("*.txt")}
    own = {f"{stage}_{family}" for stage in [*EXTRA, *FAMILY_STAGES] for family in families.NAMES}
    rules = {f"solver_{family}" for family in families.NAMES}
    assert names - set(EXTRA) - set(FRAGMENTS) - {"system"} <= own | rules, "a prompt file no stage or family reads"
    assert set(EXTRA) | set(FRAGMENTS) <= names


@pytest.mark.parametrize("name", sorted(FRAGMENTS))
def test_fragments_fill_every_placeholder(name):
    prompt = render(name, SPEC, **FRAGMENTS[name])
    assert not re.search(r"\{\{\w+\}\}", prompt.text), prompt.text


@pytest.mark.parametrize("stage", sorted(FAMILY_STAGES))
def test_family_only_stage_prompts_fill_every_placeholder(stage):
    having = [f for f in map(families.load, families.NAMES) if f.prompt_name(stage) != stage]
    assert having, f"no family has a {stage} prompt"
    for family in having:
        prompt = render(family.prompt_name(stage), SPEC, **FAMILY_STAGES[stage])
        assert not re.search(r"\{\{\w+\}\}", prompt.text), prompt.text
