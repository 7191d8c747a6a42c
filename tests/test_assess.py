"""The self-assessment stage: after the tests pass, the model rates its steps; a 0 sends a step back, at most
twice. End to end with the real client against the scripted server, programs in the process sandbox."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest
from scipy.optimize import linprog

from optimus.bench.faults import CATALOGUE, FaultPlan
from optimus.bench.faults.base import Injected
from optimus.core.runstore import attempt_path
from optimus.core.stages.assess import LABEL, MAX_RESULT_CHARS, VerdictError, parse_verdict, results
from tests.test_agent import FORMULATION, GOOD, TESTS, fence, prompts_of, solve
from tests.test_faults import run_loop, subject
from tests.test_validate_malformed import DATA, SNOP

# A limit no statement gives: product 1 capped at 1 unit. The tests of the statements still pass on it.
RESTRICTED = GOOD.replace("prob.writeMPS", 'prob += (x[1] <= 1, "cap_make_1")\nprob.writeMPS')
REASON = "line `prob += (x[1] <= 1, ...)` caps product 1 at 1 unit; no statement gives that limit"


def verdict(code: int = 1, formulation: int = 1, output: int = 1, reason: str = REASON) -> str:
    steps = [("formulation", formulation), ("code", code), ("output", output)]
    body = {"steps": [{"step": s, "score": v, "reason": reason if v == 0 else "fine"} for s, v in steps]}
    return f"My review:\n```json\n{json.dumps(body)}\n```\n"


def optimum(data: dict) -> float:
    """The mix LP's optimum two ways: scipy's HiGHS, and every vertex of the feasible polygon by hand."""
    profit, hours, cap = data["profit"], data["hours"], data["capacity"]
    rows = [[hours[0][m], hours[1][m]] for m in range(len(cap))]
    lp = linprog([-p for p in profit], A_ub=rows, b_ub=cap, bounds=[(0, None)] * 2, method="highs")
    lines = rows + [[-1, 0], [0, -1]]  # x >= 0 as -x <= 0
    rhs = list(cap) + [0, 0]
    best = None
    for (a, b), (c, d) in itertools.combinations(zip(lines, rhs), 2):
        det = a[0] * c[1] - a[1] * c[0]
        if det == 0:
            continue
        x = ((b * c[1] - a[1] * d) / det, (a[0] * d - b * c[0]) / det)
        if all(r[0] * x[0] + r[1] * x[1] <= v + 1e-9 for r, v in zip(lines, rhs)):
            value = profit[0] * x[0] + profit[1] * x[1]
            best = value if best is None else max(best, value)
    assert lp.status == 0 and best == pytest.approx(-lp.fun, abs=1e-7)
    return best


@pytest.fixture
def problem(tmp_path):
    root = tmp_path / "mix"
    (root / "tests").mkdir(parents=True)
    (root / "snop.json").write_text(json.dumps(SNOP))
    (root / "data.json").write_text(json.dumps(DATA))
    (root / "tests" / "test_mix.py").write_text(TESTS)
    return root


def attempt_objective(report: dict, number: int) -> float:
    folder = Path(report["run_dir"]) / attempt_path(0, number)
    return json.loads((folder / "solution.json").read_text())["objective"]


def test_a_doubted_program_is_fixed_with_the_reason_labelled_and_the_second_program_reported(problem, scripted_llm):
    scripted_llm.enqueue("formulate", FORMULATION)
    scripted_llm.enqueue("codegen", fence(RESTRICTED))
    scripted_llm.enqueue("assess", verdict(code=0), verdict())
    scripted_llm.enqueue("fix", fence(GOOD))
    code, report = solve(problem, scripted_llm, "--rephrasings", "0")  # mode full: assessment on
    assert code == 0 and report["status"] == "solved" and report["verified"]
    (fix_prompt,) = prompts_of(scripted_llm, "fix")
    assert REASON in fix_prompt and "A self-assessment, not a failed check" in fix_prompt
    # The first program passed its tests with a worse objective; the reported one is the fixed program's.
    best = optimum(DATA)
    assert attempt_objective(report, 1) < best - 1e-6
    assert report["objective"] == pytest.approx(best, abs=1e-6)
    first, second = report["assessment"]
    assert [s["score"] for s in first["scores"]] == [1, 0, 1] and first["action"] == "fix"
    assert first["scores"][1]["reason"] == REASON
    assert [s["score"] for s in second["scores"]] == [1, 1, 1] and second["action"] == "none"
    assert report["attempts"]["assess"] == 2 and report["tests"]["passed"] == 3


def test_a_model_that_always_doubts_stops_after_two_rounds_still_verified(problem, scripted_llm):
    scripted_llm.enqueue("formulate", FORMULATION)
    scripted_llm.enqueue("codegen", fence(GOOD))
    scripted_llm.enqueue("assess", *[verdict(code=0, output=0)] * 5)
    scripted_llm.enqueue("fix", *[fence(GOOD)] * 5)
    # --no-cache: the second review sees the same prompt, which the log would otherwise answer
    code, report = solve(problem, scripted_llm, "--rephrasings", "0", "--no-cache")
    assert report["attempts"]["assess"] == 2 and report["attempts"]["fix"] == 2
    assert len(scripted_llm.requests_for("assess")) == 2 and len(scripted_llm.requests_for("fix")) == 2
    assert code == 0 and report["status"] == "solved" and report["verified"]
    assert report["objective"] == pytest.approx(optimum(DATA), abs=1e-6)
    assert [r["round"] for r in report["assessment"]] == [1, 2]
    assert all([s["score"] for s in r["scores"]] == [1, 0, 0] for r in report["assessment"])
    assert "self-assessment scored a step 0 in 2 of 2" in report["message"]


def test_a_doubted_formulation_is_written_again_and_the_program_regenerated(problem, scripted_llm):
    scripted_llm.enqueue("formulate", FORMULATION)
    scripted_llm.enqueue("reformulate", FORMULATION + "(s1) profit per unit\n")
    scripted_llm.enqueue("codegen", fence(GOOD), fence(GOOD))
    scripted_llm.enqueue("assess", verdict(formulation=0, reason="(s1) is never encoded"), verdict())
    code, report = solve(problem, scripted_llm, "--rephrasings", "0")
    assert code == 0 and report["verified"]
    (prompt,) = prompts_of(scripted_llm, "reformulate")
    assert "(s1) is never encoded" in prompt and LABEL in prompt and FORMULATION.strip() in prompt
    assert len(scripted_llm.requests_for("codegen")) == 2 and not scripted_llm.requests_for("fix")
    assert report["assessment"][0]["action"] == "reformulate"
    assert (Path(report["run_dir"]) / "v0" / "formulation-round1.md").read_text().endswith("(s1) profit per unit\n")


def test_an_unreadable_verdict_is_fed_back_once_then_the_run_stays_verified(problem, scripted_llm):
    scripted_llm.enqueue("formulate", FORMULATION)
    scripted_llm.enqueue("codegen", fence(GOOD))
    scripted_llm.enqueue("assess", "Looks good to me.", '{"steps": [{"step": "code", "score": 1}]}')
    code, report = solve(problem, scripted_llm, "--rephrasings", "0")
    assert code == 0 and report["verified"]
    first, second = scripted_llm.requests_for("assess")
    assert len(second.messages) == len(first.messages) + 2
    assert second.messages[-2]["content"] == "Looks good to me." and '"steps"' in second.messages[-1]["content"]
    (round_,) = report["assessment"]
    assert round_["scores"] == [] and "no readable verdict" in round_["error"] and round_["action"] == "none"


def test_a_rewrite_the_model_cannot_give_leaves_the_verified_program_standing(problem, scripted_llm):
    scripted_llm.enqueue("formulate", FORMULATION)
    scripted_llm.enqueue("codegen", fence(GOOD))
    scripted_llm.enqueue("assess", verdict(code=0))
    scripted_llm.enqueue("fix", "I would rather not.", "Still no.", "No program, sorry.")
    code, report = solve(problem, scripted_llm, "--rephrasings", "0")
    assert code == 0 and report["verified"] and report["objective"] == pytest.approx(optimum(DATA), abs=1e-6)
    assert len(scripted_llm.requests_for("fix")) == 3
    assert report["assessment"][0]["action"] == "fix (no usable answer)"


def test_the_assess_prompt_shows_program_and_results_but_no_data_value(problem, scripted_llm):
    data = {  # unique sentinels: any of these strings in the prompt would be a data value leaking
        "profit": [3.000137, 5.000239],
        "hours": [[1.000421, 2.000563, 1.000701], [3.000853, 1.000997, 2.001109]],
        "capacity": [10.001237, 12.001381, 9.001523],
    }
    (problem / "data.json").write_text(json.dumps(data))
    scripted_llm.enqueue("formulate", FORMULATION)
    scripted_llm.enqueue("codegen", fence(GOOD))
    scripted_llm.enqueue("assess", verdict())
    code, report = solve(problem, scripted_llm, "--rephrasings", "0")
    assert code == 0, report
    (prompt,) = prompts_of(scripted_llm, "assess")
    assert GOOD.strip() in prompt and "```python" in prompt and FORMULATION.strip() in prompt
    assert '"make": [' in prompt and '"status": "optimal"' in prompt
    sentinels = [str(v) for row in data["hours"] for v in row] + [str(v) for v in data["profit"] + data["capacity"]]
    assert not [s for s in sentinels if s[:6] in prompt]


def test_supervised_mode_does_not_assess_unless_asked(problem, scripted_llm):
    scripted_llm.enqueue("formulate", FORMULATION, FORMULATION)
    scripted_llm.enqueue("codegen", fence(RESTRICTED), fence(RESTRICTED))
    code, report = solve(problem, scripted_llm, "--mode", "supervised")
    assert code == 0 and report["verified"] and report["assessment"] is None
    assert scripted_llm.requests_for("assess") == []
    scripted_llm.enqueue("assess", verdict())
    code, report = solve(problem, scripted_llm, "--mode", "supervised", "--assess")
    assert len(scripted_llm.requests_for("assess")) == 1 and report["assessment"][0]["action"] == "none"


def test_full_mode_without_assessment(problem, scripted_llm):
    scripted_llm.enqueue("formulate", FORMULATION)
    scripted_llm.enqueue("codegen", fence(GOOD))
    code, report = solve(problem, scripted_llm, "--no-assess", "--rephrasings", "0")
    assert code == 0 and report["assessment"] is None and scripted_llm.requests_for("assess") == []


@pytest.mark.parametrize("answer", [
    verdict(code=0),
    "Here it is: " + verdict(code=0).split("```json\n")[1].split("\n```")[0] + " That is all.",
    json.dumps([{"step": "formulation", "score": "1", "reason": "ok"}, {"step": "code", "score": 0, "reason": REASON},
                {"step": "output", "score": True, "reason": "ok"}]),
])
def test_verdicts_fenced_bare_or_a_list_parse(answer):
    scores = parse_verdict(answer)
    assert [(s.step, s.score) for s in scores] == [("formulation", 1), ("code", 0), ("output", 1)]
    assert scores[1].reason == REASON


@pytest.mark.parametrize(("answer", "problem"), [
    ("no json here", "steps"),
    ('{"steps": [{"step": "formulation", "score": 2, "reason": "x"}]}', "not 1 or 0"),
    ('{"steps": [{"step": "formulation", "score": 0, "reason": ""}]}', "no reason"),
    ('{"steps": [{"step": "formulation", "score": 1, "reason": "x"}]}', "no score for code, output"),
    ("```json\n{\"steps\": [", "cut off"),
])
def test_unusable_verdicts_say_what_is_wrong(answer, problem):
    with pytest.raises(VerdictError, match=problem):
        parse_verdict(answer)


def test_results_are_cut_to_the_budget():
    big = {"values": {f"x_{i}": i * 1.5 for i in range(2000)}}
    text = results({"make": [1, 2]}, big)
    assert len(text) < MAX_RESULT_CHARS + 200 and "more characters not shown" in text and '"make": [1, 2]' in text


def test_added_restriction_is_repaired_in_full_mode_only(sandbox, tmp_path):
    """The bench's claim, in small: tests miss the fault (supervised accepts it), the self-assessment sees it."""
    s = subject("1", tmp_path)
    plan, report, verdict_ = run_loop(s, "added_restriction", "supervised", sandbox, tmp_path)
    assert plan.served == 1 and plan.repair_prompts == 0 and report.verified and not verdict_.success
    plan, report, verdict_ = run_loop(s, "added_restriction", "full", sandbox, tmp_path)
    assert plan.doubts == [True] and plan.evidence == [True] and plan.repaired
    assert report.verified and verdict_.success, verdict_.reason


def test_the_reference_review_doubts_only_what_its_prompt_shows():
    inj = Injected("added_restriction", "code", "x", "added", {"line": "prob += y <= 0.8 * (c)", "constraint": ""})
    plan = FaultPlan(inj, served=1)
    hidden = plan.answer("assess", [{"role": "user", "content": "Program:\n(not shown)"}], verdict())
    assert hidden == verdict() and plan.doubts == [False]
    shown = plan.answer("assess", [{"role": "user", "content": f"Program:\n{inj.detail['line']}"}], verdict())
    assert parse_verdict(shown)[1].score == 0 and plan.doubts == [False, True]
    assert CATALOGUE["added_restriction"].evidence(inj, parse_verdict(shown)[1].reason)
    assert not CATALOGUE["added_restriction"].evidence(inj, "a failed check about capacity")
