"""Why is the captured model infeasible? An irreducible set of rows, and the smallest change that repairs it.

LP: HiGHS's IIS (elastic LP, then reduced to a true IIS). MILP: if the LP relaxation is already infeasible its IIS
answers; else a time-bounded deletion filter over statement groups (rows sharing an `s<k>_` prefix) with the MILP
solver. The repair is an elastic program over the IIS rows: one nonnegative slack per row side, weighted by the
row's scale (largest of |rhs|, |coefficients|, 1), total weighted slack minimised.
"""

from __future__ import annotations

import math
import re
import time

import highspy
import numpy as np

from .model import Model, run_highs

# HiGHS iis_strategy bits: 2 = find an infeasible subsystem with an elastic LP, 8 = reduce it to a true IIS.
IIS_STRATEGY = 2 | 8
SLACK_TOL = 1e-7
MAX_ALTERNATIVES = 6
_GROUP = re.compile(r"^(s\d+)_")


def group_of(row: str) -> str:
    match = _GROUP.match(row)
    return match.group(1) if match else "unnamed"


def explain_infeasible(model: Model, deadline: float) -> dict:
    if not model.is_mip:
        found = lp_iis(model, left(deadline))
        found["method"] = "lp_iis"
    else:
        relaxed = model.highs(left(deadline), relax=True)
        if run_highs(relaxed) == "infeasible":
            found = lp_iis(model, left(deadline), relax=True)
            found["method"] = "lp_relaxation_iis"
        else:
            found = deletion_filter(model, deadline)
    if found.get("rows"):
        found["relaxation"] = relaxation(model, found["rows"], deadline)
    return found


def left(deadline: float) -> float:
    return max(0.05, deadline - time.monotonic())


def lp_iis(model: Model, time_limit: float, relax: bool = False) -> dict:
    h = model.highs(time_limit, relax=relax)
    h.setOptionValue("iis_strategy", IIS_STRATEGY)
    h.setOptionValue("iis_time_limit", float(time_limit))
    status, iis = h.getIis()
    if status == highspy.HighsStatus.kError or not iis.valid_:
        return {"rows": [], "columns": [], "irreducible": False, "note": "HiGHS found no IIS"}
    return {"rows": [model.rows[i] for i in iis.row_index_], "columns": [model.cols[j] for j in iis.col_index_],
            "irreducible": True}


def deletion_filter(model: Model, deadline: float) -> dict:
    """Drop one statement group at a time; keep it dropped while the rest stays infeasible."""
    rows_of: dict[str, list[int]] = {}
    for i, name in enumerate(model.rows):
        rows_of.setdefault(group_of(name), []).append(i)
    h = model.highs(left(deadline))
    lo, hi = np.asarray(model.lp.row_lower_, float), np.asarray(model.lp.row_upper_, float)
    needed, proven = [], True
    for group, rows in rows_of.items():
        for i in rows:
            h.changeRowBounds(i, -math.inf, math.inf)
        h.setOptionValue("time_limit", left(deadline))
        status = run_highs(h) if time.monotonic() < deadline else "time_limit"
        if status == "infeasible":
            continue  # still infeasible without this group: it is not needed
        proven = proven and status in ("optimal", "unbounded")
        needed.append(group)
        for i in rows:
            h.changeRowBounds(i, lo[i], hi[i])
    rows = [model.rows[i] for g in needed for i in rows_of[g]]
    return {"method": "deletion_filter", "groups": needed, "rows": rows, "columns": [], "irreducible": proven}


def relaxation(model: Model, rows: list[str], deadline: float) -> dict:
    """The least (scale-weighted) rhs change over the IIS rows that makes the model feasible, and per-row options."""
    index = {name: i for i, name in enumerate(model.rows)}
    chosen = [index[r] for r in rows if r in index]
    best = elastic(model, chosen, deadline)
    if best is None:  # the conflict needs a variable bound too: let every row give
        best = elastic(model, list(range(len(model.rows))), deadline)
    result = {"changes": best or [], "found": best is not None}
    alternatives = []
    for i in chosen[:MAX_ALTERNATIVES] if len(chosen) > 1 else []:
        alone = elastic(model, [i], deadline)
        if alone:
            alternatives.append(alone[0])
    result["alternatives"] = alternatives
    return result


def elastic(model: Model, rows: list[int], deadline: float) -> list[dict] | None:
    if time.monotonic() >= deadline:
        return None
    h = model.highs(left(deadline))
    n = len(model.cols)
    h.changeColsCost(n, np.arange(n, dtype=np.int32), np.zeros(n))
    h.changeObjectiveSense(highspy.ObjSense.kMinimize)
    lo, hi = np.asarray(model.lp.row_lower_, float), np.asarray(model.lp.row_upper_, float)
    coef = np.zeros(len(model.rows))
    np.maximum.at(coef, model.entry_row, np.abs(model.entry_val))
    slacks = []  # (row, side): side +1 raises the upper limit, -1 lowers the lower limit
    for i in rows:
        for side, limit in ((1, hi[i]), (-1, lo[i])):
            if math.isfinite(limit):
                # A unit of slack costs less on a row of large numbers: compare changes relative to the row's scale.
                weight = 1.0 / max(1.0, abs(limit), coef[i])
                h.addCol(weight, 0.0, math.inf, 1, np.array([i], dtype=np.int32), np.array([-float(side)]))
                slacks.append((i, side, limit))
    if run_highs(h) != "optimal":
        return None
    values = np.asarray(h.getSolution().col_value, float)[n:]
    changes = []
    for (i, side, limit), amount in zip(slacks, values):
        if amount > SLACK_TOL * max(1.0, abs(limit)):
            changes.append({"row": model.rows[i], "side": "upper" if side > 0 else "lower",
                            "from": float(limit), "to": float(limit + side * amount)})
    return changes
