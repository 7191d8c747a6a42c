"""`python PROGRAM ARG…` as a fork of this process, which has imported z3 already: the horizon loop runs the
model's program once per T, and starting Python and importing z3 each time cost ~0.1 s a run (more than a small
T's solve). The child is its own process, as with subprocess: it runs the program as __main__ (sys.argv,
sys.path[0] and __file__ as `python PROGRAM` sets them), its output goes to files, and its exit code, an
uncaught exception's traceback (from the program's frames on) and a time limit behave as they would.
Imports nothing from optimus.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sys
import tempfile
import time
import traceback
import types
from collections.abc import Callable
from dataclasses import dataclass

try:  # loaded once here, inherited by every forked run; without it each run fails on its own import
    import z3  # noqa: F401
except ImportError:
    pass

POLL_S = 0.002


@dataclass
class Done:
    returncode: int
    stdout: str
    stderr: str


class Timeout(Exception):
    pass


def run_python(program: str, args: list[str], timeout: float) -> Done:
    """Run the program in a forked child; Timeout when it is still running after `timeout` seconds (killed)."""
    return run_forked(lambda: _child(program, args), timeout)


def run_forked(target: Callable[[], int], timeout: float) -> Done:
    """target() in a forked child, its return value the exit code; Timeout as run_python."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        for stream in {sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__} - {None}:
            stream.flush()  # nothing buffered here may be written twice, once by the child
        pid = os.fork()
        if pid == 0:  # the child: whatever happens, it exits here, never returning into the caller's loop
            code = 1
            try:
                os.dup2(out.fileno(), 1)
                os.dup2(err.fileno(), 2)
                sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__  # the interpreter's own, on fds 1 and 2
                code = target()
            finally:
                os._exit(code)
        code = _wait(pid, time.monotonic() + timeout)
        out.seek(0)
        err.seek(0)
        return Done(code, out.read().decode(errors="replace"), err.read().decode(errors="replace"))


def _child(program: str, args: list[str]) -> int:
    """What `python PROGRAM ARG…` does with a script: a fresh __main__ module, argv as given, the script's dir
    first on sys.path, the absolute path as __file__ and in tracebacks."""
    path = os.path.abspath(program)
    sys.argv = [program, *args]
    sys.path[0] = os.path.dirname(path)
    main = types.ModuleType("__main__")
    main.__file__ = path
    sys.modules["__main__"] = main
    try:
        with open(path, "rb") as fh:
            compiled = compile(fh.read(), path, "exec")
        exec(compiled, main.__dict__)  # noqa: S102 — the program, as the interpreter would run it
        code = 0
    except SystemExit as exc:
        code = _exit_code(exc.code)
    except BaseException as exc:  # noqa: BLE001 — printed as Python prints an uncaught exception, exit 1
        print_uncaught(exc, path)
        code = 1
    flush()
    return code


def print_uncaught(exc: BaseException, path: str) -> None:
    """The traceback as Python prints it for the program at `path`: from its first frame on (the harness's
    frames are not the program's)."""
    tb = exc.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename != path:
        tb = tb.tb_next
    traceback.print_exception(type(exc), exc, tb)


def flush() -> None:
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):  # a closed or broken stream must not change the exit code
            stream.flush()


def _exit_code(value) -> int:
    if value is None:
        return 0
    if isinstance(value, int):
        return value & 0xFF
    print(value, file=sys.stderr)
    return 1


def _wait(pid: int, deadline: float) -> int:
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status)
        if time.monotonic() >= deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            raise Timeout
        time.sleep(POLL_S)


def write(name: str, value) -> None:
    with open(name, "w") as fh:
        json.dump(value, fh, indent=2)
        fh.write("\n")
