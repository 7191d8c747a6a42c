"""`optimus ask`: questions put to a solved run, answered by solving on a copy — never by the model's word."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pulp
import pytest

from optimus.commands.ask import unknown_numbers
from optimus.commands.cli import main
from optimus.commands.question import data_candidate, parse
from optimus.commands.whatif import changed
from optimus.core.errors import SpecError
from optimus.core.families.pulp.resolve.ask import run as resolve_ask
from optimus.core.problem import load_problem
from tests.helpers import cbc

ROOT = Path(__file__).parent.parent
SANDBOX = ["--sandbox", "process"]
FIXED_COST = "what if every centre's fixed cost rises 10 %?"


def solved_copy(tmp_path: Path, name: str) -> Path:
    """A copy of nlp4lp/<name> and its run (supervised, offline)."""
    folder = tmp_path / name
    shutil.copytree(ROOT / "nlp4lp" / name, folder, ignore=shutil.ignore_patterns("runs", "variants"))
    assert main(["solve", str(folder), "--llm", "reference", "--mode", "supervised", *SANDBOX]) == 0
    return folder


def ask(folder: Path, question: str, *args: str) -> tuple[int, list[dict]]:
    run = folder / "runs" / "latest"
    code = main(["ask", str(run), question, "--llm", "reference", *SANDBOX, *args])
    log = run / "ask.jsonl"
    return code, [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []


def expected(folder: Path, qid: str) -> dict:
    """The question's ground truth: the reference program on the changed data, CBC and HiGHS agreeing
    (python -m optimus.bench.ask checks it)."""
    return next(q["expected"] for q in json.loads((folder / "questions.json").read_text()) if q["id"] == qid)


def hashes(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.rglob("*"))
            if p.is_file() and p.relative_to(folder).parts[0] not in ("runs", "variants")}


def test_a_data_what_if_reruns_the_program_with_no_model_call(tmp_path, capsys):
    folder = solved_copy(tmp_path, "12")
    before = hashes(folder)
    code, log = ask(folder, FIXED_COST)
    assert code == 0
    out = capsys.readouterr().out
    assert "data.json fixed_cost[0]: 4200 → 4620" in out and "objective: 17711.2 → 18951.2" in out
    # Only total_cost moves: the same centres stay open and every shipment stays (the README's exchange)
    assert "\n1 value changed in output.json:\n  total_cost: 17711.2 → 18951.2\n" in out
    entry = log[-1]
    assert entry["after"]["objective"] == pytest.approx(expected(folder, "q1")["objective"], rel=1e-6)
    assert entry["calls"] == 2  # the question → change, and the paragraph; the variant's solve calls nothing
    assert entry["words"]["text"].startswith("A 10 % rise") and "folder author's paragraph" in out
    variant = Path(entry["after"]["variant"])
    assert variant == folder / "variants" / "q1" and hashes(folder) == before  # the original is untouched
    assert json.loads((variant / "data.json").read_text())["fixed_cost"] == [4620, 3960, 5500, 3410, 5060, 4290]
    report = json.loads((Path(entry["after"]["run_dir"]) / "report.json").read_text())
    assert report["llm_usage"]["calls"] == 0 and report["attempts"] == {} and report["status"] == "solved"
    assert report["tests"]["passed"] > 0  # re-checked like any run: the run's tests ran on the new output
    assert not (Path(entry["after"]["run_dir"]) / "transcript.jsonl").exists()


def test_why_not_forces_the_decision_in_the_captured_model(tmp_path):
    folder = solved_copy(tmp_path, "12")
    code, log = ask(folder, "why is centre 3 not open?")
    after = log[-1]["after"]
    assert code == 0 and after["status"] == "optimal" and after["verified"]
    assert after["objective"] == pytest.approx(expected(folder, "q2")["objective"], rel=1e-6)
    assert log[-1]["difference"] > 0  # forcing it open costs more: that is why it is closed


def hand_lp(b1: float) -> pulp.LpProblem:
    prob = pulp.LpProblem("hand", pulp.LpMaximize)
    x, y = prob.add_variable("x", 0), prob.add_variable("y", 0)
    prob += 4 * x + 3 * y
    prob += x + y <= b1, "s1_r1"
    prob += 2 * x + y <= 16, "s2_r2"
    prob += y <= 7, "s3_r3"
    return prob


def test_lp_sensitivity_matches_a_resolve_within_its_range(tmp_path):
    """Our own LP, by hand: max 4x + 3y, x + y <= 10 (r1), 2x + y <= 16 (r2), y <= 7 (r3). The optimum is
    (6, 4) with 36; r1's shadow price is 2 (u1 + 2 u2 = 4, u1 + u2 = 3), valid while x = 16 - b1 >= 0,
    y = 2 b1 - 16 in [0, 7]: b1 in [8, 11.5]."""
    hand_lp(10).writeMPS(str(tmp_path / "model.mps"))
    raw = resolve_ask({"model": str(tmp_path / "model.mps"), "budget_s": 10,
                       "sensitivity": {"rows": ["s1_*"], "cols": ["x"], "delta": 1}})
    (row,) = raw["rows"]
    assert raw["objective"] == pytest.approx(36) and row["dual"] == pytest.approx(2)
    assert row["range"] == pytest.approx([8, 11.5])
    assert raw["moved"]["objective"] == pytest.approx(38)  # its own re-solve with the limit moved
    for b1, inside in ((11, True), (13, False)):  # a second solver, CBC, on the LP with the limit moved
        prob = hand_lp(b1)
        prob.solve(cbc(msg=False))
        assert (pulp.value(prob.objective) == pytest.approx(36 + row["dual"] * (b1 - 10))) is inside


def test_an_lp_sensitivity_answer_predicts_the_ground_truth(tmp_path):
    folder = solved_copy(tmp_path, "1")
    code, log = ask(folder, "what is one more kg of flour worth?")
    after, truth = log[-1]["after"], expected(folder, "q1")["objective"]
    assert code == 0 and after["predicted_within_range"]
    assert after["predicted"] == pytest.approx(truth, rel=1e-6) and after["objective"] == pytest.approx(truth, rel=1e-6)
    assert after["shadow_prices"][0]["name"] == "s4_flour" and after["shadow_prices"][0]["dual"] != 0


def test_an_infeasible_what_if_is_diagnosed_and_repair_offered(tmp_path, capsys):
    folder = solved_copy(tmp_path, "10")
    code, log = ask(folder, "what if timber supply fell 10 % in every period?")
    out = capsys.readouterr().out
    assert code == 0 and log[-1]["after"]["status"] == "infeasible"
    assert "cannot all hold" in log[-1]["after"]["diagnosis"] and "optimus repair" in out


def test_a_conversation_reads_questions_line_by_line(tmp_path, monkeypatch, capsys):
    folder = solved_copy(tmp_path, "12")
    lines = iter([FIXED_COST, "what would head office staffing one more centre be worth?", ""])
    monkeypatch.setattr("builtins.input", lambda _: next(lines))
    assert main(["ask", str(folder / "runs" / "latest"), "--llm", "reference", "--json", *SANDBOX]) == 0
    log = [json.loads(x) for x in (folder / "runs" / "latest" / "ask.jsonl").read_text().splitlines()]
    assert [Path(e["after"]["variant"]).name for e in log] == ["q1", "q2"]
    assert "MILP has no shadow prices" in log[1]["after"]["how"]


def test_a_question_the_reference_has_no_answer_for_is_not_answered(tmp_path, capsys):
    folder = solved_copy(tmp_path, "12")
    code, log = ask(folder, "what if it rained?")
    assert code == 1 and "reference/questions" in capsys.readouterr().err and "error" in log[-1]


def test_a_run_that_did_not_solve_is_refused_with_exit_2(tmp_path, capsys):
    run = tmp_path / "p" / "runs" / "x"
    run.mkdir(parents=True)
    (run / "report.json").write_text(json.dumps({"status": "error"}))
    assert main(["ask", str(run), "what if?", "--llm", "reference", *SANDBOX]) == 2
    assert "report.json" in capsys.readouterr().err


def test_requests_are_checked_against_the_problem():
    problem = load_problem(ROOT / "nlp4lp" / "12")
    for raw, field in [({"kind": "guess"}, "kind"), ({"kind": "what-if", "data": [{"key": "nope", "add": 1}]}, "data[0].key"),
                       ({"kind": "what-if", "data": [{"key": "demand", "add": "x"}]}, "data[0]"),
                       ({"kind": "what-if"}, "$"), ({"kind": "sensitivity"}, "rows")]:
        with pytest.raises(SpecError, match=field.replace("[", r"\[").replace("$", r"\$")):
            parse(raw, problem)
    req = parse({"kind": "what-if", "data": [{"key": "cost", "index": [1], "multiply": 2}]}, problem)
    edits = data_candidate(req, problem).edits
    assert [(e.path, e.new) for e in edits[:2]] == [([1, 0], 6.4), ([1, 1], 11.48)] and len(edits) == 12


def test_the_paragraph_may_write_only_the_tables_numbers():
    table = "objective: 17711.2 → 18951.2 (difference +1240, +7.00%)"
    assert unknown_numbers("Costs rise by 1240 dollars to about 18951, up 7 %.", table) == []
    assert unknown_numbers("Costs rise by 1300 dollars, 12 % more.", table) == ["1300", "12 %"]


def test_changed_lists_the_largest_moves_first():
    moves = changed({"a": 1.0, "b": 5.0, "c": 2.0}, {"a": 1.0, "b": 0.0, "c": 3.0, "d": 1.0})
    assert [(m["name"], m["before"], m["after"]) for m in moves] == [("b", 5.0, 0.0), ("c", 2.0, 3.0), ("d", None, 1.0)]


def test_the_ask_prompt_holds_names_and_shapes_never_values(tmp_path, scripted_llm, monkeypatch):
    """The real openai client against the scripted server: the prompt names keys and variables, not values."""
    folder = solved_copy(tmp_path, "12")
    answer = json.dumps({"kind": "what-if", "data": [{"key": "fixed_cost", "multiply": 1.1}]})
    scripted_llm.enqueue("ask", f"```json\n{answer}\n```")
    scripted_llm.enqueue("ask_words", "Weekly cost rises by 1240 to 18951.2 (7 % more), with 999 trucks.")
    monkeypatch.setenv("OPENAI_BASE_URL", scripted_llm.base_url)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    code = main(["ask", str(folder / "runs" / "latest"), FIXED_COST, "--llm", "openai", *SANDBOX])
    prompt = scripted_llm.requests[0].prompt
    assert code == 0 and "fixed_cost" in prompt and "open_… (6, e.g. open_0)" in prompt
    assert not any(v in prompt for v in ("4200", "3600", "9.39", "17711"))
    entry = json.loads((folder / "runs" / "latest" / "ask.jsonl").read_text().splitlines()[-1])
    assert entry["words"]["text"] is None and "999" in entry["words"]["note"] and entry["calls"] == 2


def test_a_statement_what_if_is_formulated_and_coded_again(tmp_path):
    folder = solved_copy(tmp_path, "5")
    code, log = ask(folder, "what if the lane capacities no longer applied?")
    after = log[-1]["after"]
    assert code == 0 and after["status"] == "solved" and after["calls"] >= 2  # formulate and codegen, at least
    assert after["objective"] == pytest.approx(expected(folder, "q2")["objective"], rel=1e-6)
    statements = json.loads((Path(after["variant"]) / "snop.json").read_text())["problem_info"]
    assert not any("lane_cap" in s for s in statements) and any("- (s5)" in c for c in after["change"])


def test_bench_ask_tables_right_and_wrong_answers(tmp_path):
    """`optimus bench --ask` solves each folder once and asks its questions; an expected answer the harness does
    not reach (planted here) is counted wrong, not right."""
    problems = tmp_path / "problems"
    for name in ("10", "12"):
        shutil.copytree(ROOT / "nlp4lp" / name, problems / name, ignore=shutil.ignore_patterns("runs", "variants"))
    questions = json.loads((problems / "10" / "questions.json").read_text())
    questions[0]["expected"] = {"status": "optimal", "objective": 1.0}  # the truth: infeasible
    (problems / "10" / "questions.json").write_text(json.dumps(questions))
    out = tmp_path / "out"
    assert main(["bench", str(problems), "--ask", "--llm", "reference", "--out", str(out), *SANDBOX]) == 0
    table = (out / "summary.md").read_text()
    assert "| what-if-data | 2 | 1 / 2 |" in table and "| all | 4 | 3 / 4 |" in table
    rows = [json.loads(line) for line in (out / "ask.jsonl").read_text().splitlines()]
    assert {(Path(r["problem"]).name, r["right"]) for r in rows} == {("10", False), ("12", True)}
