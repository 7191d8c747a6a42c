"""The fault catalogue on programs that build the model as numpy arrays for highspy (the codegen rules'
"Large data" shape: a list of row blocks stacked into one addRows): each fault that can apply finds its place
in such a program and really changes what it writes; the model-level edits each change the optimum the way
their mistake would."""

from __future__ import annotations

import itertools
import json
from functools import cache
from pathlib import Path

import duckdb
import pytest

from optimus.bench.faults import CATALOGUE, Info
from tests.helpers import run_program

pytest.importorskip("highspy")

# Gravel from quarries to building sites along haul roads, a hired truck crew per road used
FOLDER = Path(__file__).parent / "fixtures" / "arrays"
SOURCE = (FOLDER / "reference" / "solver.py").read_text()
INFO = Info(data_keys=frozenset({"crew_tonnes", "max_crews"}), output_keys=frozenset({"crews", "total_cost"}))
# cvxpy's and z3's own faults, and the generated test's, have nothing to change in a highspy program
NOT_HERE = {"sum_over_generator", "key_as_int", "wrong_test",
            "z3_python_bool", "z3_python_if", "z3_model_value"}
APPLIES = [name for name in CATALOGUE if name not in NOT_HERE]

# What each model-level edit of the fixture leaves (status, objective), worked out from the data: the optimum
# is 310 (see test_the_expected_optimum_is_the_brute_force_one).
EDITED = {
    "drop_constraint": {
        "constraint s3_need_… dropped": ("optimal", 0.0),  # nothing needs gravel
        "constraint s4_output_… dropped": ("optimal", 250.0),  # cliff's cheap tonnes to the north unlimited
        "constraint s5_road_… dropped": ("optimal", 170.0),  # no crew hired: tonnes at their per-tonne cost
        "constraint s6_max_crews dropped": ("optimal", 300.0),  # a fifth crew pays
    },
    "flip_constraint": {
        "constraint s3_need_…: >= flipped": ("optimal", 0.0),  # at most the need: nothing
        "constraint s4_output_…: <= flipped": ("infeasible", None),  # 130 t at least, 4 crews of 30 t at most
        "constraint s5_road_…: <= flipped": ("optimal", 170.0),  # a crew forces tonnes, no crew allows any
        "constraint s6_max_crews: <= flipped": ("optimal", 300.0),  # at least 4 crews: the fifth pays
    },
    "flip_objective": {"h.changeObjectiveSense(highspy.ObjSense.kMaximize) written before line 69":
                       ("optimal", 440.0)},  # as many tonnes and crews as the limits allow
    "drop_integrality": {"h.changeColsIntegrality(…) left out: integer columns made continuous":
                         ("optimal", 260.0)},  # a crew paid by the tonne it carries
    "added_restriction": {
        "s4_output_…": ("optimal", 384.0),  # 80% of each quarry's output still covers the 90 t needed
        "s6_max_crews": ("infeasible", None),  # 3 crews cannot carry the south's 40 t and the rest
    },
}


@cache
def run(program: str, scratch: Path) -> dict:
    """What the program leaves: its exit, solution.json and output.json (or a time-out). Each program once."""
    return run_program(FOLDER, program, scratch / f"work{len(list(scratch.iterdir()))}", timeout=10)


