"""Reference solver for nlp4lp/13 (bottling lot sizing): multi-line lot sizing with setups, a MILP in PuLP."""

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
P, L, T = range(len(d["hold_cost"])), range(len(d["line_hours"])), range(len(d["crew_hours"]))
prob = pulp.LpProblem("bottling_lot_sizing", pulp.LpMinimize)
x = [[[prob.add_variable(f"make_{p}_{l}_{t}", lowBound=0) for t in T] for l in L] for p in P]  # s1, s12
y = [[[prob.add_variable(f"setup_{p}_{l}_{t}", cat="Binary") for t in T] for l in L] for p in P]
s = [[prob.add_variable(f"stock_{p}_{t}", lowBound=0) for t in T] for p in P]
prob += (pulp.lpSum(d["unit_cost"][p][l] * x[p][l][t] + d["setup_cost"][p][l] * y[p][l][t]
                    for p in P for l in L for t in T)
         + pulp.lpSum(d["hold_cost"][p] * s[p][t] for p in P for t in T))  # s2
for p in P:
    for t in T:
        before = s[p][t - 1] if t > 0 else d["initial_stock"][p]
        filled = pulp.lpSum(x[p][l][t] for l in L)
        prob += s[p][t] == before + filled - d["demand"][p][t], f"s3_balance_p{p}_t{t}"
        prob += s[p][t] >= d["safety"][p], f"s10_safety_p{p}_t{t}"
for l in L:
    for t in T:
        used = pulp.lpSum(d["fill_time"][p][l] * x[p][l][t] + d["setup_time"][p][l] * y[p][l][t] for p in P)
        prob += used <= d["line_hours"][l], f"s4_line_hours_l{l}_t{t}"
        prob += pulp.lpSum(y[p][l][t] for p in P) <= d["max_setups"][l], f"s8_max_setups_l{l}_t{t}"
        for p in P:
            # the most line l can fill of p in a week once the setup is done: a valid, tight big-M
            big_m = max(0.0, d["line_hours"][l] - d["setup_time"][p][l]) / d["fill_time"][p][l]
            prob += x[p][l][t] <= big_m * y[p][l][t], f"s5_setup_link_p{p}_l{l}_t{t}"
            prob += x[p][l][t] >= d["min_lot"][p] * y[p][l][t], f"s6_min_lot_p{p}_l{l}_t{t}"
            if not d["allowed"][p][l]:
                prob += y[p][l][t] == 0, f"s7_allowed_p{p}_l{l}_t{t}"
for t in T:
    prob += pulp.lpSum(d["space"][p] * s[p][t] for p in P) <= d["warehouse"], f"s9_warehouse_t{t}"
    crew = pulp.lpSum(d["crew"][p] * x[p][l][t] for p in P for l in L)
    prob += crew <= d["crew_hours"][t], f"s11_crew_t{t}"

prob.writeMPS("model.mps")
prob.solve(SOLVERS[os.environ.get("OPTIMUS_SOLVER", "HIGHS").upper()]())
status = status_of(prob)
solved = status in ("optimal", "time_limit")
objective = pulp.value(prob.objective) if solved else None
output = {
    "make": [[[v.value() for v in row] for row in plane] for plane in x],
    "setup": [[[round(v.value()) for v in row] for row in plane] for plane in y],
    "stock": [[v.value() for v in row] for row in s],
    "total_cost": objective,
} if solved else {}
Path("output.json").write_text(json.dumps(output, indent=2))
Path("solution.json").write_text(json.dumps({"status": status, "values": {v.name: v.varValue for v in prob.variables()}, "objective": objective}))
