"""optimus bench end to end: the verdict, resume, the outputs, and a real-client bench against the scripted server."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from optimus.bench.draw import Subject, candidates, first_breaking, run_program
from optimus.bench.faults import FaultPlan
from optimus.bench.judge import ground_truth, judge
from optimus.bench.runner import BenchOptions, run_bench
from optimus.bench.summary import ordering
from optimus.commands.cli import main
from optimus.core.errors import ConfigError
from optimus.core.llm.reference import ReferenceBackend
from optimus.core.problem import load_problem
from optimus.core.sandbox import Limits, get_backend
from tests.helpers import NLP4LP, copy_problem
from tests.scripted_server import RecordedRequest, ScriptedLLM

LIMITS = Limits(wall_s=20, cpu_s=20, memory_mb=4096)


def listing(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


def test_verdict_needs_the_supervised_tests_and_the_objective(tmp_path):
    sandbox = get_backend("process")
    folder = tmp_path / "5"
    copy_problem("5", folder)
    expected, _ = ground_truth(folder)
    problem = load_problem(folder)
    ran = run_program(
        Subject("5", problem, expected, tmp_path),
        (folder / "reference" / "solver.py").read_text(),
        tmp_path / "ref",
        sandbox,
        LIMITS,
    )
    ok = judge(problem, expected, ran, sandbox, LIMITS, tmp_path / "e1")
    assert ok.success and ok.executed and ok.objective_match and ok.tests_passed > 0
    shutil.copy(folder / "reference" / "wrong_output.json", ran / "output.json")  # violates a constraint
    bad = judge(problem, expected, ran, sandbox, LIMITS, tmp_path / "e2")
    assert bad.executed and not bad.success and bad.tests_failed > 0 and "supervised tests" in bad.reason
    off = judge(
        problem,
        {**expected, "objective": expected["objective"] * 1.01},
        ran,
        sandbox,
        LIMITS,
        tmp_path / "e3",
    )
    assert not off.success and off.objective_match is False
    loose = judge(
        problem,
        {**expected, "objective": expected["objective"] * (1 + 1e-5)},
        ran,
        sandbox,
        LIMITS,
        tmp_path / "e4",
        rel=1e-4,
    )
    assert (
        loose.objective_match and not loose.success
    )  # the objective is near enough; the output still is wrong
    (ran / "output.json").write_text("{not json")
    assert not judge(problem, expected, ran, sandbox, LIMITS, tmp_path / "e5").executed


def test_resume_runs_only_missing_rows_and_never_touches_the_repo(tmp_path):
    before = listing(NLP4LP / "1")
    out = tmp_path / "out"
    opts = BenchOptions(
        dirs=[NLP4LP / "1"],
        out=out,
        modes=["prompt", "autotests"],
        sandbox="process",
        faults="syntax_error",
        timeout=20,
    )
    seen: list[str] = []
    rows = run_bench(opts, progress=seen.append)
    assert [(r["mode"], r["fault"]) for r in sorted(rows, key=lambda r: r["mode"])] == [
        ("autotests", "syntax_error"),
        ("prompt", "syntax_error"),
    ]
    first = (out / "results.jsonl").read_text().splitlines()
    assert len(first) == 2 and sum(line.startswith("[") for line in seen) == 2
    # A row cut short by a kill is run again; finished rows are kept as they were.
    (out / "results.jsonl").write_text(first[0] + "\n" + first[1][:40])
    kept = json.loads(first[0])["mode"]
    seen.clear()
    opts.modes = ["prompt", "autotests", "debug"]
    rows = run_bench(opts, progress=seen.append)
    ran = sorted(line.split()[2].rstrip(":") for line in seen if line.startswith("["))
    assert ran == sorted({"prompt", "autotests", "debug"} - {kept})
    assert len(rows) == 3 and (out / "results.jsonl").read_text().splitlines()[0] == first[0]
    by_mode = {r["mode"]: r for r in rows}
    assert (
        not by_mode["prompt"]["success"] and by_mode["debug"]["success"] and by_mode["autotests"]["success"]
    )
    assert by_mode["debug"]["fault_detail"]["repaired"] and by_mode["prompt"]["detected"]
    assert listing(NLP4LP / "1") == before  # tests/test_generated.py and runs/ went to the copies
    # One nested trajectory ran the missing modes (debug, then autotests) on one copy.
    assert (out / "work" / "nlp4lp" / "1" / "nested" / "tests" / "test_generated.py").exists()
    with pytest.raises(ConfigError, match="other settings"):
        run_bench(
            BenchOptions(dirs=[NLP4LP / "1"], out=out, modes=["prompt"], sandbox="process", faults="none")
        )


def test_ordering_check():
    def rows(**success: int) -> list[dict]:
        return [{"mode": m, "success": i < k} for m, k in success.items() for i in range(3)]

    assert ordering(rows(prompt=1, debug=2, supervised=2))[0]
    holds, text = ordering(rows(prompt=2, debug=1))
    assert not holds and "prompt 2 > debug 1" in text


def test_bad_input_exits_2_with_one_line(tmp_path, capsys):
    assert main(["bench", str(NLP4LP / "1"), "--faults", "nope", "--out", str(tmp_path)]) == 2
    assert main(["bench", str(NLP4LP / "1"), "--mode", "prompt,fast", "--out", str(tmp_path)]) == 2
    assert main(["bench", str(tmp_path / "missing"), "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 3 and all(line.startswith("optimus: error:") for line in err)
    assert "unknown fault nope" in err[0] and "unknown mode fast" in err[1]


def test_three_problem_bench_with_the_real_client(scripted_llm: ScriptedLLM, tmp_path, monkeypatch):
    """The openai backend against the scripted server: it answers like a model that knows the references,
    except that its first program for nlp4lp/1 reads a wrong data key until a debug prompt shows the KeyError."""
    names = ["1", "2", "5"]
    problems = {n: load_problem(NLP4LP / n) for n in names}
    sandbox = get_backend("process")
    s1 = Subject(
        "nlp4lp/1", problems["1"], json.loads((NLP4LP / "1" / "expected.json").read_text()), tmp_path / "t"
    )
    plan = FaultPlan(candidates(s1, "wrong_key", 0)[first_breaking(s1, "wrong_key", 0, sandbox, LIMITS)])
    lock, state = threading.Lock(), {"now": 0, "max": 0}

    def answer(req: RecordedRequest) -> str:
        with lock:
            state["now"] += 1
            state["max"] = max(state["max"], state["now"])
        time.sleep(0.02)
        name = next(n for n, p in problems.items() if p.snop.problem_info[0] in req.prompt)
        text = ReferenceBackend(problems[name]).complete(req.stage, req.messages).text
        with lock:
            state["now"] -= 1
            return plan.answer(req.stage, req.messages, text) if name == "1" else text

    scripted_llm.enqueue(None, *[answer] * 200)
    monkeypatch.setenv("OPENAI_BASE_URL", scripted_llm.base_url)
    monkeypatch.setenv("OPTIMUS_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    out = tmp_path / "out"
    code = main(
        [
            "bench",
            *(str(NLP4LP / n) for n in names),
            "--llm",
            "openai",
            "--mode",
            "prompt,debug,supervised",
            "--jobs",
            "3",
            "--llm-concurrency",
            "1",
            "--sandbox",
            "process",
            "--out",
            str(out),
        ]
    )
    assert code == 0
    rows = {
        (r["problem"], r["mode"]): r
        for r in map(json.loads, (out / "results.jsonl").read_text().splitlines())
    }
    assert len(rows) == 9 and all(r["llm"] == "openai:gpt-4.1" for r in rows.values())
    failed = {k for k, r in rows.items() if not r["success"]}
    assert failed == {("nlp4lp/1", "prompt")}, [rows[k]["reason"] for k in failed]
    assert rows[("nlp4lp/1", "debug")]["attempts"]["debug"] == 1 and plan.repaired
    assert (
        rows[("nlp4lp/2", "supervised")]["llm_calls"] == 2
        and rows[("nlp4lp/2", "supervised")]["prompt_tokens"] > 0
    )
    assert state["max"] == 1  # --llm-concurrency 1: never two model calls at once, though three rows ran
    summary = (out / "summary.md").read_text()
    assert (
        "| prompt | 3 | 66.7% (2/3) | 66.7% (2/3) |" in summary and "| debug | 3 | 100.0% (3/3) |" in summary
    )
    assert (out / "summary.png").read_bytes()[:4] == b"\x89PNG"


def test_ctrl_c_keeps_every_finished_row_and_a_rerun_resumes(tmp_path, scripted_llm: ScriptedLLM):
    """SIGINT goes in when a row is written and nlp4lp/2's first model call is held by the server (work provably
    remains); the call is answered only once the bench has said it was interrupted. No timing is assumed: the
    waits are bounds for a machine busy with other work, where the bench takes minutes."""
    problems = {n: load_problem(NLP4LP / n) for n in ("1", "2")}
    held, release = threading.Event(), threading.Event()

    def answer(req: RecordedRequest) -> str:
        name = next(n for n, p in problems.items() if p.snop.problem_info[0] in req.prompt)
        if name == "2":
            held.set()
            release.wait(900)
        return ReferenceBackend(problems[name]).complete(req.stage, req.messages).text

    scripted_llm.enqueue(None, *[answer] * 400)
    out = tmp_path / "out"
    cmd = [sys.executable, "-m", "optimus", "bench", str(NLP4LP / "1"), str(NLP4LP / "2"), "--llm", "openai",
           "--mode", "prompt,debug,supervised", "--sandbox", "process", "--out", str(out)]
    env = {**os.environ, "OPENAI_BASE_URL": scripted_llm.base_url, "OPTIMUS_HOME": str(tmp_path / "home")}
    env.pop("OPENAI_API_KEY", None)
    results = out / "results.jsonl"
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
    said: list[str] = []
    interrupted = threading.Event()

    def read_stderr() -> None:
        for text in proc.stderr:
            said.append(text)
            if "interrupted" in text:
                interrupted.set()

    reader = threading.Thread(target=read_stderr, daemon=True)
    reader.start()
    try:
        assert held.wait(900), f"nlp4lp/2 never reached the model: {''.join(said)[-2000:]}"
        deadline = time.monotonic() + 300
        while not (results.exists() and results.read_text().count("\n") >= 1):  # nlp4lp/1's rows
            assert time.monotonic() < deadline, "no row was written"
            time.sleep(0.02)
        proc.send_signal(signal.SIGINT)
        assert interrupted.wait(300), f"no 'interrupted' after SIGINT: {''.join(said)[-2000:]}"
    finally:
        release.set()
    assert proc.wait(timeout=900) == 130
    reader.join(timeout=10)
    kept = results.read_text().splitlines()
    assert 1 <= len(kept) < 6 and all(json.loads(line)["problem"] == "nlp4lp/1" for line in kept)  # every line whole
    rerun = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=900, check=False)
    assert rerun.returncode == 0, rerun.stderr[-2000:]
    rows = [json.loads(line) for line in results.read_text().splitlines()]
    assert len(rows) == 6 and results.read_text().splitlines()[: len(kept)] == kept
    assert len({(r["problem"], r["mode"]) for r in rows}) == 6


def test_verdict_without_tests_or_without_an_objective(tmp_path):
    """Known objective, no tests of its own: status and objective decide. No objective: status and tests decide.
    A label written with few digits (abs_tol) matches what it rounds from."""
    sandbox = get_backend("process")
    folder = copy_problem("5", tmp_path / "5")
    expected, _ = ground_truth(folder)
    problem = load_problem(folder)
    ran = run_program(
        Subject("5", problem, expected, tmp_path),
        (folder / "reference" / "solver.py").read_text(),
        tmp_path / "ref",
        sandbox,
        LIMITS,
    )
    no_tests = judge(problem, expected, ran, sandbox, LIMITS, tmp_path / "e1", tests={})
    assert no_tests.success and no_tests.objective_match and no_tests.reason == ""
    wrong = judge(problem, {**expected, "objective": expected["objective"] + 1}, ran, sandbox, LIMITS,
                  tmp_path / "e2", tests={})
    assert not wrong.success and wrong.objective_match is False
    no_objective = {**expected, "objective": None, "sense": None}
    by_tests = judge(problem, no_objective, ran, sandbox, LIMITS, tmp_path / "e3")
    assert by_tests.success and by_tests.objective_match is None and by_tests.tests_passed > 0
    shutil.copy(folder / "reference" / "wrong_output.json", ran / "output.json")
    assert not judge(problem, no_objective, ran, sandbox, LIMITS, tmp_path / "e4").success
    nothing = judge(problem, no_objective, ran, sandbox, LIMITS, tmp_path / "e5", tests={})
    assert not nothing.success and "nothing to verify against" in nothing.reason
    # The label printed to one decimal: 0.04 away is within its rounding, at rel 1e-4 alone it is not.
    rounded = {**expected, "objective": expected["objective"] + 0.04}
    assert judge(problem, {**rounded, "abs_tol": 0.05}, ran, sandbox, LIMITS, tmp_path / "e6", tests={}).success
    assert not judge(problem, rounded, ran, sandbox, LIMITS, tmp_path / "e7", tests={}, rel=1e-5).success


def test_one_broken_problem_is_a_skipped_row_and_the_others_run(tmp_path, capsys):
    good = copy_problem("1", tmp_path / "set" / "1")
    unclear = copy_problem("5", tmp_path / "set" / "2")  # no expected.json and no sense to compute one with
    (unclear / "expected.json").unlink()
    text = (unclear / "description.txt").read_text()
    start = text.index("OBJECTIVE:")
    end = text.index("\n", start)
    (unclear / "description.txt").write_text(text[:start] + "OBJECTIVE: What should be done?" + text[end:])
    unreadable = copy_problem("2", tmp_path / "set" / "3")
    (unreadable / "data.json").write_text('{"cut": [1, 2')
    out = tmp_path / "out"
    code = main(["bench", str(tmp_path / "set"), "--mode", "prompt", "--sandbox", "process", "--out", str(out)])
    assert code == 0, capsys.readouterr().err
    rows = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    ran = [r for r in rows if "skipped" not in r]
    skipped = {r["problem"]: r["skipped"] for r in rows if "skipped" in r}
    assert [(r["problem"], r["mode"], r["success"]) for r in ran] == [("set/1", "prompt", True)]
    assert set(skipped) == {"set/2", "set/3"}
    assert "cannot tell the sense" in skipped["set/2"] and "data.json" in skipped["set/3"]
    summary = (out / "summary.md").read_text()
    assert "## Skipped problems" in summary and "- set/2: " in summary and "- set/3: " in summary
    assert good.exists()
    # A rerun tries the skipped problems again (they may be fixed), and adds no duplicate row when they are not.
    assert main(["bench", str(tmp_path / "set"), "--mode", "prompt", "--sandbox", "process", "--out", str(out)]) == 0
    assert len((out / "results.jsonl").read_text().splitlines()) == len(rows)
