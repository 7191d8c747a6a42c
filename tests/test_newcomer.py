"""What a newcomer meets first: the README's minimal folder (examples/bakery) solves offline in every mode, and a
folder whose tables lie beside the SNOP is told where they belong."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from optimus.commands.cli import main
from optimus.core.stages import MODES

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "bakery"


def test_the_example_is_right_by_hand():
    """The second way to its optimum: every whole number of cakes, the most loaves that fit beside them."""
    d = json.loads((EXAMPLE / "data.json").read_text())
    best = 0
    for cakes in range(d["max_cakes"] + 1):
        room = min((d["oven_minutes"] - d["oven_cake"] * cakes) / d["oven_loaf"],
                   (d["flour_kg"] - d["flour_cake"] * cakes) / d["flour_loaf"])
        if room >= 0:
            best = max(best, d["profit_loaf"] * int(room + 1e-9) + d["profit_cake"] * cakes)
    assert best == json.loads((EXAMPLE / "expected.json").read_text())["objective"]


@pytest.mark.parametrize("mode", MODES)
def test_the_example_solves_offline_in_every_mode(mode, tmp_path):
    folder = tmp_path / "bakery"
    shutil.copytree(EXAMPLE, folder, ignore=shutil.ignore_patterns("runs", "test_generated.py"))
    assert main(["solve", str(folder), "--llm", "reference", "--mode", mode, "--sandbox", "process"]) == 0
    report = json.loads((folder / "runs" / "latest" / "report.json").read_text())
    assert report["status"] == "solved" and report["verified"] and report["objective_matches"], report["message"]


def test_tables_beside_the_snop_are_told_where_they_belong(tmp_path, capsys):
    folder = tmp_path / "loose"
    folder.mkdir()
    shutil.copy(EXAMPLE / "snop.json", folder)
    (folder / "prices.csv").write_text("item,price\nbread,3\n")
    assert main(["validate", str(folder)]) == 2
    out = capsys.readouterr().out
    assert "prices.csv" in out and str(folder / "data") in out and "data.json" in out
