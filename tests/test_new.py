"""`optimus new`: a free-text request → a problem folder, its numbers checked by the harness, not the model."""

from __future__ import annotations

import csv
import itertools
import json
import random
import shutil
from pathlib import Path

import pytest

from optimus.commands.cli import main
from optimus.commands.new import Draft, check_numbers
from optimus.core.numbers import derived, numbers_in, source_of
from optimus.core.validate import validate

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


def answer_of(fixture: str, top: dict | None = None, statements: tuple[str, ...] = (), **data_changes) -> str:
    """The fixture's answer with data changed, top-level keys (assumptions) added, statements appended."""
    answer = json.loads((FIXTURES / fixture / "reference" / "new.json").read_text())
    answer["data"].update(data_changes)
    answer["snop"]["problem_info"] += list(statements)
    answer.update(top or {})
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
    assert "data/shipments.csv: 50000 rows; columns weight DOUBLE, volume DOUBLE" in prompt  # the schema does
    assert (dest / "data" / "shipments.csv").read_bytes() == shipments.read_bytes()  # kept as a table, not JSON
    assert "weight" not in json.loads((dest / "data.json").read_text())
    expected = 0.8 * max(float(r["weight"]) for r in rows) + 35 * max(float(r["volume"]) for r in rows)
    assert solve_offline(dest, "csv")["objective"] == pytest.approx(expected, rel=1e-6)


def test_dropped_and_invented_numbers_are_listed_for_confirmation_and_written_only_with_consent(
        tmp_path, scripted_llm, capsys):
    bad = answer_of("lp", max_dark=500)  # the request's 180 dropped, a 500 invented
    scripted_llm.enqueue("new", bad, bad)
    dest = tmp_path / "blends"
    code = new(dest, "lp", "--llm", "openai", "--base-url", scripted_llm.base_url, "--no-cache")
    err = capsys.readouterr().err
    assert code == 1  # no terminal to ask at, no --yes: nothing written
    assert "the request's 180 (…" in err and "at most 180 bags of Dark" in err and "in neither data.json nor" in err
    assert "data.json max_dark = 500: the request never writes it" in err
    assert "Nothing was written" in err and not dest.exists()
    _, second = scripted_llm.requests_for("new")  # the findings went back to the model once
    assert "180" in second.messages[-1]["content"] and "500" in second.messages[-1]["content"]
    scripted_llm.enqueue("new", bad, bad)
    assert new(dest, "lp", "--llm", "openai", "--base-url", scripted_llm.base_url, "--no-cache", "--yes") == 0
    record = json.loads((dest / "new.json").read_text())
    assert record["confirmed"] == "--yes"
    assert [f["kind"] for f in record["findings"]] == ["not in the folder", "not in the request"]


@pytest.mark.parametrize("answer, written", [("y", True), ("n", False), ("", False)])
def test_the_user_confirms_at_the_terminal(tmp_path, scripted_llm, monkeypatch, capsys, answer, written):
    bad = answer_of("lp", max_dark=500)
    scripted_llm.enqueue("new", bad, bad)
    monkeypatch.setattr("sys.stdin.isatty", lambda: True)
    asked = []
    monkeypatch.setattr("builtins.input", lambda prompt: asked.append(prompt) or answer)
    dest = tmp_path / "blends"
    code = new(dest, "lp", "--llm", "openai", "--base-url", scripted_llm.base_url, "--no-cache")
    assert asked == ["Write the folder with these? [y/N] "]
    assert "To confirm (2):" in capsys.readouterr().out
    assert (code, dest.exists()) == ((0, True) if written else (1, False))
    if written:
        assert json.loads((dest / "new.json").read_text())["confirmed"] == "the user, at the terminal"


def test_numbers_as_people_write_them_reach_a_folder_with_nothing_to_confirm(tmp_path, scripted_llm):
    """-3.5, the Unicode minus, "minus 40", "7. 2", 1,234.5, minutes between two clock times, and x[3]
    subscripts that are not data: the number check traces every one, so nothing needs confirming."""
    scripted_llm.enqueue("new", answer_of("forms"))
    dest = tmp_path / "feeds"
    assert new(dest, "forms", "--llm", "openai", "--base-url", scripted_llm.base_url, "--no-cache") == 0
    assert len(scripted_llm.requests_for("new")) == 1
    data = json.loads((dest / "data.json").read_text())
    assert data["temp_change"] == [-3.5, -2] and data["earn"][0] == 7.2 and data["budget"] == 1234.5
    assert json.loads((dest / "new.json").read_text()) == {
        "request": "new/request.txt", "confirmed": "nothing to confirm", "assumptions": [], "findings": []}
    assert [f for f in validate(dest) if f.level == "error"] == []


