"""A folder's tests re-checked against a variant's statements (`optimus repair`), so that only evidence stays.

A test says which statement it checks by its name, `test_s<k>_…` (the convention of the benchmark folders), or,
without one, by the data keys it reads (`data["capacity"]`): a test reading only parameters of statements the
variant dropped or reworded checks a statement that no longer holds. Such a test is taken out of the variant's
copy (a comment says why); a test of a statement that moved is renamed to its new number; the rest stay as they
are. The original folder is never touched.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from optimus.core.changes import param_keys

_TAG = re.compile(r"^test_s(\d+)_")


def renumbered(count: int, drop: set[int]) -> dict[int, int]:
    """Old statement number → new one, for the statements that stay."""
    new, kept = {}, 0
    for k in range(1, count + 1):
        if k not in drop:
            kept += 1
            new[k] = kept
    return new


def restate_tests(tests_dir: Path, statements: list[str], data: dict, drop: set[int],
                  reworded: set[int]) -> list[str]:
    """Re-check every tests/*.py of a variant folder against its statements; the diff lines of what changed."""
    if not tests_dir.is_dir() or not (drop or reworded):
        return []
    gone = drop | reworded
    gone_keys = {key for k in gone for key in param_keys(statements[k - 1], data)}
    kept_keys = {key for k, s in enumerate(statements, 1) if k not in gone for key in param_keys(s, data)}
    numbers = renumbered(len(statements), drop)
    diff = []
    for path in sorted(tests_dir.glob("*.py")):
        text = path.read_text()
        try:
            tree = ast.parse(text)
        except SyntaxError:
            continue  # the test run reports it as it is
        lines, changed = text.splitlines(keepends=True), []
        tests = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name.startswith("test_")]
        for node in reversed(tests):
            why = _not_evidence(node, gone, gone_keys - kept_keys, statements)
            first = min([node.lineno] + [d.lineno for d in node.decorator_list]) - 1
            if why:
                lines[first:node.end_lineno] = [f"# {node.name}: taken out, {why}\n"]
                changed.append(f"- tests/{path.name}::{node.name} ({why})")
                continue
            tag = _TAG.match(node.name)
            if tag and numbers.get(int(tag.group(1)), int(tag.group(1))) != int(tag.group(1)):
                name = f"test_s{numbers[int(tag.group(1))]}_{node.name[tag.end():]}"
                row = node.lineno - 1
                lines[row] = lines[row].replace(f"def {node.name}(", f"def {name}(", 1)
                changed.append(f"~ tests/{path.name}::{node.name} → {name} (its statement is now "
                               f"s{numbers[int(tag.group(1))]})")
        path.write_text("".join(lines))
        diff += reversed(changed)  # bottom-up edits keep the line numbers valid; the diff reads top-down
    return diff


def _not_evidence(node: ast.FunctionDef, gone: set[int], only_gone_keys: set[str], statements: list[str]) -> str:
    """Why the test no longer checks anything the variant says, or ""."""
    tag = _TAG.match(node.name)
    if tag:
        k = int(tag.group(1))
        return f"it checks (s{k}) \"{statements[k - 1]}\", which the variant changes" if k in gone else ""
    read = _data_keys(node)
    if read and read <= only_gone_keys:
        return f"it reads only {', '.join(sorted(read))}, parameters of statements the variant changes"
    return ""


def _data_keys(node: ast.FunctionDef) -> set[str]:
    return {n.slice.value for n in ast.walk(node)
            if isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name) and n.value.id == "data"
            and isinstance(n.slice, ast.Constant) and isinstance(n.slice.value, str)}
