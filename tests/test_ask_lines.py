"""`optimus ask`'s lines read like a report (issue 33 item 7): no "difference +0, -0.00%", one vocabulary of status
words on both sides of the arrow, one count of model calls per question."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from optimus.commands.ask import objective_line
from optimus.commands.cli import main

ROOT = Path(__file__).parent.parent
SANDBOX = ["--sandbox", "process"]
# The bakery: max 3L + 5C, 10L + 30C <= 600 (oven), 0.5L + 0.4C <= 20 (flour), C <= max_cakes (30): 32 loaves
# and 9 cakes, 141. By hand:
LOOSER = "what if the café took at most 20 cakes?"  # 9 cakes stay under 20: nothing moves, 141
TIGHTER = "what if the café took at most 5 cakes?"  # C = 5: L <= 45 (oven), L <= 36 (flour): 108 + 25 = 133
REQUESTS = {LOOSER: 20, TIGHTER: 5}


@pytest.fixture(scope="module")
def bakery(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("lines") / "bakery"
    shutil.copytree(ROOT / "examples" / "bakery", folder, ignore=shutil.ignore_patterns("runs", "variants"))
    for k, (question, cakes) in enumerate(REQUESTS.items(), 1):
        (folder / "reference" / "questions" / f"q{k}").mkdir(parents=True)
        (folder / "reference" / "questions" / f"q{k}" / "question.json").write_text(json.dumps(
            {"question": question, "request": {"kind": "what-if", "data": [{"key": "max_cakes", "set": cakes}]}}))
    assert main(["solve", str(folder), "--llm", "reference", "--mode", "debug", *SANDBOX]) == 0
    return folder


def asked(folder: Path, question: str, capsys) -> str:
    capsys.readouterr()
    assert main(["ask", str(folder / "runs" / "latest"), question, "--llm", "reference", *SANDBOX]) == 0
    return capsys.readouterr().out


def test_no_change_is_said_in_words(bakery, capsys):
    out = asked(bakery, LOOSER, capsys)
    assert "objective: 141 → 141 (no change)" in out
    assert "+0" not in out and "-0.00%" not in out and "difference" not in out


def test_a_change_gives_its_difference(bakery, capsys):
    out = asked(bakery, TIGHTER, capsys)
    assert "objective: 141 → 133 (difference -8, -5.67%)" in out


def test_the_status_words_are_the_same_on_both_sides(bakery, capsys):
    """Before: the run's report says "solved" and its solver "optimal"; after: the re-run's. Both sides in the
    solver's words, not "solved → optimal"."""
    out = asked(bakery, TIGHTER, capsys)
    line = next(x for x in out.splitlines() if x.startswith("status:"))
    assert line.startswith("status: optimal, as before") and "solved" not in line
    assert "solver status optimal" not in line  # the word once


def test_one_count_of_model_calls(bakery, capsys):
    """Offline: one call reads the question, the re-run calls nothing, no paragraph was written for it."""
    out = asked(bakery, LOOSER, capsys)
    said = [line for line in out.splitlines() if "model call" in line]
    assert said == ["model calls for this question: 1 (reading the question 1, solving 0, the paragraph 0)"]
    entry = json.loads((bakery / "runs" / "latest" / "ask.jsonl").read_text().splitlines()[-1])
    assert entry["calls"] == 1 and sum(entry["calls_by"].values()) == 1


def test_a_tiny_relative_difference_is_not_rounded_to_zero():
    entry = {"before": {"objective": 1e6}, "after": {"objective": 1e6 + 3}, "difference": 3.0, "relative": 3e-6}
    line = objective_line(entry)
    assert "0.00%" not in line and "+3" in line and "3e-06" in line
