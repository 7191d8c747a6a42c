"""Reference program for industrial/inventory-routing at 10^5 rows and up: the model of solver.py (a
customer's plan is a chain of intervals between fill-to-the-brim visits in which its tank does not run dry),
with the same names, built as numpy arrays and handed to HiGHS through highspy (no per-element Python
modelling calls)."""

import json
import os
import re
import time

import duckdb
import highspy
import numpy as np


def safe(ids) -> np.ndarray:
    """Each identifier once as a name part: letters, digits and underscores only."""
    return np.array([re.sub(r"\W", "_", str(i)) for i in ids], dtype=object)


def positions(ids, keys) -> np.ndarray:
    """The position in `ids` (a table's key column, in file order) of each of `keys`."""
    at = {k: i for i, k in enumerate(ids)}
    return np.fromiter((at[k] for k in keys), np.int64, len(keys))


def intervals(tank, initial, holding, use):
    """Every customer's intervals (customer, a, b) in solver.py's order (customer, visit day a, next visit
    day b; a = 0 is the start, b = T + 1 the end), with the litres delivered at b and the holding cost of the
    days max(a, 1)..b-1. use[c, d] is customer c's usage on day d (columns 0 and T + 1 are zero).

    A band of columns j = 0..width per customer and visit day a, for b = max(a, 1) + j: column 0 holds the
    level after day a's refill, column j takes day b-1's usage; running sums day by day, as solver.py adds
    them, give the same doubles. The band doubles until no interval reaches its end before the horizon
    does."""
    T = use.shape[1] - 2
    a = np.arange(T + 1)[None, :, None]
    first = np.maximum(a, 1)  # the first day whose usage counts
    level = np.where(a == 0, initial[:, None, None], tank[:, None, None])  # litres after day a's refill
    width = 8
    while True:
        j = np.arange(width + 1)[None, None, :]
        b = first + j
        left = np.cumsum(np.where(j == 0, level, -use[:, np.minimum(b - 1, T + 1)[0]]), axis=2)
        # solver.py stops at the first day the tank runs dry (the level itself is never checked); a = 0 also
        # has the interval (0, 1) of column 0
        valid = (np.logical_and.accumulate((left >= -1e-9) | (j == 0), axis=2) & (b <= T + 1)
                 & ((j >= 1) | (a == 0)))
        if not (valid[:, :, -1] & (b[:, :, -1] <= T)).any():
            break
        width *= 2
    held = np.cumsum(np.where(j >= 1, holding[:, None, None] * left, 0.0), axis=2)
    litres = np.where(b <= T, tank[:, None, None] - left, 0.0)
    c, a, j = np.nonzero(valid)  # customer-major, then a, then b: solver.py's order
    return c, a, np.maximum(a, 1) + j, litres[c, a, j], held[c, a, j]


started = time.perf_counter()
data = json.load(open("data.json"))
T = data["days"]
db = duckdb.connect()
customers = db.sql("SELECT customer, tank, initial, holding_cost FROM 'data/customers.csv'").fetchnumpy()
usage = db.sql("SELECT customer, day, litres FROM 'data/usage.parquet'").fetchnumpy()
routes = db.sql("SELECT route, cost FROM 'data/routes.csv'").fetchnumpy()  # file order
stops = db.sql("SELECT route, customer FROM 'data/route_stops.csv'").fetchnumpy()
n, R = len(customers["customer"]), len(routes["route"])
# usage of days outside 1..T is never looked up (and columns 0 and T + 1 must stay zero); usage and stops
# name customers and routes of their tables (an unknown one is a KeyError here; solver.py skips a customer)
used = (usage["day"] >= 1) & (usage["day"] <= T)
use = np.zeros((n, T + 2))
use[positions(customers["customer"], usage["customer"][used]), usage["day"][used].astype(np.int64)] = \
    usage["litres"][used]
si, sk = positions(customers["customer"], stops["customer"]), positions(routes["route"], stops["route"])
tank, initial = customers["tank"].astype(float), customers["initial"].astype(float)
ci, ia, ib, litres, held = intervals(tank, initial, customers["holding_cost"].astype(float), use)
del use
ny = len(ci)

# columns: drive[r, t] route-major (s1), then y[i, a, b] per interval
customer_part, route_part = safe(customers["customer"]), safe(routes["route"])
day = np.array([str(t) for t in range(T + 2)], dtype=object)
drive_names = "drive_" + np.repeat(route_part, T) + "_" + np.tile(day[1:T + 1], R)
col_names = [*drive_names, *("y_" + customer_part[ci] + "_" + day[ia] + "_" + day[ib])]
drive, y = np.arange(R * T).reshape(R, T), R * T + np.arange(ny)
cost = np.concatenate([np.repeat(routes["cost"].astype(float), T), held])  # s6

