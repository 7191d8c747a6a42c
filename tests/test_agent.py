"""The agent loop end to end: the real openai client against the scripted server, solver code in the sandbox."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from optimus.commands.cli import main
from tests.helpers import NLP4LP, copy_problem
from tests.test_validate_malformed import DATA, SNOP

REPO = Path(__file__).resolve().parent.parent

GOOD = """\
import json
import pulp

data = json.load(open("data.json"))
profit, hours, cap = data["profit"], data["hours"], data["capacity"]
n, m = len(profit), len(cap)
prob = pulp.LpProblem("mix", pulp.LpMaximize)
x = [prob.add_variable(f"make_{i}", lowBound=0) for i in range(n)]
prob += pulp.lpSum(profit[i] * x[i] for i in range(n))
for k in range(m):
    prob += (pulp.lpSum(hours[i][k] * x[i] for i in range(n)) <= cap[k], f"s2_capacity_{k}")
prob.writeMPS("model.mps")
prob.solve(pulp.HiGHS(msg=False))
optimal = prob.status == pulp.LpStatusOptimal and prob.sol_status == pulp.LpSolutionOptimal
json.dump({"make": [v.varValue for v in x]} if optimal else {}, open("output.json", "w"))
json.dump({"status": "optimal" if optimal else "error",
           "objective": pulp.value(prob.objective) if optimal else None}, open("solution.json", "w"))
"""
SYNTAX_ERROR = GOOD.replace("for k in range(m):", "for k in range(m)")
MISSING_KEY = GOOD.replace('data["capacity"]', 'data["capacities"]')
DROPPED = GOOD.replace("for k in range(m):", "for k in range(1, m):")  # loses machine 0's limit


def hangs_while(marker: Path) -> str:
    """A program that hangs while `marker` exists (the run the test kills), then fails (the rerun's, which a debug
    round then fixes): no wall-time limit has to tell a hang from a busy machine."""
    return f"import os, time\nwhile os.path.exists({str(marker)!r}):\n    time.sleep(0.1)\nraise SystemExit('stop')\n"

TESTS = """\
def test_output_keys(output):
    assert set(output) == {"make"}, f"output keys {sorted(output)} != ['make']"


def test_nonnegative(output):
    for i, v in enumerate(output["make"]):
        assert v >= -1e-9, f"product {i}: makes {v:.6g} < 0"


def test_capacity(data, output, eps):
    for m, cap in enumerate(data["capacity"]):
        used = sum(data["hours"][i][m] * output["make"][i] for i in range(len(data["profit"])))
        assert used <= cap + eps * max(1, abs(cap)), f"s2 capacity of machine {m}: uses {used:.6g} > {cap:.6g}"
