"""The re-solve starts HiGHS from the program's checked values to save time; where HiGHS then reports an objective
its own point does not cost (measured: HiGHS 1.16 with presolve on, industrial/timetabling), the re-solve runs
again without the start, so a right answer is verified and not called wrong."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from optimus.commands.cli import main

FOLDER = Path(__file__).resolve().parents[1] / "industrial" / "timetabling-1e3"


def test_a_start_that_misleads_highs_is_dropped_and_the_answer_verified(tmp_path):
    folder = tmp_path / "timetabling"
    shutil.copytree(FOLDER, folder, ignore=shutil.ignore_patterns("runs"))
    assert main(["solve", str(folder), "--llm", "reference", "--mode", "debug", "--sandbox", "process"]) == 0
    report = json.loads((folder / "runs" / "latest" / "report.json").read_text())
    expected = json.loads((folder / "expected.json").read_text())["objective"]
    highs = next(r for r in report["verification"]["resolves"] if r["solver"] == "HiGHS")
    assert report["verified"] and abs(highs["objective"] - expected) <= 1e-6 * max(1.0, abs(expected)), highs
