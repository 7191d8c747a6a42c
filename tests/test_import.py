"""optimus import-nlp4lp: the public layout → problem folders, with obj.txt oddities and run()-style tests."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from optimus.commands.cli import main
from optimus.commands.nlp4lp_import import read_obj, written_precision
from optimus.core.problem import load_problem
from optimus.core.report import ABS_TOL, REL_TOL, label_abs_tol, objective_matches
from optimus.core.snop import Snop, render_text, snop_sense
from tests.test_agent import DROPPED, FORMULATION, GOOD
from tests.test_snop_forms import SAMPLE, needs_sample
from tests.test_validate_malformed import DATA, SNOP

HUMAN_TEST = '''\
import json


def run():
    data = json.load(open("data.json"))
    output = json.load(open("output.json"))
    errors = []
    for m, cap in enumerate(data["capacity"]):
        used = sum(data["hours"][i][m] * output["make"][i] for i in range(len(data["profit"])))
        if used > cap + 1e-6:
            errors.append(f"machine {m} over capacity: {used} > {cap}")
    return errors
'''


@needs_sample
def test_public_sample_imports_validates_and_keeps_the_objectives(tmp_path):
    assert main(["import-nlp4lp", str(SAMPLE), str(tmp_path / "out")]) == 0
    report = {Path(r["source"]).relative_to(SAMPLE).as_posix(): r
              for r in json.loads((tmp_path / "out" / "import-report.json").read_text())}
    assert len(report) == 8
    for rel, entry in report.items():
        obj_text = (SAMPLE / rel / "obj.txt").read_text()
        expected = json.loads((Path(entry["dest"]) / "expected.json").read_text())
        assert expected["objective"] == float(obj_text.split(":", 1)[1]), rel
    # The keys of one public problem differ from its data in case only: mapped, and said.
    assert any("OfficersNeeded" in m for m in report["linear_and_convex_optimization/problem_5"]["mapped"])
    assert all(not f.startswith("error") for r in report.values() for f in r["findings"]), report
    # The sample's known defects are warnings naming file and place: the bound L used for two sizes in one
    # problem, a missing comma in two templates, an undescribed key.
    warnings = {rel: [f for f in r["findings"] if f.startswith("warning")] for rel, r in report.items()}
    assert any("$.cost" in f and "L, as $.benefit[0] has" in f
               for f in warnings["model_building_in_mathematical_programming/problem_12"])
    assert any("input_format" in f and "no ','" in f for f in warnings["introduction_to_linear_optimization/problem_1"])
    assert any("output_format" in f and "no ','" in f for f in warnings["lectures_in_lp_modeling/problem_7"])
    assert main(["validate", *[r["dest"] for r in report.values()]]) == 0


@pytest.mark.parametrize("text,value,noted", [
    ("OBJ: 78.64\n", 78.64, False),
    (" OBJ: 1.0e+03", 1000.0, False),
    ("OBJ:15", 15.0, False),
    ("\ufeffObjective value = -42.5\n", -42.5, False),
    ("optimal: 7", 7.0, False),
    ("OBJ: 12,480.5", 12480.5, True),
    ("(120.5, 3)", 120.5, True),
    ("OBJ: n/a", None, True),
])
def test_obj_txt_oddities(text, value, noted):
    label = read_obj(text)
    assert label.objective == value and bool(label.note) == noted


@pytest.mark.parametrize("token,tol", [("0.333", 0.0005), ("1.0e+03", 50.0), ("78.64", 0.005), ("-2.50", 0.005),
                                       ("4e2", 50.0), ("3.", 0.5), ("15", None)])
def test_written_precision_is_half_the_last_digit(token, tol):
    got = written_precision(token)
    assert got == tol if tol is None else abs(got - tol) < 1e-12 * max(1, tol)


def test_status_words_in_obj_txt():
    assert read_obj("OBJ: infeasible").status == "infeasible" and read_obj("Unbounded").status == "unbounded"
    assert read_obj("OBJ: infeasible").objective is None


def test_rounded_label_matches_a_right_answer_and_not_a_wrong_one():
    """A label printed `0.333`: the true 1/3 (0.33333) matches; 0.3321 is off by more than the rounding."""
    expected = {"objective": read_obj("OBJ: 0.333").objective, "abs_tol": read_obj("OBJ: 0.333").abs_tol}
    tol = label_abs_tol(expected)
    assert objective_matches(1 / 3, expected["objective"], REL_TOL, tol)
    assert objective_matches(0.33333, expected["objective"], REL_TOL, tol)
    assert not objective_matches(0.3321, expected["objective"], REL_TOL, tol)
    # Without the written precision, the right answer would fail at rel 1e-4: the reason for abs_tol.
    assert not objective_matches(0.33333, expected["objective"], REL_TOL, ABS_TOL)


def public_layout(root: Path, obj: str | None, human: str | None = HUMAN_TEST) -> Path:
    problem = root / "src" / "book" / "problem_1"
    problem.mkdir(parents=True)
    (problem / "description.txt").write_text(render_text(Snop.from_dict(SNOP)))
    (problem / "data.json").write_text(json.dumps(DATA))
    if obj is not None:
        (problem / "obj.txt").write_text(obj)
    if human is not None:
        (problem / "test-human.py").write_text(human)
    return root / "src"


def test_missing_obj_txt_imports_with_a_null_objective(tmp_path, capsys):
    assert main(["import-nlp4lp", str(public_layout(tmp_path, None)), str(tmp_path / "out")]) == 0
    out = capsys.readouterr().out
    assert "not mapped: no obj.txt" in out
    folder = tmp_path / "out" / "book--problem_1"
    assert json.loads((folder / "expected.json").read_text()) == {"objective": None, "sense": "max",
                                                                  "status": "optimal"}
    assert load_problem(folder).expected["objective"] is None  # valid against expected.schema.json
    assert main(["validate", str(folder)]) == 0


def test_unclear_sense_is_null_and_a_wider_vocabulary_reads_more(tmp_path, capsys):
    cheapest = Snop.from_dict({**SNOP, "objective": "Which mix of products is the cheapest combination?"})
    assert snop_sense(cheapest) == "min"
    assert snop_sense(Snop.from_dict({**SNOP, "objective": "Pick the most profitable plan."})) == "max"
    # A limit is not a goal: "at most" says nothing of the sense, "lowest" does.
    assert snop_sense(Snop.from_dict({**SNOP, "objective": "Find the lowest bill using at most 3 vans."})) == "min"
    # Unclear in the objective: the statements' one explicit word decides.
    vague = {**SNOP, "objective": "What should the shop make?"}
    stated = Snop.from_dict({**vague, "problem_info": [*SNOP["problem_info"], "The shop wants to maximise profit."]})
    assert snop_sense(stated) == "max"
    src = public_layout(tmp_path, "OBJ: 23.6")
    (src / "book" / "problem_1" / "description.txt").write_text(render_text(Snop.from_dict(vague)))
    assert main(["import-nlp4lp", str(src), str(tmp_path / "out")]) == 0
    assert "sense unclear" in capsys.readouterr().out
    expected = json.loads((tmp_path / "out" / "book--problem_1" / "expected.json").read_text())
    assert expected == {"objective": 23.6, "sense": None, "status": "optimal", "abs_tol": 0.05}


def test_run_style_test_runs_in_the_harness_one_failure_per_error(tmp_path):
    main(["import-nlp4lp", str(public_layout(tmp_path, "OBJ: 23.6")), str(tmp_path / "out")])
    folder = tmp_path / "out" / "book--problem_1"
    assert (folder / "tests" / "test_human.py").read_text() == HUMAN_TEST
    (folder / "reference").mkdir(exist_ok=True)
    (folder / "reference" / "formulation.md").write_text(FORMULATION)
    (folder / "reference" / "solver.py").write_text(GOOD)
    args = ["solve", str(folder), "--llm", "reference", "--sandbox", "process", "--mode", "supervised"]
    assert main(args) == 0
    report = json.loads((folder / "runs" / "latest" / "report.json").read_text())
    assert report["objective_matches"] is True and report["tests"]["passed"] == 1

    (folder / "reference" / "solver.py").write_text(DROPPED)
    assert main([*args, "--max-fix", "0"]) == 1
    report = json.loads((folder / "runs" / "latest" / "report.json").read_text())
    (failure,) = report["tests"]["failures"]
    assert re.search(r"machine 0 over capacity: 11(\.0)? > 10", failure)


def test_bad_source_folder_exits_2(tmp_path, capsys):
    assert main(["import-nlp4lp", str(tmp_path / "missing"), str(tmp_path / "out")]) == 2
    assert "missing" in capsys.readouterr().err
