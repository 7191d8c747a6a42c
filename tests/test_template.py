"""The template language of input_format/output_format: loose public writing, inclusive ranges, dict
comprehensions over named entities; and what validate and the data summary make of them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from optimus.core.datasummary import summarize
from optimus.core.template import TemplateError, parse_template, read_template
from optimus.core.validate import validate
from tests.test_validate_malformed import SNOP, write_folder

# A small shipping problem of our own, its data keyed by depot and store names.
DEPOT_FORMAT = """{
  "depots": [d for d in depots],
  "stores": [r for r in stores],
  "stock": {d: stock_{d} for d in depots},
  "demand": {r: demand_{r} for r in stores},
  "ship_cost": {d: {r: ship_cost_{d,r} for r in stores} for d in depots}
}"""
DEPOT_DATA = {
    "depots": ["Harbour", "Ridge"],
    "stores": ["Mill", "Square", "Quay"],
    "stock": {"Harbour": 40, "Ridge": 25},
    "demand": {"Mill": 10, "Square": 30, "Quay": 15},
    "ship_cost": {"Harbour": {"Mill": 4, "Square": 6, "Quay": 2.5}, "Ridge": {"Mill": 3, "Square": 1, "Quay": 7}},
}
DEPOT_SNOP = {
    **SNOP,
    "problem_info": ["Depot \\var{d} holds \\param{stock_{d}} crates; store \\var{r} needs \\param{demand_{r}}.",
                     "A crate from d to r costs \\param{ship_cost_{d,r}}."],
    "input_format": DEPOT_FORMAT,
    "objective": "Minimize the shipping cost.",
    "output_format": "{\"ship\": {d: {r: ship_{d,r} for r in stores} for d in depots}}",
}


def levels(text: str, key: str) -> list[tuple[str, str | None, int]]:
    entry = next(e for e in read_template(text).entries if e.key == key)
    return [(level.kind, level.bound, level.offset) for level in entry.levels]


@pytest.mark.parametrize("range_text,bound,offset", [
    ("1, ..., K", "K", 0),
    ("0, ..., K", "K", 1),
    ("0,...,K", "K", 1),
    ("1,...K", "K", 0),
    ("1..7", "7", 0),
    ("0..6", "6", 1),
    ("range(K)", "K", 0),
    ("range(1, K)", "K", -1),
    ("1, ..., N-1", "N", -1),
    ("2, ..., N+1", "N", 0),
    ("suppliers", "suppliers", 0),
])
def test_range_bounds_count_inclusive_ranges(range_text, bound, offset):
    assert levels(f'{{"p": [p_i for i in {range_text}]}}', "p") == [("list", bound, offset)]


def test_dict_comprehensions_plain_and_nested():
    assert levels(DEPOT_FORMAT, "stock") == [("map", "depots", 0)]
    assert levels(DEPOT_FORMAT, "ship_cost") == [("map", "depots", 0), ("map", "stores", 0)]
    mixed = '{"load": {d: [load_{d,t} for t in 1, ..., T] for d in depots}}'
    assert levels(mixed, "load") == [("map", "depots", 0), ("list", "T", 0)]
    # Braces of fixed keys are an object, not a map, even when a value inside loops.
    (entry,) = read_template('{"limits": {lo: low, hi: [h_i for i in 1, ..., N]}}').entries
    assert entry.kind == "object" and [c.key for c in entry.children] == ["lo", "hi"]


def test_typos_are_read_through_and_noted_with_their_line():
    text = '{\n  "price", [p_i for i in 1, ..., N],\n  "cap": [c_i for i in 1, ..., N]\n  "n": N\n'
    template = read_template(text)
    assert [e.key for e in template.entries] == ["price", "cap", "n"]
    notes = [(n.line, n.lost) for n in template.notes]
    assert notes == [(2, False), (3, False), (5, False)], [str(n) for n in template.notes]
    assert "where ':' belongs" in str(template.notes[0]) and "closing '}'" in str(template.notes[2])
    assert [e.key for e in parse_template(text)] == ["price", "cap", "n"]  # nothing lost: strict reads it too


def test_an_unreadable_line_is_skipped_and_the_rest_read():
    text = '{\n  "a": [a_i for i in 1, ..., N},\n  ??? what\n  "b": b\n}'
    template = read_template(text)
    assert [e.key for e in template.entries] == ["b"]
    assert [(n.line, n.lost) for n in template.notes] == [(2, True), (3, True)]
    with pytest.raises(TemplateError, match="line 2"):
        parse_template(text)
    assert read_template("three lists of costs").notes[0].lost


def folder(tmp_path: Path, data: dict, snop: dict = DEPOT_SNOP) -> Path:
    return write_folder(tmp_path / "depots", snop=snop, data=data)


def test_data_keyed_by_names_validates_clean(tmp_path):
    assert validate(folder(tmp_path, DEPOT_DATA)) == []


def test_disagreeing_key_sets_warn_naming_both_paths(tmp_path):
    data = json.loads(json.dumps(DEPOT_DATA))
    data.pop("depots")  # no list of names to compare with: the maps keyed by depots are compared with each other
    data["ship_cost"]["Ridge"].pop("Quay")
    data["stock"]["Dock"] = 5
    snop = {**DEPOT_SNOP, "input_format": DEPOT_FORMAT.replace('  "depots": [d for d in depots],\n', "")}
    findings = validate(folder(tmp_path, data, snop))
    assert all(f.level == "warning" for f in findings), findings
    text = "\n".join(map(str, findings))
    assert "$.ship_cost: keys differ from those of $.stock (both keyed by depots)" in text, text
    assert "missing 'Dock'" in text
    assert "$.ship_cost.Ridge: keys differ from the names in $.stores" in text and "missing 'Quay'" in text


def test_inclusive_range_is_one_longer(tmp_path):
    snop = {**SNOP, "input_format": '{"K": K, "price": [p_k for k in 0, ..., K], "w": [w_k for k in 1, ..., K]}',
            "problem_info": ["Item k costs \\param{p_k} and weighs \\param{w_k}; \\param{K} is the last index."]}
    assert validate(folder(tmp_path, {"K": 3, "price": [1, 2, 3, 4], "w": [5, 6, 7]}, snop)) == []
    findings = validate(write_folder(tmp_path / "short", snop=snop, data={"K": 3, "price": [1, 2, 3], "w": [5, 6, 7]}))
    (finding,) = findings
    assert finding.level == "warning" and finding.where == "$.price"
    assert "expected 4 items (K = 3 in data.json $.K; its range holds K+1 items), seen 3" in finding.message


def test_summary_shows_key_counts_never_the_names(tmp_path):
    text = summarize(DEPOT_DATA, DEPOT_FORMAT)
    for name in ("Harbour", "Ridge", "Mill", "Square", "Quay"):
        assert name not in text
    assert '"stock": object[2] mapping string keys to int' in text
    assert '"ship_cost": object[2] mapping string keys to object[3] mapping string keys to number' in text
    # Without the template the names are still kept out: the keys occur as strings elsewhere in the data.
    assert summarize(DEPOT_DATA) == text
    # A small object of fields that are not data keeps its keys: they are structure.
    assert summarize({"limits": {"low": 1, "high": 9}}) == '- "limits": object {"low": int, "high": int}'
    # Maps of different sizes: a range.
    assert '"m": object[2] mapping string keys to object[1..2]' in summarize(
        {"m": {"a": {"x": 1}, "b": {"x": 1, "y": 2}}}, '{"m": {i: {j: m_{i,j} for j in J} for i in I}}')
