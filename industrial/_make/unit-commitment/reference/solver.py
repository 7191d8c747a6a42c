"""Reference program for industrial/unit-commitment: on/off, starts and outputs per unit and hour, pyoptinterface
and HiGHS. The units table is read with DuckDB, the transposed hourly tables with the csv module."""

import csv
import json
import os
import re
import time

import duckdb
import pyoptinterface as poi
from pyoptinterface import highs


def key(*parts) -> str:
    return "_".join(re.sub(r"\W", "_", str(p)) for p in parts)


def transposed(path):
    """A one-row table: the names (hours, in order) and their values."""
    with open(path, newline="") as f:
        names, values = list(csv.reader(f))[:2]
    return names, [float(v) for v in values]


started = time.perf_counter()
data = json.load(open("data.json"))
db = duckdb.connect()
units = db.sql("SELECT unit, min_mw, max_mw, fuel_cost, start_cost, was_on FROM 'data/units.csv'").fetchall()
hours, load = transposed("data/load.csv")
reserve_hours, reserve = transposed("data/reserve.csv")
assert reserve_hours == hours, "data/reserve.csv and data/load.csv name different hours"

highs.autoload_library()
m = highs.Model()
m.set_model_attribute(poi.ModelAttribute.Silent, True)
on, start, power = {}, {}, {}
for g, *_ in units:  # s1
    for h in hours:
        on[g, h] = m.add_variable(domain=poi.VariableDomain.Binary, name=key("on", g, h))
        start[g, h] = m.add_variable(domain=poi.VariableDomain.Binary, name=key("start", g, h))
        power[g, h] = m.add_variable(lb=0, name=key("power", g, h))

for t, h in enumerate(hours):  # s3: outputs meet the load exactly
    m.add_linear_constraint(poi.quicksum(power[g, h] for g, *_ in units), poi.Eq, load[t], name=key("s3_load", h))
for t, h in enumerate(hours):  # s4: spinning reserve of the running units
    m.add_linear_constraint(poi.quicksum(pmax * on[g, h] - power[g, h] for g, _, pmax, *_ in units), poi.Geq,
                            reserve[t], name=key("s4_reserve", h))
for g, pmin, pmax, *_ in units:  # s5: between min_mw and max_mw when running, nothing when off
    for h in hours:
        m.add_linear_constraint(power[g, h] - pmin * on[g, h], poi.Geq, 0, name=key("s5_min", g, h))
        m.add_linear_constraint(power[g, h] - pmax * on[g, h], poi.Leq, 0, name=key("s5_max", g, h))
for g, *_, was_on in units:  # s6: a start when running now and not the hour before
    for t, h in enumerate(hours):
        before = on[g, hours[t - 1]] if t else was_on
        m.add_linear_constraint(start[g, h] - on[g, h] + before, poi.Geq, 0, name=key("s6_start", g, h))
m.set_objective(poi.quicksum(fuel * power[g, h] + start_cost * start[g, h]
                             for g, _, _, fuel, start_cost, _ in units for h in hours),
                poi.ObjectiveSense.Minimize)  # s7
variables = [*on.values(), *start.values(), *power.values()]


def report(value, objective) -> dict:
    return {"schedule": [{"unit": g, "on": [round(value(on[g, h])) for h in hours],
                          "start": [round(value(start[g, h])) for h in hours],
                          "power": [value(power[g, h]) for h in hours]} for g, *_ in units],
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
