"""Do the variable values solution.json gives ("values": {name: value}) satisfy the captured model? Exactly:
names are the model's own column names, so nothing is guessed; a row is checked only when every column in
it has a value, and each violation carries the row's real sense (=, <=, >=, range)."""

from __future__ import annotations

import math

import numpy as np

from .model import Model

# Feasibility tolerance: absolute, plus relative to the size of the row's terms (solvers work to ~1e-7).
FEAS_ABS = 1e-6
FEAS_REL = 1e-6
MAX_LISTED = 10


def row_sense(lower: float, upper: float) -> str:
    """The row's relation as written: "=", "<=", ">=", "range" (both sides finite) or "free"."""
    if math.isfinite(lower) and math.isfinite(upper):
        return "=" if lower == upper else "range"
    if math.isfinite(upper):
        return "<="
    return ">=" if math.isfinite(lower) else "free"


def check_values(model: Model, values: dict) -> dict:
    """Bounds, integrality and rows of the captured model at the given values (name → finite number)."""
    index = {name: j for j, name in enumerate(model.cols)}
    x = np.full(len(model.cols), np.nan)
    unknown = []
    for name, v in values.items():
        j = index.get(name)
        if j is None:
            unknown.append(name)
        else:
            x[j] = float(v)
    given = ~np.isnan(x)
    lp = model.lp
    problems = []
    lower, upper = np.asarray(lp.col_lower_, float), np.asarray(lp.col_upper_, float)
    for j in np.flatnonzero(given):
        v, tol = x[j], FEAS_ABS + FEAS_REL * abs(x[j])
        if v < lower[j] - tol or v > upper[j] + tol:
            problems.append({"kind": "bound", "name": model.cols[j], "value": v, "lower": lower[j], "upper": upper[j]})
        elif model.integer[j] and abs(v - round(v)) > FEAS_ABS:
            problems.append({"kind": "integrality", "name": model.cols[j], "value": v})
    terms = model.entry_val * x[model.entry_col]
    nrow = len(model.rows)
    activity = np.bincount(model.entry_row, weights=terms, minlength=nrow)  # NaN where a column has no value
    size = np.bincount(model.entry_row, weights=np.abs(terms), minlength=nrow)
    rlo, rhi = np.asarray(lp.row_lower_, float), np.asarray(lp.row_upper_, float)
    checked = ~np.isnan(activity)
    for i in np.flatnonzero(checked):
        tol = FEAS_ABS + FEAS_REL * max(size[i], abs(rlo[i]) if math.isfinite(rlo[i]) else 0,
                                        abs(rhi[i]) if math.isfinite(rhi[i]) else 0)
        if activity[i] < rlo[i] - tol or activity[i] > rhi[i] + tol:
            problems.append({"kind": "row", "name": model.rows[i], "sense": row_sense(rlo[i], rhi[i]),
                             "activity": float(activity[i]), "lower": float(rlo[i]), "upper": float(rhi[i])})
    cost = np.asarray(lp.col_cost_, float)
    in_objective = np.flatnonzero(cost)
    objective = float(cost[in_objective] @ x[in_objective]) if given[in_objective].all() else None
    missing = [model.cols[j] for j in np.flatnonzero(~given)]
    return {"columns": len(model.cols), "columns_given": int(given.sum()), "missing": missing[:MAX_LISTED],
            "missing_count": len(missing), "unknown": unknown[:MAX_LISTED], "unknown_count": len(unknown),
            "rows": nrow, "rows_checked": int(checked.sum()), "violations": len(problems),
            "problems": [_plain(p) for p in problems[:MAX_LISTED]], "objective_at_values": objective}


def _plain(problem: dict) -> dict:
    """JSON has no infinity: an absent bound is null."""
    return {k: (None if isinstance(v, float) and not math.isfinite(v) else v) for k, v in problem.items()}
