"""optimus import-nlp4lp: the public layout → problem folders, with obj.txt oddities and run()-style tests."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from optimus.cli import main
from optimus.nlp4lp_import import parse_obj
from optimus.snop import Snop, render_text
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
    errors = {rel: [f for f in r["findings"] if f.startswith("error")] for rel, r in report.items()}
    # One public problem uses the bound L for two sizes (2 benefit columns, 3x3 costs): reported, not hidden.
    assert errors.pop("model_building_in_mathematical_programming/problem_12") == [
        next(f for f in report["model_building_in_mathematical_programming/problem_12"]["findings"] if "L," in f)
    ]
    assert all(not e for e in errors.values()), errors
    assert main(["validate", *[r["dest"] for rel, r in report.items() if "problem_12" not in rel]]) == 0


@pytest.mark.parametrize("text,value,noted", [
    ("OBJ: 78.64\n", 78.64, False),
    (" OBJ: 1.0e+03", 1000.0, False),
    ("OBJ:15", 15.0, False),
    ("(120.5, 3)", 120.5, True),
    ("OBJ: n/a", None, True),
])
def test_obj_txt_oddities(text, value, noted):
    objective, note = parse_obj(text)
    assert objective == value and bool(note) == noted


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


def test_missing_obj_txt_is_reported_not_guessed(tmp_path, capsys):
    assert main(["import-nlp4lp", str(public_layout(tmp_path, None)), str(tmp_path / "out")]) == 0
    out = capsys.readouterr().out
    assert "not mapped: no obj.txt" in out
    assert not (tmp_path / "out" / "book--problem_1" / "expected.json").exists()


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