def test_a_reading_the_check_cannot_trace_is_a_question_not_a_refusal(tmp_path, scripted_llm, capsys):
    # The model wrote 6.9 minutes for 10:51:00 to 10:57:43 (6.72 by hand): no reading of the request gives 6.9,
    # so the user is asked — and the clock times are listed as held nowhere.
    scripted_llm.enqueue("new", answer_of("forms", line_minutes=6.9), answer_of("forms", line_minutes=6.9))
    code = new(tmp_path / "feeds", "forms", "--llm", "openai", "--base-url", scripted_llm.base_url, "--no-cache")
    err = capsys.readouterr().err
    assert code == 1 and "refused" not in err
    assert "data.json line_minutes = 6.9" in err and "the request's 10:51:00" in err


def test_an_assumption_reaches_the_confirmation_new_json_and_the_result_line(tmp_path, scripted_llm, capsys):
    request = tmp_path / "request.txt"  # the Dark sales cap left out: the model fills it in and says so
    request.write_text((FIXTURES / "lp" / "request.txt").read_text().replace(
        ", and the shop can sell at most 180 bags of\nDark", ""))
    said = {"about": "max_dark", "assumption": "the request gives no sales limit for Dark; 180 bags", "value": 180}
    answer = answer_of("lp", top={"assumptions": [said]})
    scripted_llm.enqueue("new", answer)
    dest = tmp_path / "blends"
    args = ["new", str(dest), "--from", str(request), "--llm", "openai", "--base-url", scripted_llm.base_url]
    assert main(args) == 1 and not dest.exists()
    err = capsys.readouterr().err
    assert "1 item(s) need your confirmation" in err  # the 180 is the assumption's: no number finding besides
    assert "1. assumption about max_dark: the request gives no sales limit for Dark; 180 bags (value chosen: 180)" in err
    scripted_llm.enqueue("new", answer)
    assert main([*args, "--yes"]) == 0
    assert json.loads((dest / "new.json").read_text())["assumptions"] == [{**said, "source": "model"}]
    capsys.readouterr()
    report = solve_offline(dest, "lp")
    assert report["status"] == "solved" and report["status_detail"] == "solved under 1 assumption"
    assert [a["about"] for a in report["assumptions"]] == ["max_dark"]
    assert ("solved under 1 assumption: (1) max_dark: the request gives no sales limit for Dark; 180 bags"
            in capsys.readouterr().err)


def test_an_empty_list_for_a_named_thing_is_confirmed_and_never_plain_solved(tmp_path, scripted_llm, capsys):
    closed = "No bag is roasted on the days listed in \\param{closed_days}."
    answer = answer_of("lp", statements=(closed,), closed_days=[])
    scripted_llm.enqueue("new", answer, answer)  # the finding goes back once; the model keeps its answer
    dest = tmp_path / "blends"
    assert new(dest, "lp", "--llm", "openai", "--base-url", scripted_llm.base_url, "--yes") == 0
    assert "data.json gives closed_days as empty ([])" in capsys.readouterr().out
    report = solve_offline(dest, "lp")
    assert report["status_detail"] == "solved under 1 assumption"
    assert report["assumptions"][0]["about"] == "closed_days" and report["assumptions"][0]["source"] == "data.json"
    assert "closed_days" in report["warnings"][0]["message"]  # and the program never reads it


def test_a_malformed_param_goes_back_to_the_model_and_three_bad_answers_are_refused(tmp_path, scripted_llm,
                                                                                    capsys):
    broken = answer_of("lp", statements=("Dark is capped by \\param{darkcap}.",))
    scripted_llm.enqueue("new", broken, answer_of("lp"))
    dest = tmp_path / "blends"
    assert new(dest, "lp", "--llm", "openai", "--base-url", scripted_llm.base_url, "--no-cache") == 0
    _, second = scripted_llm.requests_for("new")
    assert "(s7) \\param{darkcap} names no key of data.json" in second.messages[-1]["content"]
    scripted_llm.enqueue("new", broken, broken, broken)
    other = tmp_path / "other"
    assert new(other, "lp", "--llm", "openai", "--base-url", scripted_llm.base_url, "--no-cache") == 1
    assert "refused: none of the model's 3 answers made a problem folder that validates" in capsys.readouterr().err
    assert not other.exists() and len(scripted_llm.requests_for("new")) == 5


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
    broken = tmp_path / "broken.parquet"
    broken.write_text("weight,volume\n1,2\n")
    assert new(tmp_path / "y", "csv", "--data", str(broken), "--llm", "reference") == 2
    assert "broken.parquet: cannot be read as a table" in capsys.readouterr().err


