"""Source surgery for faults: splice text at AST node positions, keeping everything else (comments too)."""

from __future__ import annotations

import ast
import re


def offsets(source: str) -> list[int]:
    starts, total = [], 0
    for line in source.splitlines(keepends=True):
        starts.append(total)
        total += len(line)
    return starts + [total]


def pos(source: str, starts: list[int], lineno: int, col: int) -> int:
    line = source[starts[lineno - 1] : starts[lineno]] if lineno <= len(starts) - 1 else ""
    return starts[lineno - 1] + len(line.encode()[:col].decode(errors="ignore"))  # col is in UTF-8 bytes


def span(source: str, node: ast.AST) -> tuple[int, int]:
    starts = offsets(source)
    return (
        pos(source, starts, node.lineno, node.col_offset),
        pos(source, starts, node.end_lineno, node.end_col_offset),
    )


def splice(source: str, start: int, end: int, text: str) -> str:
    return source[:start] + text + source[end:]


def replace_node(source: str, node: ast.AST, text: str) -> str:
    return splice(source, *span(source, node), text)


def seg(source: str, node: ast.AST) -> str:
    return ast.get_source_segment(source, node) or ""


def parse(source: str) -> ast.Module | None:
    try:
        return ast.parse(source)
    except SyntaxError:
        return None


def data_names(tree: ast.AST) -> set[str]:
    """Names bound to json.load(...)/json.loads(...): the data dict."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
            func = node.value.func
            if isinstance(func, ast.Attribute) and func.attr in ("load", "loads"):
                names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
    return names


def data_subscripts(tree: ast.AST) -> list[ast.Subscript]:
    names = data_names(tree)
    return [
        n
        for n in ast.walk(tree)
        if isinstance(n, ast.Subscript)
        and isinstance(n.value, ast.Name)
        and n.value.id in names
        and isinstance(n.slice, ast.Constant)
        and isinstance(n.slice.value, str)
    ]


def in_source_order(nodes: list) -> list:
    return sorted(nodes, key=lambda n: (n.lineno, n.col_offset))


def other_name(key: str, taken: frozenset[str]) -> str:
    """A plausible wrong spelling of `key` that is not a real key: plural/singular, then a suffix."""
    for name in (key[:-1] if key.endswith("s") else key + "s", key + "_value", key + "_data"):
        if name and name not in taken:
            return name
    return key + "_x"


def library(tree: ast.AST) -> str:
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            mods = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            if any(m.split(".")[0] == "cvxpy" for m in mods):
                return "cvxpy"
    return "pulp"


def statement_id(text: str) -> str | None:
    match = re.search(r"\b(s\d+)(?:_|\b)", text)
    return match.group(1) if match else None


def words(text: str) -> list[str]:
    return [w for w in re.split(r"[^a-z]+", text.lower()) if len(w) >= 4 and not re.fullmatch(r"s\d+", w)]
