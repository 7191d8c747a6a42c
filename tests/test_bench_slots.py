"""--sandboxes: at most N sandboxed runs at once, however many rows run (and wait on a model) at once."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from optimus.bench.backends import SandboxSlots


class CountingSandbox:
    name = "fake"

    def __init__(self):
        self.lock, self.now, self.most = threading.Lock(), 0, 0

    def run(self, cmd, **_):
        with self.lock:
            self.now += 1
            self.most = max(self.most, self.now)
        time.sleep(0.05)
        with self.lock:
            self.now -= 1
        return cmd


@pytest.mark.parametrize("slots", [1, 2, 3])
def test_no_more_than_slots_runs_at_once(slots):
    inner = CountingSandbox()
    sandbox = SandboxSlots(inner, slots)
    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(lambda i: sandbox.run([str(i)], workdir=None), range(16)))
    assert results == [[str(i)] for i in range(16)]
    assert inner.most == slots  # 16 runs from 8 threads: the bound is reached, never passed
    assert sandbox.name == "fake"
