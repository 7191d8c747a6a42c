"""The number check knows an index when it sees one (issue 31): table labels, enumerations, subscripts and the
parts of dates and times are not data; scientific notation is one number. A number left out is still found."""

from __future__ import annotations

import json

import pytest

from optimus.commands.cli import main
from optimus.core.numbers import numbers_in

WEIGHTS = [4, 7, 2, 9, 11, 3, 5, 8, 12, 6, 13, 10, 14, 16, 15]
REQUEST = ("A ferry loads cars; their weights in tonnes:\n"
           "i 1 2 3 … 15\n"
           "w " + " ".join(map(str, WEIGHTS)) + "\n"
           "Rules:\n"
           "1. The ferry carries at most 60 tonnes.\n"
           "2. A car is loaded whole or not at all.\n"
           "3. Loading the ferry costs 250 dollars whatever it carries.\n"
           "Load as many tonnes as possible.\n")
SNOP = {
    "name": "ferry loading",
    "problem_type": "MILP",
    "problem_info": ["Car i weighs \\param{weight_{i}} tonnes; \\var{load_{i}} is 1 when car i is loaded, else 0.",
                     "The cars loaded weigh at most \\param{capacity} tonnes together."],
    "input_format": "{\"weight\": [weight_{i} for i in 1, ..., N], \"capacity\": capacity}",
    "objective": "Maximize the tonnes loaded.",
    "output_info": ["\\var{load_{i}} is 1 when car i is loaded.", "\\var{tonnes} is the weight loaded."],
    "output_format": "{\"load\": [load_{i} for i in 1, ..., N], \"tonnes\": tonnes}",
    "solver": "pulp",
}


def answer(data: dict) -> str:
    return "```json\n" + json.dumps({"snop": SNOP, "data": data, "assumptions": []}) + "\n```\n"


def test_an_index_row_and_enumerated_items_yield_no_finding_but_a_number_left_out_does(tmp_path, scripted_llm):
    request = tmp_path / "request.txt"
    request.write_text(REQUEST)
    # The model keeps every weight and the capacity but leaves the fixed 250 dollars out of the folder.
    data = {"weight": WEIGHTS, "capacity": 60}
    scripted_llm.enqueue("new", answer(data), answer(data))
    dest = tmp_path / "ferry"
    code = main(["new", str(dest), "--from", str(request), "--llm", "openai", "--base-url", scripted_llm.base_url,
                 "--no-cache", "--yes"])
    assert code == 0
    findings = json.loads((dest / "new.json").read_text())["findings"]
    assert [f.get("number") for f in findings] == ["250"], findings


@pytest.mark.parametrize("text, values", [
    ("drift −1.3730183823943952e-04 per step", [-1.3730183823943952e-04]),
    ("gain 2.5E3, noise 3.2 × 10^-6", [2500.0, 3.2e-06]),
])
def test_scientific_notation_is_one_number(text, values):
    found = numbers_in(text)
    assert [w.value for w in found] == pytest.approx(values, rel=1e-15)
    assert all(w.kind == "number" for w in found)


@pytest.mark.parametrize("text, labels, data", [
    ("i 1 2 3 … 15\nw 4 7 2", [1, 2, 3, 15], [4, 7, 2]),
    ("period 0 1 2 3\nprice 12 15 11 14", [0, 1, 2, 3], [12, 15, 11, 14]),
    ("day | demand\n1 | 30\n2 | 28\n3 | 35", [1, 2, 3], [30, 28, 35]),
    ("1. at most 12 pallets\n2. there are 7 trucks\n(3) a shift is 8 hours", [1, 2, 3], [12, 7, 8]),
    ("rules (1) at most 40 hours and (2) at least 10 units", [1, 2], [40, 10]),
    ("minimum orders of 1 2 3 units", [], [1, 2, 3]),  # a run inside a sentence is data
    ("x_1 + x_{2} at most 100 and y[3] costs 9", [], [100, 9]),
])
def test_indices_are_told_from_data(text, labels, data):
    found = numbers_in(text)
    assert sorted(w.value for w in found if w.kind == "index") == sorted(labels)
    assert sorted(w.value for w in found if w.kind == "number") == sorted(data)


def test_clock_times_with_am_and_pm_are_one_time_each():
    found = numbers_in("open 9 am to 5:30 pm")
    assert [(w.kind, w.value) for w in found] == [("clock", 9 * 3600), ("clock", 17.5 * 3600)]
