"""`optimus new`: a free-text request → a problem folder, its numbers checked by the harness, not the model."""

from __future__ import annotations

import csv
import itertools
import json
import random
import shutil
from pathlib import Path

import pytest

from optimus.cli import main
from optimus.new import numbers_in
from optimus.validate import validate

FIXTURES = Path(__file__).parent / "fixtures" / "new"
SENTINEL = "7318.2961"  # one weight in the CSV; it must never reach the model


def new(dest: Path, fixture: str, *args: str) -> int:
    return main(["new", str(dest), "--from", str(FIXTURES / fixture / "request.txt"), *args])


def solve_offline(folder: Path, fixture: str) -> dict:
    """Solve the written folder with the reference backend (the fixture's known-good program)."""
    (folder / "reference").mkdir()
    for name in ("formulation.md", "solver.py"):
        shutil.copy(FIXTURES / fixture / "reference" / name, folder / "reference" / name)
    code = main(["solve", str(folder), "--llm", "reference", "--sandbox", "process", "--mode", "debug"])
    report = json.loads((folder / "runs" / "latest" / "report.json").read_text())
    assert code == 0, report["message"]
    return report


def answer_of(fixture: str, **data_changes) -> str:
    answer = json.loads((FIXTURES / fixture / "reference" / "new.json").read_text())
    answer["data"].update(data_changes)
    return f"Here it is:\n```json\n{json.dumps(answer)}\n```\n"


def lp_optimum(data: dict) -> float:
    """Best vertex of the 2-variable polytope, by enumerating pairs of constraint lines (no LP solver)."""
    rows = [(data["arabica_per_bag"], data["arabica_stock"]), (data["robusta_per_bag"], data["robusta_stock"]),
            ([0, 1], data["max_dark"]), ([-1, 0], 0), ([0, -1], 0)]
    best = -1.0
    for (a, p), (b, q) in itertools.combinations(rows, 2):
        det = a[0] * b[1] - a[1] * b[0]
        if abs(det) < 1e-12:
            continue
        x = ((p * b[1] - a[1] * q) / det, (a[0] * q - p * b[0]) / det)
        if all(r[0] * x[0] + r[1] * x[1] <= s + 1e-9 for r, s in rows):
            best = max(best, data["profit"][0] * x[0] + data["profit"][1] * x[1])
    return best


def test_an_lp_request_becomes_a_folder_that_validates_and_solves(tmp_path):
    dest = tmp_path / "blends"
    assert new(dest, "lp", "--llm", "reference") == 0
    assert [f for f in validate(dest) if f.level == "error"] == []
    data = json.loads((dest / "data.json").read_text())
    assert data["max_dark"] == 180 and data["robusta_per_bag"] == [0.2, 0.35]
    report = solve_offline(dest, "lp")
    # By hand: Arabica and Robusta both bind at House 3650/11, Dark 900/11 (within the Dark cap of 180).
    assert lp_optimum(data) == pytest.approx(4.2 * 3650 / 11 + 3.9 * 900 / 11)
    assert report["objective"] == pytest.approx(lp_optimum(data), rel=1e-6)


def test_a_milp_request_becomes_a_folder_that_validates_and_solves(tmp_path):
    dest = tmp_path / "van"
    assert new(dest, "milp", "--llm", "reference") == 0
    assert [f for f in validate(dest) if f.level == "error"] == []
    data = json.loads((dest / "data.json").read_text())
    brute = max(sum(data["pay"][i] for i in pick) for r in range(6) for pick in itertools.combinations(range(5), r)
                if sum(data["weight"][i] for i in pick) <= data["capacity"])
    assert solve_offline(dest, "milp")["objective"] == pytest.approx(brute)


@pytest.fixture
def shipments(tmp_path) -> Path:
    """50,000 shipments × (weight, volume): 10^5 values, one of them the sentinel."""
    rng = random.Random(11)
    path = tmp_path / "shipments.csv"
    with path.open("w", newline="") as fh:
        out = csv.writer(fh)
        out.writerow(["weight", "volume"])
        for s in range(50_000):
            weight = SENTINEL if s == 31_337 else f"{rng.uniform(50, 2400):.3f}"
            out.writerow([weight, f"{rng.uniform(0.2, 14):.4f}"])
    return path


