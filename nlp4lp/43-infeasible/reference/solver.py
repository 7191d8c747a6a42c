"""Reference solver for nlp4lp/43 (canteen staples): whole packs of food meeting weekly nutrient needs at least
cost, a MILP in PuLP over map-shaped data (foods and nutrients by name)."""

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
foods, nutrients = list(d["cost"]), list(d["min_need"])
prob = pulp.LpProblem("canteen_staples", pulp.LpMinimize)
# s1, s3, s6: whole packs, at most what the wholesaler delivers
packs = {f: prob.add_variable(f"packs_{f}", lowBound=0, upBound=d["max_packs"][f], cat="Integer") for f in foods}
prob += pulp.lpSum(d["cost"][f] * packs[f] for f in foods) + d["delivery_fee"]  # s2, s5
for n in nutrients:
    prob += pulp.lpSum(d["content"][f][n] * packs[f] for f in foods) >= d["min_need"][n], f"s4_need_{n}"

prob.writeMPS("model.mps")
prob.solve(SOLVERS[os.environ.get("OPTIMUS_SOLVER", "HIGHS").upper()]())
status = status_of(prob)
solved = status in ("optimal", "time_limit")
objective = pulp.value(prob.objective) if solved else None
output = {"packs": {f: round(packs[f].value()) for f in foods}, "total_cost": objective} if solved else {}
Path("output.json").write_text(json.dumps(output, indent=2))
Path("solution.json").write_text(json.dumps({
    "status": status, "values": {v.name: v.varValue for v in prob.variables()}, "objective": objective,
    "objective_constant": d["delivery_fee"]}))  # s5: model.mps cannot hold the constant fee
