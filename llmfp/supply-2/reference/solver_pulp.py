"""Second reference for the bean roaster's supply chain, written apart from the Z3 one: the same statements
as an integer program in PuLP (CBC). Ground truth only: it writes solution.json and output.json."""

import json
from pathlib import Path

import pulp

d = json.loads(Path("data.json").read_text())
growers, roasteries, cafes = len(d["harvest"]), len(d["roast_capacity"]), len(d["demand"])
prob = pulp.LpProblem("bean_roaster", pulp.LpMinimize)
buy = prob.add_variable_dicts("buy", (range(growers), range(roasteries)), lowBound=0, cat="Integer")
send = prob.add_variable_dicts("send", (range(roasteries), range(cafes)), lowBound=0, cat="Integer")
prob += (pulp.lpSum((d["bean_cost"][g][r] + d["roast_cost"][r]) * buy[g][r]
                    for g in range(growers) for r in range(roasteries))
         + pulp.lpSum(d["delivery_cost"][r][c] * send[r][c] for r in range(roasteries) for c in range(cafes)))
for g in range(growers):
    limit = 0 if d["closed"][g] else d["harvest"][g]
    prob += pulp.lpSum(buy[g][r] for r in range(roasteries)) <= limit
for r in range(roasteries):
    inflow = pulp.lpSum(buy[g][r] for g in range(growers))
    prob += inflow <= d["roast_capacity"][r]
    prob += pulp.lpSum(send[r][c] for c in range(cafes)) == inflow
for c in range(cafes):
    prob += pulp.lpSum(send[r][c] for r in range(roasteries)) >= d["demand"][c]
prob.solve(pulp.HiGHS(msg=False))
status = {1: "optimal", -1: "infeasible", -2: "unbounded"}.get(prob.status, "error")
objective = round(pulp.value(prob.objective)) if status == "optimal" else None
output = {"buy": [[round(buy[g][r].value()) for r in range(roasteries)] for g in range(growers)],
          "send": [[round(send[r][c].value()) for c in range(cafes)] for r in range(roasteries)],
          "total_cost": objective} if status == "optimal" else {}
Path("output.json").write_text(json.dumps(output))
Path("solution.json").write_text(json.dumps({"status": status, "objective": objective}))
