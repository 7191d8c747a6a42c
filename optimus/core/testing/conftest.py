"""Fixtures for problem tests. The harness copies this file next to the tests, with data.json,
output.json and solution.json, and runs pytest there. It must stay free of optimus imports: it
runs inside the sandbox, where only the solver libraries and pytest are installed."""

import json
import os
from pathlib import Path

import pytest

HERE = Path(os.environ.get("OPTIMUS_TEST_DIR", Path(__file__).parent))


def _load(name, required=True):
    path = HERE / name
    if not path.exists():
        if required:
            pytest.fail(f"{name} was not written by the solver program", pytrace=False)
        return {}
    try:
        return json.loads(path.read_text())
    except json.JSONDecodeError as exc:
        pytest.fail(f"{name} is not valid JSON: {exc}", pytrace=False)


@pytest.fixture(scope="session")
def data():
    return _load("data.json")


@pytest.fixture(scope="session")
def output():
    return _load("output.json")


@pytest.fixture(scope="session")
def solution():
    return _load("solution.json", required=False)


@pytest.fixture(scope="session")
def eps():
    return 1e-6


@pytest.fixture(autouse=True)
def _needs_solution(solution, output):
    """An honest infeasible or unbounded run writes output {}: its checks have nothing to check."""
    if not output and solution.get("status") in ("infeasible", "unbounded"):
        pytest.skip(f"no solution to check: status {solution['status']}")
