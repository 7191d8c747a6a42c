"""Z3 pitfalls as faults: the mistakes a model makes writing Z3 programs, each a source transformation.

Python's `and`/`or`/`not`/`if` on Z3 expressions (an exception, or — for `x == k` — a silent structural
comparison that is False) and a model value written as a z3 expression (json cannot write it). Dropped and
flipped tracked assertions and a flipped objective are the catalogue's general faults (optimus.bench.faults.edits),
which read assert_and_track and opt.minimize/maximize too. Two pitfalls the prompt warns of are not faults
here, since no reference program they apply to breaks: a model read without model_completion=True (every
constant of our references is constrained, so the model holds it) and integer division (none divides).
"""

from __future__ import annotations

import ast
import re

from optimus.bench.faults.base import Info, Injected
from optimus.bench.faults.surgery import (
    in_source_order,
    parse,
    replace_node,
    seg,
    span,
    statement_id,
    words,
)


def _is_z3(source: str) -> bool:
    return bool(re.search(r"^\s*(import z3\b|from z3 import)", source, re.MULTILINE))


def _z3_calls(tree: ast.AST, names: tuple[str, ...]) -> list[ast.Call]:
    """Calls of z3.NAME(...) (or NAME(...) after `from z3 import …`)."""
    out = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or node.keywords or any(isinstance(a, ast.Starred) for a in node.args):
            continue
        f = node.func
        name = f.attr if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "z3" \
            else f.id if isinstance(f, ast.Name) else None
        if name in names:
            out.append(node)
    return in_source_order(out)


def _tracked_name(source: str, tree: ast.AST, node: ast.AST) -> dict:
    """The statement of the assert_and_track call around `node`, for the repair evidence (empty when none)."""
    start, end = span(source, node)
    for call in ast.walk(tree):
        if (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
                and call.func.attr == "assert_and_track" and len(call.args) >= 2):
            lo, hi = span(source, call)
            if lo <= start and end <= hi:
                name = seg(source, call.args[1])
                return {"name": name, "statement": statement_id(name), "words": words(re.sub(r"\{.*?\}", " ", name))}
    return {}


def python_bool(source: str, info: Info) -> list[Injected]:
    """z3.And(a, b) → (a and b), z3.Or → or, z3.Not(a) → (not a)."""
    tree = parse(source)
    if tree is None or not _is_z3(source):
        return []
    out = []
    for call in _z3_calls(tree, ("And", "Or", "Not")):
        name = seg(source, call.func).split(".")[-1]
        args = [seg(source, a) for a in call.args]
        if name == "Not" and len(args) == 1:
            text = f"(not {args[0]})"
        elif name != "Not" and len(args) >= 2:
            text = "(" + f" {name.lower()} ".join(args) + ")"
        else:
            continue
        out.append(Injected("z3_python_bool", "code", replace_node(source, call, text),
                            f"{seg(source, call)[:60]} written with Python {name.lower()}",
                            _tracked_name(source, tree, call)))
    return out


def python_if(source: str, info: Info) -> list[Injected]:
    """z3.If(c, a, b) → (a if c else b): on `x == k` Python compares the expressions' structure, silently."""
    tree = parse(source)
    if tree is None or not _is_z3(source):
        return []
    out = []
    for call in _z3_calls(tree, ("If",)):
        if len(call.args) != 3:
            continue
        c, a, b = (seg(source, x) for x in call.args)
        out.append(Injected("z3_python_if", "code", replace_node(source, call, f"({a} if {c} else {b})"),
                            f"{seg(source, call)[:60]} written as a Python conditional",
                            _tracked_name(source, tree, call)))
    return out


def model_value(source: str, info: Info) -> list[Injected]:
    """A model value left a z3 expression: `.as_long()` dropped, or `z3.is_true(v)` written as `v`."""
    tree = parse(source)
    if tree is None or not _is_z3(source):
        return []
    out, is_true = [], _z3_calls(tree, ("is_true",))
    for node in in_source_order([n for n in ast.walk(tree) if isinstance(n, ast.Call)]):
        f = node.func
        if isinstance(f, ast.Attribute) and f.attr in ("as_long", "as_fraction") and not node.args:
            inner = f.value
        elif node in is_true and len(node.args) == 1:
            inner = node.args[0]
        else:
            continue
        out.append(Injected("z3_model_value", "code", replace_node(source, node, seg(source, inner)),
                            f"{seg(source, node)[:60]} read as {seg(source, inner)[:40]} (a z3 expression)", {}))
    return out
