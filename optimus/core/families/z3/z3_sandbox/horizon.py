"""python -m z3_sandbox horizon REQUEST: the horizon loop of a multi-step program, owned by the harness.

REQUEST: {"program": "solver.py", "max_horizon": N, "budget_s": s}. Runs `python solver.py T` for
T = 0, 1, … N in this directory, each within what is left of the budget, each as a fork of this
process (forked.py: z3 is imported once, not once per T). The first T whose run says
"feasible" is the shortest plan (every smaller T said "infeasible"): its output.json and model.smt2 stay, its
solution.json becomes status "optimal" with objective T, and T-1's model is kept as shorter.smt2 so the re-check
can prove it unsat itself. horizon.json records every T's run. A program whose source defines the Horizon class
(incremental.py) is instead searched on one solver, in one forked child, with the same files as the result —
and when walking T up is slow, a second solver looks for any plan within max_horizon: that plan is returned
(status feasible, "shortest not proven (T ≤ 13 unsat, 14–15 not finished)") if the walk does not finish.
Imports nothing from optimus.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import time

from .forked import Timeout, run_python, write

KEEP = ("output.json", "solution.json", "model.smt2")
FIRST = os.path.join("horizon", "first_plan")  # the per-horizon contract's early plan, kept
TAIL = 2500


def main(request_path: str) -> int:
    with open(request_path) as fh:
        request = json.load(fh)
    program = request.get("program", "solver.py")
    last = int(request.get("max_horizon", 12))
    deadline = time.monotonic() + float(request.get("budget_s", 60))
    runs: list[dict] = []
    record = {"max_horizon": last, "runs": runs, "shortest": None, "infeasible": [], "contract": "per_horizon"}
    os.makedirs("horizon", exist_ok=True)
    from .incremental import follows

    if follows(program):
        return incremental(program, record, deadline)
    return per_horizon(program, record, deadline)


def per_horizon(program: str, record: dict, deadline: float) -> int:
    """`python solver.py T` for T = 0, 1, …; the first feasible T is shortest. Once PLAN_AFTER of the budget is
    spent, the program is run at the longest horizons (first_plan) and a plan found there is kept, returned
    (feasible, not proven shortest) if the walk does not finish."""
    from .incremental import PLAN_AFTER

    last, runs = record["max_horizon"], record["runs"]
    pause, plan = time.monotonic() + PLAN_AFTER * max(0.0, deadline - time.monotonic()), None
    for t in range(last + 1):
        if "first_plan" not in record and time.monotonic() >= pause:  # looked for once
            plan = first_plan(program, record, deadline)
        left = deadline - time.monotonic()
        if left <= 0.5:
            return out_of_time(record, plan, f"the time budget ran out before T={t}")
        started = time.monotonic()
        done = run_at(program, t, min(left, pause - started) if started < pause else left)
        if done is None and "first_plan" not in record and deadline - time.monotonic() > 1:
            plan = first_plan(program, record, deadline)
            done = run_at(program, t, deadline - time.monotonic())
        status = _status() if done is not None else "time_limit"
        runs.append({"T": t, "status": status, "exit_code": getattr(done, "returncode", None),
                     "seconds": round(time.monotonic() - started, 3)})
        if done is None:
            return out_of_time(record, plan, f"the run with T={t} did not finish within the time budget")
        keep(os.path.join("horizon", f"T{t}"))
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


def run_at(program: str, t: int, timeout: float):
    """The program at horizon T = t (its result files fresh); None when it did not finish in time."""
    for name in KEEP:
        if os.path.lexists(name):
            os.remove(name)
    try:
        done = run_python(program, [str(t)], timeout=max(0.1, timeout))
    except Timeout:
        return None
    sys.stdout.write(done.stdout[-TAIL:])
    sys.stderr.write(done.stderr[-TAIL:])
    return done


def first_plan(program: str, record: dict, deadline: float) -> int | None:
    """The program at T = max_horizon, then one less (a plan of exactly T actions: one more or one fewer may be
    what parity allows), within PLAN_SHARE of the time left: the first plan found, kept in horizon/first_plan."""
    from .incremental import PLAN_SHARE

    last = record["max_horizon"]
    until = time.monotonic() + PLAN_SHARE * max(0.0, deadline - time.monotonic())
    tried = record["first_plan"] = []
    for t in sorted({last, max(0, last - 1)}, reverse=True):
        started = time.monotonic()
        done = run_at(program, t, until - started)
        status = _status() if done is not None and done.returncode == 0 else "time_limit" if done is None else "error"
        tried.append({"T": t, "status": status, "seconds": round(time.monotonic() - started, 3)})
        if status == "feasible":
            keep(FIRST)
            return t
        if done is None or time.monotonic() >= until:
            return None
    return None


def out_of_time(record: dict, plan: int | None, said: str) -> int:
    """The walk did not finish: the plan first_plan kept (feasible, not proven shortest), else time_limit."""
    if plan is None:
        return finish(record, "time_limit", said)
    for name in KEEP:
        if os.path.isfile(os.path.join(FIRST, name)):
            shutil.copy(os.path.join(FIRST, name), name)
    with open("solution.json") as fh:
        solution = json.load(fh)
    write("solution.json", {**solution, "status": "feasible", "objective": plan, "horizon_status": "feasible"})
    return finish(record, "feasible", f"feasible: a {plan}-step plan; shortest not proven "
                                      f"({not_proven(record['infeasible'], plan)})")


def keep(folder: str) -> None:
    os.makedirs(folder, exist_ok=True)
    for name in KEEP:
        if os.path.isfile(name) and not os.path.islink(name):
            shutil.copy(name, os.path.join(folder, name))


def incremental(program: str, record: dict, deadline: float) -> int:
    """The incremental contract (incremental.py): one forked child searches every T on one solver."""
    from .forked import flush, print_uncaught, run_forked
    from .incremental import FIRST_PLAN, progress, search

    def child() -> int:
        try:
            return search(program, record["max_horizon"], deadline)
        except BaseException as exc:  # noqa: BLE001 — the program's error, printed as Python would
            print_uncaught(exc, os.path.abspath(program))
            return 1
        finally:
            flush()

    record["contract"] = "incremental"
    for name in (*KEEP, "shorter.smt2"):
        if os.path.lexists(name):
            os.remove(name)
    try:
        done = run_forked(child, timeout=max(0.5, deadline - time.monotonic()))
    except Timeout:
        done = None
    record["runs"] = runs = progress()
    record["first_plan"] = progress(FIRST_PLAN)
    record["infeasible"] = [r["T"] for r in runs if r["status"] == "infeasible"]
    status = _status()
    if done is not None:
        sys.stdout.write(done.stdout[-TAIL:])
        sys.stderr.write(done.stderr[-TAIL:])
        if done.returncode != 0 or status not in ("optimal", "infeasible", "time_limit", "feasible"):
            why = f"exit code {done.returncode}" if done.returncode else f"status {status!r}"
            return finish(record, "error", f"the incremental search ended with {why} at T={len(runs)}",
                          code=done.returncode or 1)
    if status == "feasible":  # a plan the first-plan search kept; the walk did not finish proving it shortest
        length = _objective()
        record["shortest"] = None
        return finish(record, "feasible", f"feasible: a {length}-step plan; shortest not proven "
                                          f"({not_proven(record['infeasible'], length)})")
    if done is None:
        return finish(record, "time_limit", f"the search did not finish within the time budget (T={len(runs)})")
    if status == "optimal":
        t = record["shortest"] = _objective()
        return finish(record, "optimal", f"a plan of {t} steps; none of 0..{t - 1} steps (one solver)" if t > 0
                      else f"a plan of {t} steps")
    if status == "time_limit":
        return finish(record, "time_limit", f"Z3 stopped at its time limit at T={runs[-1]['T'] if runs else 0}")
    return finish(record, "infeasible", f"no plan of 0..{record['max_horizon']} steps (longer plans are not "
                  "ruled out)")


def not_proven(unsat: list[int], length: int) -> str:
    """"T ≤ 13 unsat, 14–15 not finished": what the walk proved below a plan's length, and what it did not."""
    proved = max((t for t in unsat if t < length), default=-1)
    rest = (f"{proved + 1}–{length - 1}" if length - 1 > proved + 1 else f"{proved + 1}") + " not finished"
    return (f"T ≤ {proved} unsat, " if proved >= 0 else "no horizon proven unsat, ") + rest


def _objective():
    try:
        with open("solution.json") as fh:
            return json.load(fh).get("objective")
    except (OSError, json.JSONDecodeError, AttributeError):
        return None


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
    if outcome == "feasible":
        with open("solution.json") as fh:
            solution = json.load(fh)
        write("solution.json", {**solution, "shortest": summary})
    if outcome == "time_limit":
        write("output.json", {})
        write("solution.json", {"status": "time_limit", "objective": None})
    print(f"horizon: {summary}")
    return code
