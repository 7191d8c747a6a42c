"""Reference program for industrial/network-design: multi-commodity fixed-charge network design, pyoptinterface
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
terminals = [r[0] for r in db.sql("SELECT terminal FROM 'data/terminals.csv'").fetchall()]
links = db.sql("SELECT link, tail, head, lease_cost, cost_per_crate, capacity FROM 'data/links.parquet'").fetchall()
shipments = db.sql("SELECT shipment, origin, destination, crates FROM 'data/shipments.csv'").fetchall()

highs.autoload_library()
m = highs.Model()
m.set_model_attribute(poi.ModelAttribute.Silent, True)
lease = {a: m.add_variable(domain=poi.VariableDomain.Binary, name=key("lease", a)) for a, *_ in links}  # s1
flow = {(a, k): m.add_variable(lb=0, name=key("flow", a, k)) for a, *_ in links for k, *_ in shipments}  # s1, s9

leaving, entering = defaultdict(list), defaultdict(list)
for a, tail, head, *_ in links:
    leaving[tail].append(a)
    entering[head].append(a)
for k, origin, destination, crates in shipments:  # s4: flow conservation, one-way links
    for t in terminals:
        net = crates if t == origin else -crates if t == destination else 0
        m.add_linear_constraint(poi.quicksum(flow[a, k] for a in leaving[t])
                                - poi.quicksum(flow[a, k] for a in entering[t]), poi.Eq, net,
                                name=key("s4_balance", k, t))
for a, _, _, _, _, capacity in links:  # s2, s5: within capacity, nothing on a link not leased
    m.add_linear_constraint(poi.quicksum(flow[a, k] for k, *_ in shipments) - capacity * lease[a], poi.Leq, 0,
                            name=key("s5_capacity", a))
for a, *_ in links:  # s6: on a leased link, a shipment's flow is at most its crates
    for k, _, _, crates in shipments:
        m.add_linear_constraint(flow[a, k] - crates * lease[a], poi.Leq, 0, name=key("s6_link", a, k))
m.set_objective(poi.quicksum(c * lease[a] for a, _, _, c, _, _ in links)
                + poi.quicksum(u * flow[a, k] for a, _, _, _, u, _ in links for k, *_ in shipments),
                poi.ObjectiveSense.Minimize)  # s2, s3
variables = [*lease.values(), *flow.values()]


def report(value, objective) -> dict:
    return {"leased": [a for a, *_ in links if value(lease[a]) > 0.5],
            "flows": [{"link": a, "shipment": k, "crates": value(v)} for (a, k), v in flow.items() if value(v) > 1e-9],
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
