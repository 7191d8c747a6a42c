"""`optimus bench --executor ray`: each row a Ray task that holds one CPU for its sandbox; model calls limited
cluster-wide by one actor that holds the concurrency budget and the requests-per-minute limit.

With no --address a local Ray starts on this machine; `--address ray://host:10001` joins a cluster. Rows come
back to the driver, which appends them to the same results.jsonl as the thread executor, so either executor
resumes the other's run. Every node needs optimus installed (`pip install 'optimus[ray]'`) and a sandbox backend;
--out must be on storage every node sees (the rows' run folders are written there).
"""

from __future__ import annotations

import collections
import os
import time
from collections.abc import Callable, Iterator

from optimus.core.errors import ConfigError, ExecutorError

# How often a waiting worker asks the budget again, at most (seconds).
POLL_S = 0.05


def _ray():
    try:
        import ray
    except ImportError:
        raise ConfigError("--executor ray needs Ray: pip install 'optimus[ray]' (or pip install ray)") from None
    return ray


class CallBudget:
    """The cluster-wide model-call budget (a Ray actor): at most `concurrency` calls in flight and at most `rpm`
    started in any 60 s (0: no limit). `most` is the largest number ever in flight, for tests and reports."""

    def __init__(self, concurrency: int, rpm: int = 0):
        self.concurrency, self.rpm = concurrency, rpm
        self.in_flight, self.most = 0, 0
        self.started: collections.deque[float] = collections.deque()

    def acquire(self) -> float:
        """0 when the caller may call now (and is counted in flight), else seconds to wait before asking again."""
        now = time.monotonic()
        while self.started and now - self.started[0] >= 60:
            self.started.popleft()
        if self.in_flight >= self.concurrency:
            return POLL_S
        if self.rpm and len(self.started) >= self.rpm:
            return max(POLL_S, 60 - (now - self.started[0]))
        self.in_flight += 1
        self.most = max(self.most, self.in_flight)
        self.started.append(now)
        return 0.0

    def release(self) -> None:
        self.in_flight -= 1

    def peak(self) -> int:
        return self.most


class Budgeted:
    """A model backend whose every call first takes a place in the shared CallBudget actor."""

    def __init__(self, backend, budget):
        self.backend, self.budget = backend, budget
        self.name, self.model, self.cacheable = backend.name, backend.model, backend.cacheable
        for attr in ("temperature", "max_tokens"):  # they enter the request hash
            if hasattr(backend, attr):
                setattr(self, attr, getattr(backend, attr))

    def complete(self, stage: str, messages: list[dict]):
        ray = _ray()
        while (wait := ray.get(self.budget.acquire.remote())) > 0:
            time.sleep(min(wait, 5.0))
        try:
            return self.backend.complete(stage, messages)
        finally:
            self.budget.release.remote()


def _rows(run_task, subject, modes, opts, drawn, budget) -> list[dict]:
    """One task's rows, inside a Ray worker: its own sandbox backend, its model backend behind the shared budget."""
    from optimus.core.sandbox import Limits, get_backend

    limits = Limits(wall_s=opts.timeout, cpu_s=max(1, int(opts.timeout)), memory_mb=opts.memory_mb)
    shared = opts.make_backend() if opts.make_backend is not None else None  # None: the reference backend
    return run_task(subject, modes, opts, get_backend(opts.sandbox), limits, shared, drawn,
                    wrap=lambda backend: Budgeted(backend, budget))


def _start(ray, opts) -> None:
    """ray.init, or an error that says what happened: Ray's own start-up can fail on a busy machine (it waits a
    fixed 30 s for its raylet), which is neither the user's input nor a bug of ours."""
    kwargs = {"address": opts.ray_address} if opts.ray_address else {"num_cpus": opts.sandboxes}
    try:
        ray.init(include_dashboard=False, log_to_driver=False, **kwargs)
    except Exception as exc:
        load, cores = os.getloadavg()[0], os.cpu_count() or 1
        raise ExecutorError(f"Ray could not start: {exc} (load average {load:.0f} on {cores} cores). Rerun when the "
                            "machine is less busy, or with --executor thread, which resumes this run's rows") from exc


def run_rows(tasks: list, opts, assignment: dict, run_task: Callable[..., list[dict]],
             budget_peak: list | None = None) -> Iterator[dict]:
    """Run (subject, modes) tasks as Ray tasks; yield each row as its task finishes (the driver writes
    results.jsonl). `run_task` is optimus.bench.runner.run_task, passed in so that this module, which the runner
    imports, does not import the runner back (Ray pickles it by reference: workers import the runner)."""
    ray = _ray()
    started_here = not ray.is_initialized()
    if started_here:
        _start(ray, opts)
    try:
        budget = ray.remote(num_cpus=0)(CallBudget).remote(opts.llm_concurrency, opts.rpm)
        rows_task = ray.remote(num_cpus=1, max_retries=0)(_rows)
        pending = [rows_task.remote(run_task, s, modes, opts, assignment.get(s.key), budget) for s, modes in tasks]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            yield from ray.get(done[0])
        if budget_peak is not None:
            budget_peak.append(ray.get(budget.peak.remote()))
    finally:
        if started_here:
            ray.shutdown()
