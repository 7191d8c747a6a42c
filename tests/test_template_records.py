"""Records-shaped data (issue 32 item 3): a list (or map) of objects, each of fixed fields, as input_format writes it
(`[{"name": name_{j}, "price": price_{j}} for j in 1, ..., N]`). The template reader gives the item a record level
with its fields; validate checks each record's fields like keys, and the data summary still names the fields."""

from __future__ import annotations

import json
from pathlib import Path

from optimus.core.datasummary import summarize
from optimus.core.template import read_template
from optimus.core.validate import validate
from tests.test_validate_malformed import SNOP, write_folder

ROOT = Path(__file__).resolve().parents[1]
# A market stall of our own: its fruit as records, each with a nested list of weekly prices.
STALL_FORMAT = """{
  "fruit": [{"name": name_{j}, "price": price_{j}, "weekly": [w_{j,t} for t in 1, ..., T]} for j in 1, ..., N],
  "crates": {s: {"size": size_{s}, "cost": cost_{s}} for s in sizes},
  "T": T
}"""
STALL_DATA = {
    "fruit": [{"name": "plums", "price": 2.4, "weekly": [3, 4]}, {"name": "pears", "price": 1.9, "weekly": [5, 1]}],
    "crates": {"small": {"size": 10, "cost": 1.5}, "large": {"size": 25, "cost": 3}},
    "T": 2,
}
STALL_SNOP = {**SNOP, "input_format": STALL_FORMAT,
              "problem_info": [("Fruit \\var{j} sells at \\param{price_{j}}, \\param{w_{j,t}} crates in week t of "
                                "\\param{T}; a crate of size s holds \\param{size_{s}} kg and costs \\param{cost_{s}}.")]}


def record_fields(key: str) -> tuple[list[str], list[str]]:
    entry = next(e for e in read_template(STALL_FORMAT).entries if e.key == key)
    return [level.kind for level in entry.levels], [f.key for f in entry.levels[-1].fields]


def test_the_reader_gives_records_their_fields():
    assert record_fields("fruit") == (["list", "record"], ["name", "price", "weekly"])
    assert record_fields("crates") == (["map", "record"], ["size", "cost"])
    fruit = next(e for e in read_template(STALL_FORMAT).entries if e.key == "fruit")
    assert fruit.levels[0].bound == "N"
    weekly = fruit.levels[1].fields[2]
    assert weekly.kind == "list" and weekly.bounds == ["T"]  # a field nests like any key
    assert read_template(STALL_FORMAT).notes == []


def test_a_literal_list_of_records():
    text = '{"jobs": [{"id": id_1, "hours": h_1}, ..., {"id": id_N, "hours": h_N}]}'
    (entry,) = read_template(text).entries
    assert [level.kind for level in entry.levels] == ["list", "record"]
    assert [f.key for f in entry.levels[1].fields] == ["id", "hours"]


def test_records_validate_clean(tmp_path):
    """Failed before: `$.fruit[0]: expected a single value (nesting depth 1), seen an object`."""
    assert validate(write_folder(tmp_path / "stall", snop=STALL_SNOP, data=STALL_DATA)) == []


def test_a_record_is_checked_field_by_field(tmp_path):
    data = json.loads(json.dumps(STALL_DATA))
    del data["fruit"][1]["price"]
    data["fruit"][0]["weekly"] = 7
    data["crates"]["large"] = 25
    data["fruit"].append({"name": "figs", "price": 4, "weekly": [1, 2, 3]})
    findings = {(f.level, f.where): f.message for f in validate(write_folder(tmp_path / "bad", snop=STALL_SNOP,
                                                                              data=data))}
    assert "expected key 'price'" in findings[("error", "$.fruit[1].price")]
    assert "expected a list" in findings[("warning", "$.fruit[0].weekly")]
    assert "expected an object" in findings[("warning", "$.crates.large")]
    assert "expected 2 items" in findings[("warning", "$.fruit[2].weekly")]  # T = 2 in data.json


def test_the_summary_still_names_the_fields_never_the_values():
    text = summarize(STALL_DATA, STALL_FORMAT)
    assert '"fruit": list[2] of object {"name": string, "price": float, "weekly": list[2] of int}' in text
    assert '"crates": object[2] mapping string keys to object {"size": int, "cost": ' in text
    assert "plums" not in text and "small" not in text


def test_the_records_folder_of_the_benchmark_validates_clean():
    assert validate(ROOT / "nlp4lp" / "44") == []
