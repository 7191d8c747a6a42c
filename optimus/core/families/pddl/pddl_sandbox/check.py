"""The problem file against the domain, before the planner sees it: each mistake named with its line.

It runs only when Fast Downward's translator refuses the pair (the translator is the judge of what reads): the
translator says "Undefined object" or "Undeclared predicate"; a model repairs faster when told, with the line,
whether x is an undeclared object or a predicate the domain does not have, and what it does have.
"""

from __future__ import annotations

from .sexpr import Domain, Node, Problem, in_words, show

MAX_LISTED = 12


def problem_errors(domain: Domain, problem: Problem, lines: list[str]) -> list[str]:
    """Every undeclared object, unknown predicate, wrong arity or unknown type, each with its line quoted."""
    errors: list[str] = []
    known_types = set(domain.types) | set(domain.types.values()) | {"object"}
    for name, kind in problem.objects.items():
        if kind not in known_types:
            errors.append(f"object {name} has type {kind}, which the domain does not declare "
                          f"(types: {_listed(sorted(known_types))})")
    objects = {**domain.constants, **problem.objects}
    facts = [(fact, line, "init") for fact, line in problem.init]
    facts += [(atom, atom.line, "goal") for atom in _atoms(problem.goal)]
    for fact, line, where in facts:
        quote = quote_line(lines, line)
        pred, args = fact[0], list(fact[1:])
        if pred == "=":
            continue
        if pred not in domain.predicates:
            errors.append(f"line {line}: {show(fact)} in :{where} — {pred} is not a predicate of the domain "
                          f"(its predicates: {_listed(domain.signatures())}){quote}")
            continue
        params = domain.predicates[pred]
        if len(args) != len(params):
            errors.append(f"line {line}: {show(fact)} in :{where} — {pred} takes {len(params)} argument(s), "
                          f"given {len(args)}: {domain.signatures()[list(domain.predicates).index(pred)]}{quote}")
            continue
        for arg, (_, kind) in zip(args, params):
            if arg.startswith("?"):
                continue
            if arg not in objects:
                errors.append(f"line {line}: {show(fact)} in :{where} — {arg} is not a declared object "
                              f"(declare it in :objects; declared: {_listed(sorted(objects))}){quote}")
            elif objects[arg] not in domain.subtypes(kind):
                errors.append(f"line {line}: {show(fact)} in :{where} — {arg} is a {objects[arg]}, but {pred} "
                              f"takes {in_words(kind)} there{quote}")
    return errors


def _atoms(formula) -> list[Node]:
    """The atoms of a goal formula (under and/or/not/imply; quantified bodies included)."""
    if not isinstance(formula, Node) or not formula:
        return []
    head = formula[0]
    if head in ("and", "or", "not", "imply"):
        return [a for sub in formula[1:] for a in _atoms(sub)]
    if head in ("exists", "forall"):
        return [a for sub in formula[2:] for a in _atoms(sub)]
    return [formula] if all(isinstance(a, str) for a in formula) else []


def quote_line(lines: list[str], line: int) -> str:
    """Line `line` of the file, quoted under an error message (nothing when there is no such line)."""
    return f"\n    {line}: {lines[line - 1].strip()}" if 0 < line <= len(lines) else ""


def _listed(items: list[str]) -> str:
    return ", ".join(items[:MAX_LISTED]) + (f", … ({len(items)} in all)" if len(items) > MAX_LISTED else "")