@pytest.fixture(scope="module")
def scratch(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("arrays")


@pytest.fixture(scope="module")
def clean(scratch) -> dict:
    return run(SOURCE, scratch)


def outcome(result: dict) -> tuple:
    solution = result.get("solution.json") or {}
    return solution.get("status"), solution.get("objective")


def test_the_clean_program_finds_the_expected_optimum(clean):
    expected = json.loads((FOLDER / "expected.json").read_text())
    assert clean["exit"] == 0
    assert outcome(clean) == (expected["status"], expected["objective"])
    assert clean["output.json"]["total_cost"] == expected["objective"]
    assert {(c["quarry"], c["site"]) for c in clean["output.json"]["crews"]} == {
        ("ashford", "north"), ("ashford", "east"), ("brook", "south"), ("cliff", "south")}


def test_the_expected_optimum_is_the_brute_force_one():
    """Every plan in steps of 10 t (enough: with the crews fixed the rest is a flow problem whose data are
    multiples of 10, so an optimal flow comes in such steps), a crew on each road that carries gravel: 310
    (ashford 30 t north and 20 t east, brook 30 t south, cliff 10 t south)."""
    sql = duckdb.connect()
    output = dict(sql.sql(f"SELECT quarry, output_tonnes FROM '{FOLDER}/data/quarries.csv'").fetchall())
    need = dict(sql.sql(f"SELECT site, need_tonnes FROM '{FOLDER}/data/sites.csv'").fetchall())
    roads = sql.sql(f"SELECT quarry, site, cost_per_tonne, hire FROM '{FOLDER}/data/roads.csv'").fetchall()
    data = json.loads((FOLDER / "data.json").read_text())
    best = None
    for steps in itertools.product(range(data["crew_tonnes"] // 10 + 1), repeat=len(roads)):
        tonnes = [10 * s for s in steps]
        used = [(road, t) for road, t in zip(roads, tonnes) if t]
        if len(used) > data["max_crews"] \
                or any(sum(t for road, t in used if road[0] == q) > cap for q, cap in output.items()) \
                or any(sum(t for road, t in used if road[1] == s) < n for s, n in need.items()):
            continue
        cost = sum(t * road[2] + road[3] for road, t in used)
        best = cost if best is None else min(best, cost)
    assert best == json.loads((FOLDER / "expected.json").read_text())["objective"] == 310


@pytest.mark.parametrize("fault", APPLIES)
def test_each_fault_applies_to_an_array_program_and_changes_its_result(fault, clean, scratch):
    found = CATALOGUE[fault].candidates(SOURCE, INFO)
    assert found, f"{fault} finds no place in the program"
    changed = [inj.where for inj in found[:4] if run(inj.text, scratch) != clean]
    assert changed, f"{fault}: none of {[i.where for i in found[:4]]} changes what the program writes"


@pytest.mark.parametrize("fault", list(EDITED))
def test_each_model_level_edit_changes_the_optimum_as_its_mistake_would(fault, scratch):
    found = CATALOGUE[fault].candidates(SOURCE, INFO)
    added = fault == "added_restriction"  # its `where` quotes the whole added block: named by what it copies
    got = {inj.detail["constraint"] if added else inj.where: outcome(run(inj.text, scratch)) for inj in found}
    assert got == EDITED[fault]


def test_an_endless_loop_waits_before_the_solve(scratch):
    (loop,) = CATALOGUE["infinite_loop"].candidates(SOURCE, INFO)
    assert "while True:  # wait for the model\n    pass\nh.run()" in loop.text
    assert run(loop.text, scratch) == {"timed_out": True}


def by_statement(fault: str, source: str = SOURCE) -> dict[str, str]:
    return {inj.detail["statement"]: inj.text for inj in CATALOGUE[fault].candidates(source, INFO)}


def test_the_edits_read_the_blocks():
    s4 = ('    (rq, tonnes, np.ones(nr), np.full(nq, -np.inf), quarries["output_tonnes"].astype(float),\n'
          '     "s4_output_" + quarry_part),  # s4: at most the output\n')
    assert by_statement("drop_constraint")["s4"] == SOURCE.replace(s4, "")  # its lines, comment and all
    flips = by_statement("flip_constraint")
    assert 'np.ones(nr), sites["need_tonnes"].astype(float), np.full(ns, np.inf),' in SOURCE
    assert 'np.ones(nr), np.full(ns, -np.inf), sites["need_tonnes"].astype(float),' in flips["s3"]  # >= to <=
    assert 'np.ones(nr), quarries["output_tonnes"].astype(float), np.full(nq, np.inf),' in flips["s4"]
    assert 'crew, np.ones(nr), [float(data["max_crews"])], [np.inf],' in flips["s6"]  # <= to >=
    added = CATALOGUE["added_restriction"].candidates(SOURCE, INFO)
    assert added[1].detail["line"] == (
        '(np.zeros(nr, np.int64), crew, np.ones(nr), [-np.inf], 0.8 * np.asarray([float(data["max_crews"])], '
        'dtype=float), ["reserve_s6_max_crews"])')
    assert all(f"\n    {inj.detail['line']},\n" in inj.text for inj in added)  # a block of its own
    (continuous,) = CATALOGUE["drop_integrality"].candidates(SOURCE, INFO)
    assert "changeColsIntegrality" in SOURCE and "changeColsIntegrality" not in continuous.text


def test_other_spellings_of_the_sense_and_of_infinity():
    maximizing = SOURCE.replace("h.run()\n", "h.changeObjectiveSense(highspy.ObjSense.kMaximize)\nh.run()\n")
    (left_out,) = CATALOGUE["flip_objective"].candidates(maximizing, INFO)
    assert left_out.text == SOURCE.replace("h.run()\n", "pass\nh.run()\n")  # the maximize call left out
    minimizing = maximizing.replace("kMaximize", "kMinimize")
    (swapped,) = CATALOGUE["flip_objective"].candidates(minimizing, INFO)
    assert swapped.text == maximizing
    highs_inf = SOURCE.replace("np.inf", "highspy.kHighsInf")
    highs_inf = highs_inf.replace("[-highspy.kHighsInf]", '[float("-inf")]')
    flips = by_statement("flip_constraint", highs_inf)
    assert "np.full(ns, -highspy.kHighsInf), sites" in flips["s3"]
    assert 'quarries["output_tonnes"].astype(float), np.full(nq, highspy.kHighsInf),' in flips["s4"]
    assert '[float(data["max_crews"])], [float("inf")],' in flips["s6"]


def test_programs_without_highspy_keep_their_candidates():
    """A list of 6-tuples means blocks only in a program that imports highspy."""
    plain = SOURCE.replace("import highspy\n", "")
    for fault in [*EDITED, "infinite_loop"]:
        assert CATALOGUE[fault].candidates(plain, INFO) == [], fault
