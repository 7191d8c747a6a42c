"""Routes from candidates (industrial/route-partitioning) at 10^5 variables and up: the set-partitioning MILP of
solver.py, with the same names and order, built as numpy arrays and handed to HiGHS through highspy (no
per-element Python modelling calls)."""

import csv
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


started = time.perf_counter()
data = json.load(open("data.json"))
db = duckdb.connect()
customers = db.sql("SELECT customer FROM 'data/customers.csv'").fetchnumpy()["customer"]
routes = db.sql("SELECT route, depot, cost, hours FROM 'data/routes.csv'").fetchnumpy()
stops = db.sql("SELECT route, customer FROM 'data/route_stops.parquet'").fetchnumpy()
with open("data/vehicles.csv", newline="") as f:  # transposed: depot names, then their vehicles
    depots, counts = list(csv.reader(f))[:2]
vehicles = np.array([float(v) for v in counts])
nr, nc, nd = len(routes["route"]), len(customers), len(depots)
stop_route, stop_customer = positions(routes["route"], stops["route"]), positions(customers, stops["customer"])
route_depot = positions(depots, routes["depot"])
del stops

# columns: use[r] (s1) in the order of data/routes.csv, each costing its route plus the dispatch fee (s5)
use = np.arange(nr)
col_names = ("use_" + safe(routes["route"])).tolist()
cost = routes["cost"].astype(float) + data["dispatch_fee"]

# rows as (row, column, coefficient) triplets per statement, numbered from the statement's first row; a row's
# terms in data/route_stops.parquet's or data/routes.csv's order, as solver.py adds them (the sort is stable)
blocks = [  # (rows, columns, coefficients, lower, upper, names)
    (stop_customer, use[stop_route], np.ones(len(stop_route)), np.ones(nc), np.ones(nc),
     "s2_visit_" + safe(customers)),  # s2: every customer on exactly one route driven
    (route_depot, use, np.ones(nr), np.full(nd, -np.inf), vehicles,
     "s3_vehicles_" + safe(depots)),  # s3: a depot sends out at most its vehicles
    (np.zeros(nr, np.int64), use, routes["hours"].astype(float), [-np.inf], [float(data["driver_hours"])],
     ["s4_driver_hours"]),  # s4: the drivers' hours
]
first = np.cumsum([0] + [len(b[3]) for b in blocks])  # each statement's first row
rows = np.concatenate([b[0] + f for b, f in zip(blocks, first)])
order = np.argsort(rows, kind="stable")  # row by row, as addRows takes them
starts = np.concatenate([[0], np.cumsum(np.bincount(rows, minlength=first[-1]))[:-1]])
columns, coefficients = np.concatenate([b[1] for b in blocks])[order], np.concatenate([b[2] for b in blocks])[order]

h = highspy.Highs()
h.setOptionValue("output_flag", False)
h.addCols(nr, cost, np.zeros(nr), np.ones(nr), 0, np.zeros(0, np.int32), np.zeros(0, np.int32), np.zeros(0))
h.addRows(first[-1], np.concatenate([b[3] for b in blocks]).astype(float),
          np.concatenate([b[4] for b in blocks]).astype(float), len(order), starts.astype(np.int32),
          columns.astype(np.int32), coefficients)
h.changeColsIntegrality(nr, use.astype(np.int32), np.full(nr, highspy.HighsVarType.kInteger))
lp = h.getLp()
lp.col_names_, lp.row_names_ = col_names, [n for b in blocks for n in b[5]]
h.passModel(lp)
del lp, rows, order, columns, coefficients, blocks, stop_route, stop_customer  # the model lives in HiGHS now
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
    output = {"routes": routes["route"][value > 0.5].tolist(), "total_cost": solution["objective"]}

json.dump(solution, open("solution.json", "w"), indent=1)
json.dump(output, open("output.json", "w"), indent=1)
