"""planval: the shared plan validator (sandbox-side), run as `python -m planval` the way the harness runs it."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import optimus

PLANVAL = Path(optimus.__file__).parent / "core" / "planval"
PDDL = Path(__file__).parent / "fixtures" / "z3" / "courier" / "validate"
LOAD, DRIVE, UNLOAD = ({"action": "load", "args": ["box", "north"]}, {"action": "drive", "args": ["north", "south"]},
                       {"action": "unload", "args": ["box", "south"]})


def check(tmp_path: Path, plan, problem: str | None = None, raw: str | None = None) -> tuple[int, dict]:
    """Run planval as a process in a dir holding only its own copy (as in the sandbox); its exit code and verdict."""
    shutil.copytree(PLANVAL, tmp_path / "planval", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(PDDL / "domain.pddl", tmp_path / "domain.pddl")
    (tmp_path / "problem.pddl").write_text(problem if problem is not None else (PDDL / "problem.pddl").read_text())
    (tmp_path / "plan.json").write_text(raw if raw is not None else json.dumps(plan))
    run = subprocess.run([sys.executable, "-m", "planval", "domain.pddl", "problem.pddl", "plan.json", "result.json"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=60, check=False)
    assert "Traceback" not in run.stderr, run.stderr
    return run.returncode, json.loads((tmp_path / "result.json").read_text())


def test_a_valid_plan_is_valid_with_its_length(tmp_path):
    code, verdict = check(tmp_path, {"plan": [LOAD, DRIVE, UNLOAD]})
    assert (code, verdict["valid"], verdict["length"], verdict["failing_step"]) == (0, True, 3, None)


def test_the_bare_list_and_the_string_forms_are_read(tmp_path):
    _, verdict = check(tmp_path, ["(load box north)", "(drive north south)", "(UNLOAD box south)"])
    assert verdict["valid"] and verdict["length"] == 3


def test_an_unmet_precondition_names_the_step_and_the_fact(tmp_path):
    # Driving first leaves the parcel behind: loading it at north (step 2) needs the courier at north.
    code, verdict = check(tmp_path, {"plan": [DRIVE, LOAD]})
    assert code == 1 and not verdict["valid"]
    assert verdict["failing_step"] == 2 and verdict["action"] == "load(box, north)"
    assert "at(north)" in verdict["reason"]


def test_a_goal_left_unmet_is_said(tmp_path):
    _, verdict = check(tmp_path, {"plan": [LOAD, DRIVE]})
    assert not verdict["valid"] and verdict["failing_step"] is None
    assert "lies(box, south)" in verdict["reason"]


@pytest.mark.parametrize("step, words", [
    ({"action": "fly", "args": ["north", "east"]}, "not an action"),
    ({"action": "drive", "args": ["north"]}, "takes 2 argument"),
    ({"action": "drive", "args": ["north", "west"]}, "'west' is not an object"),
    ({"action": "load", "args": ["north", "north"]}, "north is a depot"),
])
def test_a_malformed_step_is_named(tmp_path, step, words):
    _, verdict = check(tmp_path, {"plan": [LOAD, step]})
    assert not verdict["valid"] and verdict["failing_step"] == 2 and words in verdict["reason"], verdict


def test_a_problem_file_error_is_quoted_with_its_line(tmp_path):
    broken = (PDDL / "problem.pddl").read_text().replace("(free)", "(free) (flies box)")
    _, verdict = check(tmp_path, {"plan": [LOAD]}, problem=broken)
    assert not verdict["valid"] and "problem.pddl" in verdict["reason"]
    assert "line 4:" in verdict["reason"] and "(flies box)" in verdict["reason"]


def test_an_unreadable_plan_still_writes_a_verdict(tmp_path):
    _, verdict = check(tmp_path, None, raw="{not json")
    assert not verdict["valid"] and "not valid JSON" in verdict["reason"]
