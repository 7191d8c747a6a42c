"""Reference solver for nlp4lp/27: press-line maintenance schedule (MILP)."""

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
    presses, weeks = range(d["M"]), range(d["W"])
    dur = d["duration"]
    prob = pulp.LpProblem("maintenance_schedule", pulp.LpMinimize)
    start = {(m, w): prob.add_variable(f"start_{m + 1}_{w + 1}", cat="Binary") for m in presses for w in weeks}
    down = {
        (m, w): pulp.lpSum(start[m, s] for s in range(max(0, w - dur[m] + 1), w + 1))
        for m in presses
        for w in weeks
    }
    prob += pulp.lpSum(d["base_cost"][m] * d["week_factor"][w] * start[m, w] for m in presses for w in weeks)
    for m in presses:
        prob += pulp.lpSum(start[m, w] for w in weeks) == 1, f"s1_one_overhaul_m{m + 1}"
        for w in weeks:
            if not d["earliest"][m] <= w + 1 <= d["latest"][m] - dur[m] + 1:
                prob += start[m, w] <= 0, f"s3_window_m{m + 1}_w{w + 1}"
    for w in weeks:
        prob += (
            pulp.lpSum(d["crew"][m] * down[m, w] for m in presses) <= d["crew_avail"][w],
            f"s5_technicians_w{w + 1}",
        )
        prob += (
            (pulp.lpSum(d["capacity"][m] * (1 - down[m, w]) for m in presses) >= d["demand"][w]),
            f"s6_output_w{w + 1}",
        )
    prob.writeMPS("model.mps")
    prob.solve(SOLVERS[os.environ.get("OPTIMUS_SOLVER", "HIGHS").upper()]())

    status = status_of(prob)
    solved = status in ("optimal", "time_limit")
    objective = pulp.value(prob.objective) if solved else None
    output = {}
    if solved:
        weeks_chosen = [next(w + 1 for w in weeks if start[m, w].value() > 0.5) for m in presses]
        output = {"start_week": weeks_chosen, "total_cost": objective}
    with open("output.json", "w") as fh:
        json.dump(output, fh, indent=2)
    with open("solution.json", "w") as fh:
        json.dump({"status": status, "values": {v.name: v.varValue for v in prob.variables()}, "objective": objective}, fh)


if __name__ == "__main__":
    main()
