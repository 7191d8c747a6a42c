"""The PDDL reading both our own tools share, nothing taken from unified-planning: pddl.py's BFS and
plansim.py's plan simulator parse s-expressions, typed lists and the type hierarchy here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from optimus.core.errors import SpecError


def parse_sexpr(text: str, where: str) -> list:
    tokens = re.findall(r"[()]|[^\s()]+", re.sub(r";[^\n]*", "", text).lower())
    stack: list[list] = [[]]
    for tok in tokens:
        if tok == "(":
            stack.append([])
        elif tok == ")":
            if len(stack) == 1:
                raise SpecError(where, "", "unbalanced ')'")
            done = stack.pop()
            stack[-1].append(done)
        else:
            stack[-1].append(tok)
    if len(stack) != 1 or len(stack[0]) != 1 or not isinstance(stack[0][0], list):
        raise SpecError(where, "", "expected one balanced (define ...) form")
    return stack[0][0]


def typed_names(items: list, where: str) -> list[tuple[str, str]]:
    """`a b - t c` → [(a, t), (b, t), (c, object)]; `- (either t u)` gives the type ("either", t, u)."""
    out, pending, i = [], [], 0
    while i < len(items):
        if items[i] == "-":
            kind = items[i + 1] if i + 1 < len(items) else None
            if isinstance(kind, list) and kind[:1] == ["either"] and all(isinstance(k, str) for k in kind):
                kind = tuple(kind)
            elif not isinstance(kind, str):
                raise SpecError(where, "", "'-' must be followed by a type name or (either …)")
            out += [(name, kind) for name in pending]
            pending, i = [], i + 2
        else:
            pending.append(items[i])
            i += 1
    return out + [(name, "object") for name in pending]


def sections(root: list) -> dict[str, list]:
    return {s[0]: s[1:] for s in root[2:] if isinstance(s, list) and s and isinstance(s[0], str)}


@dataclass
class TypeTree:
    """A domain's `:types`: each type's parents (a type declared twice, `area - object` and `area - surface`,
    has both, as Fast Downward's translator reads it), and whether a type is (a subtype of) another."""

    types: dict[str, str] = field(default_factory=dict)  # type → its last-declared parent
    more: dict[str, set[str]] = field(default_factory=dict)  # type → every parent declared for it

    def declare(self, pairs: list[tuple[str, str]]) -> None:
        for kind, parent in pairs:
            self.types[kind] = parent
            self.more.setdefault(kind, set()).add(parent)

    def is_a(self, kind: str, wanted) -> bool:
        if isinstance(wanted, tuple):  # ("either", t, u)
            return any(self.is_a(kind, w) for w in wanted[1:])
        seen, todo = set(), [kind]
        while todo:
            k = todo.pop()
            if k == wanted or wanted == "object":
                return True
            if k in seen:
                continue
            seen.add(k)
            todo += [p for p in self.more.get(k, {self.types[k]} if k in self.types else set()) if p != k]
        return False
