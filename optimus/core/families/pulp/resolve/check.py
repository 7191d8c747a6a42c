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


def check_values(model: Model, values: dict, vector: tuple[np.ndarray, list[str]] | None = None) -> dict:
    """Bounds, integrality and rows of the captured model at the given values (name → finite number), with numpy
    arithmetic over the whole matrix at once: a million rows cost a fraction of a second, not a Python loop.
    `vector`: value_vector(model.cols, values) when the caller already has it."""
    x, unknown = vector if vector is not None else value_vector(model.cols, values)
    given = ~np.isnan(x)
    lp = model.lp
    lower, upper = np.asarray(lp.col_lower_, float), np.asarray(lp.col_upper_, float)
    with np.errstate(invalid="ignore"):  # NaN (no value) compares False: such a column breaks nothing
        slack = FEAS_ABS + FEAS_REL * np.abs(x)
        outside = (x < lower - slack) | (x > upper + slack)
        fractional = ~outside & model.integer & (np.abs(x - np.round(x)) > FEAS_ABS)
    problems = [{"kind": "bound", "name": model.cols[j], "value": x[j], "lower": lower[j], "upper": upper[j]}
                if outside[j] else {"kind": "integrality", "name": model.cols[j], "value": x[j]}
                for j in np.flatnonzero(outside | fractional)[:MAX_LISTED]]
    column_violations = int(outside.sum() + fractional.sum())
    activity, broken = row_activity(model, x)
    checked = ~np.isnan(activity)
    rlo, rhi = np.asarray(lp.row_lower_, float), np.asarray(lp.row_upper_, float)
    problems += [{"kind": "row", "name": model.rows[i], "sense": row_sense(rlo[i], rhi[i]),
                  "activity": float(activity[i]), "lower": float(rlo[i]), "upper": float(rhi[i])}
                 for i in np.flatnonzero(broken)[:max(0, MAX_LISTED - len(problems))]]
    cost = np.asarray(lp.col_cost_, float)
    in_objective = np.flatnonzero(cost)
    objective = float(cost[in_objective] @ x[in_objective]) if given[in_objective].all() else None
    missing = np.flatnonzero(~given)
    return {"columns": len(model.cols), "columns_given": int(given.sum()),
            "missing": [model.cols[j] for j in missing[:MAX_LISTED]], "missing_count": int(missing.size),
            "unknown": unknown[:MAX_LISTED], "unknown_count": len(unknown),
            "rows": len(model.rows), "rows_checked": int(checked.sum()),
            "violations": column_violations + int(broken.sum()), "problems": [_plain(p) for p in problems],
            "objective_at_values": objective}


def value_vector(cols: list[str], values: dict) -> tuple[np.ndarray, list[str]]:
    """The values as a vector in column order (NaN: no value), and the names the model does not have. Programs
    usually list every variable in the model's own order: then no name is looked up one by one."""
    if len(values) == len(cols) and list(values) == cols:
        return np.fromiter(values.values(), dtype=float, count=len(cols)), []
    index = {name: j for j, name in enumerate(cols)}
    x = np.full(len(cols), np.nan)
    unknown = []
    for name, v in values.items():
        j = index.get(name)
        if j is None:
            unknown.append(name)
        else:
            x[j] = float(v)
    return x, unknown


def row_activity(model: Model, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each row's left side at x (NaN where a column in it has no value) and which rows it breaks. The tolerance
    is absolute plus relative to the largest of the row's terms and its finite sides."""
    nrow = len(model.rows)
    terms = model.entry_val * x[model.entry_col]
    activity = np.bincount(model.entry_row, weights=terms, minlength=nrow)
    size = np.bincount(model.entry_row, weights=np.abs(terms), minlength=nrow)
    rlo, rhi = np.asarray(model.lp.row_lower_, float), np.asarray(model.lp.row_upper_, float)
    scale = np.maximum(size, np.maximum(np.where(np.isfinite(rlo), np.abs(rlo), 0.0),
                                        np.where(np.isfinite(rhi), np.abs(rhi), 0.0)))
    tol = FEAS_ABS + FEAS_REL * scale
    with np.errstate(invalid="ignore"):
        broken = (activity < rlo - tol) | (activity > rhi + tol)
    return activity, broken


def _plain(problem: dict) -> dict:
    """JSON has no infinity: an absent bound is null."""
    return {k: (None if isinstance(v, float) and not math.isfinite(v) else v) for k, v in problem.items()}
