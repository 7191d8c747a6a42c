"""Reference solver for nlp4lp/25: drought water allocation with quadratic shortage penalty (QP, cvxpy)."""

import json
import os

import cvxpy as cp
import numpy as np

# Tight tolerances for the first-order solvers, so they agree with the interior-point default.
OPTIONS = {
    "SCS": {"eps_abs": 1e-9, "eps_rel": 1e-9, "max_iters": 200000},
    "OSQP": {"eps_abs": 1e-9, "eps_rel": 1e-9, "max_iter": 200000, "polish": True},
}
STATUS = {
    cp.OPTIMAL: "optimal",
    cp.INFEASIBLE: "infeasible",
    cp.INFEASIBLE_INACCURATE: "infeasible",
    cp.UNBOUNDED: "unbounded",
    cp.UNBOUNDED_INACCURATE: "unbounded",
    cp.USER_LIMIT: "time_limit",
}


def main():
    with open("data.json") as fh:
        d = json.load(fh)
    cap = np.array(d["link_cap"], dtype=float)
    cost = np.array(d["convey_cost"], dtype=float)
    request, weight = np.array(d["request"], dtype=float), np.array(d["weight"], dtype=float)
    deliverable = np.array(d["available"], dtype=float) - np.array(d["env_release"], dtype=float)

    flow = cp.Variable((d["R"], d["D"]), nonneg=True)
    received = cp.sum(flow, axis=0)
    objective = cp.Minimize(weight @ cp.square(request - received) + cp.sum(cp.multiply(cost, flow)))
    constraints = [
        cp.sum(flow, axis=1) <= deliverable,  # s2 reservoir release
        flow <= cap,  # s3 pipeline capacity
        received <= request,  # s5 request cap
        received >= d["min_share"] * request,  # s6 emergency minimum
    ]
    prob = cp.Problem(objective, constraints)
    name = os.environ.get("OPTIMUS_SOLVER", "CLARABEL").upper()
    try:
        prob.solve(solver=name, **OPTIONS.get(name, {}))
        status = STATUS.get(prob.status, "error")
    except cp.error.SolverError:
        status = "error"

    solved = status in ("optimal", "time_limit") and flow.value is not None
    value = float(prob.value) if solved else None
    output = {}
    if solved:
        output = {"flow": flow.value.tolist(), "received": received.value.tolist(), "total_penalty": value}
    with open("output.json", "w") as fh:
        json.dump(output, fh, indent=2)
    with open("solution.json", "w") as fh:
        json.dump({"status": status, "objective": value}, fh)


if __name__ == "__main__":
    main()
