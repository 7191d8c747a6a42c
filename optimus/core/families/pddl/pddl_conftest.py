"""Fixtures for the tests of a planning problem. Copied next to the tests as conftest.py, with problem.pddl,
domain.pddl, pddl_sexpr.py (the harness's PDDL reader), output.json and solution.json. Tests of a planning
problem check the problem file the model wrote — the initial and goal facts the statements require — and the
plan. Free of optimus imports: it runs inside the sandbox.

- `problem`: objects (name → type, and by_type: type → set of names), init and goal facts as sets of tuples,
  e.g. ("on", "red", "green"); goal_false: facts the goal asks to be false.
- `plan`: the validated plan as a list of tuples, e.g. [("pick-up", "red"), ("stack", "red", "green")].
- `data`, `output`, `solution`, `eps` as for every problem.
"""

import json
import os
from dataclasses import dataclass, field
from pathlib import Path

import pytest

HERE = Path(os.environ.get("OPTIMUS_TEST_DIR", Path(__file__).parent))


@dataclass
class PlanningProblem:
    objects: dict = field(default_factory=dict)  # name → type
    init: set = field(default_factory=set)
    goal: set = field(default_factory=set)
    goal_false: set = field(default_factory=set)

    @property
    def by_type(self) -> dict:
        out = {}
        for name, kind in self.objects.items():
            out.setdefault(kind, set()).add(name)
        return out


def _load(name, required=True):
    path = HERE / name
    if not path.exists():
        if required:
            pytest.fail(f"{name} was not written by the run", pytrace=False)
        return {}
    try:
        return json.loads(path.read_text())
    except json.JSONDecodeError as exc:
        pytest.fail(f"{name} is not valid JSON: {exc}", pytrace=False)


@pytest.fixture(scope="session")
def data():
    return _load("data.json", required=False)


@pytest.fixture(scope="session")
def output():
    return _load("output.json")


@pytest.fixture(scope="session")
def solution():
    return _load("solution.json", required=False)


@pytest.fixture(scope="session")
def eps():
    return 1e-6


@pytest.fixture(scope="session")
def problem():
    from pddl_sexpr import PddlSyntaxError, goal_facts, read_problem

    path = HERE / "problem.pddl"
    if not path.exists():
        pytest.fail("problem.pddl is missing beside the tests", pytrace=False)
    try:
        parsed = read_problem(path.read_text())
    except PddlSyntaxError as exc:
        pytest.fail(f"problem.pddl does not parse: {exc}", pytrace=False)
    return PlanningProblem(dict(parsed.objects), {fact for fact, _ in parsed.init}, goal_facts(parsed.goal),
                           goal_facts(parsed.goal, positive=False))


@pytest.fixture(scope="session")
def plan(output):
    return [(str(step["action"]).lower(), *(str(a).lower() for a in step.get("args", [])))
            for step in output.get("plan") or []]
