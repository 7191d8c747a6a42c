"""A proven "no solution" is an answer (issue 31): the conflict's rows are read against their statements once,
a misreading is rewritten once, and otherwise the solve stops — infeasible, verified, exit 0 — in every mode.

The real openai client against the scripted server; the folders are our own nlp4lp infeasible problems copied
without expected.json, as a user's new folder has none."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from optimus.commands.cli import main
from tests.helpers import copy_problem

NO_MISREADING = '```json\n{"rows": [], "misreading": false}\n```\n'


def fence(code: str) -> str:
    return f"```python\n{code}```\n"


def user_folder(name: str, dest: Path) -> Path:
    root = copy_problem(name, dest / name.replace("/", "-"))
    (root / "expected.json").unlink()
    return root


def solve(root: Path, llm, *args: str) -> tuple[int, dict]:
    code = main(["solve", str(root), "--llm", "openai", "--base-url", llm.base_url, "--sandbox", "process",
                 "--timeout", "60", *args])
    return code, json.loads((root / "runs" / "latest" / "report.json").read_text())


def formulation(root: Path) -> str:
    """The reference formulation as formulate would write it: without the author's note on why the instance is
    infeasible (which quotes data values no model saw)."""
    return (root / "reference" / "formulation.md").read_text().split("## Why infeasible")[0]


def script_reference(llm, root: Path, review: str = NO_MISREADING) -> None:
    ref = root / "reference"
    llm.enqueue("formulate", formulation(root))
    llm.enqueue("codegen", fence((ref / "solver.py").read_text()))
    llm.enqueue("review", review)


@pytest.mark.parametrize("name,conflict", [("15-infeasible", ("s3", "s4", "s5")),
                                           ("18-infeasible", ("s4", "s7"))])
def test_a_verified_infeasible_folder_is_answered_in_full_mode_with_at_most_three_calls(
        name, conflict, tmp_path, scripted_llm):
    root = user_folder(name, tmp_path)
    script_reference(scripted_llm, root)
    code, report = solve(root, scripted_llm, "--mode", "full")
    assert code == 0
    assert report["status"] == "infeasible" and report["verified"]
    assert report["llm_usage"]["calls"] <= 3
    assert not scripted_llm.requests_for("rephrase") and not scripted_llm.requests_for("fix")
    assert report["message"].startswith("infeasible (verified): these statements cannot all hold:")
    named = set(re.findall(r"\((s\d+)\) \"", report["message"]))
    assert set(conflict) <= named, report["message"]
    assert "optimus repair" in report["message"]
    assert report["review"]["misreading"] is False


def test_the_review_prompt_carries_statements_and_rows_never_data(tmp_path, scripted_llm):
    root = user_folder("15-infeasible", tmp_path)
    script_reference(scripted_llm, root)
    solve(root, scripted_llm, "--mode", "debug")
    (request,) = scripted_llm.requests_for("review")
    prompt = request.messages[-1]["content"]
    assert "s3_min_batch" in prompt and "must contain at least min_batch barrels" in prompt
    data = json.loads((root / "data.json").read_text())
    for value in data.values():
        assert not re.search(rf"(?<![\w.]){re.escape(str(value))}(?![\w.])", prompt), value


# The feasible version of 15's blend: a batch of 8000 barrels fits under the sulfur limit (8500 would be the most).
FEASIBLE = {"min_batch": 8000}
# The planted misreading: s6 "holds at most tank_capacity barrels" written as a lower bound, which no compliant
# batch can reach (at most 8500 barrels): infeasible, and the conflict runs through s6.
MISREAD = ("prob += light + heavy <= d[\"tank_capacity\"], \"s6_tank_capacity\"",
           "prob += light + heavy >= d[\"tank_capacity\"], \"s6_tank_capacity\"")


def cheapest_blend(data: dict) -> float:
    """The optimum by hand: heavy crude is cheaper, so as much of it as the sulfur limit lets light crude
    dilute (heavy = r * light), and a batch exactly min_batch (the light supply is not binding here)."""
    r = (data["sulfur_max"] - data["sulfur_light"]) / (data["sulfur_heavy"] - data["sulfur_max"])
    light = data["min_batch"] / (1 + r)
    assert light <= data["light_supply"]
    return data["cost_light"] * light + data["cost_heavy"] * r * light


def test_a_planted_misreading_is_found_by_the_review_and_the_rewrite_solves(tmp_path, scripted_llm):
    root = user_folder("15-infeasible", tmp_path)
    data = {**json.loads((root / "data.json").read_text()), **FEASIBLE}
    (root / "data.json").write_text(json.dumps(data))
    good = (root / "reference" / "solver.py").read_text()
    assert MISREAD[0] in good
    scripted_llm.enqueue("formulate", formulation(root))
    scripted_llm.enqueue("codegen", fence(good.replace(*MISREAD)))

    def review(req):  # the model reads the rows it is shown: s6's row is there, written ≥
        assert MISREAD[1] in req.messages[-1]["content"]
        return ('```json\n{"rows": [{"statement": "s6", "encoded_as_written": false, "why": "s6 says the tank '
                'holds at most tank_capacity barrels; the row says at least"}], "misreading": true}\n```')

    scripted_llm.enqueue("review", review)
    scripted_llm.enqueue("fix", fence(good))
    code, report = solve(root, scripted_llm, "--mode", "full", "--no-assess")
    assert code == 0 and report["status"] == "solved"
    assert report["review"]["misreading"] is True
    (fix,) = scripted_llm.requests_for("fix")
    assert "s6 says the tank holds at most" in fix.messages[-1]["content"]
    assert report["objective"] == pytest.approx(cheapest_blend(data), rel=1e-6)


def test_a_misreading_that_was_not_one_stops_after_the_one_rewrite(tmp_path, scripted_llm):
    """The review claims a misreading in a genuinely infeasible folder; the rewrite is as infeasible: the solve
    stops with the answer, no second review and no rephrasing."""
    root = user_folder("15-infeasible", tmp_path)
    good = (root / "reference" / "solver.py").read_text()
    script_reference(scripted_llm, root, review='{"rows": [{"statement": "s5", "encoded_as_written": false, '
                                                '"why": "maybe the percent scale"}], "misreading": true}')
    scripted_llm.enqueue("fix", fence(good))
    code, report = solve(root, scripted_llm, "--mode", "supervised")
    assert code == 0 and report["status"] == "infeasible" and report["verified"]
    assert len(scripted_llm.requests_for("review")) == 1 and len(scripted_llm.requests_for("fix")) == 1
    assert report["llm_usage"]["calls"] == 4


def test_a_folder_whose_expected_json_says_optimal_still_goes_to_fix(tmp_path, scripted_llm):
    """expected.json says a solution exists: "no solution" is the program's error, not the answer."""
    root = user_folder("15-infeasible", tmp_path)
    (root / "expected.json").write_text(json.dumps({"status": "optimal", "objective": None, "sense": "min"}))
    (root / "data.json").write_text(json.dumps({**json.loads((root / "data.json").read_text()), **FEASIBLE}))
    good = (root / "reference" / "solver.py").read_text()
    scripted_llm.enqueue("formulate", formulation(root))
    scripted_llm.enqueue("codegen", fence(good.replace(*MISREAD)))
    scripted_llm.enqueue("fix", fence(good))
    code, report = solve(root, scripted_llm, "--mode", "supervised")
    assert code == 0 and report["status"] == "solved"
    assert not scripted_llm.requests_for("review")


