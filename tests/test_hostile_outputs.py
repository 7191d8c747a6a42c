"""Trust nothing the program says: hostile or nonsensical result files end with report.json, the right status word,
no traceback, the harness's own reading of them cheap in CPU seconds (which a busy machine does not stretch, as it
does wall time); the harness's own checks land in report.json and in the repair prompt."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from optimus.commands.cli import main
from optimus.core.checks import known_sizes, run_checks
from optimus.core.errors import SandboxError
from optimus.core.sandbox.files import load_json_result, read_result_file
from tests.test_agent import FORMULATION, GOOD, fence
from tests.test_validate_malformed import DATA, SNOP

TIMEOUT_S = 300  # the sandbox bounds the program; generous, so that a busy machine never reaches it
HARNESS_CPU_S = 20  # the harness's work in this process, hostile files and all: 0.04 to 0.56 s measured

# GOOD's last two lines write output.json and solution.json; each hostile program replaces what they wrote.
NAN = GOOD.replace('"objective": pulp.value(prob.objective) if optimal else None', '"objective": float("nan")')
INF = GOOD.replace('"objective": pulp.value(prob.objective) if optimal else None', '"objective": float("inf")')
EMPTY = GOOD + 'json.dump({}, open("output.json", "w"))\n'
MISSING_KEY = GOOD + 'json.dump({"produce": [1, 2]}, open("output.json", "w"))\n'
WRONG_LENGTH = GOOD + 'json.dump({"make": [1.0, 2.0, 3.0]}, open("output.json", "w"))\n'
NO_MODEL = GOOD.replace('prob.writeMPS("model.mps")\n', "")
FIFO = GOOD + 'import os\nos.remove("output.json")\nos.mkfifo("output.json")\n'
# sparse: 200 MB long without writing 200 MB (the sandbox's file size limit is 512 MB)
HUGE = GOOD + 'f = open("output.json", "r+b")\nf.seek(200 * 1024 * 1024)\nf.write(b" ")\nf.close()\n'
DEEP = GOOD + 'open("output.json", "w").write("[" * 200000 + "]" * 200000)\n'
DEEP_SOLUTION = GOOD + 'open("solution.json", "w").write("{\\"a\\": " * 200000 + "1" + "}" * 200000)\n'
LIST_SOLUTION = GOOD + 'json.dump(["optimal", 23.6], open("solution.json", "w"))\n'

assert NAN != GOOD and INF != GOOD and NO_MODEL != GOOD, "a fault was not injected"


@pytest.fixture
def problem(tmp_path):
    root = tmp_path / "mix"
    root.mkdir()
    (root / "snop.json").write_text(json.dumps(SNOP))
    (root / "data.json").write_text(json.dumps(DATA))
    return root


def solve_once(root: Path, llm, code: str, capsys, *args: str) -> tuple[int, dict, str]:
    """One codegen answer, no repair: exit code, report.json and the terminal's text."""
    llm.enqueue("formulate", FORMULATION)
    llm.enqueue("codegen", fence(code))
    cpu = time.process_time()
    code = main(["solve", str(root), "--llm", "openai", "--base-url", llm.base_url, "--sandbox", "process",
                 "--timeout", str(TIMEOUT_S), "--mode", "debug", "--max-debug", "0", *args])
    assert time.process_time() - cpu < HARNESS_CPU_S
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return code, json.loads((root / "runs" / "latest" / "report.json").read_text()), err


def failed_checks(report: dict) -> dict[str, str]:
    return {c["name"]: c["message"] for c in report["checks"] if c["passed"] is False}


@pytest.mark.parametrize("program, check, words", [
    (NAN, "objective", "nan"),
    (INF, "objective", "inf"),
    (EMPTY, "output keys", "make"),
    (MISSING_KEY, "output keys", "make"),
    (WRONG_LENGTH, "output lengths", "make has 3 items, but N = 2"),
], ids=["nan", "infinity", "empty-output", "missing-key", "wrong-length"])
def test_nonsense_that_runs_fails_a_harness_check(program, check, words, problem, scripted_llm, capsys):
    code, report, _ = solve_once(problem, scripted_llm, program, capsys)
    assert code == 1 and report["status"] == "failed" and not report["verified"]
    assert words in failed_checks(report)[check], report["checks"]
    assert "harness check" in report["message"]


# No readable output.json: nothing executed ("error"); output.json read but solution.json refused: "failed".
@pytest.mark.parametrize("program, status, words", [
    (FIFO, "error", "a FIFO"),
    (HUGE, "error", "over the 67108864 limit in bytes"),
    (DEEP, "error", "output.json nests deeper"),
    (DEEP_SOLUTION, "failed", "solution.json nests deeper"),
    (LIST_SOLUTION, "failed", "must hold a JSON object, found list"),
], ids=["fifo", "200MB", "deep-output", "deep-solution", "list-solution"])
def test_unreadable_result_files_are_refused_with_a_message(program, status, words, problem, scripted_llm, capsys):
    code, report, _ = solve_once(problem, scripted_llm, program, capsys)
    assert code == 1 and report["status"] == status and not report["verified"]
    assert words in report["message"], report["message"]


def test_no_model_mps_is_ran_not_solved(problem, scripted_llm, capsys):
    code, report, err = solve_once(problem, scripted_llm, NO_MODEL, capsys)
    assert code == 1 and report["status"] == "ran" and not report["verified"]
    assert failed_checks(report) == {}
    assert "model.mps" in report["verification"]["summary"] and "ran" in err


