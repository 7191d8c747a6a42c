"""Reference solver for nlp4lp/40: timber harvest scheduling with mills and even flow (LP)."""

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
    yld, price, acc, hc = d["yield"], d["price"], d["accepts"], d["harvest_cost"]
    S, P, M, T = len(d["stand_area"]), len(price), len(d["mill_capacity"]), len(d["budget"])
    Ss, Ps, Ms, Ts = range(S), range(P), range(M), range(T)
    prob = pulp.LpProblem("timber_harvest", pulp.LpMaximize)
    area = [[prob.add_variable(f"area_{s + 1}_{t + 1}", lowBound=0) for t in Ts] for s in Ss]
    dl = [[[prob.add_variable(f"deliver_{p + 1}_{m + 1}_{t + 1}", lowBound=0) for t in Ts] for m in Ms] for p in Ps]
    prob += pulp.lpSum(d["discount"][t] * (pulp.lpSum(price[p][m] * dl[p][m][t] for p in Ps for m in Ms)
                                           - pulp.lpSum(hc[s] * area[s][t] for s in Ss)) for t in Ts)
    for s in Ss:
        prob += pulp.lpSum(area[s]) <= d["stand_area"][s], f"s2_stand_area_s{s + 1}"
        for t in range(min(T, d["earliest_period"][s] - 1)):
            prob += area[s][t] == 0, f"s3_too_young_s{s + 1}_t{t + 1}"
    volume = [pulp.lpSum(dl[p][m][t] for p in Ps for m in Ms) for t in Ts]
    for t in Ts:
        for p in Ps:
            prob += (pulp.lpSum(dl[p][m][t] for m in Ms) <= pulp.lpSum(yld[s][p][t] * area[s][t] for s in Ss),
                     f"s4_yield_p{p + 1}_t{t + 1}")
            for m in Ms:
                if not acc[p][m]:
                    prob += dl[p][m][t] == 0, f"s5_accepts_p{p + 1}_m{m + 1}_t{t + 1}"
        for m in Ms:
            into = pulp.lpSum(dl[p][m][t] for p in Ps)
            prob += into <= d["mill_capacity"][m], f"s6_mill_capacity_m{m + 1}_t{t + 1}"
            prob += into >= d["contract_min"][m], f"s6_contract_m{m + 1}_t{t + 1}"
        if t:
            tol = d["flow_tolerance"]
            prob += volume[t] >= (1 - tol) * volume[t - 1], f"s7_flow_down_t{t + 1}"
            prob += volume[t] <= (1 + tol) * volume[t - 1], f"s7_flow_up_t{t + 1}"
        prob += pulp.lpSum(area[s][t] for s in Ss) <= d["max_area"], f"s8_crews_t{t + 1}"
        prob += pulp.lpSum(hc[s] * area[s][t] for s in Ss) <= d["budget"][t], f"s9_budget_t{t + 1}"
    prob += (pulp.lpSum(d["stand_area"]) - pulp.lpSum(area[s][t] for s in Ss for t in Ts) >= d["reserve_area"],
             "s10_reserve")
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
        "area": [[v.value() or 0.0 for v in row] for row in area],
        "deliver": [[[v.value() or 0.0 for v in r] for r in rows] for rows in dl],
        "npv": objective,
    }
    write(output, status, objective, prob)


if __name__ == "__main__":
    main()
