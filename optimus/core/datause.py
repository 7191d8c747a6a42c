"""Unused data: which keys of data.json and which tables and columns of data/ the program read, recorded in the
sandbox outside the program's code, and what nothing read — a warning, never a failed check.

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
from fnmatch import fnmatch
from pathlib import Path
from typing import Any

from optimus.core.errors import SandboxError
from optimus.core.numbers import close, numbers_in
from optimus.core.sandbox.files import load_json_result
from optimus.core.tables import column_names, table_files, tables_dir

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
    """The union of every process's record: how many loads of data.json, which key paths were read, and what
    touched the tables (files opened, words given to DuckDB, files of queries with `*`, untraced readers loaded).
    None when no process left one (or the program replaced the folder)."""
    trace = workdir / TRACE_DIR
    if trace.is_symlink() or not trace.is_dir():
        return None
    loads, read, records = 0, set(), 0
    tables: dict[str, set[str]] = {k: set() for k in ("opened", "words", "starred", "untraced")}
    for path in sorted(trace.glob("reads-*.json")):
        try:
            record = load_json_result(trace, path.name)
            loads += int(record["loads"])
            read |= {tuple(str(k) for k in p) for p in record["read"]}
            for key, values in (record.get("tables") or {}).items():
                tables.get(key, set()).update(str(v) for v in values)
            records += 1
        except (SandboxError, ValueError, KeyError, TypeError, AttributeError):
            continue
    return {"loads": loads, "read": read, "tables": tables} if records else None


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
    """The warnings of one run: data keys, tables, columns and request numbers nothing read (empty when all was
    read)."""
    record = read_record(workdir)
    out = table_findings(problem_root, record)
    if not data:
        return out  # nothing to read in data.json
    if record is None or not record["loads"]:
        return [{"name": "unused data", "message": "not checked: the program left no record of reading data.json "
                 "through json.load/json.loads, so the harness cannot tell which keys it used"}, *out]
    unread = unread_paths(data, record["read"])
    if not unread:
        return out
    names = ", ".join(f"{shown(p)}{_size(data, p)}" for p in unread[:MAX_LISTED])
    more = f" and {len(unread) - MAX_LISTED} more" if len(unread) > MAX_LISTED else ""
    out.insert(0, {"name": "unused data", "message": f"the program never reads {names}{more} of data.json: is a "
                   "statement left out, or is the data not needed?"})
    numbers = request_numbers_unread(problem_root, data, unread)
    if numbers:
        out.append({"name": "unused request numbers", "message": "numbers of the request that only unread data "
                    "holds: " + "; ".join(numbers[:MAX_LISTED])})
    return out


def table_findings(problem_root: Path, record: dict[str, Any] | None) -> list[dict[str, str]]:
    """The tables of data/ the program never read, and the columns it never named of tables it read only
    through DuckDB queries without `*` (a table opened from Python counts as read whole)."""
    directory = tables_dir(problem_root)
    if directory is None:
        return []
    files = table_files(directory)
    if record is None:
        return [{"name": "unused data", "message": "not checked: the program left no record, so the harness "
                 "cannot tell which tables of data/ it read"}]
    traced = record["tables"]
    unread = [p.name for p in files if not _read_whole(p.name, traced) and not _named(p.name, traced["words"])]
    if unread and traced["untraced"]:
        readers = ", ".join(sorted(traced["untraced"]))
        return [{"name": "unused data", "message": f"not checked: the program loaded {readers}, which reads files "
                 "outside the harness's record, so it cannot tell which tables of data/ it read"}]
    out = []
    if unread:
        out.append({"name": "unused data", "message": f"the program never reads {_listed(unread, 'data/')}: is a "
                    "statement left out, or is the table not needed?"})
    columns = _unread_columns([p for p in files if p.name not in unread and not _read_whole(p.name, traced)],
                              traced["words"])
    if columns:
        out.append({"name": "unused data", "message": f"the program never names column(s) {columns}: is a "
                    "statement left out, or is the column not needed?"})
    return out


def _read_whole(name: str, traced: dict[str, set[str]]) -> bool:
    return name in traced["opened"] or _named(name, traced["starred"])


def _named(name: str, words: set[str]) -> bool:
    """Whether a word names the file: `data/x.csv`, `./data/x.csv`, `x.csv`, or a glob like `data/*.csv`."""
    for word in words:
        base = word.rsplit("/", 1)[-1]
        if base == name or (("*" in base or "?" in base) and "." in base and fnmatch(name, base)):
            return True
    return False


def _unread_columns(paths: list[Path], words: set[str]) -> str:
    """`a, b of data/x.csv; c of data/y.csv` for the columns no word names (a word `t.a` names a)."""
    import duckdb

    parts = {p for w in words for p in w.split(".")} | words
    found = []
    for path in paths:
        try:
            missing = [c for c in column_names(path) if c not in parts]
        except duckdb.Error:  # a table DuckDB cannot read is validate's finding, not this one's
            missing = []
        if missing:
            found.append(f"{_listed(missing)} of data/{path.name}")
    return "; ".join(found)


def _listed(names: list[str], prefix: str = "") -> str:
    more = f" and {len(names) - MAX_LISTED} more" if len(names) > MAX_LISTED else ""
    return ", ".join(prefix + n for n in names[:MAX_LISTED]) + more


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

