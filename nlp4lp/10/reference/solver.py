"""Reference solver for nlp4lp/10 (furniture network plan): a multi-plant, multi-period production LP in PuLP."""

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
I, J, T = range(len(d["hold_cost"])), range(len(d["regular_hours"])), range(len(d["timber_supply"]))


def cube(name):
    return [[[prob.add_variable(f"{name}_{i}_{j}_{t}", lowBound=0) for t in T] for j in J] for i in I]


prob = pulp.LpProblem("furniture_network_plan", pulp.LpMinimize)
make, deliver, stock = cube("make"), cube("deliver"), cube("stock")  # s1, s12
ot = [[prob.add_variable(f"overtime_{j}_{t}", lowBound=0) for t in T] for j in J]
prob += (pulp.lpSum(d["make_cost"][i][j] * make[i][j][t] + d["hold_cost"][i] * stock[i][j][t]
                    for i in I for j in J for t in T)
         + pulp.lpSum(d["overtime_cost"][j] * ot[j][t] for j in J for t in T))  # s2
for i in I:
    for t in T:
        prob += pulp.lpSum(deliver[i][j][t] for j in J) == d["demand"][i][t], f"s3_demand_i{i}_t{t}"
        for j in J:
            before = stock[i][j][t - 1] if t > 0 else d["initial_stock"][i][j]
            prob += stock[i][j][t] == before + make[i][j][t] - deliver[i][j][t], f"s4_balance_i{i}_j{j}_t{t}"
            if not d["can_make"][i][j]:
                prob += make[i][j][t] == 0, f"s11_tooling_i{i}_j{j}_t{t}"
for j in J:
    for t in T:
        hours = pulp.lpSum(d["hours"][i][j] * make[i][j][t] for i in I)
        prob += hours <= d["regular_hours"][j] + ot[j][t], f"s5_hours_j{j}_t{t}"
        prob += ot[j][t] <= d["max_overtime"][j], f"s6_overtime_j{j}_t{t}"
        prob += pulp.lpSum(d["volume"][i] * stock[i][j][t] for i in I) <= d["storage"][j], f"s7_storage_j{j}_t{t}"
        prob += pulp.lpSum(make[i][j][t] for i in I) >= d["min_output"][j], f"s10_min_output_j{j}_t{t}"
for t in T:
    timber = pulp.lpSum(d["timber"][i] * make[i][j][t] for i in I for j in J)
    prob += timber <= d["timber_supply"][t], f"s8_timber_t{t}"
for i in I:
    prob += pulp.lpSum(stock[i][j][T[-1]] for j in J) >= d["final_stock"][i], f"s9_final_stock_i{i}"

prob.writeMPS("model.mps")
prob.solve(SOLVERS[os.environ.get("OPTIMUS_SOLVER", "HIGHS").upper()]())
status = status_of(prob)
solved = status in ("optimal", "time_limit")
objective = pulp.value(prob.objective) if solved else None


def values(cube):
    return [[[v.value() for v in row] for row in plane] for plane in cube]


output = {"make": values(make), "deliver": values(deliver), "stock": values(stock),
          "overtime": [[v.value() for v in row] for row in ot], "total_cost": objective} if solved else {}
Path("output.json").write_text(json.dumps(output, indent=2))
Path("solution.json").write_text(json.dumps({"status": status, "values": {v.name: v.varValue for v in prob.variables()}, "objective": objective}))
