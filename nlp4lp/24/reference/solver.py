"""Reference solver for nlp4lp/24: support-centre workforce plan with hiring and layoffs (LP)."""

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
    T = range(d["T"])
    prob = pulp.LpProblem("workforce_plan", pulp.LpMinimize)
    staff = [prob.add_variable(f"staff_{t + 1}", lowBound=0) for t in T]
    hire = [prob.add_variable(f"hire_{t + 1}", lowBound=0) for t in T]
    fire = [prob.add_variable(f"fire_{t + 1}", lowBound=0) for t in T]
    ot = [prob.add_variable(f"overtime_{t + 1}", lowBound=0) for t in T]
    prob += pulp.lpSum(
        d["salary"] * staff[t] + d["hire_cost"] * hire[t] + d["fire_cost"] * fire[t] + d["ot_cost"] * ot[t]
        for t in T
    )
    h = d["hours_per_fte"]
    for t in T:
        before = staff[t - 1] if t else d["initial_staff"]
        prob += staff[t] == (1 - d["attrition"]) * before + hire[t] - fire[t], f"s2_staff_balance_t{t + 1}"
        prob += ot[t] <= d["ot_share"] * h * staff[t], f"s4_overtime_limit_t{t + 1}"
        prob += (
            (h * (staff[t] - (1 - d["new_productivity"]) * hire[t]) + ot[t] >= d["workload"][t]),
            f"s5_workload_t{t + 1}",
        )
        prob += hire[t] <= d["max_hire"], f"s6_hire_limit_t{t + 1}"
        prob += fire[t] <= d["max_fire"], f"s6_fire_limit_t{t + 1}"
    prob += staff[-1] >= d["final_min_staff"], "s8_final_staff"
    prob.writeMPS("model.mps")
    prob.solve(SOLVERS[os.environ.get("OPTIMUS_SOLVER", "HIGHS").upper()]())

    status = status_of(prob)
    solved = status in ("optimal", "time_limit")
    objective = pulp.value(prob.objective) if solved else None
    output = {}
    if solved:
        output = {
            key: [v.value() for v in var]
            for key, var in (("staff", staff), ("hire", hire), ("fire", fire), ("overtime", ot))
        }
        output["total_cost"] = objective
    with open("output.json", "w") as fh:
        json.dump(output, fh, indent=2)
    with open("solution.json", "w") as fh:
        json.dump({"status": status, "values": {v.name: v.varValue for v in prob.variables()}, "objective": objective}, fh)


if __name__ == "__main__":
    main()
