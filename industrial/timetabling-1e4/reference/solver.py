"""A weekly timetable (industrial/timetabling): courses to periods and rooms, a MILP in pyoptinterface on
HiGHS."""

import json
import os
import re
import time
from collections import defaultdict

import duckdb
import pyoptinterface as poi
from pyoptinterface import highs


def key(*parts) -> str:
    """A model name from data keys: letters, digits and underscores only."""
    return "_".join(re.sub(r"\W", "_", str(p)) for p in parts)


started = time.perf_counter()
data = json.load(open("data.json"))
db = duckdb.connect()
courses = db.sql('SELECT course, teacher, "group", lessons, students, room_kind FROM \'data/courses.csv\'').fetchall()
rooms = db.sql("SELECT room, kind, seats FROM 'data/rooms.csv'").fetchall()
periods = db.sql("SELECT period, day, slot FROM 'data/periods.csv'").fetchall()
away = set(db.sql("SELECT teacher, period FROM 'data/unavailable.csv'").fetchall())

highs.autoload_library()
m = highs.Model()
m.set_model_attribute(poi.ModelAttribute.Silent, True)
# Statements 3 and 5: only rooms of the right kind with enough seats, only periods the teacher is available.
x = {}
for c, teacher, _, _, students, kind in courses:
    for p, _, _ in periods:
        if (teacher, p) not in away:
            for r, room_kind, seats in rooms:
                if room_kind == kind and seats >= students:
                    x[c, p, r] = m.add_variable(domain=poi.VariableDomain.Binary, name=key("x", c, p, r))
by = {name: defaultdict(list) for name in ("course", "course_day", "room", "teacher", "group")}
info = {c: (t, g) for c, t, g, *_ in courses}
day = {p: d for p, d, _ in periods}
for (c, p, r), v in x.items():
    teacher, group = info[c]
    by["course"][c].append(v)
    by["course_day"][c, day[p]].append(v)
    by["room"][r, p].append(v)
    by["teacher"][teacher, p].append(v)
    by["group"][group, p].append(v)

# Statement 2: the weekly lessons, at most one a day.
for c, _, _, lessons, _, _ in courses:
    m.add_linear_constraint(poi.quicksum(by["course"][c]), poi.Eq, lessons, name=key("s2_lessons", c))
for (c, d), vs in by["course_day"].items():
    m.add_linear_constraint(poi.quicksum(vs), poi.Leq, 1, name=key("s2_one_a_day", c, d))
# Statement 4: a room, a teacher, a group at most one lesson a period.
for name in ("room", "teacher", "group"):
    for k, vs in by[name].items():
        m.add_linear_constraint(poi.quicksum(vs), poi.Leq, 1, name=key("s4", name, *k))
# Statement 6: empty seats and late lessons.
seats = {r: s for r, _, s in rooms}
students = {c: s for c, _, _, _, s, _ in courses}
late = {p for p, _, slot in periods if slot >= data["late_slot"]}
m.set_objective(poi.quicksum((data["seat_cost"] * (seats[r] - students[c]) + data["late_penalty"] * (p in late)) * v
                             for (c, p, r), v in x.items()), poi.ObjectiveSense.Minimize)
built = time.perf_counter()
m.write("model.mps")
written = time.perf_counter()

if os.environ.get("OPTIMUS_TIME_LIMIT"):
    m.set_model_attribute(poi.ModelAttribute.TimeLimitSec, float(os.environ["OPTIMUS_TIME_LIMIT"]))
if os.environ.get("OPTIMUS_MIP_GAP"):
    m.set_raw_parameter("mip_rel_gap", float(os.environ["OPTIMUS_MIP_GAP"]))
if os.environ.get("OPTIMUS_THREADS"):
    m.set_raw_parameter("threads", int(os.environ["OPTIMUS_THREADS"]))
m.optimize()
solved = time.perf_counter()

T = poi.TerminationStatusCode
term = m.get_model_attribute(poi.ModelAttribute.TerminationStatus)
has_solution = m.get_model_attribute(poi.ModelAttribute.PrimalStatus) == poi.ResultStatusCode.FEASIBLE_POINT
status = {T.OPTIMAL: "optimal", T.INFEASIBLE: "infeasible", T.DUAL_INFEASIBLE: "unbounded",
          T.INFEASIBLE_OR_UNBOUNDED: "infeasible", T.TIME_LIMIT: "time_limit"}.get(term, "error")
solution = {"status": status, "objective": None,
            "seconds": {"build": built - started, "write": written - built, "solve": solved - written}}
output = {}
if status in ("optimal", "time_limit") and has_solution:
    objective = m.get_model_attribute(poi.ModelAttribute.ObjectiveValue)
    solution["objective"] = objective
    solution["values"] = {m.get_variable_name(v): m.get_value(v) for v in x.values()}
    if status == "time_limit":
        solution["bound"] = m.get_raw_info_double("mip_dual_bound")
        solution["gap"] = m.get_raw_info_double("mip_gap")
    output = {"lessons": [{"course": c, "period": p, "room": r} for (c, p, r), v in x.items() if m.get_value(v) > 0.5],
              "total_cost": objective}

json.dump(solution, open("solution.json", "w"), indent=1)
json.dump(output, open("output.json", "w"), indent=1)
