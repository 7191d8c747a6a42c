"""Unused data: which keys of data.json the program read, recorded in the sandbox outside the program's code,
and what nothing read — a warning, never a failed check.

Before a run, `prepare` copies optimus/core/datatrace/sitecustomize.py into the work dir and names it on the run's
PYTHONPATH, on every backend alike (the work dir is the sandbox's cwd). Python loads it before the program; it
wraps json.load/json.loads of data.json and writes reads-<pid>.json at exit. After the run, `findings` names
the data keys (and entries of maps, and fields of records) nothing read, and — for a folder `optimus new`
wrote — the request's numbers held only by such keys.

It is a record the program could evade (reading data.json with pandas, deleting the record): then there is no
record, and the warning says the harness cannot tell rather than guess. A key read but then ignored counts as read.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from optimus.core.errors import SandboxError
from optimus.core.numbers import close, numbers_in
from optimus.core.sandbox.files import load_json_result

TRACE_DIR = ".optimus-trace"
SHIM = Path(__file__).parent / "datatrace" / "sitecustomize.py"
MAX_LISTED = 8  # unread paths named per warning; the rest counted
REQUEST = Path("new") / "request.txt"  # written by optimus new


def prepare(workdir: Path) -> dict[str, str]:
    """Put the recorder in the work dir; the environment that loads it (a path relative to the run's cwd)."""
    trace = workdir / TRACE_DIR
    trace.mkdir(exist_ok=True)
    shutil.copyfile(SHIM, trace / "sitecustomize.py")
    return {"PYTHONPATH": TRACE_DIR}


def read_record(workdir: Path) -> dict[str, Any] | None:
    """The union of every process's record: how many loads of data.json, which key paths were read. None when
    no process left one (or the program replaced the folder)."""
    trace = workdir / TRACE_DIR
    if trace.is_symlink() or not trace.is_dir():
        return None
    loads, read = 0, set()
    for path in sorted(trace.glob("reads-*.json")):
        try:
            record = load_json_result(trace, path.name)
            loads += int(record["loads"])
            read |= {tuple(str(k) for k in p) for p in record["read"]}
        except (SandboxError, ValueError, KeyError, TypeError):
            continue
    return {"loads": loads, "read": read} if loads else None


def unread_paths(data: Any, read: set[tuple[str, ...]], path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Key paths of data.json nothing read, where the path above them was read (or is the top): an unread key
    is named once, not with every key below it."""
    out: list[tuple[str, ...]] = []
    if isinstance(data, dict):
        for key, value in data.items():
            sub = (*path, str(key))
            if sub in read:
                out += unread_paths(value, read, sub)
            else:
                out.append(sub)
    elif isinstance(data, list):
        records = [v for v in data if isinstance(v, (dict, list))]
        if records and any(p[:len(path) + 1] == (*path, "[]") for p in read):
            merged = {k: v for r in records if isinstance(r, dict) for k, v in r.items()}
            out += unread_paths(merged, read, (*path, "[]")) if merged else []
    return out


def shown(path: tuple[str, ...]) -> str:
    return ".".join(path).replace(".[]", "[]")


def findings(problem_root: Path, data: Any, workdir: Path) -> list[dict[str, str]]:
    """The warnings of one run: data keys and request numbers nothing read (empty when all was read)."""
    if not data:
        return []  # nothing to read
    record = read_record(workdir)
    if record is None:
        return [{"name": "unused data", "message": "not checked: the program left no record of reading data.json "
                 "through json.load/json.loads, so the harness cannot tell which keys it used"}]
    unread = unread_paths(data, record["read"])
    if not unread:
        return []
    names = ", ".join(f"{shown(p)}{_size(data, p)}" for p in unread[:MAX_LISTED])
    more = f" and {len(unread) - MAX_LISTED} more" if len(unread) > MAX_LISTED else ""
    out = [{"name": "unused data", "message": f"the program never reads {names}{more} of data.json: is a statement "
            "left out, or is the data not needed?"}]
    numbers = request_numbers_unread(problem_root, data, unread)
    if numbers:
        out.append({"name": "unused request numbers", "message": "numbers of the request that only unread data "
                    "holds: " + "; ".join(numbers[:MAX_LISTED])})
    return out


def _size(data: Any, path: tuple[str, ...]) -> str:
    value = data.get(path[0]) if len(path) == 1 and isinstance(data, dict) else None
    return f" (list of {len(value)})" if isinstance(value, list) else ""


def request_numbers_unread(problem_root: Path, data: Any, unread: list[tuple[str, ...]]) -> list[str]:
    """For a folder optimus new wrote: each number of the request that data.json holds only under unread keys."""
    request = problem_root / REQUEST
    if not request.is_file():
        return []
    held: dict[tuple[str, ...], list[float]] = {}
    _collect(data, (), held)
    out = []
    for w in numbers_in(request.read_text(encoding="utf-8", errors="replace")):
        where = [p for p, values in held.items() if any(close(v, r) for v in values for r in w.readings)]
        if where and all(any(p[:len(u)] == u for u in unread) for p in where):
            out.append(f"{w.text} (in {', '.join(sorted({shown(p) for p in where}))})")
    return out


def _collect(value: Any, path: tuple[str, ...], held: dict[tuple[str, ...], list[float]]) -> None:
    """Every number of data.json under its key path (list items share their list's path)."""
    if isinstance(value, bool):
        return
    if isinstance(value, (int, float)):
        held.setdefault(path, []).append(float(value))
    elif isinstance(value, list):
        for item in value:
            _collect(item, (*path, "[]") if isinstance(item, (dict, list)) else path, held)
    elif isinstance(value, dict):
        for key, item in value.items():
            _collect(item, (*path, str(key)), held)


def as_prompt(warnings: list[dict[str, str]]) -> str:
    """The warnings as the self-assessment prompt shows them."""
    return "\n".join(f"- {w['message']}" for w in warnings) or "(none)"

