"""Scores of the model's roles against the harness's labels, and the table per family (optimus.bench.roles).

Pure functions over plain records, so the scoring is tested with planted answers:
- verifier: one record per (candidate, answer): accuracy, precision and recall of "feasible" (and of "optimal")
  against the label; the positive class is "feasible" ("optimal"): precision is how often a candidate the model
  accepted was right to accept, recall how many of the right ones it accepted;
- heuristic: one record per ordered set: the true qualities in the order the model gave; Hit@k (a truly best
  candidate among the model's first k) and pairwise accuracy (pairs of different quality put in the right order);
- self-assessment: one record per full-mode row: whether the last assessment of the final program scored every
  step 1, and whether the bench's verdict on that program is success.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Sequence


def quality(feasible: bool, objective: float | None, sense: str | None) -> tuple[int, float]:
    """Smaller is better: every feasible candidate before every infeasible one (which tie), then by objective."""
    if not feasible:
        return (1, 0.0)
    value = objective if objective is not None else 0.0
    return (0, -value if sense == "max" else value)


def ratio(k: int, n: int) -> float | None:
    return k / n if n else None


def binary(pairs: Sequence[tuple[bool, bool | None]]) -> dict:
    """pairs of (label, answer); an answer of None (unreadable) counts as wrong and as not accepted."""
    n = len(pairs)
    right = sum(answer is not None and answer == label for label, answer in pairs)
    accepted = [label for label, answer in pairs if answer]
    positives = [answer for label, answer in pairs if label]
    return {"n": n, "accuracy": ratio(right, n), "precision": ratio(sum(accepted), len(accepted)),
            "recall": ratio(sum(bool(a) for a in positives), len(positives)),
            "base_rate": ratio(sum(label for label, _ in pairs), n), "unreadable": sum(a is None for _, a in pairs)}


def verifier(records: Sequence[dict]) -> dict:
    """records: {"feasible", "optimal"} labels and {"said_feasible", "said_optimal"} answers."""
    return {"feasible": binary([(r["feasible"], r["said_feasible"]) for r in records]),
            "optimal": binary([(r["optimal"], r["said_optimal"]) for r in records])}


def hits(ordered: Sequence[tuple], k: int) -> bool:
    """Is a truly best candidate (the smallest quality) among the first k of the model's order?"""
    return min(ordered) in ordered[:k]


def pairwise(ordered: Sequence[tuple]) -> tuple[int, int]:
    """(pairs in the right order, pairs of different quality) for qualities listed in the model's order."""
    pairs = [(a, b) for a, b in itertools.combinations(ordered, 2) if a != b]
    return sum(a < b for a, b in pairs), len(pairs)


def heuristic(records: Sequence[dict], size: int) -> dict:
    """records: {"size", "ordered": the true qualities in the model's order (None: unreadable answer)}. A set
    whose candidates all tie has nothing to order and is left out."""
    sets = [r for r in records if r["size"] == size and len(set(map(tuple, r["truth"]))) > 1]
    read = [[tuple(q) for q in r["ordered"]] for r in sets if r["ordered"] is not None]
    right, total = 0, 0
    for ordered in read:
        k, n = pairwise(ordered)
        right, total = right + k, total + n
    out = {"sets": len(sets), "unreadable": len(sets) - len(read), "pairwise": ratio(right, total)}
    for k in range(1, min(size, 4)):
        out[f"hit@{k}"] = ratio(sum(hits(o, k) for o in read), len(sets))
    return out


def assessment(records: Sequence[dict]) -> dict:
    """records: {"approved": every step scored 1, "success": the bench's verdict}, or "approved": None when the
    row has no assessment of its final program (never assessed, or the last round judged an earlier one)."""
    judged = [r for r in records if r["approved"] is not None]
    wrong = [r for r in judged if not r["success"]]
    right = [r for r in judged if r["success"]]
    return {"rows": len(records), "judged": len(judged),
            "approved_wrong": sum(r["approved"] for r in wrong), "wrong": len(wrong),
            "doubted_right": sum(not r["approved"] for r in right), "right": len(right),
            "accuracy": ratio(sum(r["approved"] == r["success"] for r in judged), len(judged))}


def solver(records: Sequence[dict]) -> dict:
    """records: {"feasible", "optimal", "objective"} of the model's own answers and "goal", the expected objective.
    Optimality is graded where it can be: an infeasible answer is not optimal, a feasible one needs its objective
    (from a plan's length, or the output key that holds it) unless the problem has none to optimise."""
    n = len(records)
    graded = [r for r in records if not r["feasible"] or r.get("objective") is not None or r.get("goal") is None]
    return {"n": n, "feasible": ratio(sum(r["feasible"] for r in records), n),
            "optimal": ratio(sum(r["optimal"] for r in graded), len(graded)), "graded": len(graded),
            "disputed": sum(r.get("disputed", False) for r in records)}


