"""Reference program for industrial/lot-sizing: multi-item capacitated lot sizing with setups, pyoptinterface and
HiGHS. Tables are read with DuckDB, the transposed week table with the csv module."""

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


WINDOW = 2  # the tightening rows of s5 look this many weeks ahead

started = time.perf_counter()
data = json.load(open("data.json"))
db = duckdb.connect()
products = db.sql("SELECT product, setup_cost, holding_cost, hours_per_case, setup_hours, opening_stock "
                  "FROM 'data/products.csv'").fetchall()
orders = {(p, w): c for p, w, c in db.sql("SELECT product, week, cases FROM 'data/demand.parquet'").fetchall()}
with open("data/line_hours.csv", newline="") as f:
    names, values = list(csv.reader(f))[:2]  # transposed: one row of week names, one of hours
weeks, hours = names, [float(v) for v in values]

highs.autoload_library()
m = highs.Model()
m.set_model_attribute(poi.ModelAttribute.Silent, True)
make, stock, setup = {}, {}, {}
for p, *_ in products:  # s1, s11
    for w in weeks:
        make[p, w] = m.add_variable(lb=0, name=key("make", p, w))
        stock[p, w] = m.add_variable(lb=0, name=key("stock", p, w))
        setup[p, w] = m.add_variable(domain=poi.VariableDomain.Binary, name=key("setup", p, w))

for p, _, _, per_case, setup_hours, opening in products:
    for t, w in enumerate(weeks):
        demand = orders.get((p, w), 0)
        carried = stock[p, weeks[t - 1]] if t else opening  # s4: the stock carried in
        m.add_linear_constraint(carried + make[p, w] - stock[p, w], poi.Eq, demand, name=key("s3_s4_balance", p, w))
        big = min(float(data["max_batch"]), (hours[t] - setup_hours) / per_case)  # s5, s6, s8 bound a week's filling
        m.add_linear_constraint(make[p, w] - big * setup[p, w], poi.Leq, 0, name=key("s5_setup", p, w))
        for ahead in range(WINDOW):  # s5 tightened: a filling serves weeks t..t+ahead or is still in stock after
            if t + ahead < len(weeks):
                served = sum(orders.get((p, weeks[k]), 0) for k in range(t, t + ahead + 1))
                expr = make[p, w] - stock[p, weeks[t + ahead]]
                if served:
                    expr = expr - served * setup[p, w]
                m.add_linear_constraint(expr, poi.Leq, 0, name=key("s5_window", ahead + 1, p, w))
for t, w in enumerate(weeks):  # s6: line hours of fillings and setups
    m.add_linear_constraint(poi.quicksum(per_case * make[p, w] + setup_hours * setup[p, w]
                                         for p, _, _, per_case, setup_hours, _ in products),
                            poi.Leq, hours[t], name=key("s6_hours", w))
m.set_objective(poi.quicksum(sc * setup[p, w] + hc * stock[p, w] for p, sc, hc, *_ in products for w in weeks),
                poi.ObjectiveSense.Minimize)  # s7
variables = [*make.values(), *stock.values(), *setup.values()]


def report(value, objective) -> dict:
    return {"plan": [{"product": p, "make": [value(make[p, w]) for w in weeks],
                      "stock": [value(stock[p, w]) for w in weeks],
                      "setup": [round(value(setup[p, w])) for w in weeks]} for p, *_ in products],
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
