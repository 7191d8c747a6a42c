"""Second reading of nlp4lp/23 (island grid unit commitment, MILP): s8's "stay committed for at least min_up
consecutive periods" counted after the start-up period, so a unit started in period t runs through t + min_up
(or to the end of the horizon). The main reading, reference/solver.py, counts the start-up period itself."""

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
    G, T, K = range(d["G"]), range(d["T"]), range(d["K"])
    pmax = [d["pmin"][g] + sum(d["width"][g]) for g in G]
    prob = pulp.LpProblem("unit_commitment", pulp.LpMinimize)
    on = {(g, t): prob.add_variable(f"on_{g + 1}_{t + 1}", cat="Binary") for g in G for t in T}
    start = {(g, t): prob.add_variable(f"start_{g + 1}_{t + 1}", cat="Binary") for g in G for t in T}
    seg = {
        (g, t, k): prob.add_variable(f"segment_{g + 1}_{t + 1}_{k + 1}", lowBound=0)
        for g in G
        for t in T
        for k in K
    }
    out = {(g, t): d["pmin"][g] * on[g, t] + pulp.lpSum(seg[g, t, k] for k in K) for g in G for t in T}
    prob += pulp.lpSum(
        d["noload_cost"][g] * on[g, t] + d["startup_cost"][g] * start[g, t] for g in G for t in T
    ) + pulp.lpSum(d["seg_cost"][g][k] * seg[g, t, k] for g in G for t in T for k in K)
    for t in T:
        for g in G:
            for k in K:
                prob += seg[g, t, k] <= d["width"][g][k] * on[g, t], f"s2_segment_g{g + 1}_t{t + 1}_k{k + 1}"
        prob += pulp.lpSum(out[g, t] for g in G) >= d["demand"][t], f"s4_demand_t{t + 1}"
        prob += (
            pulp.lpSum(pmax[g] * on[g, t] - out[g, t] for g in G) >= d["reserve"][t],
            f"s5_reserve_t{t + 1}",
        )
    for g in G:
        for t in T:
            prev_on = on[g, t - 1] if t else d["init_on"][g]
            prev_out = out[g, t - 1] if t else d["init_output"][g]
            prob += start[g, t] >= on[g, t] - prev_on, f"s6_startup_g{g + 1}_t{t + 1}"
            prob += out[g, t] - prev_out <= d["ramp"][g], f"s7_ramp_up_g{g + 1}_t{t + 1}"
            prob += prev_out - out[g, t] <= d["ramp"][g], f"s7_ramp_down_g{g + 1}_t{t + 1}"
            # s8, second reading: a start in any of the min_up periods before t, or in t itself, keeps g on in t
            window = range(max(0, t - d["min_up"][g]), t + 1)
            prob += pulp.lpSum(start[g, s] for s in window) <= on[g, t], f"s8_min_up_g{g + 1}_t{t + 1}"
        prob += pulp.lpSum(start[g, t] for t in T) <= d["max_starts"][g], f"s9_max_starts_g{g + 1}"
    prob += (
        (pulp.lpSum(d["emission"][g] * out[g, t] for g in G for t in T) <= d["emission_cap"]),
        "s10_emission_cap",
    )
    prob.writeMPS("model.mps")
    prob.solve(SOLVERS[os.environ.get("OPTIMUS_SOLVER", "HIGHS").upper()]())

    status = status_of(prob)
    solved = status in ("optimal", "time_limit")
    objective = pulp.value(prob.objective) if solved else None
    output = {}
    if solved:
        output = {
            "on": [[round(on[g, t].value()) for t in T] for g in G],
            "start": [[round(start[g, t].value()) for t in T] for g in G],
            "output": [[pulp.value(out[g, t]) for t in T] for g in G],
            "segment": [[[seg[g, t, k].value() for k in K] for t in T] for g in G],
            "total_cost": objective,
        }
    with open("output.json", "w") as fh:
        json.dump(output, fh, indent=2)
    with open("solution.json", "w") as fh:
        json.dump({"status": status, "values": {v.name: v.varValue for v in prob.variables()}, "objective": objective}, fh)


if __name__ == "__main__":
    main()
