"""Reference program for industrial/p-median at 10^5 rows and up: the model of solver.py, with the same names and
the same column and row order, built as numpy arrays and handed to HiGHS through highspy (no per-element Python
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


started = time.perf_counter()
data = json.load(open("data.json"))
db = duckdb.connect()
towns = db.sql("SELECT town, population FROM 'data/towns.csv'").fetchnumpy()  # file order
travel = db.sql("SELECT from_town, to_town, minutes FROM 'data/travel.parquet'").fetchnumpy()
source, target = positions(towns["town"], travel["from_town"]), positions(towns["town"], travel["to_town"])
n, npairs = len(towns["town"]), len(source)
town_part = safe(towns["town"])
pair_part = town_part[source] + "_" + town_part[target]

# columns: open[t] per town (s1) first, then serve[s, t] per row of travel.parquet (s1); all binary
y, x = np.arange(n), n + np.arange(npairs)
col_names = [*("open_" + town_part), *("serve_" + pair_part)]
weighted = towns["population"].astype(float)[source] * travel["minutes"].astype(float)  # s4, s5
cost = np.concatenate([np.zeros(n), weighted])

# rows as (row, column, coefficient) triplets per statement, numbered from the statement's first row
pair = np.arange(npairs)
blocks = [  # (rows, columns, coefficients, lower, upper, names)
    (source, x, np.ones(npairs), np.ones(n), np.ones(n), "s3_one_clinic_" + town_part),  # s3: one clinic per town
    (np.concatenate([pair, pair]), np.concatenate([x, y[target]]),
     np.concatenate([np.ones(npairs), -np.ones(npairs)]), np.full(npairs, -np.inf), np.zeros(npairs),
     "s2_open_only_" + pair_part),  # s2: only to a town with a clinic
    (np.zeros(n, np.int64), y, np.ones(n), [float(data["clinics"])], [float(data["clinics"])], ["s1_clinics"]),  # s1
]
first = np.cumsum([0] + [len(b[3]) for b in blocks])  # each statement's first row
rows = np.concatenate([b[0] + f for b, f in zip(blocks, first)])
order = np.argsort(rows, kind="stable")  # row by row, as addRows takes them
starts = np.concatenate([[0], np.cumsum(np.bincount(rows, minlength=first[-1]))[:-1]])
columns, coefficients = np.concatenate([b[1] for b in blocks])[order], np.concatenate([b[2] for b in blocks])[order]

h = highspy.Highs()
h.setOptionValue("output_flag", False)
h.addCols(n + npairs, cost, np.zeros(n + npairs), np.ones(n + npairs), 0, np.zeros(0, np.int32),
          np.zeros(0, np.int32), np.zeros(0))
h.addRows(first[-1], np.concatenate([b[3] for b in blocks]).astype(float),
          np.concatenate([b[4] for b in blocks]).astype(float), len(order), starts.astype(np.int32),
          columns.astype(np.int32), coefficients)
h.changeColsIntegrality(n + npairs, np.arange(n + npairs, dtype=np.int32),
                        np.full(n + npairs, highspy.HighsVarType.kInteger))
lp = h.getLp()
lp.col_names_, lp.row_names_ = col_names, [name for b in blocks for name in b[5]]
h.passModel(lp)
del lp, rows, order, columns, coefficients, blocks, pair_part  # the model lives in HiGHS now
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
    chosen = np.flatnonzero(value[x] > 0.5)  # in travel.parquet's order, as solver.py lists them
    output = {"clinics": towns["town"][value[y] > 0.5].tolist(),
              "assigned": [{"town": s, "clinic": t} for s, t in
                           zip(travel["from_town"][chosen].tolist(), travel["to_town"][chosen].tolist())],
              "weighted_minutes": solution["objective"]}
json.dump(solution, open("solution.json", "w"))
json.dump(output, open("output.json", "w"))
