"""The two on-disk forms of a SNOP, the converter, and the data summary."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from optimus.commands.cli import main
from optimus.core.datasummary import summarize
from optimus.core.errors import SpecError
from optimus.core.snop import HEADERS, Snop, parse_text, render_text
from tests.helpers import SUMMARY

SAMPLE = Path(__file__).resolve().parents[2] / "shared" / "nlp4lp-official-sample"
needs_sample = pytest.mark.skipif(not SAMPLE.is_dir(), reason=f"public NLP4LP sample not found at {SAMPLE}")
if not SAMPLE.is_dir():  # said at the end of the run too, not only in the skip reasons
    SUMMARY.append(f"note: the tests that read the public NLP4LP sample skipped: it is not at {SAMPLE} "
                   "(CI lays ../shared beside the clone)")

# Printable text without line breaks (a statement is one line).
line = st.text(st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp")), min_size=1, max_size=40).filter(
    lambda s: s.strip()
)
block = st.lists(line, min_size=1, max_size=4).map("\n".join)
header_free_block = block.filter(lambda s: not any(ln.startswith(h + ":") for ln in s.split("\n") for h in HEADERS))


@st.composite
def raw_snops(draw):
    raw = {
        "problem_type": draw(st.sampled_from(["LP", "MILP", "MIP", "ILP", "QP", "NLP", "ANY", "LP or MILP"])),
        "problem_info": draw(st.lists(line, min_size=1, max_size=5)),
        "input_format": draw(header_free_block),
        "objective": draw(header_free_block),
        "output_info": draw(st.lists(line, max_size=3)),
        "output_format": draw(header_free_block),
    }
    optional = {
        "solver": st.sampled_from(["ANY", "pulp", "cvxpy", "highspy"]),
        "name": line,
        "source": line,
        "notes": header_free_block,
        "x-origin": st.dictionaries(st.text(max_size=5), st.integers() | st.text(max_size=5), max_size=2),
    }
    for key, strategy in optional.items():
        if draw(st.booleans()):
            raw[key] = draw(strategy)
    return raw


@settings(max_examples=300, deadline=None)
@given(raw_snops())
def test_json_text_json_is_the_identity(raw):
    snop = Snop.from_dict(raw)
    again = parse_text(render_text(snop))
    assert again == snop
    assert Snop.from_dict(json.loads(json.dumps(again.to_dict()))) == snop


def test_problem_type_spellings_are_normalised():
    base = {"problem_info": ["x"], "input_format": "{}", "objective": "o", "output_info": [], "output_format": "{}"}
    assert Snop.from_dict({**base, "problem_type": "LP or MILP"}).problem_type == "MILP"
    assert Snop.from_dict({**base, "problem_type": "MIP"}).problem_type == "MILP"
    with pytest.raises(SpecError, match="problem_type"):
        Snop.from_dict({**base, "problem_type": "lp"})


def test_convert_round_trip_through_the_cli(tmp_path, capsys):
    from tests.test_validate_malformed import SNOP

    (tmp_path / "snop.json").write_text(json.dumps(SNOP))
    assert main(["convert", str(tmp_path / "snop.json"), "-o", str(tmp_path / "description.txt")]) == 0
    assert (tmp_path / "description.txt").read_text().startswith("PROBLEM TYPE: LP\n")
    assert main(["convert", str(tmp_path / "description.txt")]) == 0
    assert json.loads(capsys.readouterr().out) == {**SNOP, "solver": "ANY"}
    # Both forms now agree, so the folder validates once data.json is there.
    (tmp_path / "data.json").write_text(json.dumps({"profit": [1], "hours": [[1]], "capacity": [1]}))
    assert main(["validate", str(tmp_path)]) == 0


@needs_sample
@pytest.mark.parametrize("sample", sorted(p.parent for p in SAMPLE.glob("*/*/description.txt")) if SAMPLE.is_dir()
                         else [], ids=lambda p: f"{p.parent.name}/{p.name}")
def test_public_sample_loads_and_round_trips(sample):
    from optimus.core.problem import load_problem

    problem = load_problem(sample)
    assert parse_text(render_text(problem.snop)) == problem.snop
    assert summarize(problem.data)


def test_summary_has_no_values_and_does_not_grow_with_the_data():
    small = {"cost": [1.5 + i for i in range(10)], "n": 10, "grid": [[1, 2]] * 3}
    big = {"cost": [1.5 + i for i in range(10**6)], "n": 10**6, "grid": [[1, 2]] * 3}
    s_small, s_big = summarize(small), summarize(big)
    assert s_small.replace("[10]", "[X]") == s_big.replace("[1000000]", "[X]")
    assert "1.5" not in s_big and "2.5" not in s_big
    assert s_small.splitlines() == ['- "cost": list[10] of float', '- "n": int', '- "grid": list[3] of list[2] of int']


def test_summary_of_big_objects_shows_only_their_size():
    data = {"by_id": {f"item{i}": float(i) for i in range(1000)}, "ragged": [[1], [1, 2.5]]}
    text = summarize(data)
    assert "item7" not in text
    assert '"by_id": object[1000] mapping string keys to float' in text
    assert '"ragged": list[2] of list[1..2] of' in text


@pytest.mark.parametrize("text,strict,loose", [
    ("Minimize the total cost.", "min", "min"),
    ("How much should the firm produce to maximise revenue?", "max", "max"),
    ("Find the minimal number of nurses to hire.", None, "min"),
    ("Choose the largest total value that fits.", None, "max"),
    ("Minimize cost while maximizing coverage.", None, None),
    ("Plan next week's production.", None, None),
])
def test_objective_sense_reads_the_wording(text, strict, loose):
    from optimus.core.snop import objective_sense

    assert objective_sense(text) == strict and objective_sense(text, loose=True) == loose
