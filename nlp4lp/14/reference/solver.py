"""Reference solver for nlp4lp/14 (media plan): an advertising budget allocation LP in PuLP."""

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
C, R = range(len(d["channel_cap"])), range(len(d["region_cap"]))
prob = pulp.LpProblem("media_plan", pulp.LpMaximize)
x = [[prob.add_variable(f"spend_{c}_{r}", lowBound=0) for r in R] for c in C]  # s1, s9
prob += pulp.lpSum(d["reach"][c][r] * x[c][r] for c in C for r in R)  # s2
total = pulp.lpSum(x[c][r] for c in C for r in R)
prob += total <= d["budget"], "s3_budget"
for c in C:
    prob += pulp.lpSum(x[c]) <= d["channel_cap"][c], f"s4_channel_cap_c{c}"
    prob += pulp.lpSum(x[c]) >= d["channel_min"][c], f"s5_channel_min_c{c}"
for r in R:
    prob += pulp.lpSum(d["reach"][c][r] * x[c][r] for c in C) >= d["min_impressions"][r], f"s6_reach_r{r}"
    prob += pulp.lpSum(x[c][r] for c in C) <= d["region_cap"][r], f"s7_region_cap_r{r}"
digital = pulp.lpSum(d["digital"][c] * x[c][r] for c in C for r in R)
prob += digital >= d["min_digital_share"] * total, "s8_digital_share"

prob.writeMPS("model.mps")
prob.solve(SOLVERS[os.environ.get("OPTIMUS_SOLVER", "HIGHS").upper()]())
status = status_of(prob)
solved = status in ("optimal", "time_limit")
objective = pulp.value(prob.objective) if solved else None
output = {"spend": [[v.value() for v in row] for row in x], "impressions": objective} if solved else {}
Path("output.json").write_text(json.dumps(output, indent=2))
Path("solution.json").write_text(json.dumps({"status": status, "values": {v.name: v.varValue for v in prob.variables()}, "objective": objective}))
