"""Second reference for the depots, written apart from the Z3 one: the single-source capacitated facility
location MILP in PuLP (CBC)."""

import json
from pathlib import Path

import pulp

d = json.loads(Path("data.json").read_text())
depots, shops = range(len(d["lease"])), range(len(d["crates"]))
prob = pulp.LpProblem("depots", pulp.LpMinimize)
y = [prob.add_variable(f"y_{w}", cat="Binary") for w in depots]
x = [[prob.add_variable(f"x_{w}_{s}", cat="Binary") for s in shops] for w in depots]
prob += pulp.lpSum(d["lease"][w] * y[w] for w in depots) + pulp.lpSum(
    d["serve_cost"][w][s] * x[w][s] for w in depots for s in shops)
for s in shops:
    prob += pulp.lpSum(x[w][s] for w in depots) == 1
for w in depots:
    prob += pulp.lpSum(d["crates"][s] * x[w][s] for s in shops) <= d["capacity"][w] * y[w]
    for s in shops:
        prob += x[w][s] <= y[w]
        if d["drive"][w][s] > d["max_drive"]:
            prob += x[w][s] == 0
prob += pulp.lpSum(y) <= d["max_open"]
prob.solve(pulp.HiGHS(msg=False))
status = {1: "optimal", -1: "infeasible"}.get(prob.status, "error")
objective = round(pulp.value(prob.objective)) if status == "optimal" else None
output = {"open": [round(v.value()) for v in y],
          "depot_of": [max(depots, key=lambda w: x[w][s].value()) for s in shops],
          "total_cost": objective} if status == "optimal" else {}
Path("output.json").write_text(json.dumps(output))
Path("solution.json").write_text(json.dumps({"status": status, "objective": objective}))
