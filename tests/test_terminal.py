"""What the terminal shows (issue 24): the real CLI's output read like a screenshot, and the pieces it is made of."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from optimus.commands.cli import main
from optimus.core.diagnose import explain_infeasible, quote
from optimus.core.families.pulp.verify import judge
from optimus.core.sandbox.base import RunResult
from optimus.core.stages.execute import last_output
from optimus.core.terminal import decisions, number, plain, solution_line, timings, unnest, verdict_words
from tests.helpers import copy_problem

ROOT = Path(__file__).resolve().parents[1]
SANDBOX = ["--sandbox", "process"]
# A decimal with more than 8 significant digits (leading zeros aside): float noise on the terminal.
LONG_FLOAT = re.compile(r"(?<![\w.])-?\d*\.\d+(?:e[-+]?\d+)?")


def significant(text: str) -> int:
    mantissa = text.lstrip("-").split("e")[0].replace(".", "").lstrip("0")
    return len(mantissa.rstrip("0")) if "." in text else len(mantissa)


def optimus(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    """The installed command, as a user runs it (a subprocess: its own stdout, stderr and exit code)."""
    return subprocess.run([sys.executable, "-m", "optimus", *args], cwd=cwd, capture_output=True, text=True, check=False,
                          timeout=600, env={**os.environ, "OPTIMUS_DEBUG": ""})


def test_solve_nlp4lp_12_reads_like_a_report_not_a_debug_log(tmp_path):
    """The issue's screenshot-free check: no Python repr, no float noise, no None, and a table of decisions."""
    folder = copy_problem("12", tmp_path / "12")
    done = optimus("solve", str(folder), "--llm", "reference", *SANDBOX)
    shown = done.stdout + done.stderr
    assert done.returncode == 0, shown
    assert "{'" not in shown and "None" not in shown
    noisy = [f for f in LONG_FLOAT.findall(shown) if significant(f) > 8]
    assert not noisy, noisy
    assert re.search(r"^  objective 17711\.2 — matches expected\.json's 17711\.2$", shown, re.MULTILINE)
    table = re.search(r"decisions from .*output\.json — all (\d+) non-zero\n((?:    \S+ +\S+\n)+)", shown)
    assert table, shown
    rows = dict(line.split() for line in table.group(2).splitlines())
    output = json.loads(next((folder / "runs" / "latest").glob("v0/attempt-*/output.json")).read_text())
    assert len(rows) == int(table.group(1)) and rows["ship[0][1]"] == number(output["ship"][0][1])
    assert "open[2]" not in rows  # a closed centre (0) is not a decision worth a line
    timing = [line for line in shown.splitlines() if "time " in line and "sandbox" in line]
    assert len(timing) == 1 and "seconds:" not in shown
    assert "not a model's judgement" in shown  # offline assessment scores say whose they are
    result_line = next(line for line in shown.splitlines() if line.startswith("solved"))
    assert "((" not in result_line and max_depth(result_line) <= 1


def max_depth(text: str) -> int:
    depth = deepest = 0
    for ch in text:
        depth += {"(": 1, ")": -1}.get(ch, 0)
        deepest = max(deepest, depth)
    return deepest


def test_show_all_lists_every_decision_and_top_stops_at_20():
    output = {"x": [[0, 1.5, 0], [2, 0, 3.25]], "name": "plan", "flags": [True, False], "total": 5.3999999999999995}
    rows, count = decisions(output)
    assert rows == [("x[0][1]", "1.5"), ("x[1][0]", "2"), ("x[1][2]", "3.25"), ("name", "plan"),
                    ("flags[0]", "true"), ("total", "5.4")] and count == 6
    many = {"y": list(range(1, 31))}
    assert len(decisions(many)[0]) == 20 and decisions(many)[1] == 30
    assert len(decisions(many, None)[0]) == 30


def test_numbers_are_rounded_for_reading_only():
    assert number(17711.200000000004) == "17711.2" and number(5.3999999999999995) == "5.4"
    assert number(-0.0) == "0" and number(3) == "3" and number(None) == "none"
    assert solution_line({"status": "infeasible", "objective": None}) == "status infeasible"
    assert verdict_words({"status": "not solved", "objective": None, "message": "no backend"}) == \
        "not solved — no backend"
    assert "None" not in verdict_words({})


