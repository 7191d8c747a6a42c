"""Reference program for industrial/unit-commitment at 10^5 variables and up: the model of solver.py, with the same
names and order, built as numpy arrays and handed to HiGHS through highspy (no per-element Python modelling calls).
The units table is read with DuckDB, the transposed hourly tables with the csv module."""

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


def transposed(path):
    """A one-row table: the names (hours, in order) and their values."""
    with open(path, newline="") as f:
        names, values = list(csv.reader(f))[:2]
    return names, np.array([float(v) for v in values])


def pairs(*columns) -> np.ndarray:
    """Rows of equal-length columns, one after the other: (a0, b0, a1, b1, ...)."""
    return np.column_stack(columns).ravel()


started = time.perf_counter()
data = json.load(open("data.json"))
db = duckdb.connect()
units = db.sql("SELECT unit, min_mw, max_mw, fuel_cost, start_cost, was_on FROM 'data/units.csv'").fetchnumpy()
hours, load = transposed("data/load.csv")
reserve_hours, reserve = transposed("data/reserve.csv")
assert reserve_hours == hours, "data/reserve.csv and data/load.csv name different hours"
n, nh = len(units["unit"]), len(hours)
pmin, pmax = units["min_mw"].astype(float), units["max_mw"].astype(float)
unit_hour = np.repeat(safe(units["unit"]), nh) + "_" + np.tile(safe(hours), n)  # (g, h), unit by unit

# columns (s1): on, start, power of a unit and hour side by side, unit by unit and hour by hour
cell = np.arange(n * nh)  # (g, h) as g * nh + h
hour_of, unit_of = cell % nh, cell // nh
on, start, power = 3 * cell, 3 * cell + 1, 3 * cell + 2
col_names = pairs("on_" + unit_hour, "start_" + unit_hour, "power_" + unit_hour).tolist()
cost = pairs(np.zeros(n * nh), units["start_cost"].astype(float)[unit_of],
             units["fuel_cost"].astype(float)[unit_of])  # s7
upper = pairs(np.ones(n * nh), np.ones(n * nh), np.full(n * nh, np.inf))
binary = pairs(on, start)

# rows as (row, column, coefficient) triplets per statement, numbered from the statement's first row;
# the terms of a row in solver.py's order (the stable sort below keeps them)
first_hour = hour_of == 0
earlier = cell[~first_hour] - 1  # the same unit, the hour before
was_on = units["was_on"].astype(float)
blocks = [  # (rows, columns, coefficients, lower, upper, names)
    (hour_of, power, np.ones(n * nh), load, load, "s3_load_" + safe(hours)),  # s3: the load exactly
    (pairs(hour_of, hour_of), pairs(on, power), pairs(pmax[unit_of], -np.ones(n * nh)),
     reserve, np.full(nh, np.inf), "s4_reserve_" + safe(hours)),  # s4: the running units' spare output
    (np.repeat(np.arange(2 * n * nh), 2), pairs(power, on, power, on),
     pairs(np.ones(n * nh), -pmin[unit_of], np.ones(n * nh), -pmax[unit_of]),
     pairs(np.zeros(n * nh), np.full(n * nh, -np.inf)), pairs(np.full(n * nh, np.inf), np.zeros(n * nh)),
     pairs("s5_min_" + unit_hour, "s5_max_" + unit_hour)),  # s5: min_mw..max_mw when on, nothing when off
    # s6: start - on + on the hour before >= 0; before the first hour was_on is a constant on the right side
    (np.concatenate([cell, cell, earlier + 1]), np.concatenate([start, on, on[earlier]]),
     np.concatenate([np.ones(n * nh), -np.ones(n * nh), np.ones(len(earlier))]),
     np.where(first_hour, 0.0 - was_on[unit_of], 0.0), np.full(n * nh, np.inf), "s6_start_" + unit_hour),
]
first = np.cumsum([0] + [len(b[3]) for b in blocks])  # each statement's first row
rows = np.concatenate([b[0] + f for b, f in zip(blocks, first)])
order = np.argsort(rows, kind="stable")  # row by row, as addRows takes them
starts = np.concatenate([[0], np.cumsum(np.bincount(rows, minlength=first[-1]))[:-1]])
columns, coefficients = np.concatenate([b[1] for b in blocks])[order], np.concatenate([b[2] for b in blocks])[order]

h = highspy.Highs()
h.setOptionValue("output_flag", False)
h.addCols(3 * n * nh, cost, np.zeros(3 * n * nh), upper, 0, np.zeros(0, np.int32), np.zeros(0, np.int32),
          np.zeros(0))
h.addRows(first[-1], np.concatenate([b[3] for b in blocks]).astype(float),
          np.concatenate([b[4] for b in blocks]).astype(float), len(order), starts.astype(np.int32),
          columns.astype(np.int32), coefficients)
h.changeColsIntegrality(len(binary), binary.astype(np.int32), np.full(len(binary), highspy.HighsVarType.kInteger))
lp = h.getLp()
lp.col_names_, lp.row_names_ = col_names, [name for b in blocks for name in b[5]]
h.passModel(lp)
del lp, rows, order, columns, coefficients, blocks, unit_hour  # the model lives in HiGHS now
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
    by_unit = value.reshape(n, nh, 3)  # [g, h] -> (on, start, power)
    on_off = np.rint(by_unit[:, :, :2]).astype(int)
    output = {"schedule": [{"unit": g, "on": o, "start": s, "power": p} for g, o, s, p in
                           zip(units["unit"].tolist(), on_off[:, :, 0].tolist(), on_off[:, :, 1].tolist(),
                               by_unit[:, :, 2].tolist())],
              "total_cost": solution["objective"]}
json.dump(solution, open("solution.json", "w"))
json.dump(output, open("output.json", "w"))
