"""Second reference for the print shop, written apart from the Z3 one: the min-makespan assignment MILP in PuLP
(CBC)."""

import json
from pathlib import Path

import pulp

d = json.loads(Path("data.json").read_text())
jobs, presses = range(len(d["minutes"])), range(len(d["minutes"][0]))
prob = pulp.LpProblem("print_shop", pulp.LpMinimize)
x = {(j, m): prob.add_variable(f"x_{j}_{m}", cat="Binary") for j in jobs for m in presses if d["fits"][j][m]}
cmax = prob.add_variable("cmax", lowBound=0)
prob += cmax
for j in jobs:
    prob += pulp.lpSum(x[j, m] for m in presses if (j, m) in x) == 1
for m in presses:
    prob += pulp.lpSum(d["minutes"][j][m] * x[j, m] for j in jobs if (j, m) in x) <= cmax
    for a, b in d["apart"]:
        if (a, m) in x and (b, m) in x:
            prob += x[a, m] + x[b, m] <= 1
prob.solve(pulp.HiGHS(msg=False))
status = {1: "optimal", -1: "infeasible"}.get(prob.status, "error")
objective = round(cmax.value()) if status == "optimal" else None
output = {"press_of": [next(m for m in presses if (j, m) in x and x[j, m].value() > 0.5) for j in jobs],
          "makespan": objective} if status == "optimal" else {}
Path("output.json").write_text(json.dumps(output))
Path("solution.json").write_text(json.dumps({"status": status, "objective": objective}))
