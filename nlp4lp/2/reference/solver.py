"""Reference solver for nlp4lp/2 (theatre advertising): a two-variable integer program in PuLP."""

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
prob = pulp.LpProblem("theatre_advertising", pulp.LpMaximize)
spots = prob.add_variable("spots", lowBound=0, cat="Integer")  # s1, s7
billboards = prob.add_variable("billboards", lowBound=0, cat="Integer")
prob += d["reach_spot"] * spots + d["reach_billboard"] * billboards  # s2
prob += d["cost_spot"] * spots + d["cost_billboard"] * billboards <= d["budget"], "s3_budget"
prob += spots <= d["max_spots"], "s4_max_spots"
prob += billboards >= d["min_billboards"], "s5_min_billboards"
prob += d["cost_spot"] * spots <= d["radio_ratio"] * d["cost_billboard"] * billboards, "s6_radio_share"

prob.writeMPS("model.mps")
prob.solve(SOLVERS[os.environ.get("OPTIMUS_SOLVER", "HIGHS").upper()]())
status = status_of(prob)
solved = status in ("optimal", "time_limit")
output = {"spots": round(spots.value()), "billboards": round(billboards.value())} if solved else {}
Path("output.json").write_text(json.dumps(output, indent=2))
objective = pulp.value(prob.objective) if solved else None
Path("solution.json").write_text(json.dumps({"status": status, "values": {v.name: v.varValue for v in prob.variables()}, "objective": objective}))
