"""Pick a backend by name, or the strongest one that works here ("auto"), and explain the others."""

from __future__ import annotations

import os
import shutil
import sys
import textwrap
import threading

from optimus.core.errors import ConfigError, SandboxError
from optimus.core.sandbox.base import Backend
from optimus.core.sandbox.bwrap import BwrapBackend
from optimus.core.sandbox.container import DockerBackend, stale_note
from optimus.core.sandbox.files import NOBODY
from optimus.core.sandbox.pidcap import cgroup_parent, fallback_note
from optimus.core.sandbox.pidcap import describe as describe_pid_cap
from optimus.core.sandbox.process import ProcessBackend, cannot_hold
from optimus.core.sandbox.testrunner import cannot_run_tests

# Strongest first: "auto" takes the first that works.
BACKENDS: dict[str, type[Backend]] = {
    "docker": DockerBackend,
    "bwrap": BwrapBackend,
    "process": ProcessBackend,
}
_warned = False
_prefetch: threading.Thread | None = None


def backend_names() -> list[str]:
    return list(BACKENDS)


def prefetch(name: str = "auto") -> None:
    """Start the checks get_backend(name) will make in a background thread: bwrap's is a real sandbox start
    (~25 ms), which can overlap the caller's own start-up (the CLI's imports). get_backend waits for it and
    takes the checks' cached answers; one that failed in the thread is simply made again."""
    global _prefetch
    names = list(BACKENDS) if name == "auto" else [name] if name in BACKENDS else []

    def check() -> None:
        try:
            for candidate in names:
                if BACKENDS[candidate].check() is None:
                    return
        except Exception:  # noqa: BLE001 — get_backend makes the check again and reports it properly
            return

    _finish_prefetch()
    _prefetch = threading.Thread(target=check, name="optimus-sandbox-check", daemon=True)
    _prefetch.start()


def _finish_prefetch() -> None:
    global _prefetch
    thread, _prefetch = _prefetch, None
    if thread is not None:
        thread.join()


def get_backend(name: str = "auto") -> Backend:
    """A ready backend. An explicit name that does not work here raises SandboxError saying why."""
    _finish_prefetch()
    if name == "auto":
        for candidate, cls in BACKENDS.items():
            if cls.check() is None:
                return _make(candidate)
        raise SandboxError("no sandbox backend works here: " + "; ".join(f"{n}: {r}" for n, _, r in doctor()))
    if name not in BACKENDS:
        raise ConfigError(f"unknown sandbox backend {name!r}; choose one of auto, {', '.join(BACKENDS)}")
    reason = BACKENDS[name].check()
    if reason is not None:
        raise SandboxError(f"sandbox backend {name} is unavailable: {reason}")
    return _make(name)


def _make(name: str) -> Backend:
    global _warned
    if name == "process" and not _warned:
        _warned = True
        text = ("optimus: warning: the 'process' sandbox cannot hold " + "; ".join(cannot_hold())
                + ". Install bubblewrap or docker (see `optimus sandbox doctor`).")
        if sys.stderr.isatty():  # wrapped at words to the terminal's width, as the solve's own lines are
            text = textwrap.fill(text, width=shutil.get_terminal_size().columns, break_on_hyphens=False)
        print(text, file=sys.stderr)
    return BACKENDS[name]()


def doctor() -> list[tuple[str, bool, str]]:
    """(backend, works, reason) for every backend, strongest first."""
    _finish_prefetch()
    rows = []
    for name, cls in BACKENDS.items():
        reason = cls.check()
        note = stale_note() if name == "docker" and reason is None else None
        holds = [*cls.holds, *([process_cap(name)] if name in ("bwrap", "process") else [])]
        note = note or cannot_run_tests(name)
        text = reason or "works; holds: " + "; ".join(holds) + (f" (warning: {note})" if note else "")
        rows.append((name, reason is None, text))
    return rows


def process_cap(name: str) -> str:
    """How the bwrap and process backends cap processes here: a pids cgroup, else RLIMIT_NPROC and what it counts."""
    if cgroup_parent() is not None:
        return describe_pid_cap()
    if name == "process" and os.geteuid() == 0:
        return f"processes: not capped ({describe_pid_cap()}; RLIMIT_NPROC does not apply to root)"
    uid = f"uid {NOBODY} (nobody)" if name == "bwrap" and os.geteuid() == 0 else f"uid {os.getuid()}"
    return f"{fallback_note(uid)} ({describe_pid_cap()})"
