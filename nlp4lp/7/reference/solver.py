"""Reference solver for nlp4lp/7 (endowment portfolio): a mean-variance QP in cvxpy."""

import json
import os
from pathlib import Path

import cvxpy as cp
import numpy as np

STATUS = {cp.OPTIMAL: "optimal", cp.INFEASIBLE: "infeasible", cp.UNBOUNDED: "unbounded",
          cp.USER_LIMIT: "time_limit"}
# first-order solvers stop at ~1e-4 by default; ask them for more so the cross-check means something
OPTIONS = {"SCS": {"eps_abs": 1e-9, "eps_rel": 1e-9, "max_iters": 200000},
           "OSQP": {"eps_abs": 1e-9, "eps_rel": 1e-9, "max_iter": 200000, "polish": True}}

d = json.loads(Path("data.json").read_text())
mu, cov = np.array(d["mean_return"], dtype=float), np.array(d["cov"], dtype=float)
w = cp.Variable(len(mu), name="weight")
constraints = [
    cp.sum(w) == 1,  # s2
    w >= 0,  # s3
    mu @ w >= d["target_return"],  # s4
    w <= np.array(d["max_weight"]),  # s6
    np.array(d["emerging"]) @ w <= d["max_emerging"],  # s7
]
prob = cp.Problem(cp.Minimize(cp.quad_form(w, cp.psd_wrap(cov))), constraints)  # s5
solver = os.environ.get("OPTIMUS_SOLVER", "CLARABEL").upper()
try:
    prob.solve(solver=solver, **OPTIONS.get(solver, {}))
    status = STATUS.get(prob.status, "error")
except cp.SolverError:
    status = "error"
# A time-limited solve may stop with no point at all: only a value counts as solved.
solved = status in ("optimal", "time_limit") and w.value is not None
weights = [float(v) for v in w.value] if solved else []
output = {"weight": weights, "expected_return": float(mu @ w.value), "variance": float(prob.value)} if solved else {}
Path("output.json").write_text(json.dumps(output, indent=2))
Path("solution.json").write_text(json.dumps({"status": status, "objective": float(prob.value) if solved else None}))
