"""Does output.json satisfy the captured model? Map what can be mapped, say honestly what cannot."""

from __future__ import annotations

import math
import re

import numpy as np

from .model import Model

# Feasibility tolerance: absolute, plus relative to the size of the row's terms (solvers work to ~1e-7).
FEAS_ABS = 1e-6
FEAS_REL = 1e-6
MAX_LISTED = 10


def norm(name: str) -> str:
    """PuLP turns `x[(0, 1)]`-style names into `x_(0,_1)`; compare names with punctuation folded to '_'."""
    return re.sub(r"[^A-Za-z0-9]+", "_", name).strip("_")


def leaves(value, path=()):
    """(index path, number) for every number in a nested list/dict of the output."""
    if isinstance(value, bool):
        return
    if isinstance(value, (int, float)):
        yield path, float(value)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from leaves(item, path + (i,))
    elif isinstance(value, dict):
        for k, item in value.items():
            yield from leaves(item, path + (str(k),))


def map_output(model: Model, output: dict) -> tuple[dict[int, float], dict]:
    """Column index → value for every output number whose name matches a column; and a per-key account."""
    index = {}
    for j, name in enumerate(model.cols):
        index.setdefault(norm(name), j)
    values: dict[int, float] = {}
    account = {"mapped": {}, "partial": {}, "unmapped": []}
    for key, value in output.items():
        items = list(leaves(value))
        best: dict[int, float] = {}
        for base in (0, 1):  # lists may be numbered from 0 or from 1 in the variable names
            found = {}
            for path, number in items:
                parts = [str(p + base) if isinstance(p, int) else p for p in path]
                j = index.get(norm("_".join([key, *parts])))
                if j is not None:
                    found[j] = number
            if len(found) > len(best):
                best = found
        if not best:
            account["unmapped"].append(key)
            continue
        values.update(best)
        (account["mapped"] if len(best) == len(items) else account["partial"])[key] = [len(best), len(items)]
    return values, account


def check_output(model: Model, output: dict) -> dict:
    values, account = map_output(model, output)
    lp = model.lp
    x = np.full(len(model.cols), np.nan)
    for j, v in values.items():
        x[j] = v
    problems = []
    lower, upper = np.asarray(lp.col_lower_, float), np.asarray(lp.col_upper_, float)
    for j in sorted(values):
        v, tol = x[j], FEAS_ABS + FEAS_REL * abs(x[j])
        if v < lower[j] - tol or v > upper[j] + tol:
            problems.append({"kind": "bound", "name": model.cols[j], "value": v, "lower": lower[j], "upper": upper[j]})
        elif model.integer[j] and abs(v - round(v)) > FEAS_ABS:
            problems.append({"kind": "integrality", "name": model.cols[j], "value": v})
    terms = model.entry_val * x[model.entry_col]
    nrow = len(model.rows)
    activity = np.bincount(model.entry_row, weights=terms, minlength=nrow)  # NaN where a column is unmapped
    size = np.bincount(model.entry_row, weights=np.abs(terms), minlength=nrow)
    rlo, rhi = np.asarray(lp.row_lower_, float), np.asarray(lp.row_upper_, float)
    checked = ~np.isnan(activity)
    for i in np.flatnonzero(checked):
        tol = FEAS_ABS + FEAS_REL * max(size[i], abs(rlo[i]) if math.isfinite(rlo[i]) else 0,
                                        abs(rhi[i]) if math.isfinite(rhi[i]) else 0)
        if activity[i] < rlo[i] - tol or activity[i] > rhi[i] + tol:
            problems.append({"kind": "row", "name": model.rows[i], "activity": float(activity[i]),
                             "lower": float(rlo[i]), "upper": float(rhi[i])})
    cost = np.asarray(lp.col_cost_, float)
    in_objective = np.flatnonzero(cost)
    objective = float(cost[in_objective] @ x[in_objective]) if not np.isnan(x[in_objective]).any() else None
    return {**account, "columns_mapped": len(values), "columns": len(model.cols), "rows_checked": int(checked.sum()),
            "rows": nrow, "violations": len(problems), "problems": [_plain(p) for p in problems[:MAX_LISTED]],
            "objective_at_output": objective}


def _plain(problem: dict) -> dict:
    """JSON has no infinity: an absent bound is null."""
    return {k: (None if isinstance(v, float) and not math.isfinite(v) else v) for k, v in problem.items()}