def test_one_timing_line_says_sandbox_seconds_of_samples_are_summed():
    one = timings({"llm": 0.0, "sandbox": 2.008, "total": 2.045})
    assert one == "time 2.0 s in all; model 0.0 s, sandbox 2.0 s"
    three = timings({"llm": 0.0, "sandbox": 5.5, "total": 2.5}, samples=3)
    assert "summed over 3 samples" in three and "{" not in three


def test_parentheses_inside_parentheses_read_as_brackets():
    assert unnest("solved (sample 0; status optimal (no tests in mode prompt))") == \
        "solved (sample 0; status optimal [no tests in mode prompt])"


def test_an_empty_error_output_leaves_no_dangling_colon():
    silent = RunResult(exit_code=1, stdout="", stderr="", timed_out=False, killed_by=None, wall_s=0.1,
                       backend="process")
    assert last_output(silent, "Its error output ends with") == " It printed nothing."
    loud = RunResult(exit_code=1, stdout="", stderr="Traceback\nValueError: x\n", timed_out=False, killed_by=None,
                     wall_s=0.1, backend="process")
    assert last_output(loud, "Its error output ends with") == "\nIts error output ends with:\nTraceback\nValueError: x"


def test_statements_are_quoted_without_markup_and_limits_named_by_data_key():
    statements = ["The blend's sulfur content must not exceed \\param{sulfur_max} percent.",
                  "At least \\param{min_batch} barrels are produced."]
    assert quote(1, statements) == '(s1) "The blend\'s sulfur content must not exceed sulfur_max percent."'
    assert plain("\\var{x_{i}} below \\param{cap_{i}}") == "x_{i} below cap_{i}"
    found = {"rows": ["s1_sulfur", "s2_batch"], "relaxation": {"changes": [{"row": "s1_sulfur", "from": 1.1,
                                                                           "to": 1.155862}]}}
    message = explain_infeasible(found, statements, {"sulfur_max": 1.1, "min_batch": 9000})["message"]
    assert "set sulfur_max: 1.1 → 1.15586 (the limit of row s1_sulfur)" in message
    assert "\\param" not in message


def test_the_resolve_accepts_an_objective_within_the_users_mip_gap():
    raw = {"model": {"integers": 3, "sense": "min"},
           "highs": {"solver": "HiGHS", "status": "optimal", "objective": 100.0, "bound": 100.0}}
    claimed = {"status": "optimal", "objective": 104.0}
    assert judge(claimed, raw).outcome == "disagrees"
    assert judge(claimed, {**raw, "mip_gap": 0.05}).outcome == "agrees"


def test_solver_options_reach_the_program_and_the_resolve_and_export_lp_writes_model_lp(tmp_path):
    folder = copy_problem("12", tmp_path / "12")
    solver = folder / "reference" / "solver.py"
    solver.write_text(solver.read_text() + "\nPath('env.json').write_text(json.dumps("
                      "{k: v for k, v in os.environ.items() if k.startswith('OPTIMUS_')}))\n")
    assert main(["solve", str(folder), "--llm", "reference", "--mode", "prompt", *SANDBOX, "--time-limit", "30",
                 "--mip-gap", "0.001", "--threads", "1", "--export", "lp"]) == 0
    attempt = folder / "runs" / "latest" / "v0" / "attempt-01"
    env = json.loads((attempt / "env.json").read_text())
    assert env == {"OPTIMUS_TIME_LIMIT": "30", "OPTIMUS_MIP_GAP": "0.001", "OPTIMUS_THREADS": "1"}
    request = json.loads((attempt / "verify" / "request.json").read_text())
    assert (request["time_limit"], request["mip_gap"], request["threads"]) == (30, 0.001, 1)
    lp = (attempt / "model.lp").read_text()
    assert lp.lstrip().splitlines()[1].strip() == "min" and "s4_demand_s0" in lp


def test_solver_options_must_be_positive(capsys):
    assert main(["solve", str(ROOT / "nlp4lp" / "12"), "--llm", "reference", "--mip-gap", "1.5", *SANDBOX]) == 2
    assert "--mip-gap 1.5" in capsys.readouterr().err


def test_logs_help_readme_and_output_agree_on_newest_last(capsys):
    import contextlib

    with contextlib.suppress(SystemExit):
        main(["logs", "--help"])
    assert "newest last" in capsys.readouterr().out
    readme = " ".join((ROOT / "README.md").read_text().split())
    assert re.search(r"`optimus logs \[-n N\] \[--stage S\] \[--json\]` lists past exchanges, newest last", readme)


