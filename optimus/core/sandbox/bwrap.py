"""The bubblewrap backend: new namespaces (no network, own pids), a read-only view of only the interpreter and
system libraries, one writable work dir, rlimits, a pids cgroup where one can be made (optimus.core.sandbox.pidcap),
else a non-root uid so RLIMIT_NPROC holds.

As root, bwrap sets the sandbox up with root's rights (so it can bind the interpreter under /root, mode
0700) and the first thing run inside is `setpriv`, which drops to nobody (65534) with no capabilities, no
groups and no-new-privs before the command starts. As any other user, bwrap runs unprivileged in a user
namespace and the command keeps that user's uid.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Mapping
from functools import cache
from pathlib import Path

from optimus.core.sandbox.base import (
    SANDBOX_WORKDIR,
    Backend,
    Limits,
    RunResult,
    base_env,
    check_request,
    from_shell_status,
    infer_killed_by,
    with_interpreter,
)
from optimus.core.sandbox.files import NOBODY, mount_points, others_can_read, owned_by
from optimus.core.sandbox.local import rlimit_args, run_capped, tasks_of_uid
from optimus.core.sandbox.pidcap import pid_cap
from optimus.core.sandbox.shim import shim_argv, split_stderr

# Host paths every program needs, bound read-only at the same place.
_SYSTEM = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
_ETC = ("ld.so.cache", "ld.so.conf", "ld.so.conf.d", "alternatives", "localtime")
_TOOLS = ("bwrap", "prlimit", "setpriv")
INSTALL = "apt-get install bubblewrap (Debian/Ubuntu) or dnf install bubblewrap"
# Privileged bwrap must not make a user namespace: setpriv could not switch to an unmapped uid.
_NAMESPACES_ROOT = (
    "--unshare-ipc",
    "--unshare-pid",
    "--unshare-net",
    "--unshare-uts",
    "--unshare-cgroup-try",
)
_NAMESPACES_USER = ("--unshare-all", "--unshare-user", "--disable-userns", "--cap-drop", "ALL")


class BwrapBackend(Backend):
    name = "bwrap"
    holds = (
        "no network (own network namespace)",
        "only the interpreter, /usr and the work dir visible; all but the work dir read-only",
        "cleared environment; own pid namespace (no signals out, nothing outlives the run)",
        "cpu, memory, file size, open files (rlimits)",
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
        argv = with_interpreter(cmd, python)
        run_env = base_env(f"{os.path.dirname(python)}:/usr/local/bin:/usr/bin:/bin", "/tmp", extra)
        root = os.geteuid() == 0
        uid, gid = (NOBODY, NOBODY) if root else (os.getuid(), os.getgid())
        with contextlib.ExitStack() as stack:
            stack.enter_context(mount_points(work, files))
            binds = [arg for prefix in _python_roots() for arg in ("--ro-bind", str(prefix), str(prefix))]
            binds += ["--bind", str(work), SANDBOX_WORKDIR]
            for name, src in files.items():
                if root and not all(others_can_read(p) for p in [src, *(src.rglob("*") if src.is_dir() else [])]):
                    src = _readable_copy(src, stack)  # nobody could not open the original
                binds += ["--ro-bind", str(src), f"{SANDBOX_WORKDIR}/{name}"]
            etc_args, etc_fds = _etc_files(uid, gid, stack)
            inner = shim_argv(argv, chdir=SANDBOX_WORKDIR)
            if root:
                drop = [_tool("setpriv"), f"--reuid={uid}", f"--regid={gid}", "--clear-groups",
                        "--inh-caps=-all", "--bounding-set=-all", "--no-new-privs", "--"]  # fmt: skip
                inner = drop + inner
                stack.enter_context(owned_by(work, uid, gid))
            mounts = [*_system_args(), *binds, *etc_args]
            bwrap = [
                _tool("bwrap"), *(_NAMESPACES_ROOT if root else _NAMESPACES_USER), "--die-with-parent",
                "--new-session", "--hostname", "sandbox", "--dev", "/dev", "--proc", "/proc",
                "--perms", "1777", "--tmpfs", "/tmp", *_parent_dirs(mounts), *mounts, "--", *inner,
            ]  # fmt: skip
            # bwrap itself and its init in the pid namespace are two tasks of the cgroup
            cap = stack.enter_context(pid_cap(limits.processes + 2))
            nproc = None if cap else tasks_of_uid(uid) + limits.processes
            full = [*(cap.prefix if cap else []), *rlimit_args(limits, nproc, _tool("prlimit")), *bwrap]
            done = run_capped(full, work, run_env, limits, pass_fds=tuple(etc_fds))
        stderr, usage = split_stderr(done.stderr.decode(errors="replace"))
        code = None if done.exit_code is None else from_shell_status(done.exit_code)
        return RunResult(
            exit_code=code,
            stdout=done.stdout.decode(errors="replace"),
            stderr=stderr,
            timed_out=done.killed_by == "wall",
            killed_by=done.killed_by or infer_killed_by(code, stderr, usage.get("cpu_s"), limits, work),
            wall_s=round(done.wall_s, 4),
            backend=self.name,
            output_truncated=done.truncated,
            resources=usage,
        )


def _etc_files(uid: int, gid: int, stack: contextlib.ExitStack) -> tuple[list[str], list[int]]:
    """A passwd/group naming only the sandbox user (getpass and pytest want one), fed to bwrap by pipe."""
    args, fds = [], []
    for name, line in (
        ("passwd", f"sandbox:x:{uid}:{gid}::/tmp:/usr/sbin/nologin"),
        ("group", f"sandbox:x:{gid}:"),
    ):
        read_fd, write_fd = os.pipe()
        stack.callback(_close, read_fd)
        os.write(write_fd, (line + "\n").encode())
        os.close(write_fd)
        os.set_inheritable(read_fd, True)
        args += ["--perms", "0444", "--ro-bind-data", str(read_fd), f"/etc/{name}"]
        fds.append(read_fd)
    return args, fds


def _readable_copy(src: Path, stack: contextlib.ExitStack) -> Path:
    tmp = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="optimus-bwrap-")))
    tmp.chmod(0o755)
    copy = tmp / src.name
    if src.is_dir():  # a data/ folder of tables
        shutil.copytree(src, copy, copy_function=shutil.copyfile)
        for path in [copy, *copy.rglob("*")]:
            path.chmod(0o555 if path.is_dir() else 0o444)
        return copy
    shutil.copyfile(src, copy)
    copy.chmod(0o444)
    return copy


def _close(fd: int) -> None:
    with contextlib.suppress(OSError):
        os.close(fd)


def _parent_dirs(mounts: list[str]) -> list[str]:
    """Create the parents of every mount point as 0755: privileged bwrap would make them 0700, which
    nobody could not traverse (e.g. /root on the way to a pyenv interpreter). They come after the fresh
    /tmp, so a checkout under /tmp (/tmp/x/.venv) keeps traversable parents inside it."""
    dests = [mounts[i + 2] for i, arg in enumerate(mounts) if arg in ("--ro-bind", "--bind", "--symlink")]
    dests += [mounts[i + 2] for i, arg in enumerate(mounts) if arg == "--ro-bind-data"]
    parents = sorted({str(p) for d in dests for p in Path(d).parents if str(p) not in ("/", "/tmp")}, key=len)
    return [arg for p in parents for arg in ("--perms", "0755", "--dir", p)]


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
            # -I -S: the interpreter, run as the sandbox user, without site-packages' start-up (~25 of ~50 ms)
            res = BwrapBackend().run(["python", "-I", "-S", "-c", "print('ok')"], Path(work),
                                     limits=Limits(wall_s=20, cpu_s=10, memory_mb=512))
        except (OSError, subprocess.SubprocessError) as exc:
            return f"bwrap failed to start: {exc}"
    if res.stdout.strip() != "ok":
        detail = (res.stderr.strip().splitlines() or [f"exit {res.exit_code}"])[-1]
        if os.geteuid() == 0:
            return f"bwrap is installed but the probe failed ({detail}); is the interpreter readable by uid 65534?"
        return (
            f"bwrap is installed but cannot create a sandbox here ({detail}); it needs unprivileged user "
            "namespaces: sysctl kernel.unprivileged_userns_clone=1 (Debian) or "
            "kernel.apparmor_restrict_unprivileged_userns=0 (Ubuntu 24.04)"
        )
    return None
