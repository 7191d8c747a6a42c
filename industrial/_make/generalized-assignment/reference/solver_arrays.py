"""Reference program for industrial/generalized-assignment at 10^5 rows and up: the model of solver.py, with the
same names, built as numpy arrays and handed to HiGHS through highspy (no per-element Python modelling calls)."""

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
crews = db.sql("SELECT crew, available_hours FROM 'data/crews.csv'").fetchnumpy()  # file order
jobs = db.sql("SELECT job FROM 'data/jobs.csv'").fetchnumpy()["job"]
options = db.sql("SELECT crew, job, hours, cost FROM 'data/options.parquet'").fetchnumpy()
oc, oj = positions(crews["crew"], options["crew"]), positions(jobs, options["job"])
nc, nj, no = len(crews["crew"]), len(jobs), len(oc)
crew_part, job_part = safe(crews["crew"]), safe(jobs)

# columns: assign[c, j] per listed pair, in options.parquet order (s1, s2)
x = np.arange(no)
col_names = "assign_" + crew_part[oc] + "_" + job_part[oj]
cost = options["cost"].astype(float)

# rows as (row, column, coefficient) triplets per statement, numbered from the statement's first row
blocks = [  # (rows, columns, coefficients, lower, upper, names)
    (oj, x, np.ones(no), np.ones(nj), np.ones(nj), "s3_one_crew_" + job_part),  # s3: exactly one crew per job
    (oc, x, options["hours"].astype(float), np.full(nc, -np.inf), crews["available_hours"].astype(float),
     "s4_hours_" + crew_part),  # s4: within the crew's hours
]
first = np.cumsum([0] + [len(b[3]) for b in blocks])  # each statement's first row
rows = np.concatenate([b[0] + f for b, f in zip(blocks, first)])
order = np.argsort(rows, kind="stable")  # row by row, as addRows takes them
starts = np.concatenate([[0], np.cumsum(np.bincount(rows, minlength=first[-1]))[:-1]])
columns, coefficients = np.concatenate([b[1] for b in blocks])[order], np.concatenate([b[2] for b in blocks])[order]

h = highspy.Highs()
h.setOptionValue("output_flag", False)
h.addCols(no, cost, np.zeros(no), np.ones(no), 0, np.zeros(0, np.int32), np.zeros(0, np.int32), np.zeros(0))
h.addRows(first[-1], np.concatenate([b[3] for b in blocks]).astype(float),
          np.concatenate([b[4] for b in blocks]).astype(float), len(order), starts.astype(np.int32),
          columns.astype(np.int32), coefficients)
h.changeColsIntegrality(no, x.astype(np.int32), np.full(no, highspy.HighsVarType.kInteger))
col_names = col_names.tolist()
lp = h.getLp()
lp.col_names_, lp.row_names_ = col_names, np.concatenate([b[5] for b in blocks]).tolist()
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
    chosen = np.flatnonzero(value > 0.5)
    crew_of = dict(zip(options["job"][chosen].tolist(), options["crew"][chosen].tolist()))
    output = {"assignment": [{"job": j, "crew": crew_of[j]} for j in jobs.tolist()],
              "total_cost": solution["objective"]}
json.dump(solution, open("solution.json", "w"))
json.dump(output, open("output.json", "w"))
