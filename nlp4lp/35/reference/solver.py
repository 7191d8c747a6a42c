"""Reference solver for nlp4lp/35: capacitated warehouse location with single sourcing (MILP)."""

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
    I, K = len(d["fixed_cost"]), len(d["demand"])
    sites, stores = range(I), range(K)
    dem, weeks = d["demand"], d["weeks"]
    prob = pulp.LpProblem("warehouse_location", pulp.LpMinimize)
    y = [prob.add_variable(f"open_{i + 1}", cat="Binary") for i in sites]
    x = [[prob.add_variable(f"assign_{i + 1}_{k + 1}", cat="Binary") for k in stores] for i in sites]
    prob += pulp.lpSum(d["fixed_cost"][i] * y[i] for i in sites) + pulp.lpSum(
        weeks * dem[k] * d["unit_cost"][i][k] * x[i][k] for i in sites for k in stores)
    for k in stores:  # s4: single sourcing
        prob += pulp.lpSum(x[i][k] for i in sites) == 1, f"s4_single_source_k{k + 1}"
    for i in sites:
        for k in stores:  # s5: only opened sites serve (strong linking)
            prob += x[i][k] <= y[i], f"s5_open_link_i{i + 1}_k{k + 1}"
        # s6: weekly capacity of an opened site
        prob += pulp.lpSum(dem[k] * x[i][k] for k in stores) <= d["capacity"][i] * y[i], f"s6_capacity_i{i + 1}"
    prob += pulp.lpSum(y) <= d["max_open"], "s8_max_open"
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
        "open": [round(v.value() or 0) for v in y],
        "assign": [[round(v.value() or 0) for v in row] for row in x],
        "total_cost": objective,
    }
    write(output, status, objective, prob)


if __name__ == "__main__":
    main()
