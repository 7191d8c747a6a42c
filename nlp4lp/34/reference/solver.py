"""Reference solver for nlp4lp/34: capital project selection with yearly budgets (MILP)."""

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
    value, spend, budget = d["value"], d["spend"], d["budget"]
    J, T = len(value), len(budget)
    prob = pulp.LpProblem("project_selection", pulp.LpMaximize)
    x = [prob.add_variable(f"select_{j + 1}", cat="Binary") for j in range(J)]
    prob += pulp.LpAffineExpression([(x[j], value[j]) for j in range(J)])
    # s3, s4: yearly budget
    for t in range(T):
        expr = pulp.LpAffineExpression([(x[j], spend[j][t]) for j in range(J) if spend[j][t]])
        prob += pulp.LpConstraint(expr, pulp.LpConstraintLE, f"s4_budget_t{t + 1}", budget[t])
    groups = {}
    for j in range(J):
        pre = d["prerequisite"][j]
        if pre:  # s5: prerequisite
            expr = pulp.LpAffineExpression([(x[j], 1), (x[pre - 1], -1)])
            prob += pulp.LpConstraint(expr, pulp.LpConstraintLE, f"s5_prerequisite_j{j + 1}", 0)
        if d["group"][j]:
            groups.setdefault(d["group"][j], []).append((x[j], 1))
        if d["mandatory"][j]:  # s7: regulator's mandatory projects
            prob += pulp.LpConstraint(x[j], pulp.LpConstraintEQ, f"s7_mandatory_j{j + 1}", 1)
    for g, terms in groups.items():  # s6: at most one alternative per group
        prob += pulp.LpConstraint(pulp.LpAffineExpression(terms), pulp.LpConstraintLE, f"s6_group_g{g}", 1)
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
    write({"select": [round(v.value() or 0) for v in x], "total_value": objective}, status, objective, prob)


if __name__ == "__main__":
    main()
