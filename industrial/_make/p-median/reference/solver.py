"""Reference program for industrial/p-median: clinics in exactly p towns, every town to one clinic, pyoptinterface
and HiGHS. Tables are read with DuckDB; rows are named after the statement they encode."""

import json
import os
import re
import time

import duckdb
import pyoptinterface as poi
from pyoptinterface import highs


def key(*parts) -> str:
    return "_".join(re.sub(r"\W", "_", str(p)) for p in parts)


started = time.perf_counter()
data = json.load(open("data.json"))
db = duckdb.connect()
towns = db.sql("SELECT town, population FROM 'data/towns.csv'").fetchall()
travel = db.sql("SELECT from_town, to_town, minutes FROM 'data/travel.parquet'").fetchall()
population = dict(towns)

highs.autoload_library()
m = highs.Model()
m.set_model_attribute(poi.ModelAttribute.Silent, True)
clinic = {t: m.add_variable(domain=poi.VariableDomain.Binary, name=key("open", t)) for t, _ in towns}  # s1
serve = {(s, t): m.add_variable(domain=poi.VariableDomain.Binary, name=key("serve", s, t))
         for s, t, _ in travel}  # s1
by_town = {t: [] for t, _ in towns}
for s, t, _ in travel:
    by_town[s].append(serve[s, t])
for s, _ in towns:  # s3: one clinic per town
    m.add_linear_constraint(poi.quicksum(by_town[s]), poi.Eq, 1, name=key("s3_one_clinic", s))
for s, t, _ in travel:  # s2: only to a town with a clinic
    m.add_linear_constraint(serve[s, t] - clinic[t], poi.Leq, 0, name=key("s2_open_only", s, t))
m.add_linear_constraint(poi.quicksum(clinic.values()), poi.Eq, data["clinics"], name="s1_clinics")
m.set_objective(poi.quicksum(population[s] * minutes * serve[s, t] for s, t, minutes in travel),
                poi.ObjectiveSense.Minimize)  # s4, s5
variables = [*clinic.values(), *serve.values()]


def report(value, objective) -> dict:
    return {"clinics": [t for t, _ in towns if value(clinic[t]) > 0.5],
            "assigned": [{"town": s, "clinic": t} for (s, t), v in serve.items() if value(v) > 0.5],
            "weighted_minutes": objective}


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
