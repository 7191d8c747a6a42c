"""Refilling tanks (industrial/inventory-routing): inventory routing under fill-to-the-brim visits, a MILP in
pyoptinterface on HiGHS. A customer's plan is a chain of intervals (visit day a, next visit day b) in which
its tank does not run dry; the litres delivered at b and the stock held on days a..b-1 follow from the data."""

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
T = data["days"]
db = duckdb.connect()
customers = db.sql("SELECT customer, tank, initial, holding_cost FROM 'data/customers.csv'").fetchall()
usage = {(c, d): u for c, d, u in db.sql("SELECT customer, day, litres FROM 'data/usage.parquet'").fetchall()}
routes = db.sql("SELECT route, cost FROM 'data/routes.csv'").fetchall()
routes_of = defaultdict(list)  # customer -> the routes that visit it
for r, c in db.sql("SELECT route, customer FROM 'data/route_stops.csv'").fetchall():
    routes_of[c].append(r)


def intervals(c, tank, initial, holding):
    """(a, b, litres delivered at b, holding cost of days a..b-1); a = 0 is the start, b = T + 1 the end."""
    for a in range(T + 1):
        level = initial if a == 0 else tank  # litres after day a's refill, or at the start
        left, held = level, 0.0
        for b in range(max(a, 1), T + 2):
            if b > max(a, 1) or a == 0 and b == 1:
                yield a, b, (tank - left if b <= T else 0.0), held
            if b > T:
                break
            left -= usage.get((c, b), 0)  # day b's usage if there is no visit on day b
            if left < -1e-9:
                break
            held += holding * left


highs.autoload_library()
m = highs.Model()
m.set_model_attribute(poi.ModelAttribute.Silent, True)
drive = {(r, t): m.add_variable(domain=poi.VariableDomain.Binary, name=key("drive", r, t))
         for r, _ in routes for t in range(1, T + 1)}
chain = {}  # (customer, a, b) -> (variable, litres, holding cost)
for c, tank, initial, holding in customers:
    for a, b, litres, held in intervals(c, tank, initial, holding):
        chain[c, a, b] = (m.add_variable(lb=0, ub=1, name=key("y", c, a, b)), litres, held)
into, out_of = defaultdict(list), defaultdict(list)
for (c, a, b), (v, litres, _) in chain.items():
    into[c, b].append((v, litres))
    out_of[c, a].append(v)

# Statements 3 and 4: each customer's days form one chain of intervals from the start to the end.
for c, *_ in customers:
    m.add_linear_constraint(poi.quicksum(out_of[c, 0]), poi.Eq, 1, name=key("s4_start", c))
for c, *_ in customers:
    for t in range(1, T + 1):
        m.add_linear_constraint(poi.quicksum(v for v, _ in into[c, t]) - poi.quicksum(out_of[c, t]), poi.Eq, 0,
                                name=key("s4_chain", c, t))
# Statements 1 and 2: a visit is made by exactly one route driven that day.
for c, *_ in customers:
    for t in range(1, T + 1):
        m.add_linear_constraint(poi.quicksum(v for v, _ in into[c, t]) - poi.quicksum(drive[r, t] for r in routes_of[c]),
                                poi.Eq, 0, name=key("s2_visit", c, t))
# Statement 5: vehicles and the depot's litres a day.
for t in range(1, T + 1):
    m.add_linear_constraint(poi.quicksum(drive[r, t] for r, _ in routes), poi.Leq, data["vehicles"],
                            name=key("s5_vehicles", t))
for t in range(1, T + 1):
    m.add_linear_constraint(poi.quicksum(litres * v for c, *_ in customers for v, litres in into[c, t]), poi.Leq,
                            data["bay_litres"], name=key("s5_bay", t))
# Statement 6: route costs plus holding costs.
m.set_objective(poi.quicksum(cost * drive[r, t] for r, cost in routes for t in range(1, T + 1))
                + poi.quicksum(held * v for v, _, held in chain.values()), poi.ObjectiveSense.Minimize)
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
    solution["values"] = {m.get_variable_name(v): m.get_value(v)
                          for v in (*drive.values(), *(v for v, _, _ in chain.values()))}
    if status == "time_limit":
        solution["bound"] = m.get_raw_info_double("mip_dual_bound")
        solution["gap"] = m.get_raw_info_double("mip_gap")
    output = {"trips": [{"day": t, "route": r} for (r, t), v in drive.items() if m.get_value(v) > 0.5],
              "total_cost": objective}

json.dump(solution, open("solution.json", "w"), indent=1)
json.dump(output, open("output.json", "w"), indent=1)