def test_offline_the_reference_backend_answers_the_review_and_says_so(tmp_path):
    root = user_folder("18-infeasible", tmp_path)
    code = main(["solve", str(root), "--llm", "reference", "--sandbox", "process", "--mode", "full"])
    report = json.loads((root / "runs" / "latest" / "report.json").read_text())
    assert code == 0 and report["status"] == "infeasible" and report["verified"]
    assert "reference backend" in report["review"]["by"]
    assert report["llm_usage"]["calls"] == 3


def test_offline_a_verified_unbounded_folder_is_answered_too(tmp_path):
    root = user_folder("37-unbounded", tmp_path)
    code = main(["solve", str(root), "--llm", "reference", "--sandbox", "process", "--mode", "full"])
    report = json.loads((root / "runs" / "latest" / "report.json").read_text())
    assert code == 0 and report["status"] == "unbounded" and report["verified"]
    assert report["message"].startswith("unbounded (verified):") and "(s5) \"" in report["message"]
    assert report["llm_usage"]["calls"] == 3


def test_offline_a_plan_the_planner_proves_impossible_is_answered_without_a_repair_command(tmp_path):
    """llmfp/blocks-1-unsat without expected.json: Fast Downward proves there is no plan (optimus repair takes
    infeasible and unbounded models, not plans, so the answer names no repair command)."""
    root = tmp_path / "blocks"
    shutil.copytree(Path(__file__).parents[1] / "llmfp" / "blocks-1-unsat", root, ignore=shutil.ignore_patterns("runs"))
    (root / "expected.json").unlink()
    code = main(["solve", str(root), "--llm", "reference", "--sandbox", "process", "--mode", "full"])
    report = json.loads((root / "runs" / "latest" / "report.json").read_text())
    assert code == 0 and report["status"] == "infeasible" and report["verified"]
    assert report["message"].startswith("infeasible (verified): no plan exists")
    assert "optimus repair" not in report["message"] and report["llm_usage"]["calls"] == 3
