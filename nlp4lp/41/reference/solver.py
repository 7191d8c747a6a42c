"""Reference solver for nlp4lp/41: data-centre workload placement with congestion (convex QP, cvxpy)."""

import json
import os

import cvxpy as cp
import numpy as np

STATUS = {cp.OPTIMAL: "optimal", cp.INFEASIBLE: "infeasible", cp.UNBOUNDED: "unbounded", cp.USER_LIMIT: "time_limit"}


def write(output, status, objective):
    with open("output.json", "w") as f:
        json.dump(output, f)
    with open("solution.json", "w") as f:
        json.dump({"status": status, "objective": objective}, f)


def main():
    with open("data.json") as f:
        d = json.load(f)
    demand, cap = np.array(d["demand"], float), np.array(d["capacity"], float)
    lat, allowed = np.array(d["latency"], float), np.array(d["allowed"], float)
    R, D = lat.shape
    x = cp.Variable((R, D), nonneg=True)  # s1: place_{r,d} >= 0
    load = cp.sum(x, axis=0)
    cost = (np.array(d["energy_cost"]) @ load + d["latency_cost"] * cp.sum(cp.multiply(lat, x))
            + cp.sum(cp.multiply(np.array(d["congestion"]), cp.square(load))))
    constraints = [
        cp.sum(x, axis=1) == demand,  # s2: all demand placed
        load <= cap,  # s3: capacity
        cp.multiply(1 - allowed, x) == 0,  # s6: data residency
        cp.sum(cp.multiply(lat, x), axis=1) <= np.array(d["max_avg_latency"]) * demand,  # s7: average latency
    ]
    prob = cp.Problem(cp.Minimize(cost), constraints)
    try:
        prob.solve(solver=os.environ.get("OPTIMUS_SOLVER", "CLARABEL").upper())
        status = STATUS.get(prob.status, "error")
    except cp.error.SolverError:
        status = "error"
    if status != "optimal":
        write({}, status, None)
        return
    place = np.where(np.abs(x.value) < 1e-9, 0.0, x.value)
    output = {"place": place.tolist(), "load": place.sum(axis=0).tolist(), "total_cost": float(prob.value)}
    write(output, status, float(prob.value))


if __name__ == "__main__":
    main()
