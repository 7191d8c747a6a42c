"""Wrappers for benchmarks: a bound on concurrent model calls, a simulated model latency, and the sandbox's
pytest without third-party plugins."""

from __future__ import annotations

import threading
import time
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

from optimus.llm.client import Backend, Completion
from optimus.sandbox import Limits, RunResult
from optimus.sandbox.base import Backend as SandboxBackend


class Throttled:
    """At most `semaphore`'s count of calls in flight across all wrappers sharing it (rate limits)."""

    def __init__(self, backend: Backend, semaphore: threading.Semaphore):
        self.backend, self.semaphore = backend, semaphore
        self.name, self.model, self.cacheable = backend.name, backend.model, backend.cacheable
        for attr in ("temperature", "max_tokens"):  # they enter the request hash
            if hasattr(backend, attr):
                setattr(self, attr, getattr(backend, attr))

    def complete(self, stage: str, messages: list[dict]) -> Completion:
        with self.semaphore:
            return self.backend.complete(stage, messages)


class Delayed:
    """Sleeps `seconds` per call, as a remote model would take, and counts it as model latency."""

    def __init__(self, backend: Backend, seconds: float):
        self.backend, self.seconds = backend, seconds
        self.name, self.model, self.cacheable = backend.name, backend.model, backend.cacheable

    def complete(self, stage: str, messages: list[dict]) -> Completion:
        started = time.monotonic()
        comp = self.backend.complete(stage, messages)
        time.sleep(max(0.0, self.seconds - (time.monotonic() - started)))
        return replace(comp, latency_s=comp.latency_s + self.seconds)


class NoPluginSandbox:
    """The sandbox, with pytest's entry-point plugins off (PYTEST_DISABLE_PLUGIN_AUTOLOAD=1).

    The docker image installs only the solvers and pytest; the process and bwrap backends run the host's venv,
    where importing the hypothesis plugin alone costs ~1.6 s per test run — most of a benchmark's time. The
    harness needs no plugin (junitxml is built in, the fixtures come from our conftest.py)."""

    def __init__(self, sandbox: SandboxBackend):
        self.sandbox, self.name = sandbox, sandbox.name

    def run(self, cmd: list[str], workdir: Path, readonly: Mapping[str, Path] | None = None,
            limits: Limits | None = None, env: Mapping[str, str] | None = None) -> RunResult:
        return self.sandbox.run(cmd, workdir, readonly, limits, {"PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1", **(env or {})})
