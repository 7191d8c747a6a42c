"""A process cap that counts only the sandbox's own processes: a child cgroup with `pids.max`, per run.

RLIMIT_NPROC counts every process of the uid, so a cap of "what runs now + N" races with whatever else the user
(or another sandbox run as nobody) starts or ends meanwhile. A pids cgroup counts the tasks inside it and
nothing else. It needs a writable pids controller: cgroup v1's `pids` hierarchy, or cgroup v2 with `pids` in the
subtree control of our own cgroup or of the root of the mount. Usually that means root. The command enters the
cgroup itself before it execs (a two-line shell prefix), so no child is forked outside it; when the run ends,
whatever is left inside is killed and the cgroup removed, so nothing it started outlives the run.

Where no cgroup can be made the backends fall back to RLIMIT_NPROC (see `fallback_note`).
"""

from __future__ import annotations

import contextlib
import itertools
import os
import signal
import time
from collections.abc import Iterator
from functools import cache
from pathlib import Path

_COUNTER = itertools.count()
# Enter the cgroup, then become the command: "$0" is the cgroup's cgroup.procs file.
_ENTER = 'echo $$ > "$0" || { echo "optimus: cannot enter the pids cgroup $0" >&2; exit 126; }; exec "$@"'


def fallback_note(sandbox_uid: str) -> str:
    """What the cap bounds where no cgroup can be made (said by `sandbox doctor` and sandbox/README.md)."""
    return (f"processes: RLIMIT_NPROC, which counts every process of {sandbox_uid}; the cap is the count at "
            "start + the limit, so other processes of that uid starting or ending during the run change it")


class PidCap:
    """One run's cgroup: `prefix` is the argv to put before the command."""

    def __init__(self, path: Path):
        self.path = path
        self.prefix = ["/bin/sh", "-c", _ENTER, str(path / "cgroup.procs")]

    def tasks(self) -> list[int]:
        try:
            return [int(p) for p in (self.path / "cgroup.procs").read_text().split()]
        except OSError:
            return []

    def kill_all(self) -> None:
        """Kill what is left; new forks are bounded by pids.max, so a few sweeps empty it."""
        kill = self.path / "cgroup.kill"  # v2 (Linux 5.14): one write kills the whole cgroup
        if kill.exists():
            with contextlib.suppress(OSError):
                kill.write_text("1")
        for _ in range(50):
            pids = self.tasks()
            if not pids:
                return
            for pid in pids:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
            time.sleep(0.01)

    def remove(self) -> None:
        deadline = time.monotonic() + 2.0
        while True:  # rmdir fails (EBUSY) until the last killed task has left the cgroup
            try:
                self.path.rmdir()
                return
            except FileNotFoundError:
                return
            except OSError:
                if time.monotonic() > deadline:
                    return  # an empty cgroup left behind costs nothing; a later start sweeps it
                self.kill_all()
                time.sleep(0.02)


@contextlib.contextmanager
def pid_cap(max_tasks: int) -> Iterator[PidCap | None]:
    """A fresh cgroup allowing max_tasks tasks (threads count), or None where no cgroup can be made."""
    parent = cgroup_parent()
    if parent is None:
        yield None
        return
    path = parent / f"optimus-{os.getpid()}-{next(_COUNTER)}"
    try:
        path.mkdir()
        (path / "pids.max").write_text(str(max_tasks))
    except OSError:
        with contextlib.suppress(OSError):
            path.rmdir()
        yield None
        return
    cap = PidCap(path)
    try:
        yield cap
    finally:
        cap.kill_all()
        cap.remove()


def cgroup_parent() -> Path | None:
    return _probe()[0]


def describe() -> str:
    """One line for `sandbox doctor`: how the process cap works here."""
    parent, why = _probe()
    if parent is not None:
        return f"processes: a pids cgroup per run (pids.max under {parent}; counts only the run's own tasks; what is left when the run ends is killed)"
    return f"no pids cgroup ({why})"


@cache
def _probe() -> tuple[Path | None, str]:
    """The directory to make run cgroups in, tried once by making and removing one; else why not."""
    reasons = []
    for parent in _candidates():
        probe = parent / f"optimus-probe-{os.getpid()}"
        try:
            probe.mkdir()
            try:
                (probe / "pids.max").write_text("8")
            finally:
                probe.rmdir()
            _sweep(parent)
            return parent, ""
        except OSError as exc:
            reasons.append(f"{parent}: {exc.strerror or exc}")
    return None, "; ".join(reasons) or "no pids controller is mounted"


def _sweep(parent: Path) -> None:
    """Remove the empty cgroups of runs whose process was killed before it could (optimus-<pid>-<n>)."""
    for path in parent.glob("optimus-*-*"):
        pid = path.name.split("-")[1]
        if pid.isdigit() and not Path(f"/proc/{pid}").exists():
            with contextlib.suppress(OSError):
                path.rmdir()  # fails, and is left alone, while anything is still inside


def _candidates() -> list[Path]:
    """Our own cgroup in the v1 pids hierarchy; in v2 our own cgroup, then the mount's root, where pids is on."""
    own = _own_cgroups()
    found = []
    for mount_root, fstype, options in _cgroup_mounts():
        if fstype == "cgroup" and "pids" in options and "pids" in own:
            found.append(mount_root / own["pids"].lstrip("/"))
        elif fstype == "cgroup2" and "" in own:
            for parent in dict.fromkeys((mount_root / own[""].lstrip("/"), mount_root)):
                if _v2_pids_on(parent):
                    found.append(parent)
    return found


def _v2_pids_on(parent: Path) -> bool:
    """Whether children of parent get pids.max: pids is in its subtree control. We never switch it on
    ourselves (that changes the whole machine's hierarchy)."""
    try:
        return "pids" in (parent / "cgroup.subtree_control").read_text().split()
    except OSError:
        return False


def _own_cgroups() -> dict[str, str]:
    """controller (or "" for v2) → our cgroup path, from /proc/self/cgroup."""
    own: dict[str, str] = {}
    with contextlib.suppress(OSError):
        for line in Path("/proc/self/cgroup").read_text().splitlines():
            _, controllers, path = line.split(":", 2)
            for name in controllers.split(",") if controllers else [""]:
                own[name] = path
    return own


def _cgroup_mounts() -> list[tuple[Path, str, set[str]]]:
    """(mount point, fstype, super options) of every cgroup mount whose root is the hierarchy's root as we see it."""
    mounts = []
    with contextlib.suppress(OSError):
        for line in Path("/proc/self/mountinfo").read_text().splitlines():
            fields = line.split()
            sep = fields.index("-")
            fstype, options = fields[sep + 1], set(fields[sep + 3].split(","))
            if fstype in ("cgroup", "cgroup2") and fields[3] == "/":
                mounts.append((Path(fields[4]), fstype, options))
    return mounts
