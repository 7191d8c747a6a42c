"""Reference solver for nlp4lp/11 (machine shop mix): a production mix LP with purchasable overtime, in PuLP."""

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
N, M = range(len(d["margin"])), range(len(d["hours"]))
prob = pulp.LpProblem("machine_shop_mix", pulp.LpMaximize)
x = [prob.add_variable(f"produce_{n}", lowBound=0) for n in N]  # s1, s10
e = [prob.add_variable(f"extra_{m}", lowBound=0) for m in M]
prob += pulp.lpSum(d["margin"][n] * x[n] for n in N) - pulp.lpSum(d["extra_cost"][m] * e[m] for m in M)  # s2, s3
for m in M:
    prob += pulp.lpSum(d["time"][n][m] * x[n] for n in N) <= d["hours"][m] + e[m], f"s5_hours_m{m}"
    prob += e[m] <= d["extra_max"][m], f"s6_extra_max_m{m}"
prob += pulp.lpSum(d["material"][n] * x[n] for n in N) <= d["material_stock"], "s7_material"
for n in N:
    prob += x[n] >= d["min_units"][n], f"s8_min_units_n{n}"
    prob += x[n] <= d["max_units"][n], f"s9_max_units_n{n}"

prob.writeMPS("model.mps")
prob.solve(SOLVERS[os.environ.get("OPTIMUS_SOLVER", "HIGHS").upper()]())
status = status_of(prob)
solved = status in ("optimal", "time_limit")
output = {"produce": [v.value() for v in x], "extra": [v.value() for v in e]} if solved else {}
Path("output.json").write_text(json.dumps(output, indent=2))
objective = pulp.value(prob.objective) if solved else None
Path("solution.json").write_text(json.dumps({"status": status, "values": {v.name: v.varValue for v in prob.variables()}, "objective": objective}))
