"""A failing test the user wrote stops the spending: the attempt line names it, full mode reports instead of
rephrasing when the fixes did not change its verdict, `optimus bench` judges with it as solve does, and every solve
has a model-call budget."""

from __future__ import annotations

import json
import re

from optimus.commands.cli import main
from tests.helpers import copy_problem

# The user's edit of a generated test: at most two centres open, which nlp4lp/12's statements do not say (its
# optimum opens three). No fix of the program can pass it; a rewrite of the statements cannot either.
USERS_TEST = '''
def test_at_most_two_centres_open(output):
    assert sum(round(v) for v in output["open"]) <= 2, f"{sum(output['open'])} centres open"


def test_total_cost_is_a_number(output):
    assert isinstance(output["total_cost"], (int, float))
'''


def with_users_test(tmp_path):
    folder = copy_problem("12", tmp_path / "p12")
    (folder / "tests" / "test_generated.py").write_text(USERS_TEST)
    return folder


def test_a_users_failing_test_is_named_and_full_mode_does_not_rephrase(tmp_path, capsys):
    folder = with_users_test(tmp_path)
    code = main(["solve", str(folder), "--llm", "reference", "--sandbox", "process", "--max-fix", "1"])
    err = capsys.readouterr().err
    report = json.loads((folder / "runs" / "latest" / "report.json").read_text())
    assert code == 1 and report["status"] != "solved"
    assert re.search(r"tests \d+: 1 failed \(test_at_most_two_centres_open\)", err), err
    assert [v["variant"] for v in report["variants"]] == [0]  # no rephrasing was tried
    assert "not rephrasing" in report["message"] and "test_at_most_two_centres_open" in report["message"]
    assert "rephrase" not in {json.loads(x)["stage"] for x in
                              (folder / "runs" / "latest" / "transcript.jsonl").read_text().splitlines()}


def test_bench_judges_with_the_folders_test_generated_as_solve_does(tmp_path):
    folder = with_users_test(tmp_path)
    out = tmp_path / "bench"
    assert main(["bench", str(folder), "--mode", "supervised", "--sandbox", "process", "--out", str(out),
                 "--max-fix", "1"]) == 0
    (row,) = [json.loads(x) for x in (out / "results.jsonl").read_text().splitlines()]
    assert row["success"] is False and "test_at_most_two_centres_open" in row["reason"], row


def test_every_solve_has_a_call_budget_said_with_the_result(tmp_path, capsys):
    folder = with_users_test(tmp_path)
    code = main(["solve", str(folder), "--llm", "reference", "--sandbox", "process", "--max-calls", "3"])
    err = capsys.readouterr().err
    report = json.loads((folder / "runs" / "latest" / "report.json").read_text())
    assert code == 1 and report["llm_usage"]["calls"] == 3 and report["llm_usage"]["budget"] == 3
    assert "budget of 3 model calls is spent" in report["message"]
    assert "model calls 3 of at most 3" in err


# The solver's limit ran out before any solution: the program's own words, nothing in it to mend.
OUT_OF_TIME = """\
import json
json.dump({}, open("output.json", "w"))
json.dump({"status": "time_limit", "objective": None}, open("solution.json", "w"))
"""


def test_a_time_limit_without_a_solution_is_said_and_never_sent_to_fix(tmp_path, scripted_llm):
    from tests.test_agent import FORMULATION, TESTS, fence
    from tests.test_validate_malformed import DATA, SNOP

    root = tmp_path / "mix"
    (root / "tests").mkdir(parents=True)
    (root / "snop.json").write_text(json.dumps(SNOP))
    (root / "data.json").write_text(json.dumps(DATA))
    (root / "tests" / "test_mix.py").write_text(TESTS)
    scripted_llm.enqueue("formulate", FORMULATION)
    scripted_llm.enqueue("codegen", fence(OUT_OF_TIME))
    code = main(["solve", str(root), "--llm", "openai", "--base-url", scripted_llm.base_url, "--sandbox", "process",
                 "--mode", "supervised"])
    report = json.loads((root / "runs" / "latest" / "report.json").read_text())
    assert code == 1 and report["status"] == "time_limit" and "larger --timeout" in report["message"]
    assert scripted_llm.requests_for("fix") == [] and scripted_llm.requests_for("debug") == []
