"""Reference program for industrial/facility-location at 10^5 rows and up: the model of solver.py, with the same
names, built as numpy arrays and handed to HiGHS through highspy (no per-element Python modelling calls)."""

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
sites = db.sql("SELECT site, fixed_cost, capacity FROM 'data/sites.csv'").fetchnumpy()  # file order
customers = db.sql("SELECT customer, demand FROM 'data/customers.csv'").fetchnumpy()
lanes = db.sql("SELECT site, customer, cost_per_tonne FROM 'data/lanes.parquet'").fetchnumpy()
ls, lc = positions(sites["site"], lanes["site"]), positions(customers["customer"], lanes["customer"])
nf, nc, nl = len(sites["site"]), len(customers["customer"]), len(ls)
demand, capacity = customers["demand"].astype(float), sites["capacity"].astype(float)
site_part, customer_part = safe(sites["site"]), safe(customers["customer"])
lane_part = site_part[ls] + "_" + customer_part[lc]

# columns: open[i] (s1) first, then ship[i, j] per lane (s1, s3, s10)
y, x = np.arange(nf), nf + np.arange(nl)
col_names = [*("open_" + site_part), *("ship_" + lane_part)]
cost = np.concatenate([sites["fixed_cost"], lanes["cost_per_tonne"]]).astype(float)  # s2, s3
upper = np.concatenate([np.ones(nf), np.full(nl, np.inf)])

# rows as (row, column, coefficient) triplets per statement, numbered from the statement's first row
lane = np.arange(nl)
blocks = [  # (rows, columns, coefficients, lower, upper, names)
    (lc, x, np.ones(nl), demand, demand, "s4_demand_" + customer_part),  # s4: exactly the demand
    (np.concatenate([ls, y]), np.concatenate([x, y]), np.concatenate([np.ones(nl), -capacity]),
     np.full(nf, -np.inf), np.zeros(nf), "s5_capacity_" + site_part),  # s5: capacity, only when open
    (np.concatenate([lane, lane]), np.concatenate([x, y[ls]]), np.concatenate([np.ones(nl), -demand[lc]]),
     np.full(nl, -np.inf), np.zeros(nl), "s6_lane_" + lane_part),  # s6: a lane at most the demand, only open
    (np.zeros(nf, np.int64), y, np.ones(nf), [-np.inf], [float(data["max_open"])], ["s7_max_open"]),  # s7
]
first = np.cumsum([0] + [len(b[3]) for b in blocks])  # each statement's first row
rows = np.concatenate([b[0] + f for b, f in zip(blocks, first)])
order = np.argsort(rows, kind="stable")  # row by row, as addRows takes them
starts = np.concatenate([[0], np.cumsum(np.bincount(rows, minlength=first[-1]))[:-1]])
columns, coefficients = np.concatenate([b[1] for b in blocks])[order], np.concatenate([b[2] for b in blocks])[order]

h = highspy.Highs()
h.setOptionValue("output_flag", False)
h.addCols(nf + nl, cost, np.zeros(nf + nl), upper, 0, np.zeros(0, np.int32), np.zeros(0, np.int32), np.zeros(0))
h.addRows(first[-1], np.concatenate([b[3] for b in blocks]).astype(float),
          np.concatenate([b[4] for b in blocks]).astype(float), len(order), starts.astype(np.int32),
          columns.astype(np.int32), coefficients)
h.changeColsIntegrality(nf, y.astype(np.int32), np.full(nf, highspy.HighsVarType.kInteger))
lp = h.getLp()
lp.col_names_, lp.row_names_ = col_names, [n for b in blocks for n in b[5]]
h.passModel(lp)
del lp, rows, order, columns, coefficients, blocks  # the model lives in HiGHS now
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
    carried = np.flatnonzero(value[x] > 1e-9)
    output = {"open": np.rint(value[y]).astype(int).tolist(),
              "shipments": [{"site": s, "customer": c, "tonnes": t} for s, c, t in
                            zip(lanes["site"][carried].tolist(), lanes["customer"][carried].tolist(),
                                value[x][carried].tolist())],
              "total_cost": solution["objective"]}
json.dump(solution, open("solution.json", "w"))
json.dump(output, open("output.json", "w"))
