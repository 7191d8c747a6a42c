"""Reference solver for nlp4lp/3 (trail rations): a diet LP in PuLP."""

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
foods, nutrients = range(len(d["cost"])), range(len(d["min_intake"]))
prob = pulp.LpProblem("trail_rations", pulp.LpMinimize)
x = [prob.add_variable(f"servings_{f}", lowBound=0) for f in foods]  # s1, s8
prob += pulp.lpSum(d["cost"][f] * x[f] for f in foods)  # s2
for n in nutrients:
    intake = pulp.lpSum(d["nutrient"][f][n] * x[f] for f in foods)
    prob += intake >= d["min_intake"][n], f"s4_min_intake_n{n}"
    prob += intake <= d["max_intake"][n], f"s5_max_intake_n{n}"
for f in foods:
    prob += x[f] <= d["max_servings"][f], f"s6_variety_f{f}"
prob += pulp.lpSum(d["weight"][f] * x[f] for f in foods) <= d["max_weight"], "s7_pack_weight"

prob.writeMPS("model.mps")
prob.solve(SOLVERS[os.environ.get("OPTIMUS_SOLVER", "HIGHS").upper()]())
status = status_of(prob)
solved = status in ("optimal", "time_limit")
objective = pulp.value(prob.objective) if solved else None
output = {"servings": [v.value() for v in x], "total_cost": objective} if solved else {}
Path("output.json").write_text(json.dumps(output, indent=2))
Path("solution.json").write_text(json.dumps({"status": status, "values": {v.name: v.varValue for v in prob.variables()}, "objective": objective}))
