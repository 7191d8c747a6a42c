"""Reference solver for nlp4lp/1 (bakery): a two-variable production mix LP in PuLP."""

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
prob = pulp.LpProblem("bakery", pulp.LpMaximize)
sourdough = prob.add_variable("sourdough", lowBound=0)  # s1, s6
rye = prob.add_variable("rye", lowBound=0)
prob += d["profit_sourdough"] * sourdough + d["profit_rye"] * rye  # s2
prob += d["oven_sourdough"] * sourdough + d["oven_rye"] * rye <= d["oven_minutes"], "s3_oven"
prob += d["flour_sourdough"] * sourdough + d["flour_rye"] * rye <= d["flour_stock"], "s4_flour"
prob += rye <= d["rye_demand"], "s5_rye_demand"

prob.writeMPS("model.mps")
prob.solve(SOLVERS[os.environ.get("OPTIMUS_SOLVER", "HIGHS").upper()]())
status = status_of(prob)
solved = status in ("optimal", "time_limit")
output = {"sourdough": sourdough.value(), "rye": rye.value()} if solved else {}
Path("output.json").write_text(json.dumps(output, indent=2))
objective = pulp.value(prob.objective) if solved else None
Path("solution.json").write_text(json.dumps({"status": status, "values": {v.name: v.varValue for v in prob.variables()}, "objective": objective}))
