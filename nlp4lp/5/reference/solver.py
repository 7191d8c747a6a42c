"""Reference solver for nlp4lp/5 (capacitated transport): a transportation LP in PuLP."""

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
S, D = range(len(d["supply"])), range(len(d["demand"]))
prob = pulp.LpProblem("capacitated_transport", pulp.LpMinimize)
x = [[prob.add_variable(f"ship_{s}_{t}", lowBound=0) for t in D] for s in S]  # s1, s6
prob += pulp.lpSum(d["cost"][s][t] * x[s][t] for s in S for t in D)  # s2
for s in S:
    prob += pulp.lpSum(x[s]) <= d["supply"][s], f"s3_supply_s{s}"
for t in D:
    prob += pulp.lpSum(x[s][t] for s in S) >= d["demand"][t], f"s4_demand_d{t}"
for s in S:
    for t in D:
        prob += x[s][t] <= d["lane_cap"][s][t], f"s5_lane_cap_s{s}_d{t}"

prob.writeMPS("model.mps")
prob.solve(SOLVERS[os.environ.get("OPTIMUS_SOLVER", "HIGHS").upper()]())
status = status_of(prob)
solved = status in ("optimal", "time_limit")
output = {"ship": [[v.value() for v in row] for row in x]} if solved else {}
Path("output.json").write_text(json.dumps(output, indent=2))
objective = pulp.value(prob.objective) if solved else None
Path("solution.json").write_text(json.dumps({"status": status, "values": {v.name: v.varValue for v in prob.variables()}, "objective": objective}))
