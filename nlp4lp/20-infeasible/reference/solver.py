"""Reference solver for nlp4lp/20: archive reels onto drives, bin packing (MILP)."""

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
    files, drives = range(d["N"]), range(d["K"])
    prob = pulp.LpProblem("reel_bin_packing", pulp.LpMinimize)
    put = {(i, k): prob.add_variable(f"put_{i + 1}_{k + 1}", cat="Binary") for i in files for k in drives}
    used = [prob.add_variable(f"used_{k + 1}", cat="Binary") for k in drives]
    prob += pulp.lpSum(used)
    for i in files:
        prob += pulp.lpSum(put[i, k] for k in drives) == 1, f"s3_each_file_once_i{i + 1}"
    for k in drives:
        prob += (
            (pulp.lpSum(d["size"][i] * put[i, k] for i in files) <= d["capacity"] * used[k]),
            f"s4_capacity_k{k + 1}",
        )
        prob += pulp.lpSum(put[i, k] for i in files) <= d["max_files"] * used[k], f"s5_catalogue_k{k + 1}"
        for i in files:
            prob += put[i, k] <= used[k], f"s6_used_link_i{i + 1}_k{k + 1}"
        if k + 1 < d["K"]:
            prob += used[k] >= used[k + 1], f"s6_symmetry_k{k + 1}"
    prob.writeMPS("model.mps")
    prob.solve(SOLVERS[os.environ.get("OPTIMUS_SOLVER", "HIGHS").upper()]())

    status = status_of(prob)
    solved = status in ("optimal", "time_limit")
    objective = pulp.value(prob.objective) if solved else None
    output = {}
    if solved:
        output = {
            "put": [[round(put[i, k].value()) for k in drives] for i in files],
            "used": [round(u.value()) for u in used],
            "num_used": round(objective),
        }
    with open("output.json", "w") as fh:
        json.dump(output, fh, indent=2)
    with open("solution.json", "w") as fh:
        json.dump({"status": status, "values": {v.name: v.varValue for v in prob.variables()}, "objective": objective}, fh)


if __name__ == "__main__":
    main()