def test_a_correct_program_is_solved_by_the_resolve_alone(problem, scripted_llm, capsys):
    code, report, _ = solve_once(problem, scripted_llm, GOOD, capsys)
    assert code == 0 and report["status"] == "solved" and report["verification"]["outcome"] == "agrees"
    assert {c["name"]: c["passed"] for c in report["checks"]} == {"objective": True, "output keys": True,
                                                                   "output lengths": True}


def test_a_failed_check_goes_to_the_repair_prompt(problem, scripted_llm):
    scripted_llm.enqueue("formulate", FORMULATION)
    scripted_llm.enqueue("codegen", fence(WRONG_LENGTH))
    scripted_llm.enqueue("debug", fence(GOOD))
    code = main(["solve", str(problem), "--llm", "openai", "--base-url", scripted_llm.base_url, "--sandbox",
                 "process", "--timeout", str(TIMEOUT_S), "--mode", "debug"])
    report = json.loads((problem / "runs" / "latest" / "report.json").read_text())
    assert code == 0 and report["status"] == "solved" and report["attempts"]["debug"] == 1
    (prompt,) = [r.messages[-1]["content"] for r in scripted_llm.requests_for("debug")]
    assert "harness check 'output lengths' failed" in prompt and "make has 3 items, but N = 2" in prompt


# The file reader on its own: refusals are quick, clear and never block.

def test_a_fifo_is_refused_without_blocking(tmp_path):
    os.mkfifo(tmp_path / "output.json")
    started = time.monotonic()
    with pytest.raises(SandboxError, match="not a regular file .*FIFO"):
        read_result_file(tmp_path, "output.json")
    assert time.monotonic() - started < 30  # opening a FIFO for reading would block until a writer came: forever


def test_the_size_cap_is_configurable(tmp_path, monkeypatch):
    (tmp_path / "output.json").write_text(json.dumps({"x": "y" * 3 * 1024 * 1024}))
    assert load_json_result(tmp_path, "output.json")["x"].startswith("y")
    monkeypatch.setenv("OPTIMUS_MAX_RESULT_MB", "2")
    with pytest.raises(SandboxError, match="over the 2097152 limit in bytes"):
        load_json_result(tmp_path, "output.json")


@pytest.mark.parametrize("depth, ok", [(64, True), (65, False), (200_000, False)])
def test_the_depth_cap(depth, ok, tmp_path):
    (tmp_path / "output.json").write_text("[" * depth + "]" * depth)
    if ok:
        load_json_result(tmp_path, "output.json")
    else:
        with pytest.raises(ValueError, match="nests deeper than 64 levels"):
            load_json_result(tmp_path, "output.json")


# The checks on their own, against outputs whose shape we know.

def test_list_lengths_come_from_the_data_or_are_not_checked():
    fmt = '{"ship": [[ship_{s,d} for d in 1, ..., D] for s in 1, ..., S], "late": [late_{t} for t in 0, ..., T]}'
    inputs = '{"cost": [[cost_{s,d} for d in 1, ..., D] for s in 1, ..., S], "T": T}'
    data = {"cost": [[1, 2, 3], [4, 5, 6]], "T": 4}
    assert known_sizes(inputs, data) == {"S": 2, "D": 3, "T": 4}
    good = {"ship": [[0, 0, 0], [0, 0, 0]], "late": [0] * 5}  # `0, ..., T` has T + 1 items: never read as T
    checks = {c.name: c for c in run_checks(fmt, inputs, data, good, {"status": "optimal", "objective": 0})}
    assert checks["output lengths"].passed is True and "not read: late" in checks["output lengths"].message
    bad = {"ship": [[0, 0, 0], [0, 0]], "late": []}
    checks = {c.name: c for c in run_checks(fmt, inputs, data, bad, {"status": "optimal", "objective": 0})}
    assert checks["output lengths"].passed is False
    assert checks["output lengths"].message == "ship[1] has 2 items, but D = 3"


def test_an_unreadable_template_is_not_checked():
    checks = {c.name: c for c in run_checks("make: [", "", {}, {"make": 1}, {"status": "optimal", "objective": 1})}
    assert checks["output keys"].passed is None and checks["output keys"].message.startswith("not checked:")
    assert checks["objective"].passed is True


def test_no_solution_needs_no_output_keys():
    checks = {c.name: c for c in run_checks(SNOP["output_format"], SNOP["input_format"], DATA, {},
                                            {"status": "infeasible", "objective": None})}
    assert checks["output keys"].passed is None and checks["objective"].passed is True


def test_planted_links_where_the_harness_writes_are_replaced_not_written_through(problem, scripted_llm, capsys,
                                                                                   tmp_path):
    """run.json and verification.json are written by the harness into the program's folder after it ran: a link
    the program left there must not carry the harness's write to a host file."""
    target = tmp_path / "host-file.txt"
    target.write_text("precious\n")
    planted = GOOD + "".join(f'import os\nos.symlink({str(target)!r}, "{name}")\n'
                             for name in ("run.json", "verification.json"))
    code, report, _ = solve_once(problem, scripted_llm, planted, capsys)
    assert target.read_text() == "precious\n"
    attempt = problem / "runs" / "latest" / "v0" / "attempt-01"
    assert not (attempt / "run.json").is_symlink() and not (attempt / "verification.json").is_symlink()
    assert json.loads((attempt / "run.json").read_text())["exit_code"] == 0
    assert report["verification"]["outcome"] == "agrees" and code == 0
