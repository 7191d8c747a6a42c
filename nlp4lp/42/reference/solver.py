"""Reference solver for nlp4lp/42: trunk-main pipe sizing on a candidate network (MILP)."""

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
    tail, head, length = d["seg_from"], d["seg_to"], d["length"]
    E, D, N = len(tail), len(d["cost_per_km"]), len(d["demand"])
    Es, Ds = range(E), range(D)
    prob = pulp.LpProblem("pipe_sizing", pulp.LpMinimize)
    build = [[prob.add_variable(f"build_{e + 1}_{k + 1}", cat="Binary") for k in Ds] for e in Es]
    flow = [prob.add_variable(f"flow_{e + 1}", lowBound=0) for e in Es]
    prob += (pulp.lpSum(d["cost_per_km"][k] * length[e] * build[e][k] for e in Es for k in Ds)
             + pulp.lpSum(d["pump_cost"] * length[e] * flow[e] for e in Es))
    for e in Es:
        prob += pulp.lpSum(build[e]) <= 1, f"s2_one_size_e{e + 1}"
        prob += flow[e] <= pulp.lpSum(d["max_flow"][k] * build[e][k] for k in Ds), f"s3_capacity_e{e + 1}"
        if d["river_crossing"][e]:
            for k in Ds:
                if not d["crossing_ok"][k]:
                    prob += build[e][k] == 0, f"s7_river_e{e + 1}_d{k + 1}"
    src = d["source_node"]
    for n in range(1, N + 1):
        arrive = pulp.lpSum(flow[e] for e in Es if head[e] == n)
        leave = pulp.lpSum(flow[e] for e in Es if tail[e] == n)
        if n == src:
            prob += leave - arrive <= d["source_capacity"], "s6_source_capacity"
        else:
            prob += arrive - leave == d["demand"][n - 1], f"s6_balance_n{n}"
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
        "build": [[round(v.value() or 0) for v in row] for row in build],
        "flow": [v.value() or 0.0 for v in flow],
        "total_cost": objective,
    }
    write(output, status, objective, prob)


if __name__ == "__main__":
    main()
