"""A production plan (industrial/production-planning): multi-period, multi-product, a MILP in pyoptinterface
on HiGHS."""

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
periods = range(1, data["periods"] + 1)
db = duckdb.connect()
products = db.sql("SELECT product, price, material_cost, holding_cost, space, initial_stock "
                  "FROM 'data/products.csv'").fetchall()
resources = db.sql("SELECT resource, hours, crew_hours, crew_cost FROM 'data/resources.csv'").fetchall()
usage = defaultdict(list)  # resource -> (product, hours per unit)
for p, r, h in db.sql("SELECT product, resource, hours_per_unit FROM 'data/usage.csv'").fetchall():
    usage[r].append((p, h))
demand = {(p, t): d for p, t, d in db.sql("SELECT product, period, demand FROM 'data/demand.parquet'").fetchall()}

highs.autoload_library()
m = highs.Model()
m.set_model_attribute(poi.ModelAttribute.Silent, True)
make = {(p, t): m.add_variable(lb=0, name=key("make", p, t)) for p, *_ in products for t in periods}
sell = {(p, t): m.add_variable(lb=0, ub=demand.get((p, t), 0), name=key("sell", p, t))  # statement 3
        for p, *_ in products for t in periods}
stock = {(p, t): m.add_variable(lb=0, name=key("stock", p, t)) for p, *_ in products for t in periods}
crews = {r: m.add_variable(lb=0, ub=data["max_crews"], domain=poi.VariableDomain.Integer, name=key("crews", r))
         for r, *_ in resources}  # statement 5

# Statement 2: stock balance, from the initial stock.
for p, *_, initial in products:
    for t in periods:
        before = stock[p, t - 1] if t > 1 else 0
        m.add_linear_constraint(stock[p, t] - before - make[p, t] + sell[p, t], poi.Eq, initial if t == 1 else 0,
                                name=key("s2_balance", p, t))
# Statement 4: resource hours, regular plus extra crews.
for r, hours, crew_hours, _ in resources:
    for t in periods:
        m.add_linear_constraint(poi.quicksum(h * make[p, t] for p, h in usage[r]) - crew_hours * crews[r], poi.Leq,
                                hours, name=key("s4_hours", r, t))
# Statement 6: warehouse space at the end of each period.
for t in periods:
    m.add_linear_constraint(poi.quicksum(space * stock[p, t] for p, _, _, _, space, _ in products), poi.Leq,
                            data["warehouse_space"], name=key("s6_space", t))
# Statement 7: end with at least the initial stock.
for p, *_, initial in products:
    m.add_linear_constraint(stock[p, periods[-1]], poi.Geq, initial, name=key("s7_end_stock", p))
# Statement 8: the margin.
m.set_objective(poi.quicksum(price * sell[p, t] - material * make[p, t] - holding * stock[p, t]
                             for p, price, material, holding, _, _ in products for t in periods)
                - poi.quicksum(len(periods) * cost * crews[r] for r, _, _, cost in resources), poi.ObjectiveSense.Maximize)
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
                          for v in (*make.values(), *sell.values(), *stock.values(), *crews.values())}
    if status == "time_limit":
        solution["bound"] = m.get_raw_info_double("mip_dual_bound")
        solution["gap"] = m.get_raw_info_double("mip_gap")
    output = {name: [[m.get_value(var[p, t]) for t in periods] for p, *_ in products]
              for name, var in (("make", make), ("sell", sell), ("stock", stock))}
    output["crews"] = [round(m.get_value(crews[r])) for r, *_ in resources]
    output["margin"] = objective

json.dump(solution, open("solution.json", "w"), indent=1)
json.dump(output, open("output.json", "w"), indent=1)