def test_numbers_in_skips_ids_and_ordinals_and_reads_thousands_and_percent():
    found = numbers_in("Rule s4 on the 2nd day: ship 1,200 units, 30% by air, at 4.50 each; CO2 ignored.")
    assert [(w.value, w.percent) for w in found] == [(1200.0, False), (30.0, True), (4.5, False)]


@pytest.mark.parametrize("text, readings", [
    ("a change of -3.5 degrees", [(-3.5,)]),
    ("a change of \u22122 degrees", [(-2.0,)]),
    ("minus 4 or negative 1.5", [(-4.0,), (-1.5,)]),
    ("costs 7. 2 dollars", [(7.2, 7.0, 2.0)]),
    ("a total of 1,234.5", [(1234.5,)]),
    ("12 % or 12 percent", [(12.0, 0.12), (12.0, 0.12)]),
    ("3/4 of the stock", [(0.75, 3.0, 4.0)]),
    ("1.5k units, 2 million dollars", [(1500.0, 1.5), (2e6, 2.0)]),
    ("twenty-five trucks", [(25.0,)]),
    ("starts at 10:57:43", [(39463.0, 39463 / 60, 39463 / 3600, 10.0, 57.0, 43.0)]),
    ("ranges 3-5", [(3.0,), (5.0,)]),
    ("x[3], x[4], and x[5] and y_{12}, z_7", []),
])
def test_numbers_in_reads_what_people_write(text, readings):
    assert [w.readings for w in numbers_in(text)] == [pytest.approx(r) for r in readings]


def test_dates_and_clock_times_trace_converted_numbers_to_their_text():
    written = numbers_in("from 2024-03-05 to March 9, 2024, shifts 10:51:00 to 10:57:43")
    hows = {d.how: d.value for d in derived(written)}
    assert hows["days from 2024-03-05 to March 9, 2024"] == 4  # by hand: 5 March to 9 March
    assert hows["minutes from 10:51:00 to 10:57:43"] == pytest.approx(6 + 43 / 60)
    assert source_of(6.72, written, derived(written)) == "minutes from 10:51:00 to 10:57:43"  # rounded, traced
    assert source_of(65, written, []) == "2024-03-05"  # day of the year: 31 + 29 + 5 (2024 is a leap year)
    assert source_of(6.8, written, derived(written)) is None


def test_a_request_read_from_standard_input(tmp_path, scripted_llm, monkeypatch):
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO((FIXTURES / "milp" / "request.txt").read_text()))
    scripted_llm.enqueue("new", answer_of("milp"))
    dest = tmp_path / "van"
    assert main(["new", str(dest), "--from", "-", "--llm", "openai", "--base-url", scripted_llm.base_url]) == 0
    assert (dest / "new" / "request.txt").read_text() == (FIXTURES / "milp" / "request.txt").read_text()
    assert "950" in scripted_llm.requests[0].messages[-1]["content"]  # the user's words are the prompt


def test_a_request_number_found_only_in_a_table_is_the_users_data(tmp_path):
    """A number the request writes that only a --data table holds is the user's own data, not a finding; one no
    file holds still is."""
    table = tmp_path / "depots.csv"
    table.write_text("depot,capacity\nnorth,1250\nsouth,980.5\n")
    draft = Draft(snop={"problem_info": ["Each depot ships at most its capacity."], "objective": "Minimize cost."},
                  data={}, tables=[table])
    request = "The north depot holds 1,250 pallets and the south one 980.5; the fleet has 7 trucks."
    found = [f["number"] for f in check_numbers(request, draft) if f["kind"] == "not in the folder"]
    assert found == ["7"]  # 1,250 and 980.5 are cells of the table
    alone = Draft(snop=draft.snop, data={})  # without the table all three are findings
    assert sorted(f["number"] for f in check_numbers(request, alone)) == ["1,250", "7", "980.5"]
