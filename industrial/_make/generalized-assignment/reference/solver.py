"""Reference program for industrial/generalized-assignment: jobs to crews within their hours, pyoptinterface and
HiGHS. Tables are read with DuckDB; rows are named after the statement they encode."""

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
crews = db.sql("SELECT crew, available_hours FROM 'data/crews.csv'").fetchall()
jobs = [r[0] for r in db.sql("SELECT job FROM 'data/jobs.csv'").fetchall()]
options = db.sql("SELECT crew, job, hours, cost FROM 'data/options.parquet'").fetchall()

highs.autoload_library()
m = highs.Model()
m.set_model_attribute(poi.ModelAttribute.Silent, True)
assign = {(c, j): m.add_variable(domain=poi.VariableDomain.Binary, name=key("assign", c, j))
          for c, j, _, _ in options}  # s1, s2: only listed pairs
crews_of, work_of = defaultdict(list), defaultdict(list)
for c, j, h, _ in options:
    crews_of[j].append(assign[c, j])
    work_of[c].append(h * assign[c, j])
for j in jobs:  # s3: exactly one crew per job
    m.add_linear_constraint(poi.quicksum(crews_of[j]), poi.Eq, 1, name=key("s3_one_crew", j))
for c, available in crews:  # s4: within the crew's hours
    m.add_linear_constraint(poi.quicksum(work_of[c]), poi.Leq, available, name=key("s4_hours", c))
m.set_objective(poi.quicksum(cost * assign[c, j] for c, j, _, cost in options), poi.ObjectiveSense.Minimize)
variables = list(assign.values())


def report(value, objective) -> dict:
    crew_of = {j: c for (c, j), v in assign.items() if value(v) > 0.5}
    return {"assignment": [{"job": j, "crew": crew_of[j]} for j in jobs], "total_cost": objective}


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
