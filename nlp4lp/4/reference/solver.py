"""Reference solver for nlp4lp/4 (compost blend): a blending LP in PuLP."""

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
comps, props = range(len(d["cost"])), range(len(d["min_level"]))
prob = pulp.LpProblem("compost_blend", pulp.LpMinimize)
t = [prob.add_variable(f"tonnes_{c}", lowBound=0) for c in comps]  # s1, s9
prob += pulp.lpSum(d["cost"][c] * t[c] for c in comps)  # s2
prob += pulp.lpSum(t) == d["batch"], "s3_batch"
for c in comps:
    prob += t[c] <= d["available"][c], f"s4_available_c{c}"
for p in props:
    level = pulp.lpSum(d["level"][c][p] * t[c] for c in comps)
    prob += level >= d["min_level"][p] * d["batch"], f"s6_min_level_p{p}"
    prob += level <= d["max_level"][p] * d["batch"], f"s7_max_level_p{p}"
prob += pulp.lpSum(d["recycled"][c] * t[c] for c in comps) >= d["min_recycled"] * d["batch"], "s8_recycled"

prob.writeMPS("model.mps")
prob.solve(SOLVERS[os.environ.get("OPTIMUS_SOLVER", "HIGHS").upper()]())
status = status_of(prob)
solved = status in ("optimal", "time_limit")
objective = pulp.value(prob.objective) if solved else None
output = {"tonnes": [v.value() for v in t], "total_cost": objective} if solved else {}
Path("output.json").write_text(json.dumps(output, indent=2))
Path("solution.json").write_text(json.dumps({"status": status, "values": {v.name: v.varValue for v in prob.variables()}, "objective": objective}))
