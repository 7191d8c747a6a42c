"""Reference solver for nlp4lp/16: night-shift analyzer assignment (LP)."""

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
    techs, analyzers = range(d["N"]), range(d["M"])
    prob = pulp.LpProblem("analyzer_assignment", pulp.LpMinimize)
    x = {(i, j): prob.add_variable(f"assign_{i + 1}_{j + 1}", 0, 1) for i in techs for j in analyzers}
    prob += pulp.lpSum(d["minutes"][i][j] * x[i, j] for i in techs for j in analyzers)
    for j in analyzers:
        prob += pulp.lpSum(x[i, j] for i in techs) == 1, f"s3_analyzer_covered_j{j + 1}"
    for i in techs:
        prob += pulp.lpSum(x[i, j] for j in analyzers) <= 1, f"s4_technician_load_i{i + 1}"
    for i in techs:
        for j in analyzers:
            if not d["certified"][i][j]:
                prob += x[i, j] <= 0, f"s5_certification_i{i + 1}_j{j + 1}"
    prob.writeMPS("model.mps")
    prob.solve(SOLVERS[os.environ.get("OPTIMUS_SOLVER", "HIGHS").upper()]())

    status = status_of(prob)
    solved = status in ("optimal", "time_limit")
    objective = pulp.value(prob.objective) if solved else None
    output = {}
    if solved:
        output = {"assign": [[x[i, j].value() for j in analyzers] for i in techs], "total_minutes": objective}
    with open("output.json", "w") as fh:
        json.dump(output, fh, indent=2)
    with open("solution.json", "w") as fh:
        json.dump({"status": status, "values": {v.name: v.varValue for v in prob.variables()}, "objective": objective}, fh)


if __name__ == "__main__":
    main()
