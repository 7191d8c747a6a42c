"""What-if, diagnosis and repair over every data.json shape the README offers: lists, nested lists, maps, maps of
maps, records; "every" and "each" over a map; map entries named by their key path (`min_need.vitc`)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from types import SimpleNamespace

import pytest

from optimus.bench.ask import data_shape
from optimus.commands.cli import main
from optimus.commands.question import data_candidate, parse
from optimus.core.changes import map_change
from optimus.core.errors import SpecError

ROOT = Path(__file__).parent.parent
SANDBOX = ["--sandbox", "process"]
DATA = {
    "price": [4, 2.5, 10],  # a list
    "lane": [[1, 2], [3, 4]],  # nested lists
    "cost": {"oats": 0.3, "rice": 0.5},  # a map
    "content": {"oats": {"iron": 4.0, "vitc": 0}, "rice": {"iron": 0.8, "vitc": 1}},  # a map of maps
    "foods": [{"name": "oats", "price": 2, "stock": 7}, {"name": "rice", "price": 3, "stock": 5}],  # records
    "fee": 35,
}


def problem(data: dict = DATA):
    """What parse and data_candidate read of a problem: its data and its statements."""
    statements = ["A pack of food f costs \\param{cost_{f}}.", "Food f holds \\param{content_{f,n}} of n."]
    return SimpleNamespace(data=data, snop=SimpleNamespace(problem_info=statements))


def changes(item: dict) -> dict[str, float]:
    p = problem()
    return {e.text().split(":")[0]: e.new for e in data_candidate(parse({"kind": "what-if", "data": [item]}, p), p).edits}


@pytest.mark.parametrize("item, expected", [
    ({"key": "price", "multiply": 2}, {"price[0]": 8, "price[1]": 5.0, "price[2]": 20}),
    ({"key": "lane", "index": [1], "add": 1}, {"lane[1][0]": 4, "lane[1][1]": 5}),
    ({"key": "lane", "index": ["*", 0], "set": 9}, {"lane[0][0]": 9, "lane[1][0]": 9}),
    # "every cost 20 % lower" on a map: failed before with "cost[] holds no number"
    ({"key": "cost", "multiply": 0.8}, {"cost.oats": 0.24, "cost.rice": 0.4}),
    ({"key": "cost", "index": ["rice"], "set": 0.45}, {"cost.rice": 0.45}),
    ({"key": "content", "index": ["*", "iron"], "multiply": 0.5}, {"content.oats.iron": 2.0, "content.rice.iron": 0.4}),
    ({"key": "content", "index": ["oats"], "add": 1}, {"content.oats.iron": 5.0, "content.oats.vitc": 1}),
    ({"key": "foods", "index": ["*", "price"], "add": 1}, {"foods[0].price": 3, "foods[1].price": 4}),
    ({"key": "fee", "multiply": 1.2}, {"fee": 42}),
], ids=["list", "nested-list-row", "nested-list-column", "every-map-entry", "one-map-entry", "each-map-of-maps-column",
        "one-map-of-maps-row", "each-record-field", "scalar"])
def test_a_data_change_reaches_every_number_it_names_in_every_shape(item, expected):
    """The new values by hand from DATA; integers stay integers where the result is whole (fee 35 × 1.2 = 42)."""
    got = changes(item)
    assert got == pytest.approx(expected) and all(type(got[k]) is type(v) for k, v in expected.items())


@pytest.mark.parametrize("item, field, words", [
    ({"key": "cost", "index": ["barley"], "set": 1}, "data[0].index", "cost.barley in data.json (the keys there: oats, rice)"),
    ({"key": "content", "index": ["*", "zinc"], "set": 1}, "data[0].index", "content.*.zinc in data.json (the keys there: iron, vitc)"),
    ({"key": "fee", "index": ["*"], "set": 1}, "data[0].index", "no place fee"),
    ({"key": "price", "index": ["oats"], "set": 1}, "data[0].index", "no place price.oats"),
    ({"key": "foods", "index": ["*", "name"], "set": 1}, "data[0]", "holds no number"),
    ({"key": "cost", "index": "oats", "set": 1}, "data[0].index", "expected a list"),
])
def test_a_change_that_names_no_number_is_refused_naming_the_field(item, field, words):
    p = problem()
    with pytest.raises(SpecError) as err:
        data_candidate(parse({"kind": "what-if", "data": [item]}, p), p)
    assert field in str(err.value) and words in str(err.value)


def test_a_row_named_after_a_map_key_picks_that_entry_when_values_tie():
    """energy and vitc both need 60: the row's name says which limit it is."""
    data = {"min_need": {"energy": 60, "vitc": 60}, "max_packs": {"oats": {"north": 60}}}
    statements = ["x", "y", "z", "Every nutrient n needs at least \\param{min_need_{n}}."]
    edit, note = map_change({"row": "s4_need_vitc", "from": 60, "to": 55}, statements, data)
    assert edit.text() == "min_need.vitc: 60 → 55" and "from the row name" in note
    edit, _ = map_change({"row": "s4_need_energy", "from": 60, "to": 58}, statements, data)
    assert edit.text() == "min_need.energy: 60 → 58"


