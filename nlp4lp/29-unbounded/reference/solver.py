"""Reference solver for nlp4lp/29-unbounded (same model as nlp4lp/29): weekly board mix with overtime (LP)."""

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
    margin, hours = d["margin"], d["hours"]
    P, M = len(margin), len(d["regular_hours"])
    prob = pulp.LpProblem("board_mix", pulp.LpMaximize)
    make = [prob.add_variable(f"make_{p + 1}", lowBound=0) for p in range(P)]
    overtime = [prob.add_variable(f"overtime_{m + 1}", lowBound=0) for m in range(M)]
    prob += pulp.LpAffineExpression(
        [(make[p], margin[p]) for p in range(P)] + [(overtime[m], -d["overtime_cost"][m]) for m in range(M)]
    )
    # s3, s5: hours used at centre m <= regular hours + overtime
    used = [[] for _ in range(M)]
    for p in range(P):
        row = hours[p]
        for m in range(M):
            if row[m]:
                used[m].append((make[p], row[m]))
    for m in range(M):
        expr = pulp.LpAffineExpression(used[m] + [(overtime[m], -1)])
        prob += pulp.LpConstraint(expr, pulp.LpConstraintLE, f"s5_hours_m{m + 1}", d["regular_hours"][m])
    # s6: overtime limit (-1 = not limited)
    for m in range(M):
        if d["overtime_max"][m] != -1:
            prob += pulp.LpConstraint(overtime[m], pulp.LpConstraintLE, f"s6_overtime_m{m + 1}", d["overtime_max"][m])
    # s7: market cap (-1 = not capped); s8: firm orders
    for p in range(P):
        if d["demand_max"][p] != -1:
            prob += pulp.LpConstraint(make[p], pulp.LpConstraintLE, f"s7_market_p{p + 1}", d["demand_max"][p])
        prob += pulp.LpConstraint(make[p], pulp.LpConstraintGE, f"s8_orders_p{p + 1}", d["demand_min"][p])
    prob.writeMPS("model.mps")
    try:
        prob.solve(SOLVERS[os.environ.get("OPTIMUS_SOLVER", "HIGHS").upper()]())
        status = status_of(prob)
    except pulp.PulpSolverError:
        status = "error"
    if status not in ("optimal", "time_limit"):
        write({}, status, None, prob)
        return
    output = {
        "make": [v.value() or 0.0 for v in make],
        "overtime": [v.value() or 0.0 for v in overtime],
        "profit": pulp.value(prob.objective),
    }
    write(output, status, pulp.value(prob.objective), prob)


if __name__ == "__main__":
    main()
