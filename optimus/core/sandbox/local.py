"""Run a host command (the process backend's program, or bwrap) with capped output, a wall clock and a kill.

One thread, one selector over stdout, stderr and a pidfd, so a daemon that keeps a pipe open cannot hang us
and no reader thread is left behind.
"""

from __future__ import annotations

import os
import selectors
import signal
import subprocess
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from optimus.core.sandbox.base import Limits

_CHUNK = 1 << 16
# After the program exits, how long to keep reading pipes that something else may still hold open.
_DRAIN_S = 0.3


@dataclass
class Completed:
    """Raw outcome of run_capped, before a backend turns it into a RunResult."""

    exit_code: int | None
    stdout: bytes
    stderr: bytes
    truncated: bool
    killed_by: str | None
    wall_s: float
    resources: dict[str, float] = field(default_factory=dict)


def rlimit_args(limits: Limits, nproc: int | None, prlimit: str = "prlimit") -> list[str]:
    """A `prlimit` prefix setting the rlimits; an exec wrapper, not preexec_fn, so it is thread-safe. nproc None:
    RLIMIT_NPROC is left as it is (a pids cgroup caps the processes instead)."""
    mb = 1024 * 1024
    nproc_arg = [f"--nproc={nproc}"] if nproc is not None else []
    return [
        prlimit,
        f"--as={limits.memory_mb * mb}",
        # Soft limit sends SIGXCPU, the hard one a second later SIGKILL.
        f"--cpu={int(limits.cpu_s)}:{int(limits.cpu_s) + 1}",
        f"--fsize={limits.file_size_mb * mb}",
        f"--nofile={limits.nofile}",
        *nproc_arg,
        "--core=0",
        "--",
    ]


def tasks_of_uid(uid: int) -> int:
    """Threads the kernel counts against RLIMIT_NPROC for `uid` right now (an estimate from /proc)."""
    count = 0
    for entry in os.scandir("/proc"):
        # The /proc/<pid> owner is the effective uid: a cheap stat filters before reading status.
        try:
            if not entry.name.isdigit() or entry.stat().st_uid != uid:
                continue
            text = Path(entry.path, "status").read_text()
        except OSError:
            continue  # the process went away
        threads = [line.split()[1] for line in text.splitlines() if line.startswith("Threads:")]
        count += int(threads[0]) if threads else 1
    return count


class Capture:
    """One output stream, kept up to a byte cap."""

    def __init__(self, cap: int):
        self.cap, self.buf, self.overflow = cap, bytearray(), False

    def add(self, data: bytes) -> bool:
        """Keep data up to the cap; True the first time the cap is exceeded."""
        room = self.cap - len(self.buf)
        self.buf += data[: max(room, 0)]
        if len(data) > room and not self.overflow:
            self.overflow = True
            return True
        return False


def run_capped(
    argv: list[str],
    cwd: Path,
    env: Mapping[str, str],
    limits: Limits,
    pass_fds: tuple[int, ...] = (),
) -> Completed:
    """Start argv in its own session; kill its process group on wall timeout or output overflow."""
    start = time.monotonic()
    proc = subprocess.Popen(
        argv,
        cwd=cwd,
        env=dict(env),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        pass_fds=pass_fds,
    )
    killed_by: list[str] = []

    def kill(reason: str) -> None:
        if not killed_by:
            killed_by.append(reason)
        _killpg(proc.pid)

    out, err = Capture(limits.output_bytes), Capture(limits.output_bytes)
    captures = {proc.stdout.fileno(): out, proc.stderr.fileno(): err}
    sel = selectors.DefaultSelector()
    for fd in captures:
        os.set_blocking(fd, False)
        sel.register(fd, selectors.EVENT_READ)
    pidfd = _pidfd(proc.pid)
    if pidfd is not None:
        sel.register(pidfd, selectors.EVENT_READ)
    try:
        _pump(proc.pid, sel, captures, pidfd, start + limits.wall_s, kill)
    finally:
        sel.close()
        if pidfd is not None:
            os.close(pidfd)
        _killpg(proc.pid)
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)  # reaped by us; keep Popen from waiting again
        proc.stdout.close()
        proc.stderr.close()
    return Completed(
        exit_code=None if killed_by else proc.returncode,
        stdout=bytes(out.buf),
        stderr=bytes(err.buf),
        truncated=out.overflow or err.overflow,
        killed_by=killed_by[0] if killed_by else None,
        wall_s=time.monotonic() - start,
        resources={"max_rss_kb": usage.ru_maxrss, "cpu_s": round(usage.ru_utime + usage.ru_stime, 3)},
    )


def _pump(pid: int, sel: selectors.BaseSelector, captures: dict[int, Capture], pidfd: int | None, deadline: float,
          kill) -> None:
    """Read the program's output until it has exited and its pipes are drained (or _DRAIN_S after its exit);
    kill it at the wall deadline or when a capture overflows."""
    exited_at: float | None = None
    while True:
        now = time.monotonic()
        if exited_at is None and pidfd is None and _exited(pid):
            exited_at = now
        if exited_at is not None and (len(sel.get_map()) == 0 or now >= exited_at + _DRAIN_S):
            return
        limit_at = deadline if exited_at is None else exited_at + _DRAIN_S
        if exited_at is None and now >= deadline:
            kill("wall")
            deadline = now + 1.0  # SIGKILL is quick; should it not be, kill again in a second
            continue
        timeout = min(limit_at - now, 0.02 if pidfd is None else limit_at - now)
        for key, _ in sel.select(max(timeout, 0)):
            if key.fd == pidfd:
                exited_at = time.monotonic()
                sel.unregister(pidfd)
                # Take down what the program left behind in its group before reaping it.
                _killpg(pid)
                continue
            try:
                data = os.read(key.fd, _CHUNK)
            except BlockingIOError:
                continue
            if not data:
                sel.unregister(key.fd)
            elif captures[key.fd].add(data):
                kill("output")


def _killpg(pgid: int) -> None:
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _pidfd(pid: int) -> int | None:
    try:
        return os.pidfd_open(pid)
    except (AttributeError, OSError):
        return None  # old kernel: fall back to polling


def _exited(pid: int) -> bool:
    """Whether pid is a zombie waiting to be reaped (without reaping it)."""
    try:
        info = os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    except ChildProcessError:
        return True
    return info is not None