@pytest.fixture(scope="module")
def canteen(tmp_path_factory) -> Path:
    """nlp4lp/43 (a MILP over maps, general integers, a constant objective term), solved once for the module."""
    folder = tmp_path_factory.mktemp("ask") / "43"
    shutil.copytree(ROOT / "nlp4lp" / "43", folder, ignore=shutil.ignore_patterns("runs", "variants"))
    assert main(["solve", str(folder), "--llm", "reference", "--mode", "supervised", *SANDBOX]) == 0
    return folder


def expected(folder: Path, qid: str) -> dict:
    """Ground truth: the reference program on the changed data, CBC and HiGHS agreeing (python -m optimus.bench.ask)."""
    return next(q["expected"] for q in json.loads((folder / "questions.json").read_text()) if q["id"] == qid)


def test_every_cost_20_percent_lower_on_a_map_shaped_folder_answers(canteen, capsys):
    folder = canteen
    data = json.loads((folder / "data.json").read_text())
    before = json.loads((folder / "runs" / "latest" / "report.json").read_text())["objective"]
    code = main(["ask", str(folder / "runs" / "latest"), "what if every cost were 20 % lower?", "--llm", "reference",
                 *SANDBOX])
    out = capsys.readouterr().out
    entry = json.loads((folder / "runs" / "latest" / "ask.jsonl").read_text().splitlines()[-1])
    assert code == 0 and entry["after"]["status"] == "solved" and entry["after"]["verified"]
    assert all(f"data.json cost.{f}: " in out for f in data["cost"])
    # By hand: scaling every cost keeps the cheapest order, so the packs' part of the bill is 20 % lower and
    # the delivery fee stays; and the ground truth of questions.json, by two solvers.
    by_hand = (before - data["delivery_fee"]) * 0.8 + data["delivery_fee"]
    assert entry["after"]["objective"] == pytest.approx(by_hand, rel=1e-9)
    assert entry["after"]["objective"] == pytest.approx(expected(folder, "q1")["objective"], rel=1e-9)


@pytest.mark.parametrize("qid, question", [("q5", "why is there no spinach in the order?"),
                                           ("q6", "what would a vitamin C need 100 units lower save?")])
def test_why_not_and_sensitivity_on_a_milp_with_general_integers_agree_with_cbc(canteen, qid, question):
    """The issue's MILP case: general integers with bounds and a constant objective term (the delivery fee,
    in solution.json). Failed before: `PulpError: Unknown bound LI` from the CBC second opinion."""
    folder = canteen
    assert main(["ask", str(folder / "runs" / "latest"), question, "--llm", "reference", *SANDBOX]) == 0
    after = json.loads((folder / "runs" / "latest" / "ask.jsonl").read_text().splitlines()[-1])["after"]
    assert after["status"] == "optimal" and after["verified"] and "CBC agrees: optimal" in after["how"]
    assert after["objective"] == pytest.approx(expected(folder, qid)["objective"], rel=1e-9)


