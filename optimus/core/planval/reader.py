"""unified-planning's PDDL reader, made to read what Fast Downward's translator reads.

Two things PDDL allows and UP 1.3's reader refuses by default:
- a name shared by a predicate and an action (or an object and a type): UP's environment flag
  `error_used_name` turns that from an error into a warning, silenced here (PDDL keeps these name spaces apart);
- `(either t1 t2 …)` as the type of a predicate's parameter: UP's grammar has no `either`. Fast Downward accepts
  it only there and ignores predicate argument types, so it is read as the nearest type above its members
  (the text keeps its lines, so an error still names the right one). `either` elsewhere is refused by Fast
  Downward too, and stays an error.
Imports nothing from optimus: it runs in the sandbox as part of planval.
"""

from __future__ import annotations

import re
import warnings
from pathlib import Path

_COMMENT = re.compile(r";[^\n]*")
_PREDICATES = re.compile(r"\(\s*:predicates\b", re.IGNORECASE)
_TYPES = re.compile(r"\(\s*:types\b", re.IGNORECASE)
_EITHER = re.compile(r"\(\s*either\b[^()]*\)", re.IGNORECASE)


def read_pddl(domain: str | Path, problem: str | Path | None = None):
    """The unified-planning Problem of a domain file (and problem file), read as Fast Downward reads them.
    Raises what UP's reader raises."""
    from unified_planning.io import PDDLReader
    from unified_planning.shortcuts import get_environment

    get_environment().error_used_name = False
    domain_text = widen_either(Path(domain).read_text(encoding="utf-8-sig"))
    problem_text = Path(problem).read_text(encoding="utf-8-sig") if problem is not None else None
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=r".*already defined", category=UserWarning)
        warnings.filterwarnings("ignore", message=r".*already used", category=UserWarning)
        return PDDLReader().parse_problem_string(domain_text, problem_text)


def widen_either(text: str) -> str:
    """`(either a b)` inside (:predicates …) → the nearest type above a and b, newlines kept; the rest of the
    text unchanged, but for types named only as a parent, declared under `object` when that is the one above
    (UP's reader leaves such types outside `object`)."""
    blank = _COMMENT.sub(lambda m: " " * len(m.group(0)), text)  # same offsets, comments out of the way
    match = _PREDICATES.search(blank)
    if not match or not _EITHER.search(blank, match.start(), end := _closing(blank, match.start())):
        return text
    parents = _parents(blank)
    above = {m.group(0): _common(m.group(0).strip("()").split()[1:], parents)
             for m in _EITHER.finditer(blank, match.start(), end)}
    inside = _EITHER.sub(lambda m: above[m.group(0)] + "\n" * m.group(0).count("\n"), blank[match.start():end])
    widened = text[:match.start()] + inside + text[end:]
    implicit = sorted(set(parents.values()) - set(parents) - {"object"})
    types = _TYPES.search(widened[:match.start()])
    if "object" in above.values() and implicit and types:
        close = _closing(widened, types.start()) - 1
        widened = widened[:close] + f" {' '.join(implicit)} - object" + widened[close:]
    return widened


def _parents(text: str) -> dict[str, str]:
    """type → parent type, from the :types section (lower-cased; `object` for a type given none)."""
    match = _TYPES.search(text)
    if not match:
        return {}
    words = text[match.end():_closing(text, match.start()) - 1].lower().split()
    out, pending, i = {}, [], 0
    while i < len(words):
        if words[i] == "-" and i + 1 < len(words):
            out.update((t, words[i + 1]) for t in pending)
            pending, i = [], i + 2
        else:
            pending.append(words[i])
            i += 1
    return out | {t: "object" for t in pending}


def _common(members: list[str], parents: dict[str, str]) -> str:
    """The nearest type at or above every member (`object` when only that is)."""
    def chain(kind: str) -> list[str]:
        out = [kind]
        while out[-1] in parents and parents[out[-1]] not in out:
            out.append(parents[out[-1]])
        return out

    chains = [chain(m.lower()) for m in members]
    return next((t for t in chains[0] if all(t in c for c in chains[1:])), "object")


def _closing(text: str, start: int) -> int:
    """The offset just after the ')' that closes the '(' at `start` (the text's end when none does)."""
    depth = 0
    for i in range(start, len(text)):
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        if depth == 0:
            return i + 1
    return len(text)
