"""Pick a backend by name, or the strongest one that works here ("auto"), and explain the others."""

from __future__ import annotations

import sys
import threading

from optimus.errors import ConfigError, SandboxError
from optimus.sandbox.base import Backend
from optimus.sandbox.bwrap import BwrapBackend
from optimus.sandbox.container import DockerBackend, stale_note
from optimus.sandbox.process import CANNOT_HOLD, ProcessBackend

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
        print(
            "optimus: warning: the 'process' sandbox cannot hold "
            + "; ".join(CANNOT_HOLD)
            + ". Install bubblewrap or docker (see `optimus sandbox doctor`).",
            file=sys.stderr,
        )
    return BACKENDS[name]()


def doctor() -> list[tuple[str, bool, str]]:
    """(backend, works, reason) for every backend, strongest first."""
    _finish_prefetch()
    rows = []
    for name, cls in BACKENDS.items():
        reason = cls.check()
        note = stale_note() if name == "docker" and reason is None else None
        text = reason or "works; holds: " + "; ".join(cls.holds) + (f" (warning: {note})" if note else "")
        rows.append((name, reason is None, text))
    return rows
