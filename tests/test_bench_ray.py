"""`optimus bench --executor ray`: a local Ray (2 CPUs) gives the thread executor's rows and resumes its runs;
the call budget holds its limits. Ray runs in a child process (the CLI, as a user runs it): a Ray started and
stopped inside the pytest process leaves threads behind that crashed later in-process Z3 tests."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from optimus.bench.ray_executor import CallBudget
from optimus.bench.runner import BenchOptions, run_bench
from tests.helpers import NLP4LP

PROBLEMS = ["1", "2", "3", "12"]
# What a row's verdict is made of; timings and run folders differ between any two runs.
SAME = ("problem", "mode", "success", "executed", "verified", "status", "solver_status", "objective",
        "objective_match", "tests", "llm_calls")


def _bench(tmp_path, out, problems, executor):
    if executor == "ray":
        optimus = Path(sys.executable).with_name("optimus")
        subprocess.run([str(optimus), "bench", *(str(NLP4LP / p) for p in problems), "--out", str(tmp_path / out),
                        "--mode", "prompt,supervised", "--sandbox", "process", "--timeout", "30", "--executor", "ray",
                        "--sandboxes", "2", "--llm-concurrency", "1"], check=True, capture_output=True, timeout=300)
        rows = [json.loads(line) for line in (tmp_path / out / "results.jsonl").read_text().splitlines()]
    else:
        opts = BenchOptions(dirs=[NLP4LP / p for p in problems], out=tmp_path / out, modes=["prompt", "supervised"],
                            sandbox="process", timeout=30, executor=executor, sandboxes=2, llm_concurrency=1)
        rows = run_bench(opts, progress=lambda _: None)
    return {(r["problem"], r["mode"]): r for r in rows if r.get("mode")}


def test_ray_rows_equal_thread_rows_and_ray_resumes_a_thread_run(tmp_path):
    thread = _bench(tmp_path, "thread", PROBLEMS, "thread")
    # The ray run starts where a thread run of the first two problems stopped: only the other rows run.
    first = _bench(tmp_path, "mixed", PROBLEMS[:2], "thread")
    assert len(first) == 4
    mixed = _bench(tmp_path, "mixed", PROBLEMS, "ray")
    assert mixed.keys() == thread.keys() and len(mixed) == 8
    for key in first:  # resumed, not run again
        assert mixed[key]["run_dir"] == first[key]["run_dir"]
    for key, row in thread.items():
        assert {k: mixed[key][k] for k in SAME} == {k: row[k] for k in SAME}
    assert sum(r["success"] for r in mixed.values()) >= 6  # the reference backend solves these


def test_call_budget_holds_concurrency_and_requests_per_minute():
    budget = CallBudget(concurrency=2, rpm=3)
    assert budget.acquire() == 0 and budget.acquire() == 0
    assert budget.acquire() > 0  # two in flight: the third waits
    budget.release()
    assert budget.acquire() == 0  # a place is free, and 3 calls have started this minute
    budget.release()
    wait = budget.acquire()
    assert 50 < wait <= 60  # the 4th call in a minute waits for the oldest to leave the window
    assert budget.peak() == 2
