"""Reference solver for nlp4lp/8 (checkpoint screeners): a shift-staffing MILP in PuLP."""

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
K, P = range(len(d["cost"])), range(len(d["required"]))
prob = pulp.LpProblem("checkpoint_screeners", pulp.LpMinimize)
x = [prob.add_variable(f"screeners_{k}", lowBound=0, cat="Integer") for k in K]  # s1, s6
prob += pulp.lpSum(d["cost"][k] * x[k] for k in K)  # s2
for p in P:
    prob += pulp.lpSum(d["covers"][k][p] * x[k] for k in K) >= d["required"][p], f"s3_coverage_p{p}"
for k in K:
    prob += x[k] <= d["max_screeners"][k], f"s4_available_k{k}"
prob += pulp.lpSum(d["part_time"][k] * x[k] for k in K) <= d["max_part_share"] * pulp.lpSum(x), "s5_part_share"

prob.writeMPS("model.mps")
prob.solve(SOLVERS[os.environ.get("OPTIMUS_SOLVER", "HIGHS").upper()]())
status = status_of(prob)
solved = status in ("optimal", "time_limit")
objective = pulp.value(prob.objective) if solved else None
output = {"screeners": [round(v.value()) for v in x], "total_cost": objective} if solved else {}
Path("output.json").write_text(json.dumps(output, indent=2))
Path("solution.json").write_text(json.dumps({"status": status, "values": {v.name: v.varValue for v in prob.variables()}, "objective": objective}))
