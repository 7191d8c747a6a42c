"""Reference solver for nlp4lp/38: reactor campaigns and tank dedication in a batch plant (MILP)."""

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
    dem, cap = d["demand"], d["tank_capacity"]
    P, K, T = len(d["min_batch"]), len(cap), len(dem[0])
    Ps, Ks, Ts = range(P), range(K), range(T)
    prob = pulp.LpProblem("tank_scheduling", pulp.LpMinimize)
    make = [[prob.add_variable(f"make_{p + 1}_{t + 1}", lowBound=0) for t in Ts] for p in Ps]
    run = [[prob.add_variable(f"run_{p + 1}_{t + 1}", cat="Binary") for t in Ts] for p in Ps]
    hold = [[[prob.add_variable(f"hold_{p + 1}_{k + 1}_{t + 1}", cat="Binary") for t in Ts] for k in Ks] for p in Ps]
    stock = [[[prob.add_variable(f"stock_{p + 1}_{k + 1}_{t + 1}", lowBound=0) for t in Ts] for k in Ks] for p in Ps]
    clean = [[prob.add_variable(f"clean_{k + 1}_{t + 1}", cat="Binary") for t in Ts] for k in Ks]
    prob += (pulp.lpSum(d["setup_cost"][p] * run[p][t] for p in Ps for t in Ts)
             + pulp.lpSum(d["clean_cost"] * clean[k][t] for k in Ks for t in Ts)
             + pulp.lpSum(d["holding_cost"][p] * stock[p][k][t] for p in Ps for k in Ks for t in Ts))
    for t in Ts:
        prob += pulp.lpSum(run[p][t] for p in Ps) <= 1, f"s2_one_product_t{t + 1}"
        for p in Ps:
            prob += make[p][t] <= d["reactor_capacity"] * run[p][t], f"s3_capacity_p{p + 1}_t{t + 1}"
            prob += make[p][t] >= d["min_batch"][p] * run[p][t], f"s3_min_batch_p{p + 1}_t{t + 1}"
            total = pulp.lpSum(stock[p][k][t] for k in Ks)
            before = pulp.lpSum(stock[p][k][t - 1] for k in Ks) if t else d["initial_stock"][p]
            prob += total == before + make[p][t] - dem[p][t], f"s8_balance_p{p + 1}_t{t + 1}"
            prob += total >= d["safety_stock"][p], f"s9_safety_p{p + 1}_t{t + 1}"
        for k in Ks:
            prob += pulp.lpSum(hold[p][k][t] for p in Ps) <= 1, f"s5_one_product_k{k + 1}_t{t + 1}"
            prob += pulp.lpSum(stock[p][k][t] for p in Ps) <= cap[k], f"s5_tank_capacity_k{k + 1}_t{t + 1}"
            for p in Ps:
                prob += stock[p][k][t] <= cap[k] * hold[p][k][t], f"s5_dedicated_p{p + 1}_k{k + 1}_t{t + 1}"
                if not d["compatible"][p][k]:
                    prob += hold[p][k][t] == 0, f"s6_compatible_p{p + 1}_k{k + 1}_t{t + 1}"
                if t:
                    prob += clean[k][t] >= hold[p][k][t] - hold[p][k][t - 1], f"s10_clean_p{p + 1}_k{k + 1}_t{t + 1}"
        prob += pulp.lpSum(clean[k][t] for k in Ks) <= d["max_cleanings"], f"s10_crew_t{t + 1}"
    for k in Ks:
        prob += clean[k][0] == 0, f"s11_no_first_cleaning_k{k + 1}"
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

    def vals(rows, integer=False):
        return [vals(r, integer) if isinstance(r, list) else (round(r.value() or 0) if integer else r.value() or 0.0)
                for r in rows]

    output = {"make": vals(make), "run": vals(run, True), "hold": vals(hold, True), "stock": vals(stock),
              "clean": vals(clean, True), "total_cost": objective}
    write(output, status, objective, prob)


if __name__ == "__main__":
    main()
