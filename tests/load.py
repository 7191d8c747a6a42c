"""Other work on the machine, for tests that must hold on a busy machine: N processes of one uid that spin, fork
short-lived children, or sleep. Every one is started with a parent-death signal (setpriv --pdeathsig KILL) and
in one process group of its own, so they die with us however we end.

As a command (CI's load step; `make test-under-load`):
    python -m tests.load --procs 50 -- pytest -q tests/test_sandbox_hostile.py
runs the command beside the load and exits with its status.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator

from optimus.core.sandbox.files import NOBODY

# A spinner (CPU) and a forker (the uid's process count goes up and down all the time).
WORK = {
    "spin": "while :; do :; done",
    "fork": "while :; do /bin/true; done",
    "sleep": "exec sleep 600",
}


def sandbox_uid() -> int:
    """The uid the bwrap and process sandboxes' programs run as: nobody when we are root, else ours."""
    return NOBODY if os.geteuid() == 0 else os.getuid()


class Load:
    def __init__(self, procs: list[subprocess.Popen]):
        self.procs = procs

    def pids(self) -> list[int]:
        return [p.pid for p in self.procs]

    def stop(self) -> None:
        """Kill every process of the load and wait until each is reaped (gone from the process table)."""
        for p in self.procs:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(p.pid, signal.SIGKILL)
        for p in self.procs:
            p.wait()


@contextlib.contextmanager
def busy(n: int, kinds: tuple[str, ...] = ("spin",) * 4 + ("fork",), uid: int | None = None) -> Iterator[Load]:
    """n processes of uid (default: the sandbox's), the kinds taken in turn (default: four spin, one forks)."""
    uid = sandbox_uid() if uid is None else uid
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        raise RuntimeError("setpriv not found: apt-get install util-linux")
    user = [f"--reuid={uid}", f"--regid={uid}", "--clear-groups"] if uid != os.getuid() else []
    procs = []
    try:
        for i in range(n):
            argv = [setpriv, "--pdeathsig", "KILL", *user, "/bin/sh", "-c", WORK[kinds[i % len(kinds)]]]
            procs.append(subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                          start_new_session=True))
        load = Load(procs)
        yield load
    finally:
        Load(procs).stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.load", description=__doc__.split("\n\n")[0])
    parser.add_argument("--procs", type=int, default=50, help="busy processes beside the command (default 50)")
    parser.add_argument("--uid", type=int, help="their uid (default: the sandbox's, nobody when root)")
    parser.add_argument("cmd", nargs=argparse.REMAINDER, help="-- the command to run beside the load")
    args = parser.parse_args(argv)
    cmd = args.cmd[1:] if args.cmd[:1] == ["--"] else args.cmd
    if not cmd:
        parser.error("give the command after --")
    started = time.monotonic()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # unwind: the command and the load are killed
    with busy(args.procs, uid=args.uid) as load:
        print(f"load: {len(load.pids())} busy processes (spinning and forking) of uid "
              f"{sandbox_uid() if args.uid is None else args.uid}", file=sys.stderr, flush=True)
        code = subprocess.call(cmd)
    print(f"load: stopped after {time.monotonic() - started:.0f} s; the command exited {code}", file=sys.stderr)
    return code


if __name__ == "__main__":
    sys.exit(main())
