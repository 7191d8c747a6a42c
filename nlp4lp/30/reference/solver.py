"""Reference solver for nlp4lp/30: least-cost layer mash with nutrient ranges (LP)."""

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
    batch, cost, content = d["batch_kg"], d["cost"], d["content"]
    I, N = len(cost), len(d["min_level"])
    prob = pulp.LpProblem("layer_mash", pulp.LpMinimize)
    amount = [prob.add_variable(f"amount_{i + 1}", lowBound=0) for i in range(I)]
    prob += pulp.LpAffineExpression([(amount[i], cost[i]) for i in range(I)])
    # s1: the batch weighs exactly batch_kg
    prob += pulp.LpConstraint(pulp.LpAffineExpression([(a, 1) for a in amount]), pulp.LpConstraintEQ, "s1_batch", batch)
    for i in range(I):
        # s3: silo stock; s4: maximum share of the batch
        prob += pulp.LpConstraint(amount[i], pulp.LpConstraintLE, f"s3_stock_i{i + 1}", d["stock"][i])
        prob += pulp.LpConstraint(amount[i], pulp.LpConstraintLE, f"s4_share_i{i + 1}", d["max_share"][i] * batch)
    # s5, s6: nutrient level per kg of mash within [min_level, max_level]
    terms = [[] for _ in range(N)]
    for i in range(I):
        row = content[i]
        for n in range(N):
            if row[n]:
                terms[n].append((amount[i], row[n]))
    for n in range(N):
        expr = pulp.LpAffineExpression(terms[n])
        prob += pulp.LpConstraint(expr, pulp.LpConstraintGE, f"s6_min_n{n + 1}", d["min_level"][n] * batch)
        prob += pulp.LpConstraint(expr, pulp.LpConstraintLE, f"s6_max_n{n + 1}", d["max_level"][n] * batch)
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
    write({"amount": [v.value() or 0.0 for v in amount], "total_cost": objective}, status, objective, prob)


if __name__ == "__main__":
    main()
