"""Wrappers for benchmarks: a bound on concurrent model calls, on concurrent sandboxed runs, and a simulated
model latency."""

from __future__ import annotations

import threading
import time
from dataclasses import replace

from optimus.core.llm.client import Backend, Completion, for_sample
from optimus.core.llm.registry import description


class Throttled:
    """At most `semaphore`'s count of calls in flight across all wrappers sharing it (rate limits)."""

    def __init__(self, backend: Backend, semaphore: threading.Semaphore):
        self.backend, self.semaphore = backend, semaphore
        self.name, self.model, self.cacheable = backend.name, backend.model, backend.cacheable
        self.description = description(backend)
        for attr in ("temperature", "max_tokens", "seed"):  # they enter the request hash
            if hasattr(backend, attr):
                setattr(self, attr, getattr(backend, attr))

    def for_sample(self, sample: int) -> Throttled:
        """Sample `sample`'s backend (optimus.commands.samples), under the same budget."""
        return Throttled(for_sample(self.backend, sample), self.semaphore)

    def complete(self, stage: str, messages: list[dict]) -> Completion:
        with self.semaphore:
            return self.backend.complete(stage, messages)


class Delayed:
    """Sleeps `seconds` per call, as a remote model would take, and counts it as model latency."""

    def __init__(self, backend: Backend, seconds: float):
        self.backend, self.seconds = backend, seconds
        self.name, self.model, self.cacheable = backend.name, backend.model, backend.cacheable
        self.description = description(backend)

    def for_sample(self, sample: int) -> Delayed:
        return Delayed(for_sample(self.backend, sample), self.seconds)

    def complete(self, stage: str, messages: list[dict]) -> Completion:
        started = time.monotonic()
        comp = self.backend.complete(stage, messages)
        time.sleep(max(0.0, self.seconds - (time.monotonic() - started)))
        return replace(comp, latency_s=comp.latency_s + self.seconds)


class SandboxSlots:
    """At most `slots` sandboxed runs at once across the bench's rows: many rows may wait on a model, but the
    CPU work queues instead of landing on the cores all at once (`--sandboxes`, default: the number of cores)."""

    def __init__(self, sandbox, slots: int):
        self.sandbox, self.semaphore = sandbox, threading.Semaphore(slots)

    def __getattr__(self, name: str):
        return getattr(self.sandbox, name)  # name, holds, … of the wrapped backend

    def run(self, *args, **kwargs):
        with self.semaphore:
            return self.sandbox.run(*args, **kwargs)
