"""Reference program for industrial/shift-scheduling at 10^5 variables and up: the model of solver.py, with
the same names, built as numpy arrays and handed to HiGHS through highspy (no per-element modelling calls)."""

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
    """The position in `ids` (a table's key column, in file order) of each of `keys`, -1 when absent."""
    at = {k: i for i, k in enumerate(ids)}
    return np.fromiter((at.get(k, -1) for k in keys), np.int64, len(keys))


started = time.perf_counter()
data = json.load(open("data.json"))
db = duckdb.connect()
employees = db.sql("SELECT employee, wage, max_days FROM 'data/employees.csv'").fetchnumpy()  # file order
shifts = db.sql("SELECT shift, start_hour, hours FROM 'data/shifts.csv'").fetchnumpy()
requirements = db.sql("SELECT day, shift, staff FROM 'data/requirements.csv'").fetchnumpy()
days_off = db.sql("SELECT employee, day FROM 'data/days_off.csv'").fetchnumpy()
E, D, S, K = len(employees["employee"]), data["days"], len(shifts["shift"]), data["max_consecutive"]
start, hours = shifts["start_hour"].astype(float), shifts["hours"].astype(float)
employee_part, shift_part = safe(employees["employee"]), safe(shifts["shift"])
day_part = safe(range(1, D + 1))

# s2: an employee-day off has no variables; unknown employees or days change nothing
free = np.ones((E, D), bool)
oe, od = positions(employees["employee"], days_off["employee"]), days_off["day"].astype(np.int64) - 1
known = (oe >= 0) & (od >= 0) & (od < D)
free[oe[known], od[known]] = False

# columns: work[e, d, s] over the free days, employee-major, then day, then shift (s1, s2); then short[d, s]
we, wd, ws = np.nonzero(np.broadcast_to(free[:, :, None], (E, D, S)))
nw = len(we)
work = np.full((E, D, S), -1, np.int64)
work[we, wd, ws] = np.arange(nw)
short = nw + np.arange(D * S)
sd, ss = np.divmod(np.arange(D * S), S)
col_names = [*("work_" + employee_part[we] + "_" + day_part[wd] + "_" + shift_part[ws]),
             *("short_" + day_part[sd] + "_" + shift_part[ss])]
cost = np.concatenate([employees["wage"].astype(float)[we] * hours[ws],  # s6
                       np.full(D * S, float(data["shortage_penalty"]))])  # s3
upper = np.concatenate([np.ones(nw), np.full(D * S, np.inf)])

# s3: the staff needed per day and shift, 0 when the requirements do not list it
staff = np.zeros((D, S))
rd, rs = requirements["day"].astype(np.int64) - 1, positions(shifts["shift"], requirements["shift"])
listed = (rd >= 0) & (rd < D) & (rs >= 0)
staff[rd[listed], rs[listed]] = requirements["staff"].astype(float)[listed]

# s4: the ordered shift pairs (a, b) too close when b follows a on the next day
close_a, close_b = np.nonzero(24 + start[None, :] - (start + hours)[:, None] < data["min_rest"])
rest_e, rest_d, rest_pair = np.nonzero(free[:, :-1, None] & free[:, 1:, None] & np.ones(len(close_a), bool))
nrest = len(rest_e)
rest_cols = np.stack([work[rest_e, rest_d, close_a[rest_pair]],
                      work[rest_e, rest_d + 1, close_b[rest_pair]]], 1)
# s5: windows of K + 1 days inside the horizon without a day off (only they can hold K + 1 working days)
if D > K:
    window_e, window_d = np.nonzero(np.lib.stride_tricks.sliding_window_view(free, K + 1, axis=1).all(axis=2))
else:
    window_e = window_d = np.zeros(0, np.int64)
window_cols = work[window_e[:, None, None], window_d[:, None, None] + np.arange(K + 1)[None, :, None],
                   np.arange(S)[None, None, :]].reshape(len(window_e), -1)
pair = np.full((E, D), -1, np.int64)
pair[free] = np.arange(int(free.sum()))
pe, pd = np.nonzero(free)

