"""python -m resolve REQUEST.json RESULT.json: re-solve model.mps; check the program's variable values against it;
explain infeasible/unbounded.

REQUEST holds {"model": path, "values": path or null, "budget_s": seconds}, and the user's solver options
("time_limit" seconds, "mip_gap", "threads": null when unset; "export_lp": also write model.lp); the values file
is {name: number}, written by the harness from solution.json's "values". RESULT always gets written: a failure
becomes {"error": "..."} so the harness can say what went wrong.
"""

from __future__ import annotations

import json
import sys
import time
import traceback

from .check import check_values
from .iis import explain_infeasible
from .model import SolveOptions, load, solve_cbc, solve_highs
from .ray import explain_unbounded

# Shares of the time budget: each solver's re-solve, the rest for the diagnosis.
SOLVE_SHARE = 0.3


def run(request: dict) -> dict:
    started = time.monotonic()
    budget = float(request.get("budget_s", 60))
    deadline = started + budget
    model = load(request["model"])
    options = SolveOptions.of(request)
    if request.get("export_lp"):
        model.highs(1).writeModel("model.lp")
    result: dict = {"model": model.summary(), "mip_gap": options.mip_gap}
    share = min(budget * SOLVE_SHARE, options.time_limit or budget)
    result["highs"] = solve_highs(model, share, options)
    if model.is_mip:
        result["cbc"] = solve_cbc(request["model"], model.sense, share, options)
    if request.get("values"):
        with open(request["values"]) as fh:
            values = json.load(fh)
        if isinstance(values, dict) and values:
            result["values_check"] = check_values(model, values)
    status = result["highs"]["status"]
    if status == "infeasible" or (status != "optimal" and result.get("cbc", {}).get("status") == "infeasible"):
        result["infeasibility"] = explain_infeasible(model, deadline)
    elif status == "unbounded":
        result["unboundedness"] = explain_unbounded(model, deadline)
    result["seconds"] = round(time.monotonic() - started, 4)
    return result


def main(argv: list[str], answer=None) -> int:
    """Read REQUEST, write RESULT with `answer(request)` (default: run); RESULT is written whatever happens."""
    request_path, result_path = argv
    try:
        with open(request_path) as fh:
            result = (answer or run)(json.load(fh))
    except Exception as exc:  # noqa: BLE001 — any failure on untrusted input is reported, not raised
        result = {"error": f"{type(exc).__name__}: {exc}", "trace": traceback.format_exc()[-2000:]}
    with open(result_path, "w") as fh:
        json.dump(result, fh, indent=1, default=float)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
