"""Consistency checks of a problem folder, before any model is called.

Each problem found is one Finding: file, field or JSON path, and what was expected against what was seen.
Only what makes the problem unsolvable is an error (exit 2): a SNOP or data.json that cannot be read at all, a
folder without a SNOP, a file that leads outside the folder, a key input_format names that data.json lacks
under any spelling, an expected.json or tests/ that cannot be read, a table or column of data/ that input_format
or data/README names and the files lack. Everything else — a section or column line of data/README.md naming no
table or column of data/, a template line that cannot be read, a shape that disagrees with the template, a number
written as a string, keys not described — is a warning: the loop goes on, and the data summary tells the model
the true shapes.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from optimus.core import families, tables
from optimus.core.errors import SpecError
from optimus.core.problem import SNOP_FILES, Problem, load_problem
from optimus.core.snop import marked, param_candidates
from optimus.core.template import Entry, Level, read_template

_NUMERIC = re.compile(r"\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$")
_WORD = (r"(zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen"
         r"|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand"
         r"|million|billion|half|dozen)")
# "ten", "twenty-five", "two hundred and five": a number in words, which a program cannot compute with
_NUMBER_WORDS = re.compile(rf"\s*{_WORD}([\s-]+(and[\s-]+)?{_WORD})*\s*$", re.IGNORECASE)
# Findings of one kind shown per file; a file of a million "NaN" gets the first few and a count
_MAX_SAME = 5


@dataclass
class Finding:
    level: str  # "error" | "warning"
    file: str
    where: str
    message: str

    def __str__(self) -> str:
        where = f"{self.where}: " if self.where else ""
        return f"{self.level}: {self.file}: {where}{self.message}"

    def to_dict(self) -> dict[str, str]:
        return asdict(self)


def validate(root: Path | str) -> list[Finding]:
    """All findings for one folder; an unreadable SNOP or data file stops the checks that need it. A SNOP
    file stands for its folder; another plain file (a README beside problem folders) is skipped with a warning."""
    path = Path(root)
    if path.is_file():
        if path.name not in SNOP_FILES:
            return [Finding("warning", str(path), "", "not a problem folder: skipped")]
        root = path.parent
    try:
        problem = load_problem(root)
    except SpecError as exc:
        return [Finding("error", exc.file, exc.where, exc.message)]
    findings: list[Finding] = []
    snop_file = str(problem.snop_path)
    data_layout = tables.without_tables(problem.snop.input_format)
    inputs = read_template(data_layout)
    for field_name, template in (("input_format", inputs), ("output_format", read_template(problem.snop.output_format))):
        if field_name == "input_format" and not data_layout.strip():  # tables only: no data.json to lay out
            continue
        for note in template.notes:
            findings.append(Finding("warning", snop_file, field_name, f"template {note}"))
    findings += _check_params(problem, snop_file)
    findings += _check_given(problem)
    for getter in (lambda: problem.expected, lambda: problem.test_files()):
        try:
            getter()
        except SpecError as exc:
            findings.append(Finding("error", exc.file, exc.where, exc.message))
    try:
        data = problem.data
    except SpecError as exc:
        return findings + [Finding("error", exc.file, exc.where, exc.message)]
    if inputs.entries:
        findings += DataCheck(problem, inputs.entries, data).run()
    return findings + non_finite(problem) + [
        Finding("error", str(problem.root / file), where, message)
        for file, where, message in tables.missing(problem.root, problem.snop.input_format)] + [
        Finding("warning", file, where, message) for file, where, message in tables.undescribed(problem.root)]


def _check_given(problem: Problem) -> list[Finding]:
    """The files the family reads that the user gave (an expert's domain.pddl): read before any model call."""
    try:
        family = families.choose(problem)
    except KeyError:  # a solver no family has: the SNOP's schema check says so
        return []
    try:
        if family is not None:
            family.check_given(problem)
    except SpecError as exc:
        return [Finding("error", exc.file, exc.where, exc.message)]
    return []


def non_finite(problem: Problem) -> list[Finding]:
    """NaN and ±Infinity, which Python's JSON reader accepts silently: a warning at each (the first few) path.
    The file's bytes are searched first, so data without them costs no walk."""
    if not problem.data_path.is_file():  # tables only (data/): their numbers are typed columns
        return []
    raw = problem.data_path.read_bytes()
    if b"NaN" not in raw and b"Infinity" not in raw:
        return []
    found: list[str] = []
    stack: list[tuple[Any, str]] = [(problem.data, "$")]
    while stack:
        value, where = stack.pop()
        if isinstance(value, float) and not math.isfinite(value):
            found.append(where)
        elif isinstance(value, dict):
            stack.extend((v, f"{where}.{k}") for k, v in reversed(value.items()))
        elif isinstance(value, list):
            stack.extend((v, f"{where}[{i}]") for i, v in reversed(list(enumerate(value))))
    file = str(problem.data_path)
    out = [Finding("warning", file, where, "NaN or Infinity is not a number a solver can use: the program "
                   "will fail or read it as a limit") for where in found[:_MAX_SAME]]
    if len(found) > _MAX_SAME:
        out.append(Finding("warning", file, "", f"NaN or Infinity at {len(found) - _MAX_SAME} more paths"))
    return out


def _check_params(problem: Problem, snop_file: str) -> list[Finding]:
    """Every \\param{…} of problem_info should be mentioned in input_format (a warning: the data summary
    still shows the model every key)."""
    mentioned = _symbols(problem.snop.input_format)
    out = []
    for i, statement in enumerate(problem.snop.problem_info):
        for param in marked(statement, "param"):
            if not set(param_candidates(param)) & mentioned:
                out.append(Finding("warning", snop_file, f"problem_info[{i}]",
                                   f"\\param{{{param}}} is never described in input_format"))
    return out


def _symbols(template: str) -> set[str]:
    tokens = {t.rstrip("_") for t in re.findall(r"[A-Za-z]\w*", template)}
    return tokens | {re.sub(r"_\w+$", "", t) for t in tokens}


class DataCheck:
    """Checks data.json against input_format: keys, nesting, list lengths against the pseudo-for bounds and
    key sets of maps against each other (and against a list of names the data holds under the set's name)."""

    def __init__(self, problem: Problem, entries: list[Entry], data: dict[str, Any]):
        self.file, self.snop_file = str(problem.data_path), str(problem.snop_path)
        self.entries, self.data = entries, data
        self.findings: list[Finding] = []
        # bound symbol → {implied value of the symbol → (first JSON path seen with it, its length, its offset)}
        self.lengths: dict[str, dict[int, tuple[str, int, int]]] = defaultdict(dict)
        # bound symbol → {key set → first JSON path seen with it}
        self.keysets: dict[str, dict[frozenset, str]] = defaultdict(dict)
        self.strings_seen = False
        self.words_seen = 0

    def error(self, where: str, message: str) -> None:
        self.findings.append(Finding("error", self.file, where, message))

    def warn(self, where: str, message: str) -> None:
        self.findings.append(Finding("warning", self.file, where, message))

    def run(self) -> list[Finding]:
        described = self.keys(self.entries, self.data, "$")
        for key in self.data:
            if key not in described:
                self.warn(f"$.{key}", "key not described in input_format")
        self.bounds()
        return self.findings

    def keys(self, entries: list[Entry], obj: dict, path: str) -> set[str]:
        """Check each entry's key in `obj`; returns the keys of obj that entries describe (spelling aside)."""
        loose = {loose_key(k): k for k in obj}
        described = set()
        for entry in entries:
            where = f"{path}.{entry.key}"
            key = entry.key if entry.key in obj else loose.get(loose_key(entry.key))
            if key is None:
                self.error(where, f"expected key {entry.key!r} (named in input_format), not found under any spelling")
                continue
            if key != entry.key:
                self.warn(where, f"input_format names {entry.key!r}, data.json has {key!r}: read as that key")
            described.add(key)
            self.shape(entry, obj[key], f"{path}.{key}")
        return described

    def shape(self, entry: Entry, value: Any, path: str) -> None:
        if entry.kind == "scalar":
            if isinstance(value, (list, dict)):
                seen = f"a list of {len(value)}" if isinstance(value, list) else "an object"
                self.warn(path, f"expected a single value (input_format: {entry.value[:40]}), seen {seen}")
            else:
                self.leaf(value, path)
        elif entry.kind in ("list", "map"):
            self.walk(value, entry.levels, path)
        elif entry.kind == "object":
            if not isinstance(value, dict):
                self.warn(path, f"expected an object, seen {_kind(value)}")
            else:
                self.keys(entry.children, value, path)

    def leaf(self, value: Any, path: str) -> None:
        if isinstance(value, str) and _NUMERIC.match(value) and not self.strings_seen:
            self.strings_seen = True  # once per file: one such value usually means all of them
            self.warn(path, f"a number written as a string ({value!r}): the program must convert it")
        elif isinstance(value, str) and _NUMBER_WORDS.match(value) and self.words_seen < _MAX_SAME:
            self.words_seen += 1  # a guess from the words alone ("one" may be a name): a warning, never an error
            self.warn(path, f"a number written in words ({value!r})? A program cannot compute with it: "
                      "write the digits")

    def walk(self, value: Any, levels: list[Level], path: str) -> None:
        level, rest = levels[0], levels[1:]
        if level.kind == "record":  # records-shaped data: each item an object, its fields checked as keys
            if isinstance(value, dict):
                self.keys(level.fields, value, path)
            else:
                self.warn(path, f"expected an object (a record of {', '.join(f.key for f in level.fields)}), "
                          f"seen {_kind(value)}")
            return
        if level.kind == "map":
            if not isinstance(value, dict):
                self.warn(path, f"expected an object keyed by {level.bound or 'name'}, seen {_kind(value)}")
                return
            if level.bound is not None:
                self.keysets[level.bound].setdefault(frozenset(value), path)
            items = [(f"{path}.{k}", v) for k, v in value.items()]
        else:
            if not isinstance(value, list):
                self.warn(path, f"expected a list (nesting depth {len(levels)} in input_format), seen {_kind(value)}")
                return
            if level.bound is not None:
                self.lengths[level.bound].setdefault(len(value) - level.offset, (path, len(value), level.offset))
            items = [(f"{path}[{i}]", v) for i, v in enumerate(value)]
        if rest:
            want = dict if rest[0].kind in ("map", "record") else list
            for where, item in items:
                if not isinstance(item, want):
                    self.warn(where, f"expected {'an object' if want is dict else 'a list'} "
                              f"(nesting depth {len(levels)}), seen {_kind(item)}")
                    return
                self.walk(item, rest, where)
        elif items and isinstance(items[0][1], (list, dict)):
            self.warn(items[0][0], f"expected a single value (nesting depth {len(levels)}), seen {_kind(items[0][1])}")
        else:
            for where, item in items:
                self.leaf(item, where)
                if self.strings_seen:
                    break

    def bounds(self) -> None:
        for symbol, seen in self.lengths.items():
            fixed = _fixed_size(symbol, self.data)
            if fixed is not None:
                for implied, (path, length, offset) in seen.items():
                    if implied != fixed[0]:
                        self.warn(path, f"expected {fixed[0] + offset} items ({symbol} = {fixed[0]}{fixed[1]}"
                                  f"{_range_note(symbol, offset)}), seen {length}")
            elif len(seen) > 1:
                (first, (first_path, _, _)), *rest = seen.items()
                for _, (path, length, offset) in rest:
                    self.warn(path, f"expected {first + offset} items ({symbol}, as {first_path} has"
                              f"{_range_note(symbol, offset)}), seen {length}")
        for symbol, sets in self.keysets.items():
            names = self.data.get(symbol)
            if isinstance(names, list) and all(isinstance(n, (str, int)) for n in names):
                want = frozenset(map(str, names))
                for keys, path in sets.items():
                    if keys != want:
                        self.warn(path, f"keys differ from the names in $.{symbol}: {_diff(keys, want)}")
            elif len(sets) > 1:
                (first, first_path), *rest = sets.items()
                for keys, path in rest:
                    self.warn(path, f"keys differ from those of {first_path} (both keyed by {symbol}): "
                              f"{_diff(keys, first)}")


def _range_note(symbol: str, offset: int) -> str:
    return "" if offset == 0 else f"; its range holds {symbol}{offset:+d} items"


def _diff(keys: frozenset, want: frozenset) -> str:
    def some(items: frozenset) -> str:
        shown = sorted(map(str, items))[:3]
        return ", ".join(repr(k) for k in shown) + (f" and {len(items) - 3} more" if len(items) > 3 else "")

    parts = [f"{len(keys)} keys against {len(want)}"]
    if want - keys:
        parts.append(f"missing {some(want - keys)}")
    if keys - want:
        parts.append(f"extra {some(keys - want)}")
    return "; ".join(parts)


def _fixed_size(symbol: str, data: dict[str, Any]) -> tuple[int, str] | None:
    if symbol.isdigit():
        return int(symbol), ""
    value = data.get(symbol)
    if isinstance(value, int) and not isinstance(value, bool):
        return value, f" in data.json $.{symbol}"
    if isinstance(value, list):
        return len(value), f", the length of data.json $.{symbol}"
    return None


def loose_key(key: str) -> str:
    """A key up to case and punctuation: officers_needed ~ OfficersNeeded."""
    return re.sub(r"[^a-z0-9]", "", key.lower())


def _kind(value: Any) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean"}.get(type(value), type(value).__name__)
