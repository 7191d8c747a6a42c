"""Reference program for industrial/timetabling at 10^5 variables and up: the model of solver.py, with the
same names, built as numpy arrays and handed to HiGHS through highspy (no per-element modelling calls)."""

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


def rows_in_order_seen(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """One row per distinct key, numbered in the order the keys first appear along the columns (as solver.py's
    dicts fill): each column's row, and each row's first column (to name the row by)."""
    distinct, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    seen = np.argsort(first, kind="stable")
    rank = np.empty(len(distinct), np.int64)
    rank[seen] = np.arange(len(distinct))
    return rank[inverse], first[seen]


def at_most_one(rows: np.ndarray, names: np.ndarray) -> tuple:
    """A statement's `sum x <= 1` rows as a block: `rows` holds each column's row, in column order."""
    none_below = np.full(len(names), -np.inf)
    return rows, np.arange(len(rows)), np.ones(len(rows)), none_below, np.ones(len(names)), names


started = time.perf_counter()
data = json.load(open("data.json"))
db = duckdb.connect()
courses = db.sql('SELECT course, teacher, "group", lessons, students, room_kind '
                 "FROM 'data/courses.csv'").fetchnumpy()  # file order
rooms = db.sql("SELECT room, kind, seats FROM 'data/rooms.csv'").fetchnumpy()
periods = db.sql("SELECT period, day, slot FROM 'data/periods.csv'").fetchnumpy()
unavailable = db.sql("SELECT teacher, period FROM 'data/unavailable.csv'").fetchnumpy()
P = len(periods["period"])
# teachers, groups and days are no tables of their own: numbered in the order they first appear
teachers, groups = list(dict.fromkeys(courses["teacher"])), list(dict.fromkeys(courses["group"]))
days = list(dict.fromkeys(periods["day"]))
course_teacher = positions(teachers, courses["teacher"])
course_group = positions(groups, courses["group"])
period_day = positions(days, periods["day"])
course_part, period_part, room_part = safe(courses["course"]), safe(periods["period"]), safe(rooms["room"])
teacher_part, group_part, day_part = safe(teachers), safe(groups), safe(days)

# s5: a teacher away in a period; rows naming an unknown teacher or period change nothing
away = np.zeros((len(teachers), P), bool)
at, ap = positions(teachers, unavailable["teacher"]), positions(periods["period"], unavailable["period"])
known = (at >= 0) & (ap >= 0)
away[at[known], ap[known]] = True
# s3: a room of the course's kind with enough seats
fits = ((courses["room_kind"][:, None] == rooms["kind"][None, :])
        & (courses["students"][:, None] <= rooms["seats"][None, :]))

# columns: x[c, p, r] course-major, then period, then room (table orders) where it may be (s1, s3, s5)
xc, xp, xr = np.nonzero(fits[:, None, :] & ~away[course_teacher][:, :, None])
n = len(xc)
col_names = list("x_" + course_part[xc] + "_" + period_part[xp] + "_" + room_part[xr])
late = periods["slot"] >= data["late_slot"]
cost = (data["seat_cost"] * (rooms["seats"][xr] - courses["students"][xc]).astype(float)
        + data["late_penalty"] * late[xp].astype(float))  # s6

# rows as (row, column, coefficient) triplets per statement, numbered from the statement's first row; every
# statement holds each column once, and its "at most one" rows exist only for keys that have a variable
x = np.arange(n)
one_a_day, day_first = rows_in_order_seen(xc * len(days) + period_day[xp])
room_row, room_first = rows_in_order_seen(xr * P + xp)
teacher_row, teacher_first = rows_in_order_seen(course_teacher[xc] * P + xp)
group_row, group_first = rows_in_order_seen(course_group[xc] * P + xp)
lessons = courses["lessons"].astype(float)

blocks = [  # (rows, columns, coefficients, lower, upper, names)
    (xc, x, np.ones(n), lessons, lessons, "s2_lessons_" + course_part),  # s2: exactly the weekly lessons
    at_most_one(one_a_day, "s2_one_a_day_" + course_part[xc[day_first]] + "_"
                + day_part[period_day[xp[day_first]]]),  # s2: at most one a day
    at_most_one(room_row, "s4_room_" + room_part[xr[room_first]] + "_" + period_part[xp[room_first]]),  # s4
    at_most_one(teacher_row, "s4_teacher_" + teacher_part[course_teacher[xc[teacher_first]]] + "_"
                + period_part[xp[teacher_first]]),  # s4
    at_most_one(group_row, "s4_group_" + group_part[course_group[xc[group_first]]] + "_"
                + period_part[xp[group_first]]),  # s4
]
first = np.cumsum([0] + [len(b[3]) for b in blocks])  # each statement's first row
rows = np.concatenate([b[0] + f for b, f in zip(blocks, first)])
order = np.argsort(rows, kind="stable")  # row by row, as addRows takes them
starts = np.concatenate([[0], np.cumsum(np.bincount(rows, minlength=first[-1]))[:-1]])
columns = np.concatenate([b[1] for b in blocks])[order]
coefficients = np.concatenate([b[2] for b in blocks])[order]

h = highspy.Highs()
h.setOptionValue("output_flag", False)
h.addCols(n, cost, np.zeros(n), np.ones(n), 0, np.zeros(0, np.int32), np.zeros(0, np.int32), np.zeros(0))
h.addRows(first[-1], np.concatenate([b[3] for b in blocks]).astype(float),
          np.concatenate([b[4] for b in blocks]).astype(float), len(order), starts.astype(np.int32),
          columns.astype(np.int32), coefficients)
h.changeColsIntegrality(n, x.astype(np.int32), np.full(n, highspy.HighsVarType.kInteger))
lp = h.getLp()
lp.col_names_, lp.row_names_ = col_names, [name for b in blocks for name in b[5]]
h.passModel(lp)
# the model lives in HiGHS now
del lp, rows, order, columns, coefficients, blocks, one_a_day, room_row, teacher_row, group_row
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
    held = np.flatnonzero(value > 0.5)
    output = {"lessons": [{"course": c, "period": p, "room": r} for c, p, r in
                          zip(courses["course"][xc[held]].tolist(), periods["period"][xp[held]].tolist(),
                              rooms["room"][xr[held]].tolist())],
              "total_cost": solution["objective"]}
json.dump(solution, open("solution.json", "w"), indent=1)
json.dump(output, open("output.json", "w"), indent=1)
