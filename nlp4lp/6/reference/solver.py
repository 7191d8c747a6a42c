"""Reference solver for nlp4lp/6 (park upgrades): a multi-dimensional knapsack MILP in PuLP."""

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
J, T = range(len(d["value"])), range(len(d["budget"]))
prob = pulp.LpProblem("park_upgrades", pulp.LpMaximize)
x = [prob.add_variable(f"select_{j}", cat="Binary") for j in J]  # s1
prob += pulp.lpSum(d["value"][j] * x[j] for j in J)  # s2
for t in T:
    prob += pulp.lpSum(d["spend"][j][t] * x[j] for j in J) <= d["budget"][t], f"s3_budget_t{t}"
prob += pulp.lpSum(d["crew"][j] * x[j] for j in J) <= d["crews"], "s4_crews"
prob += pulp.lpSum(d["accessible"][j] * x[j] for j in J) >= d["min_accessible"], "s5_min_accessible"
prob += pulp.lpSum(x) <= d["max_projects"], "s6_max_projects"

prob.writeMPS("model.mps")
prob.solve(SOLVERS[os.environ.get("OPTIMUS_SOLVER", "HIGHS").upper()]())
status = status_of(prob)
solved = status in ("optimal", "time_limit")
objective = pulp.value(prob.objective) if solved else None
output = {"select": [round(v.value()) for v in x], "total_value": objective} if solved else {}
Path("output.json").write_text(json.dumps(output, indent=2))
Path("solution.json").write_text(json.dumps({"status": status, "values": {v.name: v.varValue for v in prob.variables()}, "objective": objective}))
