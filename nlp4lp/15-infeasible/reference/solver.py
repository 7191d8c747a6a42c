"""Reference solver for nlp4lp/15: two-crude marine fuel blend (LP)."""

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
    prob = pulp.LpProblem("marine_fuel_blend", pulp.LpMinimize)
    light = prob.add_variable("light", lowBound=0)
    heavy = prob.add_variable("heavy", lowBound=0)
    prob += d["cost_light"] * light + d["cost_heavy"] * heavy
    prob += light + heavy >= d["min_batch"], "s3_min_batch"
    prob += light <= d["light_supply"], "s4_light_supply"
    prob += (
        ((d["sulfur_light"] - d["sulfur_max"]) * light + (d["sulfur_heavy"] - d["sulfur_max"]) * heavy <= 0),
        "s5_sulfur_average",
    )
    prob += light + heavy <= d["tank_capacity"], "s6_tank_capacity"
    prob.writeMPS("model.mps")
    prob.solve(SOLVERS[os.environ.get("OPTIMUS_SOLVER", "HIGHS").upper()]())

    status = status_of(prob)
    solved = status in ("optimal", "time_limit")
    objective = pulp.value(prob.objective) if solved else None
    output = {"light": light.value(), "heavy": heavy.value(), "total_cost": objective} if solved else {}
    with open("output.json", "w") as fh:
        json.dump(output, fh, indent=2)
    with open("solution.json", "w") as fh:
        json.dump({"status": status, "values": {v.name: v.varValue for v in prob.variables()}, "objective": objective}, fh)


if __name__ == "__main__":
    main()
