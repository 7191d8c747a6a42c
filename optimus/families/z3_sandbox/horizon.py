"""python -m z3_sandbox horizon REQUEST: the horizon loop of a multi-step program, owned by the harness.

REQUEST: {"program": "solver.py", "max_horizon": N, "budget_s": s}. Runs `python solver.py T` for
T = 0, 1, … N in this directory, each within what is left of the budget, each as a fork of this
process (forked.py: z3 is imported once, not once per T). The first T whose run says
"feasible" is the shortest plan (every smaller T said "infeasible"): its output.json and model.smt2 stay, its
solution.json becomes status "optimal" with objective T, and T-1's model is kept as shorter.smt2 so the re-check
can prove it unsat itself. horizon.json records every T's run. Imports nothing from optimus.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import time

from .forked import Timeout, run_python

KEEP = ("output.json", "solution.json", "model.smt2")
TAIL = 2500


def main(request_path: str) -> int:
    with open(request_path) as fh:
        request = json.load(fh)
    program = request.get("program", "solver.py")
    last = int(request.get("max_horizon", 12))
    deadline = time.monotonic() + float(request.get("budget_s", 60))
    runs: list[dict] = []
    record = {"max_horizon": last, "runs": runs, "shortest": None, "infeasible": []}
    os.makedirs("horizon", exist_ok=True)
    for t in range(last + 1):
        for name in KEEP:
            if os.path.lexists(name):
                os.remove(name)
        left = deadline - time.monotonic()
        if left <= 0.5:
            return finish(record, "time_limit", f"the time budget ran out before T={t}")
        started = time.monotonic()
        try:
            done = run_python(program, [str(t)], timeout=left)
        except Timeout:
            runs.append({"T": t, "status": "time_limit", "seconds": round(time.monotonic() - started, 3)})
            return finish(record, "time_limit", f"the run with T={t} did not finish within the time budget")
        status = _status()
        runs.append({"T": t, "status": status, "exit_code": done.returncode,
                     "seconds": round(time.monotonic() - started, 3)})
        sys.stdout.write(done.stdout[-TAIL:])
        sys.stderr.write(done.stderr[-TAIL:])
        keep = os.path.join("horizon", f"T{t}")
        os.makedirs(keep, exist_ok=True)
        for name in KEEP:
            if os.path.isfile(name) and not os.path.islink(name):
                shutil.copy(name, os.path.join(keep, name))
        if done.returncode != 0 or status not in ("feasible", "infeasible", "optimal"):
            why = f"exit code {done.returncode}" if done.returncode else f"status {status!r}"
            return finish(record, "error", f"the run with T={t} ended with {why}", code=done.returncode or 1)
        if status == "infeasible":
            record["infeasible"].append(t)
            continue
        record["shortest"] = t
        shorter = os.path.join("horizon", f"T{t - 1}", "model.smt2")
        if t > 0 and os.path.isfile(shorter):
            shutil.copy(shorter, "shorter.smt2")
        with open("solution.json") as fh:
            solution = json.load(fh)
        solution.update({"status": "optimal", "objective": t, "horizon_status": status})
        write("solution.json", solution)
        return finish(record, "optimal", f"a plan of {t} steps; none of 0..{t - 1} steps" if t > 0
                      else f"a plan of {t} steps")
    write("output.json", {})
    write("solution.json", {"status": "infeasible", "objective": None, "within_horizon": last})
    return finish(record, "infeasible", f"no plan of 0..{last} steps (longer plans are not ruled out)")


def _status() -> str | None:
    try:
        with open("solution.json") as fh:
            value = json.load(fh)
        return value.get("status") if isinstance(value, dict) else None
    except (OSError, json.JSONDecodeError):
        return None


def finish(record: dict, outcome: str, summary: str, code: int = 0) -> int:
    record.update({"outcome": outcome, "summary": summary})
    write("horizon.json", record)
    if outcome == "time_limit":
        write("output.json", {})
        write("solution.json", {"status": "time_limit", "objective": None})
    print(f"horizon: {summary}")
    return code


def write(name: str, value) -> None:
    with open(name, "w") as fh:
        json.dump(value, fh, indent=2)
        fh.write("\n")
