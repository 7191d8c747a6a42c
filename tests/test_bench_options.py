"""Bench options: --sandboxes bounds sandboxed runs at once; --price-in/--price-out price the tokens."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from optimus.bench.backends import SandboxSlots


class CountingSandbox:
    name = "fake"

    def __init__(self, slots):
        self.lock, self.now, self.most = threading.Lock(), 0, 0
        self.full, self.slots = threading.Event(), slots

    def run(self, cmd, **_):
        with self.lock:
            self.now += 1
            self.most = max(self.most, self.now)
            if self.now >= self.slots:
                self.full.set()
        # The first runs wait until `slots` are in at once (an event, not luck); a bound that let more in
        # would show while they wait.
        self.full.wait(30)
        time.sleep(0.01)
        with self.lock:
            self.now -= 1
        return cmd


@pytest.mark.parametrize("slots", [1, 2, 3])
def test_no_more_than_slots_runs_at_once(slots):
    inner = CountingSandbox(slots)
    sandbox = SandboxSlots(inner, slots)
    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(lambda i: sandbox.run([str(i)], workdir=None), range(16)))
    assert results == [[str(i)] for i in range(16)]
    assert inner.most == slots  # 16 runs from 8 threads: the bound is reached, never passed
    assert sandbox.name == "fake"


def test_summary_prices_the_tokens_per_solved_problem(tmp_path):
    from optimus.bench.summary import write_summary

    def row(problem, success, prompt, completion):
        return {"problem": problem, "mode": "prompt", "success": success, "executed": True, "verified": success,
                "llm_calls": 2, "prompt_tokens": prompt, "completion_tokens": completion,
                "seconds": {"total": 1.0}, "reason": "", "error": None}

    rows = [row("a", True, 1_000_000, 0), row("b", True, 0, 500_000), row("c", False, 2_000_000, 0)]
    text = write_summary(tmp_path, rows, prices=(2.0, 8.0)).read_text()
    # 3M prompt tokens at 2 + 0.5M completion tokens at 8 = 10, over 2 solved problems = 5 each.
    line = next(x for x in text.splitlines() if x.startswith("| prompt |"))
    assert line.rstrip().endswith("| 5.0000 |"), line
    assert "cost / solved" not in write_summary(tmp_path, rows).read_text()
