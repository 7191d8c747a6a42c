"""What a prompt may know about data.json: keys, element types and shapes — never values.

Values never enter a prompt: data can be gigabytes, and the prompt must not grow with it. The summary of a
list of 10 numbers and one of 10^6 differ only in the length figure.
"""

from __future__ import annotations

from typing import Any

# An object with more keys than this is data (e.g. keyed by item id), not structure: only its size is shown.
_MAX_NAMED_KEYS = 30


def summarize(data: dict[str, Any]) -> str:
    """One line per top-level key, e.g. `"cost": list[4] of list[5] of number`."""
    return "\n".join(f'- "{key}": {describe(value)}' for key, value in data.items())


def describe(value: Any) -> str:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float"
    if isinstance(value, str):
        return "string"
    if value is None:
        return "null"
    if isinstance(value, list):
        return _describe_list(value)
    if isinstance(value, dict):
        return _describe_object(value)
    return type(value).__name__


def _describe_list(items: list) -> str:
    if not items:
        return "list[0]"
    kinds = {type(x) for x in items}
    if kinds <= {int, float} or len(kinds) == 1 and kinds <= {bool, str, type(None)}:
        return f"list[{len(items)}] of {_scalar_kind(kinds)}"
    if kinds == {list}:
        lengths = {len(x) for x in items}
        inner = {_describe_list(x).split(" of ", 1)[-1] if x else "" for x in items}
        elem = " or ".join(sorted(i for i in inner if i)) or "nothing"
        if len(lengths) == 1:
            return f"list[{len(items)}] of list[{lengths.pop()}] of {elem}"
        return f"list[{len(items)}] of list[{min(lengths)}..{max(lengths)}] of {elem}"
    return f"list[{len(items)}] of " + " or ".join(sorted({describe(x) for x in items}))


def _scalar_kind(kinds: set[type]) -> str:
    if kinds == {int}:
        return "int"
    if kinds == {float}:
        return "float"
    if kinds <= {int, float}:
        return "number"
    return describe(next(iter(kinds))()) if kinds != {type(None)} else "null"


def _describe_object(obj: dict) -> str:
    if len(obj) <= _MAX_NAMED_KEYS:
        return "object {" + ", ".join(f'"{k}": {describe(v)}' for k, v in obj.items()) + "}"
    values = " or ".join(sorted({describe(v) for v in obj.values()}))
    return f"object[{len(obj)}] mapping string keys to {values}"
