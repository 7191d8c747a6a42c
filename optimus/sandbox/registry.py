"""Pick a backend by name, or the strongest one that works here ("auto"), and explain the others."""

from __future__ import annotations

import sys

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


def backend_names() -> list[str]:
    return list(BACKENDS)


def get_backend(name: str = "auto") -> Backend:
    """A ready backend. An explicit name that does not work here raises SandboxError saying why."""
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
    rows = []
    for name, cls in BACKENDS.items():
        reason = cls.check()
        note = stale_note() if name == "docker" and reason is None else None
        text = reason or "works; holds: " + "; ".join(cls.holds) + (f" (warning: {note})" if note else "")
        rows.append((name, reason is None, text))
    return rows
