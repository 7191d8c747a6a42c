"""Reference solver for nlp4lp/28: morning school-bus stop assignment (MILP)."""

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
    stops, buses = range(d["S"]), range(d["B"])
    prob = pulp.LpProblem("school_bus_assignment", pulp.LpMinimize)
    x = {(s, b): prob.add_variable(f"assign_{s + 1}_{b + 1}", cat="Binary") for s in stops for b in buses}
    used = [prob.add_variable(f"used_{b + 1}", cat="Binary") for b in buses]
    prob += pulp.lpSum(d["fixed_cost"][b] * used[b] for b in buses) + d["minute_cost"] * pulp.lpSum(
        d["students"][s] * d["ride"][s][b] * x[s, b] for s in stops for b in buses
    )
    for s in stops:
        prob += pulp.lpSum(x[s, b] for b in buses) == 1, f"s3_one_bus_s{s + 1}"
    for b in buses:
        prob += (
            pulp.lpSum(d["students"][s] * x[s, b] for s in stops) <= d["seats"][b] * used[b],
            f"s4_seats_b{b + 1}",
        )
        prob += pulp.lpSum(x[s, b] for s in stops) <= d["max_stops"] * used[b], f"s5_stop_limit_b{b + 1}"
    for s in stops:
        for b in buses:
            if d["ride"][s][b] > d["max_ride"]:
                prob += x[s, b] <= 0, f"s6_ride_limit_s{s + 1}_b{b + 1}"
            prob += x[s, b] <= used[b], f"s7_used_link_s{s + 1}_b{b + 1}"
    prob.writeMPS("model.mps")
    prob.solve(SOLVERS[os.environ.get("OPTIMUS_SOLVER", "HIGHS").upper()]())

    status = status_of(prob)
    solved = status in ("optimal", "time_limit")
    objective = pulp.value(prob.objective) if solved else None
    output = {}
    if solved:
        output = {
            "assign": [[round(x[s, b].value()) for b in buses] for s in stops],
            "used": [round(u.value()) for u in used],
            "total_cost": objective,
        }
    with open("output.json", "w") as fh:
        json.dump(output, fh, indent=2)
    with open("solution.json", "w") as fh:
        json.dump({"status": status, "values": {v.name: v.varValue for v in prob.variables()}, "objective": objective}, fh)


if __name__ == "__main__":
    main()
