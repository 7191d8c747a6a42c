"""Reference solver for nlp4lp/12 (grocery distribution centres): capacitated facility location, a MILP in PuLP."""

import json
import os
from pathlib import Path

import pulp

# --time-limit, --mip-gap, --threads reach the program as these variables (ARCHITECTURE.md "Solver programs")
OPTIONS = {arg: cast(os.environ[var]) for var, arg, cast in (("OPTIMUS_TIME_LIMIT", "timeLimit", float),
           ("OPTIMUS_MIP_GAP", "gapRel", float), ("OPTIMUS_THREADS", "threads", int)) if os.environ.get(var)}
SOLVERS = {"CBC": lambda: pulp.PULP_CBC_CMD(msg=False, **OPTIONS),
           "HIGHS": lambda: pulp.HiGHS(msg=False, **OPTIONS)}


def status_of(prob: pulp.LpProblem) -> str:
    if prob.sol_status == pulp.LpSolutionIntegerFeasible:
        return "time_limit"
    return {1: "optimal", -1: "infeasible", -2: "unbounded"}.get(prob.status, "error")


d = json.loads(Path("data.json").read_text())
W, S = range(len(d["fixed_cost"])), range(len(d["demand"]))
prob = pulp.LpProblem("grocery_distribution_centres", pulp.LpMinimize)
y = [prob.add_variable(f"open_{w}", cat="Binary") for w in W]  # s1
x = [[prob.add_variable(f"ship_{w}_{s}", lowBound=0) for s in S] for w in W]  # s1, s8
prob += (pulp.lpSum(d["fixed_cost"][w] * y[w] for w in W)
         + pulp.lpSum(d["cost"][w][s] * x[w][s] for w in W for s in S))  # s2, s3
for s in S:
    prob += pulp.lpSum(x[w][s] for w in W) == d["demand"][s], f"s4_demand_s{s}"
for w in W:
    prob += pulp.lpSum(x[w]) <= d["capacity"][w] * y[w], f"s5_capacity_w{w}"
    for s in S:
        if d["reachable"][w][s]:
            prob += x[w][s] <= min(d["demand"][s], d["capacity"][w]) * y[w], f"s5_open_only_w{w}_s{s}"
        else:
            prob += x[w][s] == 0, f"s6_reach_w{w}_s{s}"
prob += pulp.lpSum(y) <= d["max_open"], "s7_max_open"

prob.writeMPS("model.mps")
prob.solve(SOLVERS[os.environ.get("OPTIMUS_SOLVER", "HIGHS").upper()]())
status = status_of(prob)
solved = status in ("optimal", "time_limit")
objective = pulp.value(prob.objective) if solved else None
output = {"open": [round(v.value()) for v in y], "ship": [[v.value() for v in row] for row in x],
          "total_cost": objective} if solved else {}
Path("output.json").write_text(json.dumps(output, indent=2))
Path("solution.json").write_text(json.dumps({"status": status, "values": {v.name: v.varValue for v in prob.variables()}, "objective": objective}))