def result_lines_of(report_fields: dict) -> str:
    """The result line `optimus solve` prints for a report with these fields (rich's markup rendered away)."""
    import io

    from rich.console import Console

    from optimus.commands.solve import summarize
    from optimus.core.report import Report

    report = Report(problem="p", mode="full", llm={}, sandbox="process", run_dir="/nonexistent", **report_fields)
    out = io.StringIO()
    summarize(report, Console(file=out, width=400, highlight=False, soft_wrap=True))
    return out.getvalue().splitlines()[0]


def test_no_result_line_nests_parentheses_whatever_its_status():
    """Audit: `infeasible — infeasible, as expected.json says (no solution exists, says the solver (verified: …))`:
    the meaning appended after unnest brought parentheses of its own."""
    cases = [{"status": "solved", "verified": True, "message": "sample 0 (status optimal (tests passed))"},
             {"status": "infeasible", "verified": True, "message": "infeasible, as expected.json says"},
             {"status": "unbounded", "verified": True, "message": "unbounded (the re-solve agrees)"},
             {"status": "failed", "message": "the tests found it wrong (2 failed (of 5))"},
             {"status": "ran", "message": "ran (no tests in mode prompt)",
              "status_detail": "ran under 1 assumption (max_dark)"}]
    for fields in cases:
        line = result_lines_of(fields)
        assert line.startswith(fields.get("status_detail", fields["status"])), line
        assert max_depth(line) <= 1, line
    infeasible = result_lines_of(cases[1])
    assert infeasible == ("infeasible — infeasible, as expected.json says (no solution exists, says the solver; "
                          "verified: the re-solve or expected.json agrees)")
    assert result_lines_of({**cases[1], "verified": False}).endswith("says the solver; not verified)")


def test_a_limit_no_data_value_is_said_plainly_as_a_row_bound():
    statements = ["The average sulfur must not exceed \\param{sulfur_max} percent."]
    found = {"rows": ["s1_sulfur_average"], "relaxation": {"changes": [{"row": "s1_sulfur_average", "from": 0,
                                                                        "to": 500}]}}
    message = explain_infeasible(found, statements, {"sulfur_max": 1.1})["message"]
    assert "raise the bound of model row s1_sulfur_average from 0 to 500 (no data.json value is this bound as it " \
           "stands)" in message and "right-hand side" not in message


class FakeProber:
    """Prober.search's answers without running anything: the key's move that makes the program feasible."""

    def __init__(self, moves: dict[str, float]):
        self.moves, self.runs, self.asked = moves, 0, []

    def search(self, key, data, statements):
        from optimus.core.changes import Candidate, Edit

        self.asked.append(key)
        if key not in self.moves:
            return None
        edit = Edit(key, [], float(data[key]), self.moves[key])
        return Candidate("limit", f"set {edit.text()}", [], [edit], size=abs(edit.new - edit.old) / max(1, edit.old),
                         source=f"found by re-running the program with {key} moved")


def test_a_limit_moved_alone_is_named_by_the_data_key_whose_smallest_move_repairs():
    from optimus.core.diagnose import name_limits

    statements = ["At least \\param{min_batch} barrels.",
                  "Average sulfur of \\param{sulfur_light} and \\param{sulfur_heavy} at most \\param{sulfur_max}."]
    data = {"min_batch": 9000, "sulfur_light": 0.4, "sulfur_heavy": 2.1, "sulfur_max": 1.1}
    found = {"rows": ["s1_min_batch", "s2_sulfur_average"],
             "relaxation": {"changes": [{"row": "s1_min_batch", "from": 9000, "to": 8500}],
                            "alternatives": [{"row": "s2_sulfur_average", "from": 0, "to": 500}]}}
    diagnosis = explain_infeasible(found, statements, data)
    prober = FakeProber({"sulfur_heavy": 1.975, "sulfur_max": 1.15586})
    named = name_limits(diagnosis, statements, data, prober)
    assert prober.asked == ["sulfur_light", "sulfur_heavy", "sulfur_max"]  # s2's keys only; s1's row is data
    assert "set sulfur_max: 1.1 → 1.15586 (for row s2_sulfur_average, found by re-running the program with " \
           "sulfur_max moved)" in named["message"]
    assert "model row" not in named["message"] and "set min_batch: 9000 → 8500" in named["message"]
    assert name_limits(diagnosis, statements, data, FakeProber({})) is diagnosis  # nothing found: plain words stay


SET = re.compile(r"set (\w+): (\S+) → (\S+)")  # a data value moved, as diagnosis and repair both say it


