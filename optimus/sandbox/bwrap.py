"""The bubblewrap backend: new namespaces (no network, own pids), a read-only view of only the interpreter and
system libraries, one writable work dir, rlimits, and a non-root uid so RLIMIT_NPROC holds.

When optimus runs as root, bwrap itself runs as nobody (65534). Nobody cannot reach the interpreter under
/root (mode 0700), so the command runs inside a private mount namespace (util-linux `unshare`) where each
bind source is first mounted onto a world-traversable staging dir; those mounts vanish with the namespace.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import shutil
import stat
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Mapping
from functools import cache
from pathlib import Path

from optimus.sandbox.base import (
    SANDBOX_WORKDIR,
    Backend,
    Limits,
    RunResult,
    base_env,
    check_request,
    from_shell_status,
    infer_killed_by,
)
from optimus.sandbox.files import NOBODY, mount_points, others_can_read, owned_by
from optimus.sandbox.local import rlimit_args, run_capped, tasks_of_uid
from optimus.sandbox.shim import parse_report, shim_argv

# Host paths every program needs, bound read-only at the same place.
_SYSTEM = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
_ETC = ("ld.so.cache", "ld.so.conf", "ld.so.conf.d", "alternatives", "localtime")
_TOOLS = ("bwrap", "prlimit", "unshare", "setpriv", "sh")
INSTALL = "apt-get install bubblewrap (Debian/Ubuntu) or dnf install bubblewrap"


class BwrapBackend(Backend):
    name = "bwrap"
    holds = (
        "no network (own network namespace)",
        "only the interpreter, /usr and the work dir visible; all but the work dir read-only",
        "cleared environment; own pid namespace (no signals out, nothing outlives the run)",
        "cpu, memory, file size, open files, processes (rlimits, non-root uid)",
        "wall clock",
        "output cap",
    )

    @classmethod
    def check(cls) -> str | None:
        return _check()

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
        argv = [python if cmd[0] in ("python", "python3") else cmd[0], *cmd[1:]]
        run_env = base_env(f"{os.path.dirname(python)}:/usr/local/bin:/usr/bin:/bin", "/tmp", extra)
        root = os.geteuid() == 0
        uid, gid = (NOBODY, NOBODY) if root else (os.getuid(), os.getgid())
        with tempfile.TemporaryDirectory(prefix="optimus-bwrap-") as tmp, mount_points(work, list(files)):
            plan = _Plan(Path(tmp), stage=root)
            plan.etc_files(uid, gid)
            for prefix in _python_roots():
                plan.bind(prefix, prefix)
            plan.bind(work, Path(SANDBOX_WORKDIR), writable=True)
            for name, src in files.items():
                plan.bind(src, Path(SANDBOX_WORKDIR, name))
            nproc = tasks_of_uid(uid) + limits.processes
            with _usage_pipe() as (read_fd, write_fd):
                inner = shim_argv(python, str(write_fd), argv)
                full = plan.command(uid, gid, rlimit_args(limits, nproc, _tool("prlimit")), inner)
                with owned_by(work, uid, gid) if root else contextlib.nullcontext():
                    done = run_capped(full, work, run_env, limits, pass_fds=(write_fd,))
                os.close(write_fd)
                usage = _read_nowait(read_fd)
        stderr = done.stderr.decode(errors="replace")
        code = None if done.exit_code is None else from_shell_status(done.exit_code)
        return RunResult(
            exit_code=code,
            stdout=done.stdout.decode(errors="replace"),
            stderr=stderr,
            timed_out=done.killed_by == "wall",
            killed_by=done.killed_by or infer_killed_by(code, stderr, usage.get("cpu_s"), limits),
            wall_s=round(done.wall_s, 4),
            backend=self.name,
            output_truncated=done.truncated,
            resources=usage,
        )


class _Plan:
    """Collects the bwrap arguments and, when staging, the host-side mounts that make sources reachable."""

    def __init__(self, tmp: Path, stage: bool):
        self.tmp, self.stage = tmp, stage
        self.mounts: list[tuple[Path, Path, bool]] = []  # (source, staged path, writable)
        self.args: list[str] = []
        tmp.chmod(0o755)  # nobody must traverse it to reach the staged sources

    def bind(self, src: Path, dest: Path, writable: bool = False) -> None:
        if self.stage and not _reachable_by_others(src):
            if src.is_file() and not others_can_read(src):
                # nobody could not open it even once reachable: bind a world-readable copy instead.
                copy = self.tmp / f"copy{len(self.mounts)}"
                shutil.copyfile(src, copy)
                copy.chmod(0o444)
                src = copy
            else:
                staged = self.tmp / f"m{len(self.mounts)}"
                staged.mkdir() if src.is_dir() else staged.touch()
                self.mounts.append((src, staged, writable))
                src = staged
        self.args += ["--bind" if writable else "--ro-bind", str(src), str(dest)]

    def etc_files(self, uid: int, gid: int) -> None:
        """A passwd/group naming only the sandbox user, so getpass and pytest work without host accounts."""
        for name, line in (
            ("passwd", f"sandbox:x:{uid}:{gid}::/tmp:/usr/sbin/nologin"),
            ("group", f"sandbox:x:{gid}:"),
        ):
            path = self.tmp / name
            path.write_text(line + "\n")
            path.chmod(0o444)
            self.args += ["--ro-bind", str(path), f"/etc/{name}"]

    def command(self, uid: int, gid: int, rlimits: list[str], argv: list[str]) -> list[str]:
        bwrap = [
            _tool("bwrap"), "--unshare-all", "--unshare-user", "--disable-userns", "--die-with-parent",
            "--new-session", "--cap-drop", "ALL", "--hostname", "sandbox", *_system_args(),
            "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp", *self.args,
            "--chdir", SANDBOX_WORKDIR, "--", *argv,
        ]  # fmt: skip
        if not self.stage:
            return [*rlimits, *bwrap]
        if not self.mounts:  # everything was reachable: only the uid drop is left to do
            return [_tool("setpriv"), f"--reuid={uid}", f"--regid={gid}", "--clear-groups", "--", *rlimits, *bwrap]
        # Staged mounts need not be read-only: bwrap --ro-bind makes them so inside.
        script = "".join(
            f"mount --bind {shlex.quote(str(s))} {shlex.quote(str(d))}\n" for s, d, _ in self.mounts
        )
        setpriv = [_tool("setpriv"), f"--reuid={uid}", f"--regid={gid}", "--clear-groups", "--"]
        return [
            _tool("unshare"), "--mount", "--propagation", "private", "--",
            _tool("sh"), "-euc", script + 'exec "$@"', "sh", *setpriv, *rlimits, *bwrap,
        ]  # fmt: skip


def _reachable_by_others(path: Path) -> bool:
    """Whether a user with no rights but "others" can reach and read path (so nobody can bind it)."""
    for parent in path.parents:
        if not parent.stat().st_mode & stat.S_IXOTH:
            return False
    need = stat.S_IROTH | (stat.S_IXOTH if path.is_dir() else 0)
    return path.stat().st_mode & need == need


def _system_args() -> list[str]:
    args: list[str] = []
    for path in _SYSTEM:
        if os.path.islink(path):
            args += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            args += ["--ro-bind", path, path]
    for name in _ETC:
        if os.path.exists(f"/etc/{name}"):
            args += ["--ro-bind", f"/etc/{name}", f"/etc/{name}"]
    return args


def _python_roots() -> list[Path]:
    """The venv and the installation it links to, minus what /usr already covers."""
    roots = {
        Path(sys.prefix).resolve(),
        Path(sys.base_prefix).resolve(),
        Path(sys.executable).resolve().parent.parent,
    }
    # Keep outermost dirs only and skip anything under the system dirs bound anyway.
    keep = [r for r in roots if not any(r != o and r.is_relative_to(o) for o in roots)]
    return sorted(r for r in keep if not any(r.is_relative_to(s) for s in _SYSTEM))


@contextlib.contextmanager
def _usage_pipe() -> Iterator[tuple[int, int]]:
    """A pipe whose write end the shim inherits (through unshare, setpriv, prlimit and bwrap)."""
    read_fd, write_fd = os.pipe()
    os.set_inheritable(write_fd, True)
    try:
        yield read_fd, write_fd
    finally:
        for fd in (read_fd, write_fd):
            with contextlib.suppress(OSError):
                os.close(fd)


def _read_nowait(fd: int) -> dict[str, float]:
    os.set_blocking(fd, False)
    try:
        return parse_report(os.read(fd, 4096).decode(errors="replace"))
    except BlockingIOError:
        return {}  # killed before the shim reported


def _tool(name: str) -> str:
    return shutil.which(name) or name


@cache
def _check() -> str | None:
    """Probe with a real run: bwrap may be installed yet blocked (no user namespaces, seccomp, AppArmor)."""
    if not sys.platform.startswith("linux"):
        return "needs Linux"
    missing = [t for t in _TOOLS if shutil.which(t) is None]
    if "bwrap" in missing:
        return f"bwrap not found: {INSTALL}"
    if missing:
        return f"{', '.join(missing)} not found: apt-get install util-linux"
    with tempfile.TemporaryDirectory(prefix="optimus-probe-") as work:
        try:
            res = BwrapBackend().run(
                ["python", "-c", "print('ok')"], Path(work), limits=Limits(wall_s=20, cpu_s=10, memory_mb=512)
            )
        except (OSError, subprocess.SubprocessError) as exc:
            return f"bwrap failed to start: {exc}"
    if res.stdout.strip() != "ok":
        detail = res.stderr.strip().splitlines()[-1:] or [f"exit {res.exit_code}"]
        return (
            f"bwrap is installed but cannot create a sandbox here ({detail[0]}); it needs unprivileged user "
            "namespaces: sysctl kernel.unprivileged_userns_clone=1 (Debian) or "
            "kernel.apparmor_restrict_unprivileged_userns=0 (Ubuntu 24.04)"
        )
    return None
