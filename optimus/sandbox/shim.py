"""A tiny parent that runs inside bwrap and docker to measure the command's resource use.

Those sandboxes put pid 1 between us and the command, so our own wait4 never sees its usage. The shim forks
the command, waits for it and writes {"max_rss_kb", "cpu_s"} to a pipe fd (bwrap) or as the last stderr line
after a marker (docker), then exits with the command's status (128+N for signal N, like a shell).
"""

from __future__ import annotations

import json

MARKER = "\n@@optimus-sandbox-usage@@"

SOURCE = r"""
import json, os, sys
out, cmd = sys.argv[1], sys.argv[2:]
pid = os.fork()
if pid == 0:
    if out != "-":
        os.close(int(out))
    try:
        os.execvp(cmd[0], cmd)
    except OSError as exc:
        sys.stderr.write("sandbox: cannot run %s: %s\n" % (cmd[0], exc.strerror))
        os._exit(127)
_, status, ru = os.wait4(pid, 0)
report = json.dumps({"max_rss_kb": ru.ru_maxrss, "cpu_s": round(ru.ru_utime + ru.ru_stime, 3)})
if out == "-":
    sys.stderr.write(MARKER + report + "\n")
else:
    os.write(int(out), report.encode())
code = os.waitstatus_to_exitcode(status)
os._exit(128 - code if code < 0 else code)
""".replace("MARKER", repr(MARKER))


def shim_argv(python: str, out: str, cmd: list[str]) -> list[str]:
    """argv running `cmd` under the shim; `out` is a pipe fd number or "-" for stderr."""
    return [python, "-I", "-S", "-c", SOURCE, out, *cmd]


def parse_report(text: str) -> dict[str, float]:
    try:
        data = json.loads(text)
    except ValueError:
        return {}
    return {k: data[k] for k in ("max_rss_kb", "cpu_s") if isinstance(data, dict) and k in data}


def split_stderr(stderr: str) -> tuple[str, dict[str, float]]:
    """Remove the shim's report from the end of stderr and parse it."""
    head, sep, tail = stderr.rpartition(MARKER)
    if not sep:
        return stderr, {}
    return head, parse_report(tail.strip())
