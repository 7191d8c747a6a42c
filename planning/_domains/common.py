"""What every domain module builds: an Instance, and small helpers to write PDDL and test files."""

from __future__ import annotations

from dataclasses import dataclass, field

Step = tuple[str, ...]  # (action, arg, ...)


@dataclass
class Instance:
    name: str  # folder suffix: "1".."5" or "unsolvable"
    statements: list[str]  # the instance in words (SNOP problem_info after the domain's paragraph)
    problem_pddl: str
    formulation: str
    tests: str
    plan: list[Step] | None  # None for the unsolvable variant
    data: dict = field(default_factory=dict)


def problem_pddl(name: str, domain: str, objects: dict[str, list[str]], init: list[str], goal: list[str],
                 comment: str = "") -> str:
    """A problem file: objects grouped by type, one fact per line."""
    lines = [f"; {c}" for c in comment.splitlines()] if comment else []
    lines += [f"(define (problem {name})", f"  (:domain {domain})", "  (:objects"]
    lines += [f"    {' '.join(names)} - {kind}" for kind, names in objects.items() if names]
    lines += ["  )", "  (:init"]
    lines += [f"    {fact}" for fact in init]
    lines += ["  )", "  (:goal (and"]
    lines += [f"    {fact}" for fact in goal]
    lines += ["  ))", ")"]
    return "\n".join(lines) + "\n"


def fact(*parts: str) -> str:
    return "(" + " ".join(parts) + ")"


def formulation(title: str, objects: dict[str, list[str]], init: list[tuple[str, list[str]]],
                goal: list[tuple[str, list[str]]], note: str = "") -> str:
    """reference/formulation.md: objects, initial facts tied to the statements, goal."""
    out = [f"# {title}", "", "## Objects", ""]
    out += [f"- {kind}: {', '.join(names)}" for kind, names in objects.items() if names]
    out += ["", "## Initial state", ""]
    for why, facts in init:
        out += [f"- {why}: {' '.join(facts)}"]
    out += ["", "## Goal", ""]
    for why, facts in goal:
        out += [f"- {why}: {' '.join(facts)}"]
    if note:
        out += ["", note]
    return "\n".join(out) + "\n"


def tuples(facts: list[str]) -> set[tuple[str, ...]]:
    """'(on a b)' → ('on', 'a', 'b'), for the expectations written into the tests."""
    return {tuple(f.strip("()").split()) for f in facts}


def test_file(doc: str, consts: dict[str, object], body: str) -> str:
    """A test module: the instance's expectations as constants, then the domain's checks."""
    lines = [f'"""{doc}"""', ""]
    for name, value in consts.items():
        lines.append(f"{name} = {_literal(value)}")
    return "\n".join(lines) + "\n\n" + body.strip() + "\n"


def _literal(value) -> str:
    if isinstance(value, set):
        return "{" + ", ".join(sorted(map(repr, value))) + "}" if value else "set()"
    return repr(value)
