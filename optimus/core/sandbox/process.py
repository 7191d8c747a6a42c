"""The weakest backend: a plain subprocess with rlimits, a cleared environment and its own process group.

It cannot hold network access, reads or writes of the user's files, or signals to other processes of the
same user; it exists so optimus still runs where neither bwrap nor docker does.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path

from optimus.core.sandbox.base import (
    Backend,
    Limits,
    RunResult,
    base_env,
    check_request,
    infer_killed_by,
    with_interpreter,
)
from optimus.core.sandbox.local import rlimit_args, run_capped, tasks_of_uid
from optimus.core.sandbox.pidcap import cgroup_parent, pid_cap

CANNOT_HOLD = (
    "network access",
    "reading the user's files (~/.ssh, the repo, other processes' environments, e.g. API keys)",
    "writing outside the work dir",
    "signals to the parent and other processes",
)
# Held where a pids cgroup can be made (it counts the run's tasks and is emptied when the run ends).
WITHOUT_CGROUP = (
    "daemons that outlive the run",
    "fork bombs when run as root (RLIMIT_NPROC does not apply to root)",
)


def cannot_hold() -> tuple[str, ...]:
    return CANNOT_HOLD if cgroup_parent() is not None else CANNOT_HOLD + WITHOUT_CGROUP


class ProcessBackend(Backend):
    name = "process"
    holds = (
        "cleared environment",
        "cpu, memory, file size, open files (rlimits)",
        "wall clock",
        "output cap",
    )

    @classmethod
    def check(cls) -> str | None:
        if not sys.platform.startswith("linux"):
            return "needs Linux (rlimits via prlimit)"
        if shutil.which("prlimit") is None:
            return "prlimit not found: apt-get install util-linux"
        return None

    def run(
        self,
        cmd: list[str],
        workdir: Path,
        readonly: Mapping[str, Path] | None = None,
        limits: Limits | None = None,
        env: Mapping[str, str] | None = None,
    ) -> RunResult:
        limits = limits or Limits()
        work, files, extra = check_request(cmd, workdir, readonly, env)
        python = sys.executable
        argv = with_interpreter(cmd, python)
        path = f"{os.path.dirname(python)}:/usr/local/bin:/usr/bin:/bin"
        with contextlib.ExitStack() as stack:
            home = stack.enter_context(tempfile.TemporaryDirectory(prefix="optimus-home-"))
            stack.enter_context(_copies(work, files))
            run_env = base_env(path, home, extra)
            run_env["TMPDIR"] = home
            cap = stack.enter_context(pid_cap(limits.processes))
            nproc = None if cap else tasks_of_uid(os.getuid()) + limits.processes
            prefix = [*(cap.prefix if cap else []), *rlimit_args(limits, nproc, shutil.which("prlimit") or "prlimit")]
            done = run_capped([*prefix, *argv], work, run_env, limits)
        stderr = done.stderr.decode(errors="replace")
        return RunResult(
            exit_code=done.exit_code,
            stdout=done.stdout.decode(errors="replace"),
            stderr=stderr,
            timed_out=done.killed_by == "wall",
            killed_by=done.killed_by
            or infer_killed_by(done.exit_code, stderr, done.resources["cpu_s"], limits, work),
            wall_s=round(done.wall_s, 4),
            backend=self.name,
            output_truncated=done.truncated,
            resources=done.resources,
        )


@contextlib.contextmanager
def _copies(work: Path, files: dict[str, Path]) -> Iterator[None]:
    """Copies, not links: a link would let the program write through to the user's file. A folder of tables
    over COPY_LIMIT_MB is linked instead (copying gigabytes per run is worse, and this backend cannot stop a
    program opening the user's files by their absolute path anyway: see `holds`)."""
    made = []
    try:
        for name, src in files.items():
            dst = work / name
            if src.is_dir() and _size(src) > COPY_LIMIT_MB * 1024 * 1024:
                dst.symlink_to(src, target_is_directory=True)
            elif src.is_dir():
                shutil.copytree(src, dst, copy_function=shutil.copyfile)
                for path in dst.rglob("*"):
                    path.chmod(0o444)
            else:
                shutil.copyfile(src, dst)
                dst.chmod(0o444)
            made.append(dst)
        yield
    finally:
        for dst in made:
            with contextlib.suppress(OSError):
                _remove(dst)


COPY_LIMIT_MB = 256


def _size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        for inner in path.rglob("*"):
            inner.chmod(0o644)
        shutil.rmtree(path)
    else:
        path.unlink()
