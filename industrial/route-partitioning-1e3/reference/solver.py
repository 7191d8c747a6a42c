"""Routes from candidates (industrial/route-partitioning): set partitioning, a MILP in pyoptinterface on
HiGHS."""

import csv
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
customers = [c for (c,) in db.sql("SELECT customer FROM 'data/customers.csv'").fetchall()]
routes = db.sql("SELECT route, depot, cost, hours FROM 'data/routes.csv'").fetchall()
on_route = defaultdict(list)  # customer -> the routes visiting it
for r, c in db.sql("SELECT route, customer FROM 'data/route_stops.parquet'").fetchall():
    on_route[c].append(r)
with open("data/vehicles.csv", newline="") as f:  # transposed: depot names, then their vehicles
    names, counts = list(csv.reader(f))[:2]
vehicles = dict(zip(names, (float(v) for v in counts)))

highs.autoload_library()
m = highs.Model()
m.set_model_attribute(poi.ModelAttribute.Silent, True)
use = {r: m.add_variable(domain=poi.VariableDomain.Binary, name=key("use", r)) for r, _, _, _ in routes}

# Statement 2: every customer on exactly one route driven.
for c in customers:
    m.add_linear_constraint(poi.quicksum(use[r] for r in on_route[c]), poi.Eq, 1, name=key("s2_visit", c))
# Statement 3: a depot sends out at most its vehicles.
from_depot = defaultdict(list)
for r, d, _, _ in routes:
    from_depot[d].append(r)
for d, count in vehicles.items():
    m.add_linear_constraint(poi.quicksum(use[r] for r in from_depot[d]), poi.Leq, count, name=key("s3_vehicles", d))
# Statement 4: the drivers' hours.
m.add_linear_constraint(poi.quicksum(h * use[r] for r, _, _, h in routes), poi.Leq, data["driver_hours"],
                        name="s4_driver_hours")
# Statement 5: route costs plus dispatch fees.
m.set_objective(poi.quicksum((cost + data["dispatch_fee"]) * use[r] for r, _, cost, _ in routes),
                poi.ObjectiveSense.Minimize)
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
    solution["values"] = {m.get_variable_name(v): m.get_value(v) for v in use.values()}
    if status == "time_limit":
        solution["bound"] = m.get_raw_info_double("mip_dual_bound")
        solution["gap"] = m.get_raw_info_double("mip_gap")
    output = {"routes": [r for r, _, _, _ in routes if m.get_value(use[r]) > 0.5], "total_cost": objective}

json.dump(solution, open("solution.json", "w"), indent=1)
json.dump(output, open("output.json", "w"), indent=1)
