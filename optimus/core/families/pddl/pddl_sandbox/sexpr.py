"""PDDL as s-expressions, with the line each list starts on: enough to name a wrong line in words.

Self-contained (standard library only): it runs in the sandbox, and the planning tests' conftest imports it as
`pddl_sexpr` beside the tests. Names are lower-cased, as PDDL is case-insensitive.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_TOKEN = re.compile(r";[^\n]*|\(|\)|[^\s()]+|\n")


class PddlSyntaxError(ValueError):
    def __init__(self, message: str, line: int, partial: Node | None = None):
        super().__init__(f"line {line}: {message}")
        self.line, self.partial = line, partial  # partial: the outermost list as far as it was read


class Node(list):
    """A parenthesised list; `line` is where its '(' stands."""

    line: int = 0


def parse(text: str) -> Node:
    """The first top-level list of `text`; PddlSyntaxError with the line of an unclosed '(' or a stray ')'."""
    stack: list[Node] = []
    top: Node | None = None
    line = 1
    for token in _TOKEN.findall(text):
        if token == "\n":
            line += 1
        elif token.startswith(";"):
            continue
        elif token == "(":
            node = Node()
            node.line = line
            (stack[-1].append(node) if stack else None)
            stack.append(node)
        elif token == ")":
            if not stack:
                raise PddlSyntaxError("')' closes nothing (one ')' too many before it)", line)
            node = stack.pop()
            if not stack:
                if top is not None:
                    raise PddlSyntaxError(f"{show(node)[:60]} comes after (define …) was closed: a ')' too many "
                                          "before it, or it belongs inside", node.line)
                top = node
        elif not stack:
            raise PddlSyntaxError(f"{token!r} outside any parentheses", line)
        else:
            stack[-1].append(token.lower())
    if stack:
        message, where = _unclosed(stack[0]) or (
            "this '(' is never closed (a ')' is missing somewhere after it)", stack[-1].line)
        raise PddlSyntaxError(message, where, stack[0])
    if top is None:
        raise PddlSyntaxError("no (define …) found", line)
    return top


def _unclosed(root: Node) -> tuple[str, int] | None:
    """Where a missing ')' most likely is: a section opened inside another section, or a fact inside a fact."""
    for part in root:
        if not (isinstance(part, Node) and part and str(part[0]).startswith(":")):
            continue
        for child in part[1:]:
            if isinstance(child, Node) and child and str(child[0]).startswith(":") and part[0] != ":action":
                return ((f"({child[0]} …) starts inside ({part[0]} …) of line {part.line}: ({part[0]} …) is "
                        "missing its ')'"), child.line)
            if part[0] == ":init" and isinstance(child, Node) and any(isinstance(a, Node) for a in child):
                return ((f"{show(child)[:80]} — a fact inside another fact: "
                        f"({' '.join(a for a in child if isinstance(a, str))} is missing its ')'"), child.line)
    return None


def section(root: Node, key: str) -> Node | None:
    """The `(:key …)` list inside a (define …)."""
    return next((n for n in root if isinstance(n, Node) and n and n[0] == key), None)


def typed(items: list, default: str = "object") -> list[tuple[str, str]]:
    """`a b - t c` → [(a, t), (b, t), (c, object)]; `- (either t u)` gives the type "(either t u)"."""
    out, pending, i = [], [], 0
    while i < len(items):
        item = items[i]
        if item == "-" and i + 1 < len(items):
            kind = show(items[i + 1])
            out += [(p, kind) for p in pending]
            pending, i = [], i + 2
            continue
        if isinstance(item, str):
            pending.append(item)
        i += 1
    return out + [(p, default) for p in pending]


def show(node) -> str:
    return f"({' '.join(show(n) for n in node)})" if isinstance(node, (list, tuple)) else str(node)


@dataclass
class Domain:
    name: str
    types: dict[str, str] = field(default_factory=dict)  # type → parent type
    constants: dict[str, str] = field(default_factory=dict)
    predicates: dict[str, list[tuple[str, str]]] = field(default_factory=dict)  # name → [(var, type)]
    actions: dict[str, Node] = field(default_factory=dict)  # name → the (:action …) list

    def signatures(self) -> list[str]:
        return [f"({name}{''.join(f' {v} - {t}' for v, t in params)})" for name, params in self.predicates.items()]

    def subtypes(self, kind: str) -> set[str]:
        """`kind` and every type below it; for "(either t u)", those of t and of u."""
        out, grew = set(members(kind)), True
        while grew:
            more = {t for t, parent in self.types.items() if parent in out} - out
            grew, out = bool(more), out | more
        return out


def members(kind: str) -> list[str]:
    """The types a type names: ["t", "u"] for "(either t u)", [kind] for any other."""
    return kind.strip("()").split()[1:] if kind.startswith("(either ") else [kind]


def in_words(kind: str) -> str:
    """"a t" or "a t or u" (for messages)."""
    return "a " + " or ".join(members(kind))


@dataclass
class Problem:
    name: str
    domain: str
    objects: dict[str, str] = field(default_factory=dict)  # object → type
    init: list[tuple[tuple[str, ...], int]] = field(default_factory=list)  # (fact, line); fact = (pred, args…)
    goal: Node | None = None


def read_domain(text: str) -> Domain:
    root = parse(text)
    header = next((n for n in root if isinstance(n, Node) and n and n[0] == "domain"), None)
    domain = Domain(header[1] if header and len(header) > 1 else "")
    if (types := section(root, ":types")) is not None:
        domain.types = dict(typed(types[1:]))
    if (constants := section(root, ":constants")) is not None:
        domain.constants = dict(typed(constants[1:]))
    if (predicates := section(root, ":predicates")) is not None:
        for p in predicates[1:]:
            if isinstance(p, Node) and p:
                domain.predicates[p[0]] = typed(p[1:])
    for n in root:
        if isinstance(n, Node) and n and n[0] == ":action" and len(n) > 1:
            domain.actions[n[1]] = n
    return domain


def read_problem(text: str) -> Problem:
    root = parse(text)
    if not root or root[0] != "define":
        raise PddlSyntaxError("a problem file starts with (define (problem NAME) …)", root.line)
    header = next((n for n in root if isinstance(n, Node) and n and n[0] == "problem"), None)
    domain = section(root, ":domain")
    problem = Problem(header[1] if header and len(header) > 1 else "",
                      domain[1] if domain is not None and len(domain) > 1 else "")
    if (objects := section(root, ":objects")) is not None:
        problem.objects = dict(typed(objects[1:]))
    if (init := section(root, ":init")) is not None:
        for fact in init[1:]:
            if isinstance(fact, Node) and fact and all(isinstance(a, str) for a in fact):
                problem.init.append((tuple(fact), fact.line))
    if (goal := section(root, ":goal")) is not None and len(goal) > 1:
        problem.goal = goal[1]
    return problem


def goal_facts(goal, positive: bool = True) -> set[tuple[str, ...]]:
    """The facts a conjunctive goal asks to be true (positive) or false (not positive)."""
    if not isinstance(goal, list) or not goal:
        return set()
    if goal[0] == "and":
        return set().union(*(goal_facts(g, positive) for g in goal[1:])) if len(goal) > 1 else set()
    if goal[0] == "not":
        return goal_facts(goal[1], not positive) if len(goal) > 1 else set()
    if goal[0] in ("or", "imply", "exists", "forall", "when"):
        return set()
    return {tuple(goal)} if positive and all(isinstance(a, str) for a in goal) else set()
