"""Goals in priority order (lexicographic goal programming): the report names the first stage as the objective
and lists every stage. The workshop fixture: profit first, then overtime among the plans of greatest profit."""

from __future__ import annotations

import itertools
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from optimus.commands.cli import main

FOLDER = Path(__file__).parent / "fixtures" / "goals"


def by_hand(d: dict) -> tuple[float, float]:
    """Stage 1 by enumerating the vertices of {wood, labour ≤ regular + max overtime, t, c ≥ 0}; stage 2 the least
    overtime over the vertices of the greatest-profit face (overtime is linear on it, so a vertex attains it)."""
    rows = [((d["wood_per_table"], d["wood_per_chair"]), d["wood"]),
            ((d["hours_per_table"], d["hours_per_chair"]), d["regular_hours"] + d["max_overtime"]),
            ((-1, 0), 0), ((0, -1), 0)]
    vertices = []
    for (a, p), (b, q) in itertools.combinations(rows, 2):
        det = a[0] * b[1] - a[1] * b[0]
        if abs(det) > 1e-12:
            x = ((p * b[1] - a[1] * q) / det, (a[0] * q - p * b[0]) / det)
            if all(r[0] * x[0] + r[1] * x[1] <= s + 1e-9 for r, s in rows):
                vertices.append(x)
    profit = {v: d["profit_per_table"] * v[0] + d["profit_per_chair"] * v[1] for v in vertices}
    best = max(profit.values())
    hours = [d["hours_per_table"] * t + d["hours_per_chair"] * c for (t, c), p in profit.items() if p > best - 1e-9]
    return best, min(max(0.0, h - d["regular_hours"]) for h in hours)


def test_ground_truth_by_hand_cbc_and_highs_agree(tmp_path):
    data = json.loads((FOLDER / "data.json").read_text())
    assert by_hand(data) == pytest.approx((3000, 40))  # 50 tables: 300 wood, 200 hours (40 over)
    for solver in ("CBC", "HIGHS"):
        work = tmp_path / solver
        work.mkdir()
        shutil.copy(FOLDER / "data.json", work)
        subprocess.run([sys.executable, str(FOLDER / "reference" / "solver.py")], cwd=work, check=True,
                       capture_output=True, env={**os.environ, "OPTIMUS_SOLVER": solver})
        stages = json.loads((work / "solution.json").read_text())["stages"]
        assert [s["objective"] for s in stages] == pytest.approx(list(by_hand(data)), rel=1e-6)


def test_the_first_stage_is_the_objective_and_every_stage_is_reported(tmp_path, capsys):
    folder = tmp_path / "goals"
    shutil.copytree(FOLDER, folder)
    assert main(["solve", str(folder), "--llm", "reference", "--sandbox", "process", "--mode", "prompt"]) == 0
    report = json.loads((folder / "runs" / "latest" / "report.json").read_text())
    best, overtime = by_hand(json.loads((folder / "data.json").read_text()))
    assert report["status"] == "solved" and report["objective"] == pytest.approx(best)
    assert report["objective_matches"] is True
    assert [s["name"] for s in report["stages"]] == ["profit", "overtime"]
    assert [s["objective"] for s in report["stages"]] == pytest.approx([best, overtime], rel=1e-6)
    # The re-solve checks the captured model, the last stage's (a minimisation), in that stage's sense.
    assert report["verification"]["outcome"] == "agrees"
    assert "objective = stage 1 of 2 (first priority); stages: profit 3000" in capsys.readouterr().err