def test_solve_and_repair_name_the_same_limit_for_nlp4lp_15_infeasible(tmp_path, capsys, monkeypatch):
    """Audit: the diagnosis said `raise the right-hand side of s5_sulfur_average from 0 to 500` where
    `optimus repair` offers `set sulfur_max: 1.1 → 1.15586`."""
    folder = copy_problem("15-infeasible", tmp_path / "15")
    assert main(["solve", str(folder), "--llm", "reference", *SANDBOX]) == 0
    shown = capsys.readouterr().err
    diagnosis = next(line for line in shown.splitlines() if line.startswith("  diagnosis: The captured model"))
    result_line = next(line for line in shown.splitlines() if line.startswith("infeasible"))
    assert max_depth(result_line) <= 1, result_line
    assert "s5_sulfur_average from" not in diagnosis
    saved = json.loads((folder / "runs" / "latest" / "report.json").read_text())
    assert saved["verification"]["diagnosis"]["message"] in diagnosis  # report.json says what the terminal said
    monkeypatch.setattr("builtins.input", lambda _="": "stop")
    assert main(["repair", str(folder / "runs" / "latest"), *SANDBOX]) == 1
    offered = {m[0]: m for m in re.findall(SET, capsys.readouterr().out)}
    named = {m[0]: m for m in re.findall(SET, diagnosis)}
    assert offered["sulfur_max"] == named["sulfur_max"] == ("sulfur_max", "1.1", "1.15586")
    assert offered["min_batch"] == named["min_batch"] and offered["light_supply"] == named["light_supply"]


def test_solver_flags_a_z3_problem_does_not_read_are_warned_of_and_left_out_of_the_header(tmp_path, capsys):
    """Audit: --time-limit/--mip-gap/--threads/--export lp on llmfp/blocks-1 (z3) were accepted silently and the
    header said `solver time limit 5 s`."""
    import shutil

    folder = tmp_path / "blocks-1"
    shutil.copytree(ROOT / "llmfp" / "blocks-1", folder, ignore=shutil.ignore_patterns("runs"))
    assert main(["solve", str(folder), "--llm", "reference", "--mode", "prompt", *SANDBOX, "--time-limit", "5",
                 "--mip-gap", "0.01", "--threads", "2", "--export", "lp"]) == 0
    shown = capsys.readouterr().err
    for flag in ("--time-limit", "--mip-gap", "--threads", "--export lp"):
        assert f"warning: {flag} applies to LP/MILP programs only; {folder} is solved with z3" in shown, shown
    header = next(line for line in shown.splitlines() if line.startswith(f"optimus {folder}"))
    assert "; solver " not in header and "time limit" not in header
    assert "model in LP format" not in shown  # nothing was asked of the run that the warning did not drop


def test_a_wall_time_kill_says_where_the_time_went(tmp_path, monkeypatch):
    """A program that waits is stopped by the wall limit having used almost no CPU; on a busy machine the message
    says so, so that neither the user nor the model hunts an endless loop that is not there."""
    from optimus.core.sandbox.base import Limits
    from optimus.core.sandbox.process import ProcessBackend
    from optimus.core.stages.execute import _time_went

    (tmp_path / "work").mkdir()
    waits = ProcessBackend().run(["python", "-c", "import time; time.sleep(30)"], workdir=tmp_path / "work",
                                 limits=Limits(wall_s=1, cpu_s=10))
    assert waits.killed_by == "wall" and waits.resources["cpu_s"] < 0.5
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    monkeypatch.setattr(os, "getloadavg", lambda: (0.4, 0.3, 0.2))
    assert "mostly waiting" in _time_went(waits) and "busier" not in _time_went(waits)
    monkeypatch.setattr(os, "getloadavg", lambda: (52.0, 40.0, 20.0))
    said = _time_went(waits)
    assert "under half" in said and "busier than its 2 cores" in said and "waiting" not in said
    # A program that spent its time computing is not excused by the load, nor another limit by the wall time
    spun = RunResult(None, "", "", True, "wall", 3.0, "process", resources={"cpu_s": 2.9})
    assert "under half" not in _time_went(spun) and "busier than its 2 cores" in _time_went(spun)
    monkeypatch.setattr(os, "getloadavg", lambda: (1.0, 1.0, 1.0))
    assert _time_went(spun) == ""
    memory = RunResult(None, "", "", False, "memory", 3.0, "process", resources={"cpu_s": 0.1})
    assert _time_went(memory) == ""