# ---------------------------------------------------------------- the table per family

def _pct(x: float | None) -> str:
    return f"{100 * x:.0f}%" if x is not None else "–"


def _usage(rows: Sequence[dict], role: str) -> str:
    calls = sum(r.get(f"{role}_usage", {}).get("calls", 0) for r in rows)
    tokens = sum(r.get(f"{role}_usage", {}).get("tokens", 0) for r in rows)
    return f"{calls} | {tokens}"


def family_table(rows: Sequence[dict], assessed: Sequence[dict]) -> list[str]:
    """The four roles of one family's rows: what each measures, its numbers, calls and tokens."""
    s = solver([{**r["solver"], "goal": r["expected"].get("objective")} for r in rows])
    v = verifier([x for r in rows for x in r["verifier"]])
    sets = [x for r in rows for x in r["heuristic"]]
    two, four = (heuristic(sets, n) for n in SET_SIZES)
    a = assessment(assessed)
    f, o = v["feasible"], v["optimal"]
    unread = two["unreadable"] + four["unreadable"]
    cells = {
        "solver": (f"{s['n']} problems", (f"feasible {_pct(s['feasible'])} · optimal {_pct(s['optimal'])} (of "
                                          f"{s['graded']} gradable){_note('disputed', s['disputed'])}")),
        "verifier": (f"{f['n']} candidates ({_pct(f['base_rate'])} feasible, {_pct(o['base_rate'])} optimal)",
                     f"feasible: {_rates(f)}; optimal: {_rates(o)}{_note('unreadable', f['unreadable'])}"),
        "heuristic": (f"{two['sets']} pairs, {four['sets']} sets of 4",
                      (f"pairs: Hit@1 {_pct(two['hit@1'])} · pairwise {_pct(two['pairwise'])}; sets of 4: Hit@1 "
                       f"{_pct(four['hit@1'])} · Hit@2 {_pct(four['hit@2'])} · Hit@3 {_pct(four['hit@3'])} · "
                       f"pairwise {_pct(four['pairwise'])}{_note('unreadable', unread)}")),
    }
    lines = ["| role | items | measured against the formal label | calls | tokens |", "| --- | --- | --- | --- | --- |"]
    lines += [f"| {role} | {items} | {measure} | {_usage(rows, role)} |" for role, (items, measure) in cells.items()]
    lines.append(f"| self-assessment | {a['judged']} of {a['rows']} full-mode rows | agrees with the verdict "
                 f"{_pct(a['accuracy'])} · scored 1 on a wrong program {a['approved_wrong']}/{a['wrong']} · "
                 f"scored 0 on a right one {a['doubted_right']}/{a['right']} | in the full-mode rows | |")
    return lines


def _rates(b: dict) -> str:
    return f"accuracy {_pct(b['accuracy'])} · precision {_pct(b['precision'])} · recall {_pct(b['recall'])}"


def _note(what: str, k: int) -> str:
    return f"; {what} {k}" if k else ""


SET_SIZES = (2, 4)


def section(rows: Sequence[dict], assessed: dict[str, list[dict]], note: str | None) -> list[str]:
    """`assessed`: self-assessment records per family. `note`: what answered, when not a model."""
    measured = [r for r in rows if "skipped" not in r]
    lines = ["## The model's roles, against the formal labels", ""]
    if note:
        lines += [f"**Offline: {note}.**", ""]
    for fam in sorted({r["family"] for r in measured} | set(assessed)):
        these = [r for r in measured if r["family"] == fam]
        lines += [f"### {fam}", ""] + family_table(these, assessed.get(fam, [])) + [""]
    disputed = [(r["problem"], c["origin"], c["checks"]) for r in measured for c in r["candidates"] if c["disputed"]]
    if disputed:
        lines += ["Candidates whose checks disagree (left out of every score):", ""]
        lines += [f"- {p}, {o}: {json.dumps(c)}" for p, o, c in disputed] + [""]
    why: dict[str, list[str]] = {}
    for r in rows:
        if "skipped" in r:
            why.setdefault(r["skipped"], []).append(r["problem"])
    if why:
        lines += ["Not measured:", ""] + [f"- {', '.join(names)}: {reason}" for reason, names in why.items()] + [""]
    return lines
