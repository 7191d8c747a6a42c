"""Why is the captured model unbounded? The variables along an improving direction, and what bounds their kin.

LP: HiGHS's primal ray (simplex, presolve off so the ray survives). Otherwise (MILP, or no ray): bound every
variable by a big M, solve the LP relaxation, and take the variables that end at that artificial bound.
"""

from __future__ import annotations

import math
import re

import numpy as np

from .model import Model, run_highs

BIG_M = 1e7
RAY_TOL = 1e-9
MAX_LISTED = 20
_INDEX = re.compile(r"^(.*?)(?:_\d+)+$")


def stem(name: str) -> str:
    """`make_4` → `make`, `x_1_2` → `x`: the family a variable belongs to."""
    match = _INDEX.match(name)
    return match.group(1) if match else name


def explain_unbounded(model: Model, deadline: float) -> dict:
    import time

    budget = max(0.05, deadline - time.monotonic())
    direction, method = ({}, "")
    if not model.is_mip:
        h = model.highs(budget)
        h.setOptionValue("presolve", "off")
        h.setOptionValue("solver", "simplex")
        if run_highs(h) == "unbounded":
            _, has_ray, ray = h.getPrimalRay()
            if has_ray:
                direction, method = _normalise(model, np.asarray(ray, float)), "primal_ray"
    if not direction:
        direction, method = big_m(model, max(0.05, deadline - time.monotonic())), "big_m"
    cost = np.asarray(model.lp.col_cost_, float)
    index = {name: j for j, name in enumerate(model.cols)}
    rate = sum(cost[index[n]] * v for n, v in direction.items())
    return {"method": method, "direction": dict(list(direction.items())[:MAX_LISTED]),
            "variables": len(direction), "objective_rate": float(rate), "siblings": siblings(model, direction)}


def _normalise(model: Model, ray: np.ndarray) -> dict[str, float]:
    top = np.abs(ray).max() if ray.size else 0.0
    if top <= 0:
        return {}
    return {model.cols[j]: float(ray[j] / top) for j in np.argsort(-np.abs(ray)) if abs(ray[j]) > RAY_TOL * top}


def big_m(model: Model, time_limit: float) -> dict[str, float]:
    h = model.highs(time_limit, relax=True)
    lo, hi = np.asarray(model.lp.col_lower_, float), np.asarray(model.lp.col_upper_, float)
    n = len(model.cols)
    h.changeColsBounds(n, np.arange(n, dtype=np.int32), np.maximum(lo, -BIG_M), np.minimum(hi, BIG_M))
    if run_highs(h) != "optimal":
        return {}
    x = np.asarray(h.getSolution().col_value, float)
    at_m = {}
    for j in np.argsort(-np.abs(x)):
        if abs(x[j]) >= BIG_M * (1 - 1e-6) and (abs(hi[j]) > BIG_M or abs(lo[j]) > BIG_M):
            at_m[model.cols[j]] = 1.0 if x[j] > 0 else -1.0
    return at_m


def siblings(model: Model, direction: dict[str, float]) -> dict[str, dict]:
    """For each variable on the ray: single-variable rows that limit its same-stem siblings in the ray's direction.

    `s7_market_p1: make_1 <= 300` for make_1..3,5 but none for make_4 suggests statement s7 meant to bound make_4.
    """
    lo, hi = np.asarray(model.lp.row_lower_, float), np.asarray(model.lp.row_upper_, float)
    per_row = np.bincount(model.entry_row, minlength=len(model.rows))
    limiting: dict[str, list[str]] = {}  # column → rows that bound it alone
    for k in np.flatnonzero(per_row[model.entry_row] == 1):
        i, j, a = model.entry_row[k], model.entry_col[k], model.entry_val[k]
        if math.isfinite(lo[i]) == math.isfinite(hi[i]):
            continue  # an equation (or a range) fixes or shapes a variable: not the kind of limit that is missing
        up = (a > 0 and math.isfinite(hi[i])) or (a < 0 and math.isfinite(lo[i]))
        down = (a > 0 and math.isfinite(lo[i])) or (a < 0 and math.isfinite(hi[i]))
        limiting.setdefault(f"{model.cols[j]}|{'+' if up else ''}{'-' if down else ''}", []).append(model.rows[i])
    out = {}
    for name, sign in direction.items():
        want = "+" if sign > 0 else "-"
        kin = {}
        for key, rows in limiting.items():
            col, sides = key.split("|")
            if want in sides and col != name and stem(col) == stem(name):
                kin[col] = rows
        if kin:
            out[name] = kin
    return out
