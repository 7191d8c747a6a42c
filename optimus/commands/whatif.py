"""Answering a question of optimus ask on the run's captured model.mps (why / why-not: a decision forced or
forbidden; sensitivity: shadow prices and ranging of an LP, or the limits moved and solved again), and comparing
the decisions before and after a change. The solving runs sandbox-side (optimus/core/families/pulp/resolve/ask.py).
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any

from optimus.commands.ask_inputs import Env, Solved, is_number
from optimus.commands.question import Request
from optimus.core.diagnose import explain_infeasible
from optimus.core.families.pulp.verify import sandboxed
from optimus.core.sandbox import read_result_file
from optimus.core.terminal import number

TOP = 10  # decisions listed per answer
CHANGED_TOL = 1e-7


def on_captured_model(req: Request, solved: Solved, env: Env, dest: Path) -> dict:
    """Why / why-not (bounds) and sensitivity, solved on the run's captured model.mps in the sandbox."""
    if not (solved.attempt / "model.mps").is_file():
        return {"how": "not answered", "status": "not answered", "variant": None, "change": [],
                "message": "this run captured no model (model.mps): ask it as a what-if on a statement instead"}
    dest.mkdir(parents=True)
    (dest / "model.mps").write_bytes(read_result_file(solved.attempt, "model.mps"))  # never through a link
    if req.kind == "sensitivity":
        rows = [r + "_*" if re.fullmatch(r"s\d+", r) else r for r in req.rows]
        request = {"sensitivity": {"rows": rows, "cols": req.variables, "delta": req.delta}}
    else:
        request = {"bounds": [{"name": b["variable"], "lower": b.get("lower"), "upper": b.get("upper")}
                              for b in req.bounds]}
    raw = sandboxed(dest, "solve", "resolve.ask", request, env.sandbox, env.limits, env.limits.wall_s)
    (dest / "answer-raw.json").write_text(json.dumps(raw, indent=1) + "\n")
    if "error" in raw:
        return {"how": "not answered", "status": "error", "variant": str(dest), "change": [], "message": raw["error"]}
    if req.kind == "sensitivity":
        return _sensitivity(raw, solved, dest)
    return _bounded(raw, solved, dest)


def _bounded(raw: dict, solved: Solved, dest: Path) -> dict:
    cbc = raw.get("cbc") or {}
    objective = raw["objective"] + solved.offset if is_number(raw.get("objective")) else None
    agree = _agrees(raw, cbc, solved.offset)
    diagnosis = explain_infeasible(raw["infeasibility"], solved.problem.snop.problem_info)["message"] \
        if raw.get("infeasibility") else None
    return {"how": "the captured model re-solved with the decisions forced or forbidden (HiGHS"
                   + (f"; CBC {agree})" if cbc else ")"),
            "variant": str(dest), "status": raw["status"], "objective": objective, "verified": _verified(agree),
            "change": [f"model.mps {a['name']}: bounds [{num_text(a['lower'], '-inf')}, {num_text(a['upper'], 'inf')}]"
                       for a in raw.get("applied", [])[:TOP]]
            + ([f"… {raw['applied_count'] - TOP} more"] if raw.get("applied_count", 0) > TOP else []),
            "decisions": changed(solved.values, raw.get("values") or {}), "decisions_of": "the model's variables",
            "diagnosis": diagnosis, "calls": 0}


def _agrees(raw: dict, cbc: dict, offset: float) -> str:
    if not cbc:
        return "not run"
    if cbc.get("status") == "error":  # verified stays False: no second opinion is no agreement
        return f"could not run ({cbc.get('error')})"
    if cbc.get("status") != raw.get("status"):
        return "disagrees"
    a, b = raw.get("objective"), cbc.get("objective")
    if is_number(a) and is_number(b) and not math.isclose(a, b, rel_tol=1e-4, abs_tol=1e-6):
        return "disagrees"
    return f"agrees: {cbc['status']}" + (f" {number(b + offset)}" if is_number(b) else "")


def _verified(agree: str) -> bool:
    return not agree.startswith(("disagrees", "could not run"))


def _sensitivity(raw: dict, solved: Solved, dest: Path) -> dict:
    moved = raw.get("moved") or {}
    delta = moved.get("delta", 1.0)
    objective = moved["objective"] + solved.offset if is_number(moved.get("objective")) else None
    out = {"variant": str(dest), "status": moved.get("status"), "objective": objective, "calls": 0,
           "verified": _verified(_agrees(moved, moved.get("cbc") or {}, solved.offset)),
           "change": [f"model.mps: the limits of {moved.get('row_count', 0)} row(s) moved by {delta:g}: "
                      + ", ".join(moved.get("rows", [])[:TOP])],
           "decisions": changed(solved.values, moved.get("values") or {}), "decisions_of": "the model's variables"}
    if raw.get("kind") == "milp":
        out["how"] = ("a MILP has no shadow prices: the limits were moved and the captured model solved again "
                      f"(HiGHS; CBC {_agrees(moved, moved.get('cbc') or {}, solved.offset)})")
        return out
    rows, cols = raw.get("rows", []), raw.get("cols", [])
    base = raw.get("objective")
    predicted = base + solved.offset + delta * sum(r["dual"] for r in rows) if is_number(base) else None
    inside = all(_in_range(r, delta) for r in rows)
    out.update(how="shadow prices and ranging from HiGHS on the captured LP; the limits moved and solved again "
                   "to check them", shadow_prices=rows, reduced_costs=cols, predicted=predicted,
               predicted_within_range=inside)
    return out


def _in_range(row: dict, delta: float) -> bool:
    """Is the moved limit inside the interval over which the row's shadow price holds?"""
    lo, hi = (row.get("range") or [None, None])
    limit = row["upper"] if row.get("upper") is not None else row.get("lower")
    if limit is None:
        return True
    return (lo is None or limit + delta >= lo - 1e-9) and (hi is None or limit + delta <= hi + 1e-9)


# ---- comparing before and after ------------------------------------------------------------------------------


def flatten(value: Any, name: str = "") -> dict[str, float]:
    """output.json's numbers by their path: `open[2]`, `ship[1][4]`, `plan.week[0]` (positions from 0)."""
    if isinstance(value, bool):
        return {name: float(value)}
    if is_number(value):
        return {name: float(value)}
    if isinstance(value, list):
        return {k: v for i, item in enumerate(value) for k, v in flatten(item, f"{name}[{i}]").items()}
    if isinstance(value, dict):
        return {k: v for key, item in value.items() for k, v in flatten(item, f"{name}.{key}" if name else
                                                                          str(key)).items()}
    return {}


def changed(before: dict[str, float], after: dict[str, float]) -> list[dict]:
    """The TOP decisions that moved most, largest move first (a name only on one side counts from 0)."""
    moves = []
    for name in before.keys() | after.keys():
        a, b = before.get(name), after.get(name)
        move = abs((b or 0.0) - (a or 0.0))
        if move > CHANGED_TOL * (1 + abs(a or 0.0)):
            moves.append((move, name, a, b))
    moves.sort(key=lambda m: (-m[0], m[1]))
    return [{"name": n, "before": a, "after": b, "of": len(moves)} for _, n, a, b in moves[:TOP]]


def num_text(x: Any, none: str) -> str:
    return number(x) if is_number(x) else none
