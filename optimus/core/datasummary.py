"""What a prompt may know about data.json: keys, element types and shapes — never values.

Values never enter a prompt: data can be gigabytes, and the prompt must not grow with it. The summary of a
list of 10 numbers and one of 10^6 differ only in the length figure.
"""

from __future__ import annotations

from typing import Any

from optimus.core.template import Level, read_template

# An object with more keys than this is data (e.g. keyed by item id), not structure: only its size is shown.
_MAX_NAMED_KEYS = 30
# Strings of data.json looked at to tell names of entities (whose keys are data) from structure.
_MAX_NAMES = 100_000


def summarize(data: dict[str, Any], input_format: str | None = None) -> str:
    """One line per top-level key, e.g. `"cost": list[4] of list[5] of number`. An object keyed by named
    entities shows only its key count: keys are data when input_format reads the object as a map
    (`{s: cap_{s} for s in suppliers}`), when they all occur as strings elsewhere in data.json (the list of
    suppliers), or when there are more than _MAX_NAMED_KEYS of them."""
    maps = _map_levels(input_format)
    names = _strings(data)
    return "\n".join(f'- "{key}": {describe(value, maps.get(key, []), names)}' for key, value in data.items())


def _map_levels(input_format: str | None) -> dict[str, list[Level]]:
    if not input_format:
        return {}
    return {e.key: e.levels for e in read_template(input_format).entries if e.levels}


def _strings(data: Any) -> frozenset[str]:
    found: set[str] = set()
    stack = [data]
    while stack and len(found) < _MAX_NAMES:
        value = stack.pop()
        if isinstance(value, str):
            found.add(value)
        elif isinstance(value, list) and value and not isinstance(value[0], (int, float)):
            stack.extend(value)  # a list of numbers (most of a big file) holds no names: not walked
        elif isinstance(value, dict):
            stack.extend(value.values())
    return frozenset(found)


def describe(value: Any, levels: list[Level] | None = None, names: frozenset[str] = frozenset()) -> str:
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
        return _describe_object(value, levels or [], names)
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


def _describe_object(obj: dict, levels: list[Level], names: frozenset[str]) -> str:
    keyed = bool(levels) and levels[0].kind == "map"
    if not keyed and len(obj) <= _MAX_NAMED_KEYS and not (obj and names.issuperset(obj)):
        return "object {" + ", ".join(f'"{k}": {describe(v, None, names)}' for k, v in obj.items()) + "}"
    return f"object[{len(obj)}] mapping string keys to {_describe_many(list(obj.values()), levels[1:], names)}"


def _describe_many(values: list, levels: list[Level], names: frozenset[str]) -> str:
    """One description of sibling values; maps among them merge into `object[lo..hi] mapping …`."""
    if values and all(isinstance(v, dict) for v in values):
        sizes = {len(v) for v in values}
        keyed = bool(levels) and levels[0].kind == "map" or max(sizes) > _MAX_NAMED_KEYS or all(
            v and names.issuperset(v) for v in values)
        if keyed:
            size = f"{min(sizes)}..{max(sizes)}" if len(sizes) > 1 else str(sizes.pop())
            inner = [x for v in values for x in v.values()]
            return f"object[{size}] mapping string keys to {_describe_many(inner, levels[1:], names)}"
    kinds = {describe(v, levels, names) for v in values}
    return "number" if kinds == {"int", "float"} else " or ".join(sorted(kinds)) or "nothing"


def summarize_problem(problem) -> str:
    """The summary of a problem folder's data: data.json's keys as above, then the schema of its data/ tables
    (optimus.core.tables: names, types, row counts, never a value)."""
    from optimus.core.tables import summary

    parts = [summarize(problem.data, problem.snop.input_format) if problem.data else "", summary(problem.root)]
    return "\n".join(p for p in parts if p)
