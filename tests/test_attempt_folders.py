"""What users see of the structure (issue 20): an attempt folder holds the program and its results, never copies
of the harness's sandbox-side code (runners, re-checks, planval, the data recorder) after the run."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from optimus.commands.cli import main

ROOT = Path(__file__).resolve().parents[1]
HARNESS = {"pddl_sandbox", "z3_sandbox", "planval", "resolve", ".optimus-trace"}
# One folder per family that copies sandbox-side code: pulp's re-solve, a Z3 plan (horizon runner and re-check
# with planval), a pddl plan (runner and planval), and a what-if re-solve of the captured model.
FOLDERS = ["nlp4lp/12", "llmfp/blocks-1", "planning/blocks-1"]


@pytest.mark.parametrize("name", FOLDERS)
def test_attempt_folders_hold_no_harness_code_after_a_solve(tmp_path, name):
    folder = tmp_path / Path(name).name
    shutil.copytree(ROOT / name, folder, ignore=shutil.ignore_patterns("runs", "variants", "test_generated.py*"))
    assert main(["solve", str(folder), "--llm", "reference", "--sandbox", "process", "--mode", "supervised"]) == 0
    run = (folder / "runs" / "latest").resolve()
    report = json.loads((run / "report.json").read_text())
    assert report["status"] == "solved" and report["verified"]
    attempts = sorted(run.glob("v*/attempt-*"))
    assert attempts and all((a / "output.json").is_file() for a in attempts)
    left = sorted(str(p.relative_to(run)) for p in run.rglob("*") if p.name in HARNESS)
    assert left == [], left
