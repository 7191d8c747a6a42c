"""Reference solver for nlp4lp/19: two-plant production and inventory plan (LP)."""

import json
import os

import pulp

# --time-limit, --mip-gap, --threads reach the program as these variables (ARCHITECTURE.md "Solver programs")
OPTIONS = {arg: cast(os.environ[var]) for var, arg, cast in (("OPTIMUS_TIME_LIMIT", "timeLimit", float),
           ("OPTIMUS_MIP_GAP", "gapRel", float), ("OPTIMUS_THREADS", "threads", int)) if os.environ.get(var)}
SOLVERS = {"CBC": lambda: pulp.PULP_CBC_CMD(msg=False, **OPTIONS),
           "HIGHS": lambda: pulp.HiGHS(msg=False, **OPTIONS)}


def status_of(prob):
    """Normalise PuLP's status pair; a feasible but unproven MILP answer is a time limit."""
    if prob.status == pulp.LpStatusOptimal:
        return "optimal" if prob.sol_status == pulp.LpSolutionOptimal else "time_limit"
    return {pulp.LpStatusInfeasible: "infeasible", pulp.LpStatusUnbounded: "unbounded"}.get(
        prob.status, "error"
    )


def main():
    with open("data.json") as fh:
        d = json.load(fh)
    P, F, T = range(d["P"]), range(d["F"]), range(d["T"])
    prob = pulp.LpProblem("production_inventory", pulp.LpMinimize)
    make = {
        (p, f, t): prob.add_variable(f"make_{p + 1}_{f + 1}_{t + 1}", lowBound=0)
        for p in P
        for f in F
        for t in T
    }
    ot = {(f, t): prob.add_variable(f"overtime_{f + 1}_{t + 1}", lowBound=0) for f in F for t in T}
    inv = {(p, t): prob.add_variable(f"inventory_{p + 1}_{t + 1}", lowBound=0) for p in P for t in T}
    prob += (
        pulp.lpSum(d["prod_cost"][p][f] * make[p, f, t] for p in P for f in F for t in T)
        + pulp.lpSum(d["ot_cost"][f] * ot[f, t] for f in F for t in T)
        + pulp.lpSum(d["hold_cost"][p] * inv[p, t] for p in P for t in T)
    )
    for t in T:
        tag = f"t{t + 1}"
        for p in P:
            for f in F:
                prob += make[p, f, t] <= d["line_cap"][p][f], f"s3_line_cap_p{p + 1}_f{f + 1}_{tag}"
        for f in F:
            used = pulp.lpSum(d["hours"][p][f] * make[p, f, t] for p in P)
            prob += used <= d["reg_hours"][f] + ot[f, t], f"s4_machine_hours_f{f + 1}_{tag}"
            prob += ot[f, t] <= d["ot_max"][f], f"s5_overtime_max_f{f + 1}_{tag}"
            prob += used >= d["min_load"][f], f"s6_min_load_f{f + 1}_{tag}"
        prob += (
            (pulp.lpSum(d["material"][p] * make[p, f, t] for p in P for f in F) <= d["material_supply"][t]),
            f"s7_alloy_{tag}",
        )
        for p in P:
            before = inv[p, t - 1] if t > 0 else d["init_inv"][p]
            prob += (
                (inv[p, t] == before + pulp.lpSum(make[p, f, t] for f in F) - d["demand"][p][t]),
                f"s8_balance_p{p + 1}_{tag}",
            )
            prob += inv[p, t] >= d["min_stock"][p], f"s10_safety_p{p + 1}_{tag}"
        prob += pulp.lpSum(d["space"][p] * inv[p, t] for p in P) <= d["warehouse_cap"], f"s11_warehouse_{tag}"
    for p in P:
        prob += inv[p, d["T"] - 1] >= d["final_stock"][p], f"s12_final_stock_p{p + 1}"
    prob.writeMPS("model.mps")
    prob.solve(SOLVERS[os.environ.get("OPTIMUS_SOLVER", "HIGHS").upper()]())

    status = status_of(prob)
    solved = status in ("optimal", "time_limit")
    objective = pulp.value(prob.objective) if solved else None
    output = {}
    if solved:
        output = {
            "make": [[[make[p, f, t].value() for t in T] for f in F] for p in P],
            "overtime": [[ot[f, t].value() for t in T] for f in F],
            "inventory": [[inv[p, t].value() for t in T] for p in P],
            "total_cost": objective,
        }
    with open("output.json", "w") as fh:
        json.dump(output, fh, indent=2)
    with open("solution.json", "w") as fh:
        json.dump({"status": status, "values": {v.name: v.varValue for v in prob.variables()}, "objective": objective}, fh)


if __name__ == "__main__":
    main()