"""
FORMULATION = "## Decision variables\nmake_i >= 0\n## Constraints\n(s2) capacity per machine\n"


def fence(code: str) -> str:
    return f"Here is the program:\n```python\n{code}```\n"


@pytest.fixture
def problem(tmp_path):
    root = tmp_path / "mix"
    root.mkdir()
    (root / "snop.json").write_text(json.dumps(SNOP))
    (root / "data.json").write_text(json.dumps(DATA))
    return root


def solve(root: Path, llm, *args: str) -> tuple[int, dict]:
    code = main(["solve", str(root), "--llm", "openai", "--base-url", llm.base_url, "--sandbox", "process",
                 "--timeout", "60", *args])
    return code, json.loads((root / "runs" / "latest" / "report.json").read_text())


def prompts_of(llm, stage: str) -> list[str]:
    return [r.messages[-1]["content"] for r in llm.requests_for(stage)]


def test_debug_mode_repairs_a_syntax_error_and_a_missing_data_key(problem, scripted_llm):
    scripted_llm.enqueue("formulate", FORMULATION)
    scripted_llm.enqueue("codegen", fence(SYNTAX_ERROR))
    scripted_llm.enqueue("debug", fence(MISSING_KEY), fence(GOOD))
    code, report = solve(problem, scripted_llm, "--mode", "debug")
    assert code == 0 and report["status"] == "solved"
    assert report["attempts"]["debug"] == 2
    first, second = prompts_of(scripted_llm, "debug")
    assert "SyntaxError" in first
    assert "KeyError" in second and "capacities" in second
    assert report["objective"] == pytest.approx(23.6)


def test_prompt_mode_does_not_repair(problem, scripted_llm):
    scripted_llm.enqueue("formulate", FORMULATION)
    scripted_llm.enqueue("codegen", fence(SYNTAX_ERROR))
    code, report = solve(problem, scripted_llm, "--mode", "prompt")
    assert code == 1 and report["status"] == "error" and not report["executed"]
    assert scripted_llm.requests_for("debug") == []


def test_autotests_catch_a_violated_constraint_and_the_fix_prompt_carries_the_message(problem, scripted_llm):
    scripted_llm.enqueue("testgen", fence(TESTS))
    scripted_llm.enqueue("formulate", FORMULATION)
    scripted_llm.enqueue("codegen", fence(DROPPED))
    scripted_llm.enqueue("fix", fence(GOOD))
    code, report = solve(problem, scripted_llm, "--mode", "autotests")
    assert code == 0 and report["verified"]
    (fix_prompt,) = prompts_of(scripted_llm, "fix")
    assert "s2 capacity of machine 0: uses 11 > 10" in fix_prompt
    assert report["tests"]["source"] == "generated" and report["tests"]["passed"] == 3
    assert report["objective"] == pytest.approx(23.6)


def test_rephrasing_that_drops_a_param_is_rejected_and_the_first_passing_variant_wins(problem, scripted_llm):
    # The run's own generated tests: a failing test the user wrote would stop before rephrasing (test_spending)
    scripted_llm.enqueue("testgen", fence(TESTS))
    statements = SNOP["problem_info"]
    dropped = [statements[0], "Each unit uses machine hours; machines have limited hours."]
    reworded = [s + " (REWORDED)" for s in statements]
    scripted_llm.enqueue("formulate", FORMULATION, FORMULATION)
    scripted_llm.enqueue("codegen", lambda req: fence(GOOD if "REWORDED" in req.prompt else DROPPED))
    scripted_llm.enqueue("codegen", lambda req: fence(GOOD if "REWORDED" in req.prompt else DROPPED))
    scripted_llm.enqueue("fix", fence(DROPPED))
    scripted_llm.enqueue("rephrase", f"```json\n{json.dumps(dropped)}\n```", f"```json\n{json.dumps(reworded)}\n```")
    code, report = solve(problem, scripted_llm, "--mode", "full", "--max-fix", "1", "--max-debug", "0")
    assert code == 0 and report["winning_variant"] == 2
    rejected = report["variants"][1]
    assert "lost" in rejected["rejected"] and "capacity_{m}" in rejected["rejected"]
    assert report["variants"][0]["verified"] is False
    assert json.loads((Path(report["run_dir"]) / "v2" / "statements.json").read_text()) == reworded


def test_hand_edited_test_survives_a_rerun_and_regen_keeps_a_backup(problem, scripted_llm):
    scripted_llm.enqueue("testgen", fence(TESTS))
    scripted_llm.enqueue("formulate", FORMULATION)
    scripted_llm.enqueue("codegen", fence(GOOD))
    assert solve(problem, scripted_llm, "--mode", "autotests", "--no-cache")[0] == 0
    generated = problem / "tests" / "test_generated.py"
    edited = generated.read_text() + "\n\ndef test_hand_written(output):\n    assert len(output['make']) == 2\n"
    generated.write_text(edited)

    scripted_llm.enqueue("formulate", FORMULATION)
    scripted_llm.enqueue("codegen", fence(GOOD))
    code, report = solve(problem, scripted_llm, "--mode", "supervised", "--no-cache")
    assert code == 0 and report["tests"]["passed"] == 4 and report["tests"]["source"] == "supervised"
    assert len(scripted_llm.requests_for("testgen")) == 1
    assert generated.read_text() == edited
    assert (Path(report["run_dir"]) / "tests" / "test_generated.py").read_text() == edited

    scripted_llm.enqueue("testgen", fence(TESTS))
    scripted_llm.enqueue("formulate", FORMULATION)
    scripted_llm.enqueue("codegen", fence(GOOD))
    code, report = solve(problem, scripted_llm, "--mode", "autotests", "--regen-tests", "--no-cache")
    assert code == 0 and report["tests"]["passed"] == 3
    (backup,) = (problem / "tests").glob("test_generated.py.bak-*")
    assert backup.read_text() == edited


def test_no_data_value_reaches_any_prompt(problem, scripted_llm):
    # Unique sentinel numbers: if any prompt quoted the data, one of these strings would show up.
    data = {
        "profit": [3.000137, 5.000239],
        "hours": [[1.000421, 2.000563, 1.000701], [3.000853, 1.000997, 2.001109]],
        "capacity": [10.001237, 12.001381, 9.001523],
    }
    (problem / "data.json").write_text(json.dumps(data))
    (problem / "tests").mkdir()
    (problem / "tests" / "test_mix.py").write_text(TESTS)
    scripted_llm.enqueue("formulate", FORMULATION)
    scripted_llm.enqueue("codegen", fence(GOOD))
    code, report = solve(problem, scripted_llm, "--mode", "full")
    assert code == 0, report
    sentinels = [str(v) for row in data["hours"] for v in row] + [str(v) for v in data["profit"] + data["capacity"]]
    everything_sent = json.dumps([r.body for r in scripted_llm.requests])
    assert scripted_llm.requests and not [s for s in sentinels if s in everything_sent]
    assert not [s[:6] for s in sentinels if s[:6] in everything_sent]  # not even rounded


def test_killed_run_restarted_pays_for_nothing_already_answered(problem, scripted_llm, optimus_home):
    scripted_llm.enqueue("formulate", FORMULATION)
    hang = problem.parent / "hang"
    hang.touch()
    scripted_llm.enqueue("codegen", fence(hangs_while(hang)))  # the program hangs: the run is killed while it runs
    cmd = [sys.executable, "-m", "optimus", "solve", str(problem), "--llm", "openai", "--base-url",
           scripted_llm.base_url, "--sandbox", "process", "--mode", "debug"]
    env = {**os.environ, "OPTIMUS_HOME": str(optimus_home), "PYTHONPATH": str(REPO)}
    first = subprocess.Popen(cmd, env=env, start_new_session=True, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 600  # a bound on a hang, not a speed test: start-up on a busy machine is slow
    # runs/latest names finished runs only: the run under way is the one folder in runs/
    while not ((runs := [p for p in (problem / "runs").glob("2*") if (p / "transcript.jsonl").exists()])
               and '"stage": "codegen"' in (runs[0] / "transcript.jsonl").read_text()):
        assert time.monotonic() < deadline and first.poll() is None, "the run never reached codegen"
        time.sleep(0.1)
    os.killpg(first.pid, signal.SIGKILL)
    first.wait()
    first_run = runs[0].resolve()
    assert not (problem / "runs" / "latest").exists()  # the killed run never finished

    hang.unlink()  # the rerun's program fails at once, and a debug round follows
    scripted_llm.enqueue("debug", fence(GOOD))
    second = subprocess.run(cmd, check=False, env=env, capture_output=True, text=True, timeout=900)
    assert second.returncode == 0, second.stderr
    rerun = [json.loads(line) for line in ((problem / "runs" / "latest").resolve() / "transcript.jsonl").open()]
    assert (problem / "runs" / "latest").resolve() != first_run
    cached = {line["stage"]: line["cached"] for line in rerun}
    assert cached == {"formulate": True, "codegen": True, "debug": False}
    assert len(scripted_llm.requests_for("formulate")) == len(scripted_llm.requests_for("codegen")) == 1


def test_missing_llm_configuration_exits_2_and_says_what_to_set(problem, capsys):
    assert main(["solve", str(problem), "--sandbox", "process"]) == 2
    err = capsys.readouterr().err
    assert "OPENAI_API_KEY" in err and "--llm reference" in err


def test_invalid_folder_exits_2_before_any_model_call(problem, scripted_llm, capsys):
    (problem / "data.json").write_text(json.dumps({k: v for k, v in DATA.items() if k != "profit"}))
    assert main(["solve", str(problem), "--llm", "openai", "--base-url", scripted_llm.base_url]) == 2
    assert "$.profit" in capsys.readouterr().err  # the folder's errors, in the one error message
    assert scripted_llm.requests == []


@pytest.mark.parametrize("number", ["12"])
def test_reference_backend_solves_a_benchmark_problem_offline(tmp_path, number):
    source = NLP4LP / number
    root = copy_problem(number, tmp_path / number)
    code = main(["solve", str(root), "--llm", "reference", "--sandbox", "process"])
    report = json.loads((root / "runs" / "latest" / "report.json").read_text())
    expected = json.loads((source / "expected.json").read_text())
    assert code == 0 and report["status"] == "solved"
    assert report["objective"] == pytest.approx(expected["objective"], rel=1e-6)
    assert report["llm"]["backend"] == "reference" and "no language model" in report["llm"]["what"]
    assert report["sandbox"] == "process"


def test_truncated_answer_is_fed_back_and_the_complete_program_used(problem, scripted_llm):
    scripted_llm.enqueue("formulate", FORMULATION)
    scripted_llm.enqueue("codegen", {"truncate": fence(GOOD)}, fence(GOOD))
    code, report = solve(problem, scripted_llm, "--mode", "prompt")
    assert code == 0 and report["attempts"]["codegen"] == 2
    retry = scripted_llm.requests_for("codegen")[1].messages
    assert retry[-2]["role"] == "assistant" and "cut off" in retry[-1]["content"]


def test_model_that_keeps_failing_ends_with_a_clear_message(problem, scripted_llm, capsys):
    for _ in range(8):
        scripted_llm.enqueue("formulate", {"status": 500, "retry_after": 0})
    code = main(["solve", str(problem), "--llm", "openai", "--base-url", scripted_llm.base_url, "--sandbox",
                 "process", "--mode", "prompt"])
    err = capsys.readouterr().err
    assert code == 1 and "500" in err and "Traceback" not in err
    assert len(scripted_llm.requests_for("formulate")) == 4  # the first try and 3 retries


def test_output_planted_as_a_symlink_is_not_followed(problem, scripted_llm, tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text('{"make": ["the secret 8462"]}')
    planter = GOOD + f"import os\nos.remove('output.json')\nos.symlink({str(secret)!r}, 'output.json')\n"
    scripted_llm.enqueue("formulate", FORMULATION)
    scripted_llm.enqueue("codegen", fence(planter))
    scripted_llm.enqueue("debug", fence(GOOD))
    code, _ = solve(problem, scripted_llm, "--mode", "debug")
    assert code == 0
    (debug_prompt,) = prompts_of(scripted_llm, "debug")
    assert "output.json cannot be read" in debug_prompt and "a symlink" in debug_prompt
    assert "8462" not in json.dumps([r.body for r in scripted_llm.requests])


@pytest.mark.parametrize("backend", ["bwrap", "docker"])
def test_agent_runs_solver_tests_and_resolve_in_a_real_sandbox(tmp_path, backend):
    from tests.sandbox_fixtures import backend_or_skip

    backend_or_skip(backend)
    root = copy_problem("12", tmp_path / "12")
    assert main(["solve", str(root), "--llm", "reference", "--sandbox", backend, "--mode", "supervised"]) == 0
    report = json.loads((root / "runs" / "latest" / "report.json").read_text())
    assert report["sandbox"] == backend and report["status"] == "solved" and report["tests"]["passed"] > 0
    assert report["verification"]["outcome"] == "agrees"


def test_terminal_shows_test_messages_that_look_like_markup(problem, scripted_llm, capsys):
    # Failing-test messages reach the terminal; rich would read "[/tmp/x]" as a closing tag and raise.
    (problem / "tests").mkdir()
    (problem / "tests" / "test_mix.py").write_text(
        "def test_path(output):\n    assert False, 'cannot open [/tmp/x] or [bold]y'\n")
    scripted_llm.enqueue("formulate", FORMULATION)
    scripted_llm.enqueue("codegen", fence(GOOD))
    code, report = solve(problem, scripted_llm, "--mode", "supervised", "--max-fix", "0")
    assert code == 1 and "[/tmp/x] or [bold]y" in report["message"]
    assert "[/tmp/x] or [bold]y" in capsys.readouterr().err