# rows as (row, column, coefficient) triplets per statement, numbered from the statement's first row
into, out = ib <= T, ia >= 1  # an interval ends with a visit on day b / starts after a visit on day a
into_row = ci[into] * T + ib[into] - 1  # row (i, t) of a customer-day block
ones_into, days = np.ones(into.sum()), np.arange(T)
per_customer_day = np.repeat(customer_part, T) + "_" + np.tile(day[1:T + 1], n)
blocks = [  # (rows, columns, coefficients, lower, upper, names)
    (ci[ia == 0], y[ia == 0], np.ones((ia == 0).sum()), np.ones(n), np.ones(n), "s4_start_" + customer_part),
    (np.concatenate([into_row, ci[out] * T + ia[out] - 1]), np.concatenate([y[into], y[out]]),
     np.concatenate([ones_into, -np.ones(out.sum())]), np.zeros(n * T), np.zeros(n * T),
     "s4_chain_" + per_customer_day),  # s4: one chain of intervals per customer
    (np.concatenate([into_row, (si[:, None] * T + days).ravel()]),
     np.concatenate([y[into], drive[sk].ravel()]),
     np.concatenate([ones_into, -np.ones(len(si) * T)]), np.zeros(n * T), np.zeros(n * T),
     "s2_visit_" + per_customer_day),  # s1/s2: a visit is one route driven that day
    (np.tile(days, R), drive.ravel(), np.ones(R * T), np.full(T, -np.inf),
     np.full(T, float(data["vehicles"])),
     "s5_vehicles_" + day[1:T + 1]),  # s5: vehicles a day
    (ib[into] - 1, y[into], litres[into], np.full(T, -np.inf), np.full(T, float(data["bay_litres"])),
     "s5_bay_" + day[1:T + 1]),  # s5: the depot's litres a day
]
first = np.cumsum([0] + [len(b[3]) for b in blocks])  # each statement's first row
rows = np.concatenate([b[0] + f for b, f in zip(blocks, first)])
order = np.argsort(rows, kind="stable")  # row by row, as addRows takes them
starts = np.concatenate([[0], np.cumsum(np.bincount(rows, minlength=first[-1]))[:-1]])
columns = np.concatenate([b[1] for b in blocks])[order]
coefficients = np.concatenate([b[2] for b in blocks])[order]

ncols = R * T + ny
h = highspy.Highs()
h.setOptionValue("output_flag", False)
h.addCols(ncols, cost, np.zeros(ncols), np.ones(ncols), 0, np.zeros(0, np.int32), np.zeros(0, np.int32),
          np.zeros(0))
h.addRows(first[-1], np.concatenate([b[3] for b in blocks]).astype(float),
          np.concatenate([b[4] for b in blocks]).astype(float), len(order), starts.astype(np.int32),
          columns.astype(np.int32), coefficients)
h.changeColsIntegrality(R * T, drive.ravel().astype(np.int32),
                        np.full(R * T, highspy.HighsVarType.kInteger))
lp = h.getLp()
lp.col_names_, lp.row_names_ = col_names, [name for block in blocks for name in block[5]]
h.passModel(lp)
# the model lives in HiGHS now
del lp, rows, order, columns, coefficients, blocks, ci, ia, ib, litres, held, cost
built = time.perf_counter()
h.writeModel("model.mps")
written = time.perf_counter()

if os.environ.get("OPTIMUS_TIME_LIMIT"):
    h.setOptionValue("time_limit", float(os.environ["OPTIMUS_TIME_LIMIT"]))
if os.environ.get("OPTIMUS_MIP_GAP"):
    h.setOptionValue("mip_rel_gap", float(os.environ["OPTIMUS_MIP_GAP"]))
if os.environ.get("OPTIMUS_THREADS"):
    h.setOptionValue("threads", int(os.environ["OPTIMUS_THREADS"]))
h.run()
solved = time.perf_counter()

S = highspy.HighsModelStatus
info = h.getInfo()
status = {S.kOptimal: "optimal", S.kInfeasible: "infeasible", S.kUnboundedOrInfeasible: "infeasible",
          S.kUnbounded: "unbounded", S.kTimeLimit: "time_limit"}.get(h.getModelStatus(), "error")
has_solution = info.primal_solution_status == 2  # a feasible point
solution = {"status": status, "objective": None,
            "seconds": {"build": built - started, "write": written - built, "solve": solved - written}}
output = {}
if status in ("optimal", "time_limit") and has_solution:
    value = np.asarray(h.getSolution().col_value)
    solution["objective"] = info.objective_function_value
    solution["values"] = dict(zip(col_names, value.tolist()))
    if status == "time_limit":  # an incumbent: how far from optimal it may be
        solution.update(bound=info.mip_dual_bound, gap=info.mip_gap)
    driven_route, driven_day = np.nonzero(value[drive] > 0.5)  # route-major, then day: solver.py's order
    output = {"trips": [{"day": t + 1, "route": r} for r, t in
                        zip(routes["route"][driven_route].tolist(), driven_day.tolist())],
              "total_cost": solution["objective"]}
json.dump(solution, open("solution.json", "w"))
json.dump(output, open("output.json", "w"))
