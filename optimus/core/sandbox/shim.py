"""A tiny shell parent that runs inside bwrap and docker to measure the command's CPU time.

Those sandboxes put their own pid 1 between us and the command, so our wait4 never sees its usage. The
shim runs the command as its child, then prints the shell's `times` (children's user and system CPU) as
the last stderr lines after a marker, and exits with the command's status (128+N for signal N). A shell,
not Python: it costs ~2 ms instead of an interpreter start. The program could fake the report; it is only
informational.
"""

from __future__ import annotations

import re

MARKER = "@@optimus-sandbox-usage@@"
_TIME = re.compile(r"(\d+)m([\d.]+)s")


def shim_argv(cmd: list[str], chdir: str | None = None) -> list[str]:
    """argv running `cmd` under the shim (after `cd chdir`, done here because bwrap cannot as root)."""
    cd = f"cd {chdir} || exit 126\n" if chdir else ""
    return ["/bin/sh", "-c", f'{cd}"$@"\nrc=$?\n{{ printf "\\n{MARKER}"; times; }} >&2\nexit $rc', "sh", *cmd]


def parse_report(text: str) -> dict[str, float]:
    """`times` prints the shell's own user/sys line, then the children's: keep the children's."""
    values = [int(m) * 60 + float(s) for m, s in _TIME.findall(text)]
    return {"cpu_s": round(values[2] + values[3], 3)} if len(values) >= 4 else {}


def split_stderr(stderr: str) -> tuple[str, dict[str, float]]:
    """Remove the shim's report from the end of stderr and parse it."""
    head, sep, tail = stderr.rpartition("\n" + MARKER)
    if not sep:
        return stderr, {}
    return head, parse_report(tail)
