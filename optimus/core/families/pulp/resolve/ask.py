"""python -m resolve.ask REQUEST.json RESULT.json: answer a question by changing the captured model.mps and solving.

REQUEST holds {"model": path, "budget_s": seconds, and one of
  "bounds": [{"name": column name or fnmatch pattern, "lower": number or null, "upper": number or null}]
      (why / why not: a decision forced or forbidden; HiGHS, and CBC too for a MILP, on the changed model: the
      change made on HiGHS's reading of model.mps, written by HiGHS, read by the cbc binary itself),
  "sensitivity": {"rows": [row patterns, e.g. "s5_*"], "cols": [column patterns], "delta": number}
      (an LP: shadow prices and ranging of the rows, reduced costs and cost ranging of the columns, read from
      HiGHS; for LP and MILP alike, the rows' limits moved by delta and the model solved again)}.
RESULT always gets written; a failure becomes {"error": "..."}. Imports nothing from optimus.
"""

from __future__ import annotations

import fnmatch
import math
import os
import sys
import tempfile
import time

import highspy
import numpy as np

from .cbc import solve_mps
from .iis import explain_infeasible
from .model import MIP_REL_GAP, Model, load, run_highs

MAX_LISTED = 200  # rows / columns reported per request


def matching(names: list[str], patterns: list[str]) -> list[int]:
    return [j for j, n in enumerate(names) if any(fnmatch.fnmatchcase(n, p) for p in patterns)]


def solve(model: Model, h, budget: float) -> dict:
    """Solve the (changed) solver `h`; for a MILP also CBC on the same changed model (cbc_on_changed)."""
    status = run_highs(h)
    info = h.getInfo()
    found = int(info.primal_solution_status) == 2 and status in ("optimal", "time_limit")
    out = {"status": status, "objective": float(info.objective_function_value) if found else None,
           "values": dict(zip(model.cols, map(float, h.getSolution().col_value))) if found else {}}
    if model.is_mip:
        out["cbc"] = cbc_on_changed(h, model.sense, budget)
    return out


def cbc_on_changed(h, sense: str, budget: float) -> dict:
    """CBC on the changed model: HiGHS writes the model it solved (the change made on its reading of model.mps),
    and the cbc binary reads that file itself — LI/UI bounds, free integers and the objective constant included,
    which PuLP's MPS reader refuses."""
    try:
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "changed.mps")
            if h.writeModel(path) == highspy.HighsStatus.kError or not os.path.exists(path):
                raise OSError("HiGHS could not write the changed model")
            return solve_mps(path, sense, budget, MIP_REL_GAP)
    except Exception as exc:  # noqa: BLE001 - a second opinion that cannot run says so; HiGHS's answer stands
        return {"solver": "CBC", "status": "error", "objective": None, "error": f"{type(exc).__name__}: {exc}"}


def with_bounds(model: Model, request: dict, budget: float) -> dict:
    """The decisions forced or forbidden (column bounds changed in the model itself, so that an infeasible
    result is explained like any captured model: an IIS and its smallest relaxation)."""
    lower, upper = np.asarray(model.lp.col_lower_, float).copy(), np.asarray(model.lp.col_upper_, float).copy()
    applied = []
    for b in request["bounds"]:
        cols = matching(model.cols, [str(b["name"])])
        if not cols:
            return {"error": f"the captured model has no variable named {b['name']!r}"}
        for j in cols:
            lower[j] = lower[j] if b.get("lower") is None else float(b["lower"])
            upper[j] = upper[j] if b.get("upper") is None else float(b["upper"])
            applied.append({"name": model.cols[j], "lower": _finite(lower[j]), "upper": _finite(upper[j])})
    model.lp.col_lower_, model.lp.col_upper_ = lower, upper
    out = {"applied": applied[:MAX_LISTED], "applied_count": len(applied), **solve(model, model.highs(budget),
                                                                                   budget)}
    if out["status"] == "infeasible":
        out["infeasibility"] = explain_infeasible(model, time.monotonic() + budget)
    return out


def sensitivity(model: Model, request: dict, budget: float) -> dict:
    spec = request["sensitivity"]
    rows = matching(model.rows, spec.get("rows", []))
    cols = matching(model.cols, spec.get("cols", []))
    after = moved(model, rows, float(spec.get("delta") or 1.0), budget)
    if model.is_mip:  # no shadow prices: only the re-solve with the limits moved answers
        return {"kind": "milp", "moved": after}
    h = model.highs(budget)
    status = run_highs(h)
    if status != "optimal":
        return {"kind": "lp", "status": status, "moved": after}
    sol, info = h.getSolution(), h.getInfo()
    found, ranging = h.getRanging()
    ok = str(found).endswith("kOk")
    lp = model.lp
    out_rows = [{"name": model.rows[i], "activity": float(sol.row_value[i]), "lower": _finite(lp.row_lower_[i]),
                 "upper": _finite(lp.row_upper_[i]), "dual": float(sol.row_dual[i]),
                 **(_range(ranging.row_bound_dn, ranging.row_bound_up, i) if ok else {})} for i in rows]
    out_cols = [{"name": model.cols[j], "value": float(sol.col_value[j]), "cost": float(lp.col_cost_[j]),
                 "reduced_cost": float(sol.col_dual[j]),
                 **(_range(ranging.col_cost_dn, ranging.col_cost_up, j) if ok else {})} for j in cols]
    return {"kind": "lp", "status": status, "objective": float(info.objective_function_value),
            "ranging": ok, "rows": out_rows[:MAX_LISTED], "cols": out_cols[:MAX_LISTED],
            "row_count": len(rows), "col_count": len(cols), "moved": after}


def moved(model: Model, rows: list[int], delta: float, budget: float) -> dict:
    """Every finite limit of the rows moved by delta, then solved again (a MILP by CBC too)."""
    h = model.highs(budget)
    lo, hi = np.asarray(model.lp.row_lower_, float), np.asarray(model.lp.row_upper_, float)
    for i in rows:
        h.changeRowBounds(i, lo[i] + delta if math.isfinite(lo[i]) else lo[i],
                          hi[i] + delta if math.isfinite(hi[i]) else hi[i])
    after = solve(model, h, budget)
    return {"delta": delta, "rows": [model.rows[i] for i in rows][:MAX_LISTED],
            "row_count": len(rows), **after}


def _range(down, up, k: int) -> dict:
    """HiGHS ranging of one row bound or column cost: the interval the basis stays optimal, and the objective
    at each end."""
    return {"range": [_finite(down.value_[k]), _finite(up.value_[k])],
            "objective_at_range": [_finite(down.objective_[k]), _finite(up.objective_[k])]}


def _finite(x: float) -> float | None:
    x = float(x)
    return x if math.isfinite(x) and abs(x) < 1e20 else None


def run(request: dict) -> dict:
    started = time.monotonic()
    budget = float(request.get("budget_s", 60))
    model = load(request["model"])
    model.reader = None  # each question builds its changed solver from model.lp: the reader would be a spare copy
    if request.get("bounds"):
        result = with_bounds(model, request, budget)
    elif request.get("sensitivity") is not None:
        result = sensitivity(model, request, budget)
    else:
        result = {"error": "the request asks for neither bounds nor sensitivity"}
    result.update(sense=model.sense, mip=model.is_mip, seconds=round(time.monotonic() - started, 4))
    return result


if __name__ == "__main__":
    from .__main__ import main

    sys.exit(main(sys.argv[1:], run))
