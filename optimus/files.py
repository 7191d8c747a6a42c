"""Reading user files with errors that name the file and say what is wrong, never a traceback."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from optimus.errors import SpecError


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
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise SpecError(path, f"line {exc.lineno} column {exc.colno}", f"invalid JSON: {exc.msg}") from None
    except RecursionError:
        raise SpecError(path, "", "invalid JSON: nested too deeply") from None


def write_json(path: Path, value: Any) -> None:
    path.write_text(json.dumps(value, indent=2) + "\n")
