"""Reference solver for nlp4lp/18: ward rota with consecutive-day shifts (MILP)."""

import json
import os

import pulp

# --time-limit, --mip-gap, --threads reach the program as these variables (ARCHITECTURE.md "Solver programs")
OPTIONS = {arg: cast(os.environ[var]) for var, arg, cast in (("OPTIMUS_TIME_LIMIT", "timeLimit", float),
           ("OPTIMUS_MIP_GAP", "gapRel", float), ("OPTIMUS_THREADS", "threads", int)) if os.environ.get(var)}
SOLVERS = {"CBC": lambda: pulp.PULP_CBC_CMD(msg=False, **OPTIONS),
           "HIGHS": lambda: pulp.HiGHS(msg=False, **OPTIONS)}
DAYS = range(7)


def status_of(prob):
    """Normalise PuLP's status pair; a feasible but unproven MILP answer is a time limit."""
    if prob.status == pulp.LpStatusOptimal:
        return "optimal" if prob.sol_status == pulp.LpSolutionOptimal else "time_limit"
    return {pulp.LpStatusInfeasible: "infeasible", pulp.LpStatusUnbounded: "unbounded"}.get(
        prob.status, "error"
    )


def covering(starts, length, day):
    """Nurses on duty on `day` from blocks of `length` consecutive days (cyclic week)."""
    return pulp.lpSum(starts[s] for s in DAYS if (day - s) % 7 < length)


def main():
    with open("data.json") as fh:
        d = json.load(fh)
    prob = pulp.LpProblem("ward_rota", pulp.LpMinimize)
    ft = [prob.add_variable(f"ft_{t + 1}", lowBound=0, cat="Integer") for t in DAYS]
    pt = [prob.add_variable(f"pt_{t + 1}", lowBound=0, cat="Integer") for t in DAYS]
    prob += pulp.lpSum(d["ft_cost"][t] * ft[t] + d["pt_cost"][t] * pt[t] for t in DAYS)
    for t in DAYS:
        full, part = covering(ft, d["ft_length"], t), covering(pt, d["pt_length"], t)
        prob += full + part >= d["demand"][t], f"s4_coverage_d{t + 1}"
        prob += part <= d["pt_share"] * (full + part), f"s6_pt_share_d{t + 1}"
    prob += pulp.lpSum(ft) + pulp.lpSum(pt) <= d["max_headcount"], "s7_headcount"
    prob.writeMPS("model.mps")
    prob.solve(SOLVERS[os.environ.get("OPTIMUS_SOLVER", "HIGHS").upper()]())

    status = status_of(prob)
    solved = status in ("optimal", "time_limit")
    objective = pulp.value(prob.objective) if solved else None
    output = {}
    if solved:
        fv, pv = [round(v.value()) for v in ft], [round(v.value()) for v in pt]
        duty = [
            sum(fv[s] for s in DAYS if (t - s) % 7 < d["ft_length"])
            + sum(pv[s] for s in DAYS if (t - s) % 7 < d["pt_length"])
            for t in DAYS
        ]
        output = {"ft": fv, "pt": pv, "on_duty": duty, "total_cost": objective}
    with open("output.json", "w") as fh:
        json.dump(output, fh, indent=2)
    with open("solution.json", "w") as fh:
        json.dump({"status": status, "values": {v.name: v.varValue for v in prob.variables()}, "objective": objective}, fh)


if __name__ == "__main__":
    main()
