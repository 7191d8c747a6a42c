"""The project's own two-robot gripper (llmfp/gripper2-*) through the harness, end to end: a plan of 15+ steps
comes back, valid, within 60 s of sandbox time, marked "shortest not proven" when the run's budget is too short
for the proof; with time enough on a smaller instance, the plan is proven shortest.

Ground truth is not the code under test: shortest lengths come from the breadth-first search over the folder's
validate/*.pddl (optimus.bench.groundtruth.pddl), and must match expected.json (written by the ground-truth CLI,
which also asks Fast Downward); plans are checked by our own PDDL simulation.
"""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

from optimus.bench.groundtruth.pddl import shortest_plan_length, simulate
from optimus.commands.cli import main

LLMFP = Path(__file__).resolve().parents[1] / "llmfp"
BFS_STATES = 400_000  # gripper2-3 visits about 100 000 states
SANDBOX_S = 60.0  # the promise: a plan within this much sandbox time
HANG_S = 180.0  # wall bound only against a hang (two shared cores)
# measured on this machine: the first-plan search finds a plan in about 2 s once a quarter of the budget is spent;
# proving T = 13 and 14 unsat takes about 50 s more, so a 30 s run (27 s of horizon budget) cannot finish the proof
SHORT_TIMEOUT = "30"


def shortest(folder: Path) -> int | None:
    return shortest_plan_length(folder / "validate" / "domain.pddl", folder / "validate" / "problem.pddl", BFS_STATES)


def solve(tmp_path: Path, name: str, timeout: str) -> tuple[int, dict, Path, float]:
    root = tmp_path / name
    shutil.copytree(LLMFP / name, root, ignore=shutil.ignore_patterns("runs"))
    started = time.monotonic()
    code = main(["solve", str(root), "--llm", "reference", "--mode", "debug", "--sandbox", "process",
                 "--timeout", timeout])
    wall = time.monotonic() - started
    return code, json.loads((root / "runs" / "latest" / "report.json").read_text()), root, wall


def plan_of(root: Path) -> list[dict]:
    return json.loads((root / "runs" / "latest" / "v0" / "attempt-01" / "output.json").read_text())["plan"]


def test_a_valid_plan_of_15_plus_steps_within_60_s_marked_not_proven(tmp_path):
    folder = LLMFP / "gripper2-3"
    length = shortest(folder)
    assert length >= 15 and json.loads((folder / "expected.json").read_text())["objective"] == length
    code, report, root, wall = solve(tmp_path, "gripper2-3", SHORT_TIMEOUT)
    assert wall < HANG_S, f"the run took {wall:.0f} s"
    assert code == 0 and report["status"] == "solved", report.get("message")
    assert report["seconds"]["sandbox"] <= SANDBOX_S, report["seconds"]
    plan = plan_of(root)
    assert simulate(root / "validate" / "domain.pddl", root / "validate" / "problem.pddl", plan) is None
    assert length <= len(plan) == report["objective"] <= json.loads((folder / "data.json").read_text())["max_horizon"]
    summary = report["verification"]["summary"]
    assert report["verification"]["outcome"] == "agrees", summary
    record = json.loads((root / "runs" / "latest" / "v0" / "attempt-01" / "horizon.json").read_text())
    walked = [r["T"] for r in record["runs"] if r["status"] == "infeasible"]
    if report["solver_status"] == "feasible":  # the proof did not finish: said so, with what was proven
        assert max(walked, default=-1) < length - 1, record["runs"]
        assert f"feasible: a {len(plan)}-step plan; shortest not proven (T ≤ {max(walked)} unsat" in summary, summary
    else:  # a machine fast enough to finish the proof in the budget: then it is the shortest, proven
        assert report["solver_status"] == "optimal" and len(plan) == length and walked == list(range(length)), summary


def test_with_time_enough_the_plan_is_proven_shortest(tmp_path):
    # gripper2-3's proof takes about 75 s here (over the 60 s promise): the 12-step gripper2-2 shows the proven case
    folder = LLMFP / "gripper2-2"
    length = shortest(folder)
    code, report, root, wall = solve(tmp_path, "gripper2-2", "60")
    assert wall < HANG_S and code == 0 and report["status"] == "solved", report.get("message")
    assert report["seconds"]["sandbox"] <= SANDBOX_S, report["seconds"]
    assert (report["solver_status"], report["objective"]) == ("optimal", length), report["verification"]["summary"]
    assert "shortest not proven" not in report["verification"]["summary"]
    plan = plan_of(root)
    assert len(plan) == length and simulate(root / "validate" / "domain.pddl", root / "validate" / "problem.pddl",
                                            plan) is None