def test_diagnose_and_repair_name_a_map_entry_by_its_key_path(tmp_path, capsys):
    folder = tmp_path / "43-infeasible"
    shutil.copytree(ROOT / "nlp4lp" / "43-infeasible", folder)
    assert main(["solve", str(folder), "--llm", "reference", "--mode", "supervised", *SANDBOX]) == 0
    run = folder / "runs" / "latest"
    capsys.readouterr()
    assert main(["diagnose", str(run), *SANDBOX]) == 0
    out = capsys.readouterr().out
    assert "set min_need.vitc: 2500 → " in out and "model row s4_need_vitc" not in out
    # The second way: the most vitamin C the wholesaler's packs can hold, from data.json.
    data = json.loads((folder / "data.json").read_text())
    most = sum(data["content"][f]["vitc"] * data["max_packs"][f] for f in data["cost"])
    assert float(re.search(r"set min_need\.vitc: 2500 → ([0-9.]+)", out).group(1)) == pytest.approx(most)
    assert main(["repair", str(run), "--llm", "reference", "--accept", "1", *SANDBOX]) == 0
    rounds = [json.loads(line) for line in (run / "repair.jsonl").read_text().splitlines()]
    assert rounds[-1]["diff"] == [f"data.json min_need.vitc: 2500 → {most:g}"] and rounds[-1]["outcome"] == "feasible"
    assert json.loads((Path(rounds[-1]["variant"]) / "data.json").read_text())["min_need"]["vitc"] == most


def test_data_shapes_are_told_apart_for_the_bench_table():
    assert data_shape({"a": [1, 2], "b": [[1, 2]], "c": 3}) == "lists"
    assert data_shape({"cost": {"oats": 1}, "content": {"oats": {"iron": 2}}}) == "maps"
    assert data_shape({"foods": [{"name": "oats", "price": 2}], "fee": 1}) == "records"


def test_bench_ask_puts_every_kind_to_the_map_shaped_milp(tmp_path):
    """`optimus bench --ask` offline: each kind of question on nlp4lp/43, every answer matching the ground truth
    that CBC and HiGHS agree on (questions.json), tabled by kind and by problem type and data shape."""
    problems = tmp_path / "problems"
    shutil.copytree(ROOT / "nlp4lp" / "43", problems / "43", ignore=shutil.ignore_patterns("runs", "variants"))
    out = tmp_path / "out"
    assert main(["bench", str(problems), "--ask", "--llm", "reference", "--out", str(out), *SANDBOX]) == 0
    rows = [json.loads(line) for line in (out / "ask.jsonl").read_text().splitlines()]
    kinds = {"what-if-data", "what-if-statement", "why", "why-not", "sensitivity"}
    assert {r["kind"] for r in rows} == kinds and all(r["right"] for r in rows), [r for r in rows if not r["right"]]
    table = (out / "summary.md").read_text()
    assert f"| MILP | maps | {', '.join(sorted(kinds))} | {len(rows)} | {len(rows)} / {len(rows)} |" in table


def test_a_repair_in_words_moves_a_map_entry_by_its_key_path():
    """The user's words, turned by the model into {"key": "min_need", "index": ["vitc"]}: the value is computed
    here from data.json (by hand: 2500 − 200), the change named by its key path."""
    from optimus.commands.repair import change_from

    p = problem({"min_need": {"energy": 95, "vitc": 2500}, "foods": [{"name": "oats", "price": 2}]})
    cand = change_from({"data": [{"key": "min_need", "index": ["vitc"], "add": -200},
                                 {"key": "foods", "index": [0, "price"], "multiply": 1.5}]}, p)
    assert cand.what == "set min_need.vitc: 2500 → 2300; set foods[0].price: 2 → 3"
    with pytest.raises(SpecError, match=r"no value min_need\.zinc in data\.json"):
        change_from({"data": [{"key": "min_need", "index": ["zinc"], "set": 1}]}, p)
