"""Consistency checks of a problem folder, before any model is called.

Each problem found is one Finding: file, field or JSON path, and what was expected against what was seen.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from optimus.errors import SpecError
from optimus.problem import SNOP_FILES, Problem, load_problem
from optimus.template import Entry, TemplateError, parse_template


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
    try:
        inputs = parse_template(problem.snop.input_format)
    except TemplateError as exc:
        findings.append(Finding("error", snop_file, "input_format", f"not a readable template: {exc}"))
        inputs = None
    try:
        parse_template(problem.snop.output_format)
    except TemplateError as exc:
        findings.append(Finding("error", snop_file, "output_format", f"not a readable template: {exc}"))
    findings += _check_params(problem, snop_file)
    for getter in (lambda: problem.expected, lambda: problem.test_files()):
        try:
            getter()
        except SpecError as exc:
            findings.append(Finding("error", exc.file, exc.where, exc.message))
    try:
        data = problem.data
    except SpecError as exc:
        return findings + [Finding("error", exc.file, exc.where, exc.message)]
    if inputs is not None:
        findings += DataCheck(problem, inputs, data).run()
    return findings


def _check_params(problem: Problem, snop_file: str) -> list[Finding]:
    """Every \\param{…} of problem_info must be mentioned in input_format."""
    mentioned = _symbols(problem.snop.input_format)
    out = []
    for i, statement in enumerate(problem.snop.problem_info):
        for param in marked(statement, "param"):
            if not set(_candidates(param)) & mentioned:
                out.append(Finding("error", snop_file, f"problem_info[{i}]",
                                   f"\\param{{{param}}} is never described in input_format"))
    return out


def marked(text: str, kind: str) -> list[str]:
    """Contents of every `\\kind{…}` in text, nested braces included."""
    found, start = [], 0
    while (pos := text.find(f"\\{kind}{{", start)) != -1:
        depth, i = 0, pos + len(kind) + 1
        for i in range(pos + len(kind) + 1, len(text)):
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            if depth == 0:
                break
        found.append(text[pos + len(kind) + 2 : i].strip())
        start = i + 1
    return found


def _candidates(param: str) -> list[str]:
    base = re.sub(r"_\{.*\}$", "", param).strip()
    return [base, re.sub(r"_\w+$", "", base)]


def _symbols(template: str) -> set[str]:
    tokens = {t.rstrip("_") for t in re.findall(r"[A-Za-z]\w*", template)}
    return tokens | {re.sub(r"_\w+$", "", t) for t in tokens}


class DataCheck:
    """Checks data.json against input_format: keys, nesting depth, and lengths against the pseudo-for bounds."""

    def __init__(self, problem: Problem, entries: list[Entry], data: dict[str, Any]):
        self.file, self.snop_file = str(problem.data_path), str(problem.snop_path)
        self.entries, self.data = entries, data
        self.findings: list[Finding] = []
        # bound symbol → {length → first JSON path seen with it}
        self.lengths: dict[str, dict[int, str]] = defaultdict(dict)

    def error(self, where: str, message: str) -> None:
        self.findings.append(Finding("error", self.file, where, message))

    def run(self) -> list[Finding]:
        named = {e.key for e in self.entries}
        loose = {loose_key(k): k for k in self.data}
        for entry in self.entries:
            if entry.key not in self.data:
                hint = loose.get(loose_key(entry.key))
                extra = f"; did you mean {hint!r}?" if hint else ""
                self.error(f"$.{entry.key}", f"expected key {entry.key!r} (named in input_format), not found{extra}")
            else:
                self.shape(entry, self.data[entry.key], f"$.{entry.key}")
        for key in self.data:
            if key not in named:
                self.findings.append(Finding("warning", self.file, f"$.{key}", "key not described in input_format"))
        self.bounds()
        return self.findings

    def shape(self, entry: Entry, value: Any, path: str) -> None:
        if entry.kind == "scalar" and isinstance(value, (list, dict)):
            seen = f"a list of {len(value)}" if isinstance(value, list) else "an object"
            self.error(path, f"expected a single value (input_format: {entry.value[:40]}), seen {seen}")
        elif entry.kind == "list":
            self.walk(value, entry.bounds, path)
        elif entry.kind == "object":
            if not isinstance(value, dict):
                self.error(path, f"expected an object, seen {_kind(value)}")
            else:
                for child in entry.children:
                    if child.key not in value:
                        self.error(f"{path}.{child.key}", f"expected key {child.key!r}, not found")
                    else:
                        self.shape(child, value[child.key], f"{path}.{child.key}")

    def walk(self, value: Any, bounds: list[str | None], path: str) -> None:
        if not isinstance(value, list):
            self.error(path, f"expected a list (nesting depth {len(bounds)} in input_format), seen {_kind(value)}")
            return
        if bounds[0] is not None:
            self.lengths[bounds[0]].setdefault(len(value), path)
        if len(bounds) > 1:
            for i, item in enumerate(value):
                if not isinstance(item, list):
                    self.error(f"{path}[{i}]", f"expected a list (nesting depth {len(bounds)}), seen {_kind(item)}")
                    return
                self.walk(item, bounds[1:], f"{path}[{i}]")
        elif value and isinstance(value[0], list):
            self.error(f"{path}[0]", f"expected a single value (nesting depth {len(bounds)}), seen a list")

    def bounds(self) -> None:
        for symbol, seen in self.lengths.items():
            fixed = _fixed_size(symbol, self.data)
            if fixed is not None:
                for length, path in seen.items():
                    if length != fixed[0]:
                        self.error(path, f"expected {fixed[0]} items ({symbol} = {fixed[0]}{fixed[1]}), seen {length}")
            elif len(seen) > 1:
                (first_len, first_path), *rest = seen.items()
                for length, path in rest:
                    self.error(path, f"expected {first_len} items ({symbol}, as {first_path} has), seen {length}")


def _fixed_size(symbol: str, data: dict[str, Any]) -> tuple[int, str] | None:
    if symbol.isdigit():
        return int(symbol), ""
    value = data.get(symbol)
    if isinstance(value, int) and not isinstance(value, bool):
        return value, f" in data.json $.{symbol}"
    return None


def loose_key(key: str) -> str:
    """A key up to case and punctuation: officers_needed ~ OfficersNeeded."""
    return re.sub(r"[^a-z0-9]", "", key.lower())


def _kind(value: Any) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean"}.get(type(value), type(value).__name__)
