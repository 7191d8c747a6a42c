"""Reference solver for nlp4lp/31: plant -> depot -> customer transshipment (LP)."""

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
    cin, cout, handling = d["cost_in"], d["cost_out"], d["handling"]
    I, J, K = len(d["supply"]), len(d["throughput"]), len(d["demand"])
    prob = pulp.LpProblem("transshipment", pulp.LpMinimize)
    # s6: variables only on existing lanes (cost -1 = no lane, fixed at 0)
    inb = [{j: prob.add_variable(f"in_{i + 1}_{j + 1}", lowBound=0) for j in range(J) if cin[i][j] != -1} for i in range(I)]
    out = [{k: prob.add_variable(f"out_{j + 1}_{k + 1}", lowBound=0) for k in range(K) if cout[j][k] != -1}
           for j in range(J)]
    obj = []
    into = [[] for _ in range(J)]
    for i in range(I):
        for j, v in inb[i].items():
            obj.append((v, cin[i][j] + handling[j]))
            into[j].append(v)
    serve = [[] for _ in range(K)]
    for j in range(J):
        for k, v in out[j].items():
            obj.append((v, cout[j][k]))
            serve[k].append((v, 1))
    prob += pulp.LpAffineExpression(obj)
    for i in range(I):  # s2: plant supply
        expr = pulp.LpAffineExpression([(v, 1) for v in inb[i].values()])
        prob += pulp.LpConstraint(expr, pulp.LpConstraintLE, f"s2_supply_i{i + 1}", d["supply"][i])
    for k in range(K):  # s3: customer demand met exactly
        prob += pulp.LpConstraint(pulp.LpAffineExpression(serve[k]), pulp.LpConstraintEQ, f"s3_demand_k{k + 1}",
                                  d["demand"][k])
    for j in range(J):  # s4: depot throughput; s5: flow conservation at the depot
        expr = pulp.LpAffineExpression([(v, 1) for v in into[j]])
        prob += pulp.LpConstraint(expr, pulp.LpConstraintLE, f"s4_throughput_j{j + 1}", d["throughput"][j])
        bal = pulp.LpAffineExpression([(v, 1) for v in into[j]] + [(v, -1) for v in out[j].values()])
        prob += pulp.LpConstraint(bal, pulp.LpConstraintEQ, f"s5_balance_j{j + 1}", 0)
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
    output = {
        "inbound": [[(inb[i][j].value() or 0.0) if j in inb[i] else 0.0 for j in range(J)] for i in range(I)],
        "outbound": [[(out[j][k].value() or 0.0) if k in out[j] else 0.0 for k in range(K)] for j in range(J)],
        "total_cost": objective,
    }
    write(output, status, objective, prob)


if __name__ == "__main__":
    main()
