"""Reference program for industrial/production-planning at 10^5 rows and up: the model of solver.py, with the same
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


def positions(ids, keys, missing=None) -> np.ndarray:
    """The position in `ids` (a table's key column, in file order) of each of `keys`; a key not in `ids` is an
    error, or `missing` when given."""
    at = {k: i for i, k in enumerate(ids)}
    found = (at[k] for k in keys) if missing is None else (at.get(k, missing) for k in keys)
    return np.fromiter(found, np.int64, len(keys))


started = time.perf_counter()
data = json.load(open("data.json"))
T = data["periods"]
db = duckdb.connect()
products = db.sql("SELECT product, price, material_cost, holding_cost, space, initial_stock "
                  "FROM 'data/products.csv'").fetchnumpy()  # file order
resources = db.sql("SELECT resource, hours, crew_hours, crew_cost FROM 'data/resources.csv'").fetchnumpy()
usage = db.sql("SELECT product, resource, hours_per_unit FROM 'data/usage.csv'").fetchnumpy()
demand = db.sql("SELECT product, period, demand FROM 'data/demand.parquet'").fetchnumpy()
n, R = len(products["product"]), len(resources["resource"])
initial = products["initial_stock"].astype(float)

# sell is capped by its demand row, 0 without one (s3); rows of other products or periods cap nothing
listed_product = positions(products["product"], demand["product"], missing=-1)
listed_period = demand["period"].astype(np.int64) - 1
listed = (listed_product >= 0) & (listed_period >= 0) & (listed_period < T)
sell_cap = np.zeros((n, T))
sell_cap[listed_product[listed], listed_period[listed]] = demand["demand"][listed]
# usage rows of a resource not in resources.csv enter no row (solver.py reads usage by resource)
used_by = positions(resources["resource"], usage["resource"], missing=-1)
usage_kept = used_by >= 0
used_by, user = used_by[usage_kept], positions(products["product"], usage["product"][usage_kept])
hours_per_unit = usage["hours_per_unit"][usage_kept].astype(float)

product_part, resource_part = safe(products["product"]), safe(resources["resource"])
period_part = np.array([str(t) for t in range(1, T + 1)], dtype=object)
product_period = np.repeat(product_part, T) + "_" + np.tile(period_part, n)  # product-major, as the columns

# columns: make, sell, stock per (product, period), product-major (s1), then crews per resource (s1, s5)
cells = n * T
make, sell, stock = (np.arange(cells).reshape(n, T) + k * cells for k in range(3))
crews = 3 * cells + np.arange(R)
col_names = [*("make_" + product_period), *("sell_" + product_period), *("stock_" + product_period),
             *("crews_" + resource_part)]
cost = np.concatenate([-np.repeat(products["material_cost"].astype(float), T),  # s8: the margin
                       np.repeat(products["price"].astype(float), T),
                       -np.repeat(products["holding_cost"].astype(float), T),
                       -T * resources["crew_cost"].astype(float)])
upper = np.concatenate([np.full(cells, np.inf), sell_cap.ravel(), np.full(cells, np.inf),
                        np.full(R, float(data["max_crews"]))])

# rows as (row, column, coefficient) triplets per statement, numbered from the statement's first row
cell = np.arange(cells).reshape(n, T)
balance_rhs = np.zeros((n, T))
balance_rhs[:, 0] = initial  # the stock before period 1
hours_row = (used_by[:, None] * T + np.arange(T)).ravel()  # each usage row in every period
blocks = [  # (rows, columns, coefficients, lower, upper, names)
    (np.concatenate([cell.ravel(), cell[:, 1:].ravel(), cell.ravel(), cell.ravel()]),
     np.concatenate([stock.ravel(), stock[:, :-1].ravel(), make.ravel(), sell.ravel()]),
     np.concatenate([np.ones(cells), -np.ones(cells - n), -np.ones(cells), np.ones(cells)]),
     balance_rhs.ravel(), balance_rhs.ravel(), "s2_balance_" + product_period),  # s2: stock balance
    (np.concatenate([hours_row, np.arange(R * T)]), np.concatenate([make[user].ravel(), np.repeat(crews, T)]),
     np.concatenate([np.repeat(hours_per_unit, T), -np.repeat(resources["crew_hours"].astype(float), T)]),
     np.full(R * T, -np.inf), np.repeat(resources["hours"].astype(float), T),
     "s4_hours_" + np.repeat(resource_part, T) + "_" + np.tile(period_part, R)),  # s4: regular plus crew hours
    (np.tile(np.arange(T), n), stock.ravel(), np.repeat(products["space"].astype(float), T),
     np.full(T, -np.inf), np.full(T, float(data["warehouse_space"])), "s6_space_" + period_part),  # s6
    (np.arange(n), stock[:, -1], np.ones(n), initial, np.full(n, np.inf), "s7_end_stock_" + product_part),  # s7
]
first = np.cumsum([0] + [len(block[3]) for block in blocks])  # each statement's first row
rows = np.concatenate([block[0] + f for block, f in zip(blocks, first)])
order = np.argsort(rows, kind="stable")  # row by row, as addRows takes them; within a row as solver.py adds
starts = np.concatenate([[0], np.cumsum(np.bincount(rows, minlength=first[-1]))[:-1]])
columns = np.concatenate([block[1] for block in blocks])[order]
coefficients = np.concatenate([block[2] for block in blocks])[order]

h = highspy.Highs()
h.setOptionValue("output_flag", False)
ncols = 3 * cells + R
h.addCols(ncols, cost, np.zeros(ncols), upper, 0, np.zeros(0, np.int32), np.zeros(0, np.int32), np.zeros(0))
h.addRows(first[-1], np.concatenate([block[3] for block in blocks]).astype(float),
          np.concatenate([block[4] for block in blocks]).astype(float), len(order), starts.astype(np.int32),
          columns.astype(np.int32), coefficients)
h.changeColsIntegrality(R, crews.astype(np.int32), np.full(R, highspy.HighsVarType.kInteger))
h.changeObjectiveSense(highspy.ObjSense.kMaximize)
lp = h.getLp()
lp.col_names_, lp.row_names_ = col_names, [name for block in blocks for name in block[5]]
h.passModel(lp)
del lp, rows, order, columns, coefficients, blocks, product_period  # the model lives in HiGHS now
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
    output = {"make": value[make].tolist(), "sell": value[sell].tolist(), "stock": value[stock].tolist(),
              "crews": np.rint(value[crews]).astype(int).tolist(), "margin": solution["objective"]}
json.dump(solution, open("solution.json", "w"))
json.dump(output, open("output.json", "w"))
