"""Instructions that agree with the harness (issue 19): the status a family's generated tests are told to expect
is the status that family's programs are told to write (its codegen rules) or its runner writes (pddl). Once the
shared testgen prompt said `status == "optimal"` while a Z3 plan's rules said "feasible"."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from optimus.core import families
from optimus.core.outcomes import FOUND, STATUSES
from optimus.core.prompts import PROMPT_DIR, render
from tests.test_prompts import EXTRA, SPEC

QUOTED = re.compile(r'"([a-z_]+)"')
PLANNER = Path(families.__file__).parents[1] / "planval" / "planner.py"
HORIZON = [Path(families.__file__).parent / "z3" / "z3_sandbox" / name for name in ("horizon.py", "incremental.py")]
CASES = [(name, kind) for name in families.NAMES for kind in families.load(name).problem_types]


def found_in(text: str) -> set[str]:
    """Quoted status words of `text` that name a solution found."""
    return set(QUOTED.findall(text)) & set(FOUND)


def written_by_the_program(family: str, problem_type: str) -> set[str]:
    """What the family's codegen rules tell a program to write for a solution; for pddl, whose program is the
    harness's runner, the statuses its planner outcome map writes; for Z3 plans, whose solution.json the
    harness's horizon search writes (either contract), the statuses it writes there."""
    if family == "pddl":  # the runner writes the status Fast Downward's driver gives (planval/planner.py)
        source = PLANNER.read_text()
        return found_in(source[source.index("def _run("):])
    if family == "z3" and problem_type == "PLANNING":
        lines = [line for path in HORIZON for line in path.read_text().splitlines()
                 if '"status"' in line and ('"solution.json"' in line or "solution.update" in line)]
        return set(re.findall(r'"status": "([a-z_]+)"', "\n".join(lines))) & set(FOUND)
    rules = (PROMPT_DIR / f"solver_{family}.txt").read_text().splitlines()
    planning = [line for line in rules if line.startswith("- Problem type PLANNING")]
    return found_in("\n".join(planning if problem_type == "PLANNING" else [r for r in rules if r not in planning]))


@pytest.mark.parametrize(("family", "problem_type"), CASES, ids=[f"{f}-{t}" for f, t in CASES])
def test_the_generated_tests_expect_what_the_program_writes(family, problem_type):
    fam = families.load(family)
    values = {**SPEC, "found_status": families.status_words(fam, problem_type)}
    prompt = render(fam.prompt_name("testgen"), values, **EXTRA["testgen"]).text
    (rule,) = [line for line in prompt.splitlines() if 'solution["status"]' in line]
    expected = found_in(rule)
    assert expected and expected == set(fam.found_statuses(problem_type)), rule
    assert expected == written_by_the_program(family, problem_type), (
        f"{family} {problem_type}: tests told to expect {sorted(expected)}, programs told to write "
        f"{sorted(written_by_the_program(family, problem_type))}")


def test_every_status_a_prompt_names_is_one_the_harness_knows():
    for path in PROMPT_DIR.glob("*.txt"):
        for near in re.findall(r"status[^.]{0,160}", path.read_text()):  # quoted words just after "status"
            named = set(QUOTED.findall(near)) - {"objective", "values", "objective_constant"}
            assert named <= set(STATUSES), f"{path.name}: {near}"
