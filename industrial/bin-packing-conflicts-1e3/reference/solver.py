"""Parcels into containers with conflicts (industrial/bin-packing-conflicts): a MILP in pyoptinterface on
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
items = db.sql("SELECT item, weight, destination FROM 'data/items.csv'").fetchall()
boxes = db.sql("SELECT container, destination, capacity, cost FROM 'data/containers.csv'").fetchall()
conflicts = db.sql("SELECT item_a, item_b FROM 'data/conflicts.csv'").fetchall()
with open("data/handling.csv", newline="") as f:  # transposed: container names, then their rates
    names, rates = list(csv.reader(f))[:2]
rate = {n: float(r) for n, r in zip(names, rates)}
bound_for = defaultdict(list)  # destination -> its containers, in table order
for c, dest, _, _ in boxes:
    bound_for[dest].append(c)
weight = {i: w for i, w, _ in items}
dest_of = {i: d for i, _, d in items}

highs.autoload_library()
m = highs.Model()
m.set_model_attribute(poi.ModelAttribute.Silent, True)
x = {(i, c): m.add_variable(domain=poi.VariableDomain.Binary, name=key("x", i, c))
     for i, _, d in items for c in bound_for[d]}
y = {c: m.add_variable(domain=poi.VariableDomain.Binary, name=key("y", c)) for c, _, _, _ in boxes}
into = defaultdict(list)  # container -> parcels that may go into it
for i, c in x:
    into[c].append(i)

# Statement 2: one container per parcel, bound for its destination, and only a used one.
for i, _, d in items:
    m.add_linear_constraint(poi.quicksum(x[i, c] for c in bound_for[d]), poi.Eq, 1, name=key("s2_one", i))
for (i, c), v in x.items():
    m.add_linear_constraint(v - y[c], poi.Leq, 0, name=key("s2_used", i, c))
# Statement 3: weight at most fill_limit times the capacity of a used container.
for c, _, capacity, _ in boxes:
    m.add_linear_constraint(poi.quicksum(weight[i] * x[i, c] for i in into[c]) - data["fill_limit"] * capacity * y[c],
                            poi.Leq, 0, name=key("s3_capacity", c))
# Statement 4: the two parcels of a conflicting pair never share a container.
for a, b in conflicts:
    for c in bound_for[dest_of[a]]:
        if (b, c) in x:
            m.add_linear_constraint(x[a, c] + x[b, c] - y[c], poi.Leq, 0, name=key("s4_apart", a, b, c))
# Statement 5: container costs plus handling costs.
m.set_objective(poi.quicksum(cost * y[c] for c, _, _, cost in boxes)
                + poi.quicksum(weight[i] * rate[c] * v for (i, c), v in x.items()), poi.ObjectiveSense.Minimize)
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
    solution["values"] = {m.get_variable_name(v): m.get_value(v) for v in (*x.values(), *y.values())}
    if status == "time_limit":
        solution["bound"] = m.get_raw_info_double("mip_dual_bound")
        solution["gap"] = m.get_raw_info_double("mip_gap")
    chosen = {i: c for (i, c), v in x.items() if m.get_value(v) > 0.5}
    output = {"container": [chosen.get(i) for i, _, _ in items],
              "used": [c for c, _, _, _ in boxes if m.get_value(y[c]) > 0.5], "total_cost": objective}

json.dump(solution, open("solution.json", "w"), indent=1)
json.dump(output, open("output.json", "w"), indent=1)
