"""Reading user files with errors that name the file and say what is wrong, never a traceback."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from optimus.core.errors import SpecError

# How deep a user's JSON file may nest. Readers of nested values (the data summary, validate, deepcopy) recurse,
# and Python's recursion limit is 1000 frames; no template describes data a tenth as deep.
MAX_DEPTH = 100


def read_text(path: Path) -> str:
    """UTF-8 text of a file; SpecError if missing, empty, a directory or not UTF-8."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise SpecError(path, "", "file not found") from None
    except IsADirectoryError:
        raise SpecError(path, "", "expected a file, found a directory") from None
    except OSError as exc:
        raise SpecError(path, "", f"cannot read: {exc.strerror}") from None
    if not raw.strip():
        raise SpecError(path, "", "the file is empty")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise SpecError(path, f"byte {exc.start}", f"not UTF-8 text (byte 0x{raw[exc.start]:02x})") from None


def read_json(path: Path) -> Any:
    """Parsed JSON of a file; SpecError with line and column when it does not parse."""
    text = read_text(path)
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SpecError(path, f"line {exc.lineno} column {exc.colno}", f"invalid JSON: {exc.msg}") from None
    except RecursionError:
        raise SpecError(path, "", f"nested too deeply to read (optimus reads JSON nested at most {MAX_DEPTH} "
                        "levels deep)") from None
    where = too_deep(value, MAX_DEPTH)
    if where:
        raise SpecError(path, where, f"nested more than {MAX_DEPTH} levels deep; optimus reads JSON nested at most "
                        f"{MAX_DEPTH} levels deep: flatten it (e.g. a list of records)")
    return value


def too_deep(value: Any, limit: int) -> str | None:
    """The JSON path of the first list or object nested deeper than `limit`, or None. Iterative: a file nested
    thousands deep must not exhaust the recursion it guards against; a path is spelt out only when found."""
    # (a list or object, its depth from 0, (its key, its parent's trail))
    stack: list[tuple[Any, int, tuple | None]] = [(value, 0, None)] if isinstance(value, (list, dict)) else []
    while stack:
        item, depth, trail = stack.pop()
        if depth == limit:
            return _path(trail)
        pairs = item.items() if isinstance(item, dict) else enumerate(item)
        stack.extend((child, depth + 1, (key, trail)) for key, child in pairs if isinstance(child, (list, dict)))
    return None


def _path(trail: tuple | None) -> str:
    keys = []
    while trail:
        key, trail = trail
        keys.append(f"[{key}]" if isinstance(key, int) else f".{key}")
    where = "$" + "".join(reversed(keys))
    return where if len(where) <= 80 else f"{where[:40]}…{where[-30:]}"


def write_json(path: Path, value: Any) -> None:
    path.write_text(json.dumps(value, indent=2) + "\n")
