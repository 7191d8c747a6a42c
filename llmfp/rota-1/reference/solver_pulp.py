"""Second reference for the nurse rota, written apart from the Z3 one: a 0-1 feasibility program in PuLP
(CBC, constant objective). Status "feasible" when a rota exists."""

import json
from pathlib import Path

import pulp

d = json.loads(Path("data.json").read_text())
N, D, K = len(d["available"]), len(d["need"]), len(d["need"][0])
prob = pulp.LpProblem("nurse_rota", pulp.LpMinimize)
x = {(n, t, k): prob.add_variable(f"x_{n}_{t}_{k}", cat="Binary") for n in range(N) for t in range(D) for k in range(K)}
prob += pulp.lpSum([])  # nothing to optimise
for t in range(D):
    for k in range(K):
        prob += pulp.lpSum(x[n, t, k] for n in range(N)) >= d["need"][t][k]
for (n, t, k), var in x.items():
    if not d["available"][n][t][k]:  # cat="Binary" resets the bounds, so the rule is a row
        prob += var == 0
for n in range(N):
    total = pulp.lpSum(x[n, t, k] for t in range(D) for k in range(K))
    prob += total <= d["max_shifts"][n]
    prob += total >= d["min_shifts"]
    for t in range(D):
        prob += pulp.lpSum(x[n, t, k] for k in range(K)) <= 1
        if t + 1 < D:
            prob += x[n, t, K - 1] + x[n, t + 1, 0] <= 1
for a, b in d["apart"]:
    for t in range(D):
        for k in range(K):
            prob += x[a, t, k] + x[b, t, k] <= 1
prob.solve(pulp.HiGHS(msg=False))
status = {1: "feasible", -1: "infeasible"}.get(prob.status, "error")
output = {"work": [[[round(x[n, t, k].value()) for k in range(K)] for t in range(D)] for n in range(N)]} \
    if status == "feasible" else {}
Path("output.json").write_text(json.dumps(output))
Path("solution.json").write_text(json.dumps({"status": status, "objective": None}))
