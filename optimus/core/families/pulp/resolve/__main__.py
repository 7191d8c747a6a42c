"""python -m resolve REQUEST.json RESULT.json: re-solve model.mps; check the program's variable values against it;
explain infeasible/unbounded.

REQUEST holds {"model": path, "solution": path or null, "values": path or null, "budget_s": seconds}, and the
user's solver options ("time_limit" seconds, "mip_gap", "threads": null when unset; "export_lp": also write
model.lp). "solution" is the program's solution.json as it wrote it (its "values" are read here, where a million
of them cost the harness nothing); "values" a file {name: number}. RESULT always gets written: a failure becomes
{"error": "..."} so the harness can say what went wrong.
"""

from __future__ import annotations

import json
import math
import sys
import time
import traceback
from dataclasses import replace

from .check import check_values, value_vector
from .iis import explain_infeasible
from .model import SolveOptions, load, solve_cbc, solve_highs
from .ray import explain_unbounded

# Shares of the time budget: each solver's re-solve (HiGHS's when it re-solves alone), the rest for the diagnosis.
SOLVE_SHARE = 0.3
ALONE_SHARE = 0.6
# An answer at a time limit is verified by substitution; the re-solve only tests its bound (a better solution
# than the bound says exists would refute it), in this share of the program's own solve.
TIME_LIMIT_SHARE = 0.5
# CBC, the second opinion on a MILP, reads model.mps again (the cbc binary) and solves it without the program's
# incumbent: worth it on small models, where it costs little and one solver's bug cannot confirm itself; above
# this many nonzeros its solve would cost more than the program's own, and HiGHS alone re-solves.
CBC_MAX_NONZEROS = 20_000
MAX_WRONG = 5
RECHECK_MIP_GAP = 1e-4


def run(request: dict) -> dict:
    started = time.monotonic()
    budget = float(request.get("budget_s", 60))
    deadline = started + budget
    model = load(request["model"])
    options = SolveOptions.of(request)
    # The harness accepts a MILP's objective within a relative 1e-4 (verify.MIP_GAP_TOL) or the user's gap: a
    # re-solve proving more than that does work no verdict reads. The bound it proves is still its own.
    options = replace(options, mip_gap=max(options.mip_gap, RECHECK_MIP_GAP))
    if request.get("export_lp"):
        model.reader.writeModel("model.lp")
    result: dict = {"model": model.summary(), "mip_gap": options.mip_gap}
    start = None
    values, wrong = given_values(request)
    if wrong:
        result["values_wrong"] = wrong
    if values:
        vector = value_vector(model.cols, values)  # once: a million names are not looked up twice
        result["values_check"] = check = check_values(model, values, vector)
        if check["violations"] == 0 and check["columns_given"] == check["columns"]:
            start = vector[0]  # feasible: HiGHS's first incumbent
        del vector
    del values  # a million of them are ~150 MiB the solve can use
    second = model.is_mip and model.entry_val.size <= CBC_MAX_NONZEROS
    share = resolve_seconds(request, budget * (SOLVE_SHARE if second else ALONE_SHARE), options)
    result["check_peak_mib"] = peak_mib()  # reading the model and checking the values, before any re-solve
    result["highs"] = solve_highs(model, share, options, start)
    if second:
        result["cbc"] = solve_cbc(request["model"], model.sense, share, options)
    status = result["highs"]["status"]
    if status == "infeasible" or (status != "optimal" and result.get("cbc", {}).get("status") == "infeasible"):
        result["infeasibility"] = explain_infeasible(model, deadline)
    elif status == "unbounded":
        result["unboundedness"] = explain_unbounded(model, deadline)
    result["seconds"] = round(time.monotonic() - started, 4)
    result["peak_mib"] = peak_mib()
    return result


def peak_mib() -> float:
    """The re-check's peak resident memory (itself and the cbc it waited for), in MiB (Linux reports KiB)."""
    import resource

    own, children = (resource.getrusage(who).ru_maxrss for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
    return round(max(own, children) / 1024, 1)


def resolve_seconds(request: dict, share: float, options: SolveOptions) -> float:
    """The re-solve's time limit: its share of the budget, at most the user's limit, and for an answer the
    program gave at its time limit, a part of that program's own solve."""
    seconds = min(share, options.time_limit or share)
    if request.get("claimed_status") == "time_limit":  # the program's limit, or its solve when that was shorter
        spent = min(x for x in (request.get("solve_s"), options.time_limit, seconds) if x)
        seconds = min(seconds, max(1.0, TIME_LIMIT_SHARE * float(spent)))
    return seconds


def given_values(request: dict) -> tuple[dict[str, float] | None, dict | None]:
    """The program's values {name: finite number} (None: it gives none), and those that are not finite numbers
    ({"count", "examples"}; null, a variable without a value, is left out)."""
    path = request.get("solution") or request.get("values")
    if not path:
        return None, None
    with open(path) as fh:
        values = json.load(fh)
    values = values.get("values") if request.get("solution") and isinstance(values, dict) else values
    if not isinstance(values, dict):
        return None, None  # the harness says what is wrong with "values" itself
    bad = [k for k, v in values.items() if not _number(v)]
    if not bad:  # the usual case: the values as read, not a second dict of a million entries
        return values, None
    good = {k: float(v) for k, v in values.items() if _number(v)}
    wrong = [k for k in bad if values[k] is not None]
    examples = [f"{k} = {values[k]!r}"[:60] for k in wrong[:MAX_WRONG]]
    return good, {"count": len(wrong), "examples": examples} if wrong else None


def _number(x) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


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
