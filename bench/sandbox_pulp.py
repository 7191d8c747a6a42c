"""A small PuLP model for bench_sandbox.py: a 30-item, 3-knapsack assignment solved with HiGHS,
the programs' default solver."""

import json

import pulp

items, bags = range(30), range(3)
value = [(7 * i) % 23 + 5 for i in items]
weight = [(5 * i) % 17 + 3 for i in items]
m = pulp.LpProblem("bench", pulp.LpMaximize)
x = m.add_variable_dicts("x", (items, bags), cat="Binary")
m += pulp.lpSum(value[i] * x[i][b] for i in items for b in bags)
for b in bags:
    m += pulp.lpSum(weight[i] * x[i][b] for i in items) <= 40, f"s1_capacity_b{b}"
for i in items:
    m += pulp.lpSum(x[i][b] for b in bags) <= 1, f"s2_once_i{i}"
m.solve(pulp.HiGHS(msg=False))
with open("solution.json", "w") as f:
    json.dump({"status": pulp.LpStatus[m.status].lower(), "objective": pulp.value(m.objective)}, f)
