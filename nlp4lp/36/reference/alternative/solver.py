"""Second reading of nlp4lp/36 (splitting a week's bed-days, LP): s5's medical_min bed-days that "stay reserved for
emergency medical admissions" are held out of the split, kept free for emergencies that are not planned, instead of
being a floor on the planned medical bed-days as in reference/solver.py."""

import json
import os

import pulp

# --time-limit, --mip-gap, --threads reach the program as these variables (ARCHITECTURE.md "Solver programs")
OPTIONS = {arg: cast(os.environ[var]) for var, arg, cast in (("OPTIMUS_TIME_LIMIT", "timeLimit", float),
           ("OPTIMUS_MIP_GAP", "gapRel", float), ("OPTIMUS_THREADS", "threads", int)) if os.environ.get(var)}
SOLVERS = {"CBC": lambda: pulp.PULP_CBC_CMD(msg=False, **OPTIONS),
           "HIGHS": lambda: pulp.HiGHS(msg=False, **OPTIONS)}


def status_of(prob):
    if prob.status == 1:
        return "optimal" if prob.sol_status == 1 else "time_limit"
    if prob.sol_status == 2:
        return "time_limit"
    return {-1: "infeasible", -2: "unbounded"}.get(prob.status, "error")


def write(output, status, objective, prob):
    with open("output.json", "w") as f:
        json.dump(output, f)
    with open("solution.json", "w") as f:
        json.dump({"status": status, "values": {v.name: v.varValue for v in prob.variables()}, "objective": objective}, f)


def main():
    with open("data.json") as f:
        d = json.load(f)
    prob = pulp.LpProblem("bed_days", pulp.LpMaximize)
    s = prob.add_variable("surgical", lowBound=0)
    m = prob.add_variable("medical", lowBound=0)
    prob += d["surgical_margin"] * s + d["medical_margin"] * m
    prob += s + m <= d["bed_days"] - d["medical_min"], "s1_s5_bed_days_less_reserve"
    prob += d["surgical_nursing"] * s + d["medical_nursing"] * m <= d["nursing_hours"], "s3_nursing"
    prob += s <= d["surgical_max"], "s4_theatre"
    prob.writeMPS("model.mps")
    try:
        prob.solve(SOLVERS[os.environ.get("OPTIMUS_SOLVER", "HIGHS").upper()]())
        status = status_of(prob)
    except pulp.PulpSolverError:
        status = "error"
    if status not in ("optimal", "time_limit"):
        write({}, status, None, prob)
        return
    objective = pulp.value(prob.objective)
    write({"surgical": s.value() or 0.0, "medical": m.value() or 0.0, "margin": objective}, status, objective, prob)


if __name__ == "__main__":
    main()
