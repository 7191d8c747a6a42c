"""Reference program for industrial/lot-sizing at 10^5 rows and up: the model of solver.py, with the same names and
the same column and row order, built as numpy arrays and handed to HiGHS through highspy (no per-element Python
modelling calls)."""

import csv
import json
import os
import re
import time

import duckdb
import highspy
import numpy as np

WINDOW = 2  # the tightening rows of s5 look this many weeks ahead


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
products = db.sql("SELECT product, setup_cost, holding_cost, hours_per_case, setup_hours, opening_stock "
                  "FROM 'data/products.csv'").fetchnumpy()  # file order
demand = db.sql("SELECT product, week, cases FROM 'data/demand.parquet'").fetchnumpy()
with open("data/line_hours.csv", newline="") as f:
    weeks, values = list(csv.reader(f))[:2]  # transposed: one row of week names, one of hours
hours = np.array([float(v) for v in values])
n, T = len(products["product"]), len(weeks)
orders = np.zeros((n, T))  # 0 where the table has no row
orders[positions(products["product"], demand["product"]), positions(weeks, demand["week"])] = demand["cases"]
per_case, setup_hours = products["hours_per_case"].astype(float), products["setup_hours"].astype(float)
pair = np.repeat(safe(products["product"]), T) + "_" + np.tile(safe(weeks), n)  # (product, week), product-major

# columns per (product, week) in turn: make, stock, setup (s1, s11), as solver.py adds them
i = np.arange(n * T)
p, t = i // T, i % T
make, stock, setup = 3 * i, 3 * i + 1, 3 * i + 2
col_names = np.stack(["make_" + pair, "stock_" + pair, "setup_" + pair], axis=1).ravel()
cost = np.stack([np.zeros(n * T), np.repeat(products["holding_cost"].astype(float), T),
                 np.repeat(products["setup_cost"].astype(float), T)], axis=1).ravel()  # s7
upper = np.tile([np.inf, np.inf, 1.0], n * T)

# rows in solver.py's order: per (product, week) balance, setup and the windows that end within the horizon;
# then per week the line hours. `row` is each (product, week)'s first row.
rows_in_week = 2 + np.minimum(WINDOW, T - np.arange(T))
per_product = int(rows_in_week.sum())
row = p * per_product + np.concatenate([[0], np.cumsum(rows_in_week)[:-1]])[t]
nrows = n * per_product + T
lower_bound, upper_bound = np.full(nrows, -np.inf), np.zeros(nrows)
row_names = np.empty(nrows, dtype=object)
carried = np.flatnonzero(t > 0)  # the stock of the week before enters the balance (week 1: opening_stock)
rhs = orders.ravel().copy()
rhs[t == 0] -= products["opening_stock"].astype(float)
lower_bound[row], upper_bound[row], row_names[row] = rhs, rhs, "s3_s4_balance_" + pair
big = np.minimum(float(data["max_batch"]), (hours[None, :] - setup_hours[:, None]) / per_case[:, None]).ravel()
upper_bound[row + 1], row_names[row + 1] = 0.0, "s5_setup_" + pair  # s5, s6, s8 bound a week's filling
triplets = [  # (rows, columns, coefficients)
    (np.concatenate([row, row, row[carried]]), np.concatenate([make, stock, stock[carried - 1]]),
     np.concatenate([np.ones(n * T), -np.ones(n * T), np.ones(len(carried))])),  # s3, s4
    (np.concatenate([row + 1, row + 1]), np.concatenate([make, setup]),
     np.concatenate([np.ones(n * T), -big])),  # s5
]
for ahead in range(WINDOW):  # s5 tightened: a filling serves weeks t..t+ahead or is still in stock after
    here = np.flatnonzero(t + ahead < T)  # the (product, week)s whose window ends within the horizon
    served = sum(orders[:, k:T - ahead + k] for k in range(ahead + 1)).ravel()  # for the weeks of `here`, in order
    needed = served != 0  # solver.py leaves the setup term out when nothing is served
    at = row[here] + 2 + ahead
    row_names[at] = f"s5_window_{ahead + 1}_" + pair[here]
    triplets.append((np.concatenate([at, at, at[needed]]),
                     np.concatenate([make[here], stock[here + ahead], setup[here][needed]]),
                     np.concatenate([np.ones(len(here)), -np.ones(len(here)), -served[needed]])))
week_row = n * per_product + t  # s6: line hours of fillings and setups
upper_bound[n * per_product:], row_names[n * per_product:] = hours, "s6_hours_" + safe(weeks)
triplets.append((np.concatenate([week_row, week_row]), np.concatenate([make, setup]),
                 np.concatenate([per_case[p], setup_hours[p]])))
rows = np.concatenate([r for r, _, _ in triplets])
order = np.argsort(rows, kind="stable")  # row by row, as addRows takes them
starts = np.concatenate([[0], np.cumsum(np.bincount(rows, minlength=nrows))[:-1]])
columns = np.concatenate([c for _, c, _ in triplets])[order]
coefficients = np.concatenate([v for *_, v in triplets])[order]

h = highspy.Highs()
h.setOptionValue("output_flag", False)
h.addCols(3 * n * T, cost, np.zeros(3 * n * T), upper, 0, np.zeros(0, np.int32), np.zeros(0, np.int32), np.zeros(0))
h.addRows(nrows, lower_bound, upper_bound, len(order), starts.astype(np.int32), columns.astype(np.int32),
          coefficients)
h.changeColsIntegrality(n * T, setup.astype(np.int32), np.full(n * T, highspy.HighsVarType.kInteger))
lp = h.getLp()
lp.col_names_, lp.row_names_ = col_names.tolist(), row_names.tolist()
h.passModel(lp)
del lp, rows, order, columns, coefficients, triplets, row_names, pair  # the model lives in HiGHS now
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
    listed = np.concatenate([make, stock, setup])  # solver.py lists every make, then every stock, then every setup
    solution["values"] = dict(zip(col_names[listed].tolist(), value[listed].tolist()))
    if status == "time_limit":  # an incumbent: how far from optimal it may be
        solution.update(bound=info.mip_dual_bound, gap=info.mip_gap)
    plan = value.reshape(n, T, 3)  # per product and week: make, stock, setup
    output = {"plan": [{"product": product, "make": made.tolist(), "stock": held.tolist(), "setup": flags.tolist()}
                       for product, made, held, flags in zip(products["product"].tolist(), plan[:, :, 0],
                                                             plan[:, :, 1], np.rint(plan[:, :, 2]).astype(int))],
              "total_cost": solution["objective"]}
json.dump(solution, open("solution.json", "w"))
json.dump(output, open("output.json", "w"))
