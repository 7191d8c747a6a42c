"""Reference solver for nlp4lp/21: shelf-board cutting with few saw set-ups (MILP)."""

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
    pats, types = range(d["J"]), range(d["L"])
    prob = pulp.LpProblem("cutting_stock", pulp.LpMinimize)
    boards = [prob.add_variable(f"boards_{j + 1}", lowBound=0, cat="Integer") for j in pats]
    setup = [prob.add_variable(f"setup_{j + 1}", cat="Binary") for j in pats]
    prob += pulp.lpSum(boards)
    for i in types:
        prob += (
            pulp.lpSum(d["pieces"][j][i] * boards[j] for j in pats) >= d["demand"][i],
            f"s4_demand_i{i + 1}",
        )
    prob += pulp.lpSum(boards) <= d["board_stock"], "s5_board_stock"
    for j in pats:
        prob += boards[j] <= d["board_stock"] * setup[j], f"s6_setup_link_j{j + 1}"
    prob += pulp.lpSum(setup) <= d["max_patterns"], "s6_setup_limit"
    prob.writeMPS("model.mps")
    prob.solve(SOLVERS[os.environ.get("OPTIMUS_SOLVER", "HIGHS").upper()]())

    status = status_of(prob)
    solved = status in ("optimal", "time_limit")
    objective = pulp.value(prob.objective) if solved else None
    output = {}
    if solved:
        output = {"boards": [round(b.value()) for b in boards], "total_boards": round(objective)}
    with open("output.json", "w") as fh:
        json.dump(output, fh, indent=2)
    with open("solution.json", "w") as fh:
        json.dump({"status": status, "values": {v.name: v.varValue for v in prob.variables()}, "objective": objective}, fh)


if __name__ == "__main__":
    main()
