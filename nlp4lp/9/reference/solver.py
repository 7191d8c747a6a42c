"""Reference solver for nlp4lp/9 (crop plan): a crop-planning LP in PuLP."""

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
C, F = range(len(d["price"])), range(len(d["land"]))
prob = pulp.LpProblem("crop_plan", pulp.LpMaximize)
a = [[prob.add_variable(f"area_{c}_{f}", lowBound=0) for f in F] for c in C]  # s1, s9
prob += pulp.lpSum((d["price"][c] * d["yield"][c][f] - d["cost"][c]) * a[c][f] for c in C for f in F)  # s2, s3
for f in F:
    prob += pulp.lpSum(a[c][f] for c in C) <= d["land"][f], f"s4_land_f{f}"
prob += pulp.lpSum(d["water"][c] * a[c][f] for c in C for f in F) <= d["water_limit"], "s5_water"
prob += pulp.lpSum(d["labour"][c] * a[c][f] for c in C for f in F) <= d["labour_limit"], "s6_labour"
for c in C:
    prob += pulp.lpSum(d["yield"][c][f] * a[c][f] for f in F) <= d["max_sales"][c], f"s7_sales_c{c}"
sown = pulp.lpSum(a[c][f] for c in C for f in F)
legumes = pulp.lpSum(d["legume"][c] * a[c][f] for c in C for f in F)
prob += legumes >= d["min_legume_share"] * sown, "s8_legume_share"

prob.writeMPS("model.mps")
prob.solve(SOLVERS[os.environ.get("OPTIMUS_SOLVER", "HIGHS").upper()]())
status = status_of(prob)
solved = status in ("optimal", "time_limit")
objective = pulp.value(prob.objective) if solved else None
output = {"area": [[v.value() for v in row] for row in a], "profit": objective} if solved else {}
Path("output.json").write_text(json.dumps(output, indent=2))
Path("solution.json").write_text(json.dumps({"status": status, "values": {v.name: v.varValue for v in prob.variables()}, "objective": objective}))
