"""Reference solver for nlp4lp/26: chilled delivery network design with fixed lane costs (MILP)."""

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
    lanes = range(d["A"])
    prob = pulp.LpProblem("network_design", pulp.LpMinimize)
    lease = [prob.add_variable(f"lease_{a + 1}", cat="Binary") for a in lanes]
    flow = [prob.add_variable(f"flow_{a + 1}", lowBound=0) for a in lanes]
    prob += pulp.lpSum(d["fixed_cost"][a] * lease[a] + d["unit_cost"][a] * flow[a] for a in lanes)
    for a in lanes:
        prob += flow[a] <= d["capacity"][a] * lease[a], f"s3_lane_capacity_a{a + 1}"
    for n in range(1, d["N"] + 1):
        out_f = pulp.lpSum(flow[a] for a in lanes if d["origin"][a] == n)
        in_f = pulp.lpSum(flow[a] for a in lanes if d["dest"][a] == n)
        prob += out_f - in_f == d["net_supply"][n - 1], f"s5_balance_n{n}"
    prob += pulp.lpSum(lease) <= d["max_lanes"], "s6_lane_limit"
    prob.writeMPS("model.mps")
    prob.solve(SOLVERS[os.environ.get("OPTIMUS_SOLVER", "HIGHS").upper()]())

    status = status_of(prob)
    solved = status in ("optimal", "time_limit")
    objective = pulp.value(prob.objective) if solved else None
    output = {}
    if solved:
        output = {
            "lease": [round(v.value()) for v in lease],
            "flow": [v.value() for v in flow],
            "total_cost": objective,
        }
    with open("output.json", "w") as fh:
        json.dump(output, fh, indent=2)
    with open("solution.json", "w") as fh:
        json.dump({"status": status, "values": {v.name: v.varValue for v in prob.variables()}, "objective": objective}, fh)


if __name__ == "__main__":
    main()
