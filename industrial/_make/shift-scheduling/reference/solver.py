"""A staff roster with rest rules (industrial/shift-scheduling): a MILP in pyoptinterface on HiGHS."""

import json
import os
import re
import time

import duckdb
import pyoptinterface as poi
from pyoptinterface import highs


def key(*parts) -> str:
    """A model name from data keys: letters, digits and underscores only."""
    return "_".join(re.sub(r"\W", "_", str(p)) for p in parts)


started = time.perf_counter()
data = json.load(open("data.json"))
days = range(1, data["days"] + 1)
db = duckdb.connect()
employees = db.sql("SELECT employee, wage, max_days FROM 'data/employees.csv'").fetchall()
shifts = db.sql("SELECT shift, start_hour, hours FROM 'data/shifts.csv'").fetchall()
staff = {(d, s): n for d, s, n in db.sql("SELECT day, shift, staff FROM 'data/requirements.csv'").fetchall()}
off = set(db.sql("SELECT employee, day FROM 'data/days_off.csv'").fetchall())
hours = {s: h for s, _, h in shifts}

highs.autoload_library()
m = highs.Model()
m.set_model_attribute(poi.ModelAttribute.Silent, True)
# Statement 2: nobody is rostered on a day off, so those variables do not exist.
work = {(e, d, s): m.add_variable(domain=poi.VariableDomain.Binary, name=key("work", e, d, s))
        for e, _, _ in employees for d in days if (e, d) not in off for s in hours}
short = {(d, s): m.add_variable(lb=0, name=key("short", d, s)) for d in days for s in hours}

# Statement 2: at most one shift a day.
for e, _, _ in employees:
    for d in days:
        if (e, d) not in off:
            m.add_linear_constraint(poi.quicksum(work[e, d, s] for s in hours), poi.Leq, 1, name=key("s2_one", e, d))
# Statement 3: staff per shift, apart from the shortfall.
for d in days:
    for s in hours:
        m.add_linear_constraint(poi.quicksum(work[e, d, s] for e, _, _ in employees if (e, d, s) in work)
                                + short[d, s], poi.Geq, staff.get((d, s), 0), name=key("s3_cover", d, s))
# Statement 4: min_rest hours between a shift's end and the next day's shift start.
too_close = [(a, b) for a, start_a, h_a in shifts for b, start_b, _ in shifts
             if 24 + start_b - (start_a + h_a) < data["min_rest"]]
for e, _, _ in employees:
    for d in days[:-1]:
        for a, b in too_close:
            if (e, d, a) in work and (e, d + 1, b) in work:
                m.add_linear_constraint(work[e, d, a] + work[e, d + 1, b], poi.Leq, 1, name=key("s4_rest", e, d, a, b))
# Statement 5: at most max_consecutive days in a row (only windows without a day off can break it) ...
K = data["max_consecutive"]
for e, _, _ in employees:
    for d in days[:len(days) - K]:
        window = range(d, d + K + 1)
        if all((e, t) not in off for t in window):
            m.add_linear_constraint(poi.quicksum(work[e, t, s] for t in window for s in hours), poi.Leq, K,
                                    name=key("s5_in_a_row", e, d))
# ... and at most max_days in all.
for e, _, max_days in employees:
    m.add_linear_constraint(poi.quicksum(work[e, d, s] for d in days for s in hours if (e, d, s) in work), poi.Leq,
                            max_days, name=key("s5_max_days", e))
# Statement 6 and 3: wages plus shortfall penalties.
wage = {e: w for e, w, _ in employees}
m.set_objective(poi.quicksum(wage[e] * hours[s] * v for (e, _, s), v in work.items())
                + poi.quicksum(data["shortage_penalty"] * v for v in short.values()), poi.ObjectiveSense.Minimize)
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
    solution["values"] = {m.get_variable_name(v): m.get_value(v) for v in (*work.values(), *short.values())}
    if status == "time_limit":
        solution["bound"] = m.get_raw_info_double("mip_dual_bound")
        solution["gap"] = m.get_raw_info_double("mip_gap")
    output = {"roster": [{"employee": e, "day": d, "shift": s} for (e, d, s), v in work.items() if m.get_value(v) > 0.5],
              "short": [{"day": d, "shift": s, "people": m.get_value(v)} for (d, s), v in short.items()
                        if m.get_value(v) > 1e-9],
              "total_cost": objective}

json.dump(solution, open("solution.json", "w"), indent=1)
json.dump(output, open("output.json", "w"), indent=1)
