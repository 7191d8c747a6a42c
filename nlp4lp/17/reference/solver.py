"""Reference solver for nlp4lp/17: capacitated min-cost flow (LP)."""

import json
import os

import pulp

# --time-limit, --mip-gap, --threads reach the program as these variables (ARCHITECTURE.md "Solver programs")
OPTIONS = {arg: cast(os.environ[var]) for var, arg, cast in (("OPTIMUS_TIME_LIMIT", "timeLimit", float),
           ("OPTIMUS_MIP_GAP", "gapRel", float), ("OPTIMUS_THREADS", "threads", int)) if os.environ.get(var)}
SOLVERS = {"CBC": lambda: pulp.PULP_CBC_CMD(msg=False, **OPTIONS),
           "HIGHS": lambda: pulp.HiGHS(msg=False, **OPTIONS)}


def status_of(prob):
    """Normalise PuLP's status pair; a feasible but unproven MILP answer is a time limit."""
    if prob.status == pulp.LpStatusOptimal:
        return "optimal" if prob.sol_status == pulp.LpSolutionOptimal else "time_limit"
    return {pulp.LpStatusInfeasible: "infeasible", pulp.LpStatusUnbounded: "unbounded"}.get(
        prob.status, "error"
    )


def main():
    with open("data.json") as fh:
        d = json.load(fh)
    arcs, nodes = range(d["A"]), range(1, d["N"] + 1)
    prob = pulp.LpProblem("min_cost_flow", pulp.LpMinimize)
    flow = [prob.add_variable(f"flow_{a + 1}", lowBound=0) for a in arcs]
    prob += pulp.lpSum(d["cost"][a] * flow[a] for a in arcs)
    for a in arcs:
        prob += flow[a] <= d["capacity"][a], f"s4_capacity_a{a + 1}"
    for n in nodes:
        out_f = pulp.lpSum(flow[a] for a in arcs if d["tail"][a] == n)
        in_f = pulp.lpSum(flow[a] for a in arcs if d["head"][a] == n)
        prob += out_f - in_f == d["supply"][n - 1], f"s5_balance_n{n}"
    prob.writeMPS("model.mps")
    prob.solve(SOLVERS[os.environ.get("OPTIMUS_SOLVER", "HIGHS").upper()]())

    status = status_of(prob)
    solved = status in ("optimal", "time_limit")
    objective = pulp.value(prob.objective) if solved else None
    output = {"flow": [f.value() for f in flow], "total_cost": objective} if solved else {}
    with open("output.json", "w") as fh:
        json.dump(output, fh, indent=2)
    with open("solution.json", "w") as fh:
        json.dump({"status": status, "values": {v.name: v.varValue for v in prob.variables()}, "objective": objective}, fh)


if __name__ == "__main__":
    main()
