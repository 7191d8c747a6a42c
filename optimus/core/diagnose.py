"""Explain an infeasible or unbounded captured model in the user's own statements.

Rows of a captured model are named after the statement they encode (`s3_capacity_k2` encodes statement 3, i.e.
problem_info[2]), so an irreducible infeasible set of rows is a set of statements that cannot all hold, and the
variables along an unbounded ray point at the bound a statement probably meant to give.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from optimus.core.errors import SpecError
from optimus.core.runstore import attempts
from optimus.core.terminal import quote

if TYPE_CHECKING:
    from optimus.core.changes import Candidate, Prober

STATEMENT_ROW = re.compile(r"^s(\d+)_")
_FAMILY = re.compile(r"^(.*?)(?:_[A-Za-z]*\d+)*$")
_STEM = re.compile(r"^(.*?)(?:_\d+)+$")
# Words by which a statement limits something; a statement that has them, mentions a variable on an unbounded
# ray, and produced no constraint at all is the likeliest source of the missing bound.
_LIMIT_WORDS = re.compile(r"at most|not exceed|no more than|limit|cap\b|capped|maximum|up to|cannot exceed", re.IGNORECASE)
MAX_NAMES = 8


def statement_of(row: str) -> int | None:
    match = STATEMENT_ROW.match(row)
    return int(match.group(1)) if match else None


def family(row: str) -> str:
    """`s3_capacity_k2` → `s3_capacity`: the constraint family, its index parts dropped."""
    return _FAMILY.match(row).group(1) or row


def capture_map(rows: list[str], statements: list[str]) -> dict[str, Any]:
    """Statement id → how many rows encode it and their families; rows named after no (or no known) statement."""
    per: dict[int, dict] = {}
    unnamed, unknown = [], set()
    for row in rows:
        k = statement_of(row)
        if k is None:
            unnamed.append(row)
            continue
        if not 1 <= k <= len(statements):
            unknown.add(f"s{k}")
        entry = per.setdefault(k, {"rows": 0, "families": set()})
        entry["rows"] += 1
        entry["families"].add(family(row))
    return {"statements": {f"s{k}": {"rows": v["rows"], "families": sorted(v["families"])}
                           for k, v in sorted(per.items())},
            "without_rows": [f"s{k}" for k in range(1, len(statements) + 1) if k not in per],
            "unnamed_rows": len(unnamed), "unnamed_examples": unnamed[:MAX_NAMES], "unknown_statements": sorted(unknown)}


def explain(raw: dict, statements: list[str], data: dict | None = None) -> dict[str, Any] | None:
    """The diagnosis of a re-solve result (optimus.core.families.pulp.resolve), or None when the model is neither. With `data`, a
    limit to move is named by its data.json key, as `optimus repair` names it."""
    if raw.get("infeasibility"):
        return explain_infeasible(raw["infeasibility"], statements, data)
    if raw.get("unboundedness"):
        return explain_unbounded(raw["unboundedness"], raw["model"], statements)
    return None


def explain_infeasible(found: dict, statements: list[str], data: dict | None = None) -> dict[str, Any]:
    rows = found.get("rows", [])
    ids = sorted({k for k in map(statement_of, rows) if k is not None})
    unnamed = [r for r in rows if statement_of(r) is None]
    parts: dict[str, str] = {}  # sentence by what it says: a verdict that said some already skips those
    if ids:
        parts["statements"] = ("These statements cannot all hold: " + ", ".join(quote(k, statements) for k in ids)
                               + ".")
    if unnamed:
        parts["unnamed"] = f"Rows named after no statement take part too: {_names(unnamed)}."
    if not rows:
        parts["rows"] = "No conflicting subset was found within the time limit."
    else:
        parts["rows"] = (f"Conflicting constraints in the captured model: {_names(rows)}"
                         + (f" (with the bounds of {_names(found['columns'])})" if found.get("columns") else "")
                         + ("" if found.get("irreducible", True) else "; not proven irreducible") + ".")
    relax = found.get("relaxation") or {}
    changes = [change_text(c, statements, data) for c in relax.get("changes", [])]
    if changes:
        parts["relaxation"] = "Smallest relaxation: " + "; ".join(changes) + "."
    alternatives = (change_text(c, statements, data) for c in relax.get("alternatives", []))
    others = [t for t in alternatives if t not in changes]
    if others:
        parts["alternatives"] = "Or, moving one limit alone: " + "; ".join(others) + "."
    parts["advice"] = ("If the problem should be feasible, one of these statements is probably encoded wrongly "
                       "(direction, scale, units, or index range); check each against its text.")
    return {"kind": "infeasible", "statements": [f"s{k}" for k in ids], "rows": rows, "method": found.get("method"),
            "irreducible": found.get("irreducible", True), "relaxation": relax, "parts": parts,
            "message": infeasible_message(parts)}


def infeasible_message(parts: dict[str, str], skip: tuple[str, ...] = ()) -> str:
    """The diagnosis of an infeasible model in words; `skip`: the parts a verdict above it already said."""
    return "The captured model is infeasible. " + " ".join(v for k, v in parts.items() if k not in skip)


def change_text(change: dict, statements: list[str] = (), data: dict | None = None) -> str:
    """A limit to move, in repair's words (`set sulfur_max: 1.1 → 1.15586`) when the row's limit is a value of
    its statement's parameters in data.json; else, plainly, as a bound of the captured model's row."""
    from optimus.core.changes import map_change  # changes reads the diagnosis: imported when a limit is named

    mapped = map_change(change, list(statements), data) if data else None
    if mapped:
        return f"set {mapped[0].text()} (the limit of row {change['row']})"
    verb = "raise" if change["to"] > change["from"] else "lower"
    return (f"{verb} the bound of model row {change['row']} from {change['from']:.6g} to {change['to']:.6g} "
            "(no data.json value is this bound as it stands)")


def name_limits(diagnosis: dict, statements: list[str], data: dict, prober: Prober) -> dict[str, Any]:
    """The diagnosis with each limit that is moved alone and is no data value (`s5_sulfur_average`, a sum
    bounded by 0) named as `optimus repair` names it: the data key of the row's statement whose smallest move
    makes the program feasible, found by re-running it (changes.Prober.search, repair's own search)."""
    from optimus.core.changes import map_change

    relax = diagnosis.get("relaxation") or {}
    changes = relax.get("changes") or []
    alone = (changes if len(changes) == 1 else []) + list(relax.get("alternatives") or [])
    mapped = [map_change(c, statements, data) for c in changes + list(relax.get("alternatives") or [])]
    covered = {m[0].key for m in mapped if m}  # keys another change already names, as repair skips them
    message, named, parts = diagnosis.get("message", ""), {}, dict(diagnosis.get("parts") or {})
    for change in alone:
        row = change.get("row", "")
        if row in named or map_change(change, statements, data):
            continue
        found = searched_limit(row, statements, data, prober, covered)
        if found is not None:
            named[row] = f"{found.what} (for row {row}, {found.source})"
            said = change_text(change, statements, data)
            parts = {k: v.replace(said, named[row]) for k, v in parts.items()}
            message = message.replace(said, named[row])  # a diagnosis read back from an older report has no parts
    if not named:
        return diagnosis
    return {**diagnosis, "parts": parts, "message": infeasible_message(parts) if parts else message,
            "named_limits": named}


def searched_limit(row: str, statements: list[str], data: dict, prober: Prober, covered: set[str]) -> Candidate | None:
    """The smallest move of one of the row's statement's scalar data values that makes the program feasible."""
    from optimus.core.changes import param_keys

    k = statement_of(row)
    if k is None or not 1 <= k <= len(statements):
        return None
    keys = [key for key in param_keys(statements[k - 1], data) if key not in covered]
    found = [c for c in (prober.search(key, data, statements) for key in keys) if c is not None]
    return min(found, key=lambda c: c.size, default=None)


def explain_unbounded(found: dict, model: dict, statements: list[str]) -> dict[str, Any]:
    direction: dict[str, float] = found.get("direction", {})
    rows = model.get("row_names", [])
    with_rows = {k for k in map(statement_of, rows) if k is not None}
    step = ", ".join(f"{n} {'+' if v > 0 else '−'}{abs(v):.3g}" for n, v in list(direction.items())[:MAX_NAMES])
    lines = [f"The objective improves without limit along: {step or 'an unbounded direction'}"
             + (f" (by {abs(found['objective_rate']):.6g} per step)" if found.get("method") == "primal_ray" else "")
             + "."]
    suspects: list[int] = []
    for name, kin in found.get("siblings", {}).items():
        by_statement: dict[int, list[str]] = {}
        for sibling, sibling_rows in kin.items():
            for row in sibling_rows:
                if statement_of(row) is not None:
                    by_statement.setdefault(statement_of(row), []).append(sibling)
        for k, names in sorted(by_statement.items()):
            suspects.append(k)
            lines.append(f"Statement s{k} bounds {_names(sorted(set(names)))} but not {name}: {quote(k, statements)}.")
    stems = {_stem(n) for n in direction}
    unrelated = []
    for k, text in enumerate(statements, 1):
        if k in with_rows or not _LIMIT_WORDS.search(text):
            continue
        named = sorted(s for s in stems if re.search(rf"\b{re.escape(s)}\b", text.replace("_{", " "), re.IGNORECASE))
        if named:
            suspects.append(k)
            lines.append(f"Statement s{k} limits {'/'.join(named)} but has no constraint in the model: "
                         f"{quote(k, statements)}.")
        else:
            unrelated.append(k)
    if unrelated:  # a limit stated in other words ("draw" for borrow): weaker, still worth naming
        suspects += unrelated
        lines.append("Statements that state a limit but have no constraint in the model: "
                     + ", ".join(quote(k, statements) for k in unrelated) + ".")
    if not suspects:
        lines.append("No statement bounds these variables; the spec probably implies an upper limit on them "
                     "that the model lacks.")
    lines.append(f"Add the missing bound on {_names(list(direction))} that the statements imply, or check the "
                 "objective sense and signs.")
    return {"kind": "unbounded", "statements": [f"s{k}" for k in dict.fromkeys(suspects)],
            "variables": list(direction), "method": found.get("method"),
            "message": "The captured model is unbounded. " + " ".join(lines)}


def _stem(name: str) -> str:
    match = _STEM.match(name)
    return match.group(1) if match else name


def _names(names: list[str]) -> str:
    shown = ", ".join(names[:MAX_NAMES])
    return shown + (f" and {len(names) - MAX_NAMES} more" if len(names) > MAX_NAMES else "")


def final_attempt(run_dir: Path, variant: Any) -> Path:
    """The attempt a run ended with: the last one that wrote solution.json (a model to re-solve), in the winning
    (else last) variant."""
    found = attempts(run_dir, variant if isinstance(variant, int) else None)
    done = [a for a in found if (a / "solution.json").is_file()]
    if done or found:
        return (done or found)[-1]
    raise SpecError(run_dir, "", "not a run folder: no v*/attempt-NN/ inside; pass a folder `optimus solve` wrote "
                    "(<problem>/runs/<stamp>/)")
