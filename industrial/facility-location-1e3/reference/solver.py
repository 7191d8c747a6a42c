"""Reference program for industrial/facility-location: capacitated facility location over lanes, pyoptinterface
and HiGHS. Tables are read with DuckDB; rows are named after the statement they encode."""

import json
import os
import re
import time
from collections import defaultdict

import duckdb
import pyoptinterface as poi
from pyoptinterface import highs


def key(*parts) -> str:
    return "_".join(re.sub(r"\W", "_", str(p)) for p in parts)


started = time.perf_counter()
data = json.load(open("data.json"))
db = duckdb.connect()
sites = db.sql("SELECT site, fixed_cost, capacity FROM 'data/sites.csv'").fetchall()  # file order
customers = db.sql("SELECT customer, demand FROM 'data/customers.csv'").fetchall()
lanes = db.sql("SELECT site, customer, cost_per_tonne FROM 'data/lanes.parquet'").fetchall()
demand = dict(customers)

highs.autoload_library()
m = highs.Model()
m.set_model_attribute(poi.ModelAttribute.Silent, True)
open_site = {s: m.add_variable(domain=poi.VariableDomain.Binary, name=key("open", s)) for s, _, _ in sites}  # s1
ship = {(s, c): m.add_variable(lb=0, name=key("ship", s, c)) for s, c, _ in lanes}  # s1, s3, s10
into, out_of = defaultdict(list), defaultdict(list)
for s, c, _ in lanes:
    into[c].append(ship[s, c])
    out_of[s].append(ship[s, c])

for c, d in customers:  # s4: every customer receives exactly its demand
    m.add_linear_constraint(poi.quicksum(into[c]), poi.Eq, d, name=key("s4_demand", c))
for s, _, cap in sites:  # s5: at most the capacity, nothing unless open
    m.add_linear_constraint(poi.quicksum(out_of[s]) - cap * open_site[s], poi.Leq, 0, name=key("s5_capacity", s))
for s, c, _ in lanes:  # s6: a lane carries at most the customer's demand, only from an open site
    m.add_linear_constraint(ship[s, c] - demand[c] * open_site[s], poi.Leq, 0, name=key("s6_lane", s, c))
m.add_linear_constraint(poi.quicksum(open_site.values()), poi.Leq, data["max_open"], name="s7_max_open")
m.set_objective(poi.quicksum(f * open_site[s] for s, f, _ in sites)
                + poi.quicksum(u * ship[s, c] for s, c, u in lanes), poi.ObjectiveSense.Minimize)  # s2, s3
variables = [*open_site.values(), *ship.values()]


def report(value, objective) -> dict:
    return {"open": [round(value(open_site[s])) for s, _, _ in sites],
            "shipments": [{"site": s, "customer": c, "tonnes": value(v)} for (s, c), v in ship.items()
                          if value(v) > 1e-9],
            "total_cost": objective}


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
    solution["values"] = {m.get_variable_name(v): m.get_value(v) for v in variables}
    if status == "time_limit":  # an incumbent: how far from optimal it may be
        solution["bound"] = m.get_raw_info_double("mip_dual_bound")
        solution["gap"] = m.get_raw_info_double("mip_gap")
    output = report(m.get_value, objective)
json.dump(solution, open("solution.json", "w"))
json.dump(output, open("output.json", "w"))
