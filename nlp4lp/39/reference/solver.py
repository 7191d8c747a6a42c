"""Reference solver for nlp4lp/39: hourly call-centre staffing with shift patterns (MILP)."""

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
    req, start, length = d["required"], d["shift_start"], d["shift_length"]
    H, S = len(req), len(start)
    prob = pulp.LpProblem("call_centre", pulp.LpMinimize)
    # s4, s5: whole agents, at most max_agents per pattern
    x = [prob.add_variable(f"agents_{s + 1}", lowBound=0, upBound=d["max_agents"][s], cat="Integer") for s in range(S)]
    prob += pulp.LpAffineExpression([(x[s], d["shift_cost"][s]) for s in range(S)])
    cover = [[] for _ in range(H)]
    for s in range(S):
        for h in range(start[s] - 1, start[s] - 1 + length[s]):
            cover[h].append((x[s], 1))
    for h in range(H):  # s2, s3: hourly coverage
        if cover[h] or req[h] > 0:
            prob += pulp.LpConstraint(pulp.LpAffineExpression(cover[h]), pulp.LpConstraintGE, f"s2_cover_h{h + 1}",
                                      req[h])
    share = d["max_part_time_share"]  # s6: part-time share of all agents
    expr = pulp.LpAffineExpression([(x[s], (1 - share) if d["part_time"][s] else -share) for s in range(S)])
    prob += pulp.LpConstraint(expr, pulp.LpConstraintLE, "s6_part_time_share", 0)
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
    write({"agents": [round(v.value() or 0) for v in x], "total_cost": objective}, status, objective, prob)


if __name__ == "__main__":
    main()
