"""Reference solver for nlp4lp/32: multi-commodity min-cost flow with shared arc capacities (LP)."""

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
    V, tail, head, cap = d["num_nodes"], d["arc_from"], d["arc_to"], d["arc_capacity"]
    A, K = len(tail), len(d["volume"])
    prob = pulp.LpProblem("multicommodity_flow", pulp.LpMinimize)
    flow = [[prob.add_variable(f"flow_{k + 1}_{a + 1}", lowBound=0) for a in range(A)] for k in range(K)]
    prob += pulp.LpAffineExpression([(flow[k][a], d["unit_cost"][k][a]) for k in range(K) for a in range(A)])
    # s2: shared arc capacity
    for a in range(A):
        expr = pulp.LpAffineExpression([(flow[k][a], 1) for k in range(K)])
        prob += pulp.LpConstraint(expr, pulp.LpConstraintLE, f"s2_capacity_a{a + 1}", cap[a])
    # s6: conservation of each commodity at each node
    for k in range(K):
        net = [[] for _ in range(V + 1)]
        for a in range(A):
            net[tail[a]].append((flow[k][a], 1))
            net[head[a]].append((flow[k][a], -1))
        rhs = [0] * (V + 1)
        rhs[d["origin"][k]] += d["volume"][k]
        rhs[d["destination"][k]] -= d["volume"][k]
        for v in range(1, V + 1):
            if net[v] or rhs[v]:
                prob += pulp.LpConstraint(pulp.LpAffineExpression(net[v]), pulp.LpConstraintEQ,
                                          f"s6_conserve_k{k + 1}_v{v}", rhs[v])
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
    write({"flow": [[v.value() or 0.0 for v in row] for row in flow], "total_cost": objective}, status, objective, prob)


if __name__ == "__main__":
    main()
