"""Reference program for industrial/bin-packing-conflicts at 10^5 rows and up: the model of solver.py, with the
same names, built as numpy arrays and handed to HiGHS through highspy (no per-element Python modelling calls)."""

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
items = db.sql("SELECT item, weight, destination FROM 'data/items.csv'").fetchnumpy()  # file order
boxes = db.sql("SELECT container, destination, capacity, cost FROM 'data/containers.csv'").fetchnumpy()
conflicts = db.sql("SELECT item_a, item_b FROM 'data/conflicts.csv'").fetchnumpy()
with open("data/handling.csv", newline="") as f:  # transposed: container names, then their rates
    names, rates = list(csv.reader(f))[:2]
rate_of = {n: float(r) for n, r in zip(names, rates)}
n, m = len(items["item"]), len(boxes["container"])
weight, rate = items["weight"].astype(float), np.array([rate_of[c] for c in boxes["container"]])

# A destination's containers in table order: boxes sorted (stably) by destination, then a slice per destination.
town = {d: k for k, d in enumerate(dict.fromkeys(boxes["destination"].tolist()))}
box_town = np.fromiter((town[d] for d in boxes["destination"]), np.int64, m)
item_town = np.fromiter((town.get(d, -1) for d in items["destination"]), np.int64, n)  # -1: no container
by_town = np.argsort(box_town, kind="stable")
per_town = np.bincount(box_town, minlength=len(town))
town_first = np.concatenate([[0], np.cumsum(per_town)[:-1]])
# x over the (parcel, container) pairs of one destination, parcel-major (s1): pair k is (pi[k], pb[k])
options = np.where(item_town >= 0, per_town[np.maximum(item_town, 0)], 0)  # containers per parcel
first_x = np.concatenate([[0], np.cumsum(options)[:-1]])  # parcel i's pairs are first_x[i] + 0 .. options[i]-1
nx = int(options.sum())
pi = np.repeat(np.arange(n), options)
within = np.arange(nx) - first_x[pi]
pb = by_town[town_first[item_town[pi]] + within]

item_part, box_part = safe(items["item"]), safe(boxes["container"])
pair_part = item_part[pi] + "_" + box_part[pb]

# columns: x[i, c] per pair first, then y[c] per container (s1); both binary
x, y = np.arange(nx), nx + np.arange(m)
col_names = [*("x_" + pair_part), *("y_" + box_part)]
cost = np.concatenate([weight[pi] * rate[pb], boxes["cost"].astype(float)])  # s5

# s4: a conflicting pair shares its destination's containers only when both parcels go to the same town
a, b = positions(items["item"], conflicts["item_a"]), positions(items["item"], conflicts["item_b"])
same = (item_town[a] == item_town[b]) & (options[a] > 0)
a, b = a[same], b[same]
repeat = options[a]
step = np.arange(int(repeat.sum())) - np.repeat(np.cumsum(repeat) - repeat, repeat)
xa, xb = first_x[np.repeat(a, repeat)] + step, first_x[np.repeat(b, repeat)] + step  # same container: same step
na = len(xa)
apart = np.arange(na)

# rows as (row, column, coefficient) triplets per statement, numbered from the statement's first row
pair = np.arange(nx)
fill_capacity = data["fill_limit"] * boxes["capacity"].astype(float)
blocks = [  # (rows, columns, coefficients, lower, upper, names)
    (pi, x, np.ones(nx), np.ones(n), np.ones(n), "s2_one_" + item_part),  # s2: one container per parcel
    (np.concatenate([pair, pair]), np.concatenate([x, y[pb]]), np.concatenate([np.ones(nx), -np.ones(nx)]),
     np.full(nx, -np.inf), np.zeros(nx), "s2_used_" + pair_part),  # s2: only into a used container
    (np.concatenate([pb, np.arange(m)]), np.concatenate([x, y]), np.concatenate([weight[pi], -fill_capacity]),
     np.full(m, -np.inf), np.zeros(m), "s3_capacity_" + box_part),  # s3: fill limit of a used container
    (np.concatenate([apart, apart, apart]), np.concatenate([x[xa], x[xb], y[pb[xa]]]),
     np.concatenate([np.ones(2 * na), -np.ones(na)]), np.full(na, -np.inf), np.zeros(na),
     "s4_apart_" + item_part[np.repeat(a, repeat)] + "_" + item_part[np.repeat(b, repeat)] + "_"
     + box_part[pb[xa]]),  # s4: conflicting parcels never share a container
]
first = np.cumsum([0] + [len(block[3]) for block in blocks])  # each statement's first row
rows = np.concatenate([block[0] + f for block, f in zip(blocks, first)])
order = np.argsort(rows, kind="stable")  # row by row, as addRows takes them
starts = np.concatenate([[0], np.cumsum(np.bincount(rows, minlength=first[-1]))[:-1]])
columns = np.concatenate([block[1] for block in blocks])[order]
coefficients = np.concatenate([block[2] for block in blocks])[order]

h = highspy.Highs()
h.setOptionValue("output_flag", False)
h.addCols(nx + m, cost, np.zeros(nx + m), np.ones(nx + m), 0, np.zeros(0, np.int32), np.zeros(0, np.int32),
          np.zeros(0))
h.addRows(first[-1], np.concatenate([block[3] for block in blocks]).astype(float),
          np.concatenate([block[4] for block in blocks]).astype(float), len(order), starts.astype(np.int32),
          columns.astype(np.int32), coefficients)
h.changeColsIntegrality(nx + m, np.arange(nx + m, dtype=np.int32), np.full(nx + m, highspy.HighsVarType.kInteger))
lp = h.getLp()
lp.col_names_, lp.row_names_ = col_names, [name for block in blocks for name in block[5]]
h.passModel(lp)
del lp, rows, order, columns, coefficients, blocks, pair_part, step, xa, xb  # the model lives in HiGHS now
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
    packed = np.flatnonzero(value[x] > 0.5)
    container = np.full(n, None, dtype=object)
    container[pi[packed]] = boxes["container"][pb[packed]]
    output = {"container": container.tolist(), "used": boxes["container"][value[y] > 0.5].tolist(),
              "total_cost": solution["objective"]}
json.dump(solution, open("solution.json", "w"))
json.dump(output, open("output.json", "w"))