# rows as (row, column, coefficient) triplets per statement, numbered from the statement's first row
work_cols = np.arange(nw)
blocks = [  # (rows, columns, coefficients, lower, upper, names)
    (pair[we, wd], work_cols, np.ones(nw), np.full(len(pe), -np.inf), np.ones(len(pe)),
     "s2_one_" + employee_part[pe] + "_" + day_part[pd]),  # s2: at most one shift a day
    (np.concatenate([wd * S + ws, np.arange(D * S)]), np.concatenate([work_cols, short]), np.ones(nw + D * S),
     staff.ravel(), np.full(D * S, np.inf), "s3_cover_" + day_part[sd] + "_" + shift_part[ss]),  # s3: cover
    (np.repeat(np.arange(nrest), 2), rest_cols.ravel(), np.ones(2 * nrest), np.full(nrest, -np.inf),
     np.ones(nrest),
     "s4_rest_" + employee_part[rest_e] + "_" + day_part[rest_d] + "_" + shift_part[close_a[rest_pair]] + "_"
     + shift_part[close_b[rest_pair]]),  # s4: the minimum rest
    (np.repeat(np.arange(len(window_e)), window_cols.shape[1]), window_cols.ravel(),
     np.ones(window_cols.size),
     np.full(len(window_e), -np.inf), np.full(len(window_e), float(K)),
     "s5_in_a_row_" + employee_part[window_e] + "_" + day_part[window_d]),  # s5: at most K days in a row
    (we, work_cols, np.ones(nw), np.full(E, -np.inf), employees["max_days"].astype(float),
     "s5_max_days_" + employee_part),  # s5: at most max_days in all
]
first = np.cumsum([0] + [len(b[3]) for b in blocks])  # each statement's first row
rows = np.concatenate([b[0] + f for b, f in zip(blocks, first)])
order = np.argsort(rows, kind="stable")  # row by row, as addRows takes them
starts = np.concatenate([[0], np.cumsum(np.bincount(rows, minlength=first[-1]))[:-1]])
columns = np.concatenate([b[1] for b in blocks])[order]
coefficients = np.concatenate([b[2] for b in blocks])[order]

h = highspy.Highs()
h.setOptionValue("output_flag", False)
ncols = nw + D * S
h.addCols(ncols, cost, np.zeros(ncols), upper, 0, np.zeros(0, np.int32), np.zeros(0, np.int32), np.zeros(0))
h.addRows(first[-1], np.concatenate([b[3] for b in blocks]).astype(float),
          np.concatenate([b[4] for b in blocks]).astype(float), len(order), starts.astype(np.int32),
          columns.astype(np.int32), coefficients)
h.changeColsIntegrality(nw, work_cols.astype(np.int32), np.full(nw, highspy.HighsVarType.kInteger))
lp = h.getLp()
lp.col_names_, lp.row_names_ = col_names, [n for b in blocks for n in b[5]]
h.passModel(lp)
# the model lives in HiGHS now
del lp, rows, order, columns, coefficients, blocks, window_cols, rest_cols, work, pair
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

Status = highspy.HighsModelStatus
info = h.getInfo()
status = {Status.kOptimal: "optimal", Status.kInfeasible: "infeasible",
          Status.kUnboundedOrInfeasible: "infeasible", Status.kUnbounded: "unbounded",
          Status.kTimeLimit: "time_limit"}.get(h.getModelStatus(), "error")
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
    worked, lacking = np.flatnonzero(value[:nw] > 0.5), np.flatnonzero(value[short] > 1e-9)
    output = {"roster": [{"employee": e, "day": d, "shift": s} for e, d, s in
                         zip(employees["employee"][we[worked]].tolist(), (wd[worked] + 1).tolist(),
                             shifts["shift"][ws[worked]].tolist())],
              "short": [{"day": d, "shift": s, "people": p} for d, s, p in
                        zip((sd[lacking] + 1).tolist(), shifts["shift"][ss[lacking]].tolist(),
                            value[short][lacking].tolist())],
              "total_cost": solution["objective"]}
json.dump(solution, open("solution.json", "w"), indent=1)
json.dump(output, open("output.json", "w"), indent=1)