def test_csv_values_never_enter_a_request_body_and_the_folder_solves(tmp_path, shipments, scripted_llm):
    scripted_llm.enqueue("new", answer_of("csv"))
    dest = tmp_path / "truck"
    code = new(dest, "csv", "--data", str(shipments), "--llm", "openai", "--base-url", scripted_llm.base_url)
    assert code == 0
    bodies = [json.dumps(r.body) for r in scripted_llm.requests]
    assert len(bodies) == 1
    rows = list(csv.DictReader(shipments.open()))
    samples = [SENTINEL, rows[0]["weight"], rows[1]["volume"], rows[49_999]["weight"]]
    assert not [s for s in samples if any(s in b for b in bodies)], "a CSV value reached the model"
    prompt = scripted_llm.requests[0].messages[-1]["content"]
    assert 'shipments.csv (CSV): "weight": list[50000] of float' in prompt  # the names and shapes do reach it
    data = json.loads((dest / "data.json").read_text())
    assert len(data["weight"]) == len(data["volume"]) == 50_000 and float(SENTINEL) in data["weight"]
    expected = 0.8 * max(float(r["weight"]) for r in rows) + 35 * max(float(r["volume"]) for r in rows)
    assert solve_offline(dest, "csv")["objective"] == pytest.approx(expected, rel=1e-6)


def test_dropped_and_invented_numbers_are_refused_with_the_list(tmp_path, scripted_llm, capsys):
    bad = answer_of("lp", max_dark=500)  # the request's 180 dropped, a 500 invented
    scripted_llm.enqueue("new", bad, bad)
    dest = tmp_path / "blends"
    code = new(dest, "lp", "--llm", "openai", "--base-url", scripted_llm.base_url)
    err = capsys.readouterr().err
    assert code == 1
    assert "missing from data.json and from the statements: 180" in err
    assert "the request never writes: 500" in err
    assert not dest.exists()
    _, second = scripted_llm.requests_for("new")  # its last message is the harness's findings
    assert "180" in second.messages[-1]["content"] and "500" in second.messages[-1]["content"]


def test_a_failed_check_goes_back_to_the_model_once(tmp_path, scripted_llm):
    scripted_llm.enqueue("new", answer_of("lp", profit=[4.2, 3.5]), answer_of("lp"))
    dest = tmp_path / "blends"
    assert new(dest, "lp", "--llm", "openai", "--base-url", scripted_llm.base_url) == 0
    assert json.loads((dest / "data.json").read_text())["profit"] == [4.2, 3.9]
    assert len(scripted_llm.requests_for("new")) == 2


def test_an_existing_folder_is_not_written_over_without_force(tmp_path, capsys):
    dest = tmp_path / "blends"
    dest.mkdir()
    (dest / "data.json").write_text('{"mine": 1}')
    assert new(dest, "lp", "--llm", "reference") == 2
    assert "--force" in capsys.readouterr().err
    assert json.loads((dest / "data.json").read_text()) == {"mine": 1}
    assert new(dest, "lp", "--llm", "reference", "--force") == 0
    assert json.loads((dest / "data.json").read_text())["arabica_stock"] == 120


def test_bad_input_names_the_file_and_exits_2(tmp_path, capsys):
    assert main(["new", str(tmp_path / "x"), "--from", str(tmp_path / "nope.txt"), "--llm", "reference"]) == 2
    assert "nope.txt: no such request file" in capsys.readouterr().err
    ragged = tmp_path / "ragged.csv"
    ragged.write_text("weight,volume\n1,2\n3\n")
    assert new(tmp_path / "y", "csv", "--data", str(ragged), "--llm", "reference") == 2
    assert "ragged.csv: line 3: expected 2 fields, seen 1" in capsys.readouterr().err


def test_numbers_in_skips_ids_and_ordinals_and_reads_thousands_and_percent():
    found = numbers_in("Rule s4 on the 2nd day: ship 1,200 units, 30% by air, at 4.50 each; CO2 ignored.")
    assert [(w.value, w.percent) for w in found] == [(1200.0, False), (30.0, True), (4.5, False)]


def test_a_request_read_from_standard_input(tmp_path, scripted_llm, monkeypatch):
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO((FIXTURES / "milp" / "request.txt").read_text()))
    scripted_llm.enqueue("new", answer_of("milp"))
    dest = tmp_path / "van"
    assert main(["new", str(dest), "--from", "-", "--llm", "openai", "--base-url", scripted_llm.base_url]) == 0
    assert (dest / "new" / "request.txt").read_text() == (FIXTURES / "milp" / "request.txt").read_text()
    assert "950" in scripted_llm.requests[0].messages[-1]["content"]  # the user's words are the prompt
