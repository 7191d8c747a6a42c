"""Read the pseudo-JSON templates of a SNOP's input_format and output_format.

The public NLP4LP data writes them loosely: quoted keys, values that are a symbol or a pseudo-for list
(`[[req_{i,j} for i in 1, ..., N] for j in 1, ..., M]`), trailing or missing commas. We read what we can:
for each key, how deep its lists nest and which bound (N, M, 7…) sizes each level, outermost first.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_FOR = re.compile(r"^(?P<elem>.*)\bfor\s+(?P<idx>\w+)\s+in\s+(?P<range>.+)$", re.DOTALL)
_BOUND = re.compile(r"(\w+)\s*\)?\s*$")


class TemplateError(ValueError):
    """The text is not a readable template; the message says where."""


@dataclass
class Entry:
    """One key of a template. `bounds` holds one item per list level, outermost first; None where
    the text gives no readable bound (e.g. `[a, b, c]`)."""

    key: str
    value: str
    kind: str  # "scalar" | "list" | "object"
    bounds: list[str | None] = field(default_factory=list)
    children: list[Entry] = field(default_factory=list)

    @property
    def depth(self) -> int:
        return len(self.bounds)


def parse_template(text: str) -> list[Entry]:
    """Parse a template into its top-level entries. Raises TemplateError when it is not a `{…}` of
    `"key": value` entries."""
    body = text.strip()
    if not body.startswith("{"):
        raise TemplateError("expected the template to start with '{'")
    entries, end = _parse_object(body, 0)
    if body[end:].strip():
        raise TemplateError(f"unexpected text after the closing '}}': {body[end:].strip()[:40]!r}")
    if not entries:
        raise TemplateError("the template names no keys")
    return entries


def _parse_object(text: str, pos: int) -> tuple[list[Entry], int]:
    assert text[pos] == "{"
    pos += 1
    entries: list[Entry] = []
    while True:
        pos = _skip(text, pos, " \t\r\n,")
        if pos >= len(text):
            raise TemplateError("missing the closing '}'")
        if text[pos] == "}":
            return entries, pos + 1
        match = re.compile(r'"([^"\n]*)"\s*:|([A-Za-z_]\w*)\s*:').match(text, pos)
        if not match:
            line = text.count("\n", 0, pos) + 1
            raise TemplateError(f'line {line}: expected a "key": value entry, found {text[pos:pos + 30]!r}')
        key = match.group(1) if match.group(1) is not None else match.group(2)
        pos = _skip(text, match.end(), " \t\r\n")
        value, pos = _take_value(text, pos)
        entries.append(_entry(key, value.strip()))


def _skip(text: str, pos: int, chars: str) -> int:
    while pos < len(text) and text[pos] in chars:
        pos += 1
    return pos


def _take_value(text: str, pos: int) -> tuple[str, int]:
    """Take one value's raw text: up to a top-level ',' or '}', or a line break before the next key
    (the public data often forgets the comma)."""
    if pos < len(text) and text[pos] == "{":
        start = pos
        _, end = _parse_object(text, pos)
        return text[start:end], end
    depth, start = 0, pos
    while pos < len(text):
        ch = text[pos]
        if ch in "([{":
            depth += 1
        elif ch in ")]}" and depth > 0:
            depth -= 1
        elif ch in ")]":
            raise TemplateError(f"unbalanced {ch!r} in {text[start:pos + 1].strip()[:40]!r}")
        elif depth == 0 and ch in ",}" or depth == 0 and ch == "\n" and re.match(r'\s*"', text[pos:]):
            return text[start:pos], pos
        pos += 1
    if depth:
        raise TemplateError(f"unclosed '[' in {text[start:].strip()[:40]!r}")
    return text[start:pos], pos


def _entry(key: str, value: str) -> Entry:
    if value.startswith("{"):
        children, _ = _parse_object(value, 0)
        return Entry(key, value, "object", children=children)
    if value.startswith("["):
        return Entry(key, value, "list", bounds=_list_bounds(value))
    return Entry(key, value, "scalar")


def _list_bounds(value: str) -> list[str | None]:
    """Bounds of nested pseudo-for lists, outermost first."""
    inner = value[1:-1].strip() if value.endswith("]") else value[1:].strip()
    match = _FOR.match(inner)
    if match:
        elem = match.group("elem").strip()
        bound = _bound_of(match.group("range"))
        rest = _list_bounds(elem) if elem.startswith("[") else []
        return [bound, *rest]
    # `[x_1, x_2, ..., x_N]` or a literal list: the last item names the bound at best.
    if "..." in inner:
        last = inner.rsplit(",", 1)[-1]
        sub = re.search(r"_\{?(\w+)\}?\s*$", last)
        return [sub.group(1) if sub else None]
    return [None]


def _bound_of(range_text: str) -> str | None:
    """`1, ..., N` → N; `1..7` → 7; `range(K)` → K; `1,...K` → K."""
    text = range_text.strip().rstrip(",")
    match = _BOUND.search(text)
    return match.group(1) if match else None
