"""Read the pseudo-JSON templates of a SNOP's input_format and output_format.

The public NLP4LP data writes them loosely: quoted keys, values that are a symbol, a pseudo-for list
(`[[req_{i,j} for i in 1, ..., N] for j in 1, ..., M]`) or a dict comprehension over named entities
(`{s: cap_{s} for s in suppliers}`), trailing or missing commas, a comma for a colon, a missing closing brace.
We read what we can: for each key, its levels (list or map) outermost first and which bound (N, M, 7,
suppliers…) sizes each. What we cannot read is a note naming its line, never a reason to stop: the data summary
tells the model the true shapes anyway.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_FOR = re.compile(r"\bfor\s+(\w+)\s+in\s+")
_KEY = re.compile(r'"([^"\n]*)"\s*:|([A-Za-z_]\w*)\s*:(?!:)')
_COMMA_FOR_COLON = re.compile(r'"([^"\n]*)"\s*[,;=]\s*(?=[\[{\w])')
_NEXT_KEY = re.compile(r'\n\s*("[^"\n]*"|[A-Za-z_]\w*)\s*:')
_MAP_HEAD = re.compile(r"\s*(\w+)\s*:")
_END = re.compile(r"(\w+)\s*(?:([+-])\s*(\d+))?\s*$")
_OPEN, _CLOSE = "([{", ")]}"


class TemplateError(ValueError):
    """The text is not a readable template; the message says where."""


@dataclass
class Level:
    """One level of nesting: a list, or a map keyed by named entities. The level holds `bound + offset`
    items (`0, ..., K` holds K+1: offset 1); `bound` is a symbol or digits, None when the text gives none.
    A "record" is the innermost level of records-shaped data (`[{"name": name_{j}, "price": price_{j}} for j
    in 1, ..., N]`): one object of fixed keys, `fields`, per item."""

    kind: str  # "list" | "map" | "record"
    bound: str | None
    offset: int = 0
    fields: list[Entry] = field(default_factory=list)


@dataclass
class Entry:
    """One key of a template."""

    key: str
    value: str
    kind: str  # "scalar" | "list" | "map" | "object"
    levels: list[Level] = field(default_factory=list)
    children: list[Entry] = field(default_factory=list)

    @property
    def bounds(self) -> list[str | None]:
        return [level.bound for level in self.levels]


@dataclass
class Note:
    """Something the reader could not take as written. `lost`: text was skipped (the entries are incomplete);
    otherwise a typo read through (a missing comma or brace)."""

    line: int
    message: str
    lost: bool

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


@dataclass
class Template:
    entries: list[Entry]
    notes: list[Note]


def read_template(text: str) -> Template:
    """Read as much of a template as can be read; everything that was not as expected is a Note."""
    reader = _Reader(text)
    start = reader.skip(0, " \t\r\n")
    if start >= len(text) or text[start] != "{":
        what = text.strip()[:40]
        return Template([], [Note(1, f"expected the template to start with '{{', found {what!r}", True)])
    entries, end = reader.object(start)
    rest = text[end:].strip()
    if rest:
        reader.note(end, f"unexpected text after the closing '}}': {rest[:40]!r}", lost=True)
    if not entries and not reader.notes:
        reader.note(start, "the template names no keys", lost=True)
    return Template(entries, reader.notes)


def parse_template(text: str) -> list[Entry]:
    """Parse a template into its top-level entries; raises TemplateError when any of it had to be skipped
    or it names no keys. A typo read through (a missing comma) is not an error here."""
    template = read_template(text)
    lost = [n for n in template.notes if n.lost]
    if lost:
        raise TemplateError(str(lost[0]))
    if not template.entries:
        raise TemplateError("the template names no keys")
    return template.entries


class _Reader:
    def __init__(self, text: str):
        self.text, self.notes = text, []

    def note(self, pos: int, message: str, lost: bool) -> None:
        self.notes.append(Note(self.text.count("\n", 0, pos) + 1, message, lost))

    def skip(self, pos: int, chars: str) -> int:
        while pos < len(self.text) and self.text[pos] in chars:
            pos += 1
        return pos

    def next_line(self, pos: int) -> int:
        end = self.text.find("\n", pos)
        return len(self.text) if end == -1 else end + 1

    def object(self, pos: int) -> tuple[list[Entry], int]:
        text, entries = self.text, []
        pos += 1
        while True:
            pos = self.skip(pos, " \t\r\n,")
            if pos >= len(text):
                self.note(pos, "missing the closing '}'", lost=False)
                return entries, pos
            if text[pos] == "}":
                return entries, pos + 1
            key_at = pos
            match = _KEY.match(text, pos)
            if match:
                key = match.group(1) if match.group(1) is not None else match.group(2)
            elif match := _COMMA_FOR_COLON.match(text, pos):
                key = match.group(1)
                self.note(pos, f"a {text[match.start() + len(key) + 2:match.end()].strip()!r} after \"{key}\" "
                          "where ':' belongs: read as a key", lost=False)
            else:
                self.note(pos, f'expected a "key": value entry, skipped {text[pos:self.next_line(pos)].strip()[:40]!r}',
                          lost=True)
                pos = self.next_line(pos)
                continue
            pos = at = self.skip(match.end(), " \t\r\n")
            try:
                value, pos, ended = self.value(pos)
            except TemplateError as exc:
                self.note(key_at, f'the value of "{key}" is not readable ({exc}): skipped', lost=True)
                pos = self.next_line(key_at)
                continue
            if ended == "line":
                self.note(pos, f'no \',\' after the value of "{key}": read as if it were there', lost=False)
            entries.append(self.entry(key, value.strip(), at))

    def value(self, pos: int) -> tuple[str, int, str]:
        """One value's raw text, its end, and how it ended: "," / "}" / "line" (a line break before the next
        key: the public data often forgets the comma) / "end"."""
        text, stack, start = self.text, [], pos
        while pos < len(text):
            ch = text[pos]
            if ch in _OPEN:
                stack.append(_CLOSE[_OPEN.index(ch)])
            elif stack and ch == stack[-1]:
                stack.pop()
            elif ch in ")]" or stack and ch == "}":
                raise TemplateError(f"unbalanced {ch!r} in {text[start:pos + 1].strip()[:40]!r}")
            elif not stack and ch in ",}":
                return text[start:pos], pos, ch
            elif not stack and ch == "\n" and _NEXT_KEY.match(text, pos):
                return text[start:pos], pos, "line"
            pos += 1
        if stack:
            raise TemplateError(f"unclosed bracket in {text[start:].strip()[:40]!r}")
        return text[start:pos], pos, "end"

    def entry(self, key: str, value: str, at: int) -> Entry:
        if value.startswith("{") and _comprehension(value) is None:
            children, _ = self.object(at)
            return Entry(key, value, "object", children=children)
        if value.startswith(("[", "{")):
            levels = _levels(value)
            return Entry(key, value, levels[0].kind, levels=levels)
        return Entry(key, value, "scalar")


def _split_for(inner: str) -> tuple[str, str] | None:
    """(element, range) around the last `for x in` outside any bracket: the outermost loop."""
    depth, last = 0, None
    for pos, ch in enumerate(inner):
        if ch in _OPEN:
            depth += 1
        elif ch in _CLOSE:
            depth -= 1
        elif depth == 0 and ch == "f" and (match := _FOR.match(inner, pos)) and (pos == 0 or not inner[pos - 1].isalnum()):
            last = match
    if last is None:
        return None
    return inner[: last.start()].strip(), inner[last.end():].strip()


def _inner(value: str) -> str:
    close = "]" if value[0] == "[" else "}"
    return value[1:-1].strip() if value.endswith(close) else value[1:].strip()


def _comprehension(value: str) -> tuple[str, str] | None:
    """`{s: elem for s in range}` → (elem, range); None when the braces hold an object of fixed keys."""
    head = _MAP_HEAD.match(_inner(value))
    if not head:
        return None
    return _split_for(_inner(value)[head.end():])


def _levels(value: str) -> list[Level]:
    """Levels of nested pseudo-for lists and dict comprehensions, outermost first; an element that is an object
    of fixed keys is a record."""
    if value.startswith("{"):
        found = _comprehension(value)
        if found is None:
            return _record(value)
        elem, range_text = found
        return [Level("map", *_bound_of(range_text)), *_levels(elem)]
    if not value.startswith("["):
        return []
    inner = _inner(value)
    found = _split_for(inner)
    if found:
        elem, range_text = found
        return [Level("list", *_bound_of(range_text)), *_levels(elem)]
    if inner.startswith("{"):  # `[{"name": …}, …]`: a literal list of records, read from its first
        first, _, _ = _Reader(inner).value(0)
        return [Level("list", None), *_record(first.strip())]
    # `[x_1, x_2, ..., x_N]` or a literal list: the last item names the bound at best.
    if "..." in inner:
        first, last = inner.split(",", 1)[0], inner.rsplit(",", 1)[-1]
        sub = re.search(r"_\{?(\w+)\}?\s*$", last)
        starts_at_0 = re.search(r"_\{?0\}?\s*$", first) is not None
        return [Level("list", sub.group(1) if sub else None, 1 if starts_at_0 else 0)]
    return [Level("list", None)]


def _record(value: str) -> list[Level]:
    """`{"name": name_{j}, "price": price_{j}}` inside a list or a map: one record level with its fields (none
    when its keys cannot be read: then no level, as before)."""
    if not value.startswith("{"):
        return []
    fields, _ = _Reader(value).object(0)
    return [Level("record", None, fields=fields)] if fields else []


def _bound_of(range_text: str) -> tuple[str | None, int]:
    """(bound, offset) with items = bound + offset: `1, ..., N` → (N, 0); `0, ..., K` → (K, 1); `1..7` → (7, 0);
    `range(K)` → (K, 0); `1, ..., N-1` → (N, -1); `suppliers` (a named set) → (suppliers, 0)."""
    text = range_text.strip().rstrip(",").strip()
    call = re.fullmatch(r"range\s*\((.*)\)", text)
    if call:
        args = [a.strip() for a in call.group(1).split(",")]
        start = int(args[0]) if len(args) == 2 and re.fullmatch(r"-?\d+", args[0]) else 0
        bound, extra = _end_of(args[-1])
        return bound, extra - start
    first = re.match(r"(-?\d+)\s*(?:,|\.\.)", text)
    start = int(first.group(1)) if first else 1
    bound, extra = _end_of(text)
    return bound, extra - start + 1


def _end_of(text: str) -> tuple[str | None, int]:
    match = _END.search(text)
    if not match:
        return None, 0
    extra = int(match.group(3)) if match.group(3) else 0
    return match.group(1), -extra if match.group(2) == "-" else extra
