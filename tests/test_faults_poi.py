"""The fault catalogue on programs written with pyoptinterface (the LP/MILP layer of issue 30, which industrial/'s
reference programs use): each fault that can apply finds its place in such a program and really changes what it
writes (a crash, a time-out, another status, objective or output)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from optimus.bench.faults import CATALOGUE, Info
from tests.helpers import run_program

pytest.importorskip("pyoptinterface")

FOLDER = Path(__file__).parent / "fixtures" / "poi"  # depots, customers and routes in data/, two scalars
INFO = Info(data_keys=frozenset({"max_open", "penalty"}), output_keys=frozenset({"open_sites", "shipped"}))
# cvxpy's and z3's own faults, and the generated test's, have nothing to change in a pyoptinterface program
NOT_HERE = {"sum_over_generator", "key_as_int", "wrong_test", "z3_python_bool", "z3_python_if", "z3_model_value"}
APPLIES = [name for name in CATALOGUE if name not in NOT_HERE]


def run(program: str, tmp: Path) -> dict:
    """What the program leaves: its exit, solution.json and output.json (or a time-out)."""
    shutil.rmtree(tmp / "work", ignore_errors=True)
    return run_program(FOLDER, program, tmp / "work", timeout=20)


@pytest.fixture(scope="module")
def clean(tmp_path_factory) -> dict:
    result = run((FOLDER / "solver.py").read_text(), tmp_path_factory.mktemp("clean"))
    assert result["exit"] == 0 and result["solution.json"]["status"] == "optimal"
    return result


@pytest.mark.parametrize("fault", APPLIES)
def test_each_fault_applies_to_a_pyoptinterface_program_and_changes_its_result(fault, clean, tmp_path):
    source = (FOLDER / "solver.py").read_text()
    found = CATALOGUE[fault].candidates(source, INFO)
    assert found, f"{fault} finds no place in the program"
    changed = [inj.where for inj in found[:4] if run(inj.text, tmp_path) != clean]
    assert changed, f"{fault}: none of {[i.where for i in found[:4]]} changes what the program writes"


def test_the_edits_read_pyoptinterface_calls():
    source = (FOLDER / "solver.py").read_text()
    flips = [i.where for i in CATALOGUE["flip_constraint"].candidates(source, INFO)]
    assert flips == ['constraint key("s1_demand", c): Geq flipped', 'constraint key("s2_capacity", s): Leq flipped',
                     'constraint "s3_max_open": Leq flipped']
    (added,) = CATALOGUE["added_restriction"].candidates(source, INFO)  # s2's limit is 0: only s3 is cut
    assert added.detail["line"] == ('m.add_linear_constraint(poi.quicksum(is_open.values()), poi.Leq, 0.8 * '
                                    '(data["max_open"]), name="reserve_s3_max_open")')
    (objective,) = CATALOGUE["flip_objective"].candidates(source, INFO)
    assert "poi.ObjectiveSense.Maximize" in objective.text
    keys = [i.detail["key"] for i in CATALOGUE["misspell_output_key"].candidates(source, INFO)]
    assert keys == ["open_sites", "shipped"]
