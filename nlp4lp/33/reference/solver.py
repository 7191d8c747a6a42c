"""Reference solver for nlp4lp/33: daily fleet assignment with spill and station balance (MILP)."""

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
    L, F = len(d["leg_from"]), len(d["seats"])
    legs, types = range(L), range(F)
    prob = pulp.LpProblem("fleet_assignment", pulp.LpMinimize)
    x = [[prob.add_variable(f"assign_{l + 1}_{f + 1}", cat="Binary") for f in types] for l in legs]
    spill = [prob.add_variable(f"spill_{l + 1}", lowBound=0) for l in legs]
    prob += pulp.lpSum(d["op_cost"][l][f] * x[l][f] for l in legs for f in types) + pulp.lpSum(
        d["spill_fare"][l] * spill[l] for l in legs)
    for l in legs:
        prob += pulp.lpSum(x[l]) == 1, f"s1_one_type_l{l + 1}"
        for f in types:
            if not d["compatible"][l][f]:
                prob += x[l][f] == 0, f"s5_compatible_l{l + 1}_f{f + 1}"
        seats = pulp.lpSum(d["seats"][f] * x[l][f] for f in types)
        prob += spill[l] >= d["demand"][l] - seats, f"s6_spill_l{l + 1}"
    for f in types:
        prob += pulp.lpSum(d["block_hours"][l] * x[l][f] for l in legs) <= d["hours_available"][f], f"s4_hours_f{f + 1}"
    stations = sorted(set(d["leg_from"]) | set(d["leg_to"]))
    for s in stations:
        for f in types:
            arrive = pulp.lpSum(x[l][f] for l in legs if d["leg_to"][l] == s)
            depart = pulp.lpSum(x[l][f] for l in legs if d["leg_from"][l] == s)
            prob += arrive - depart == 0, f"s7_balance_st{s}_f{f + 1}"
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
        "assign": [[round(v.value() or 0) for v in row] for row in x],
        "spill": [v.value() or 0.0 for v in spill],
        "total_cost": objective,
    }
    write(output, status, objective, prob)


if __name__ == "__main__":
    main()
