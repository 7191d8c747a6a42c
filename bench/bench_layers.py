"""Modeling layers side by side: build, MPS write, HiGHS solve and peak memory of one facility location model.

    .venv/bin/python bench/bench_layers.py [--vars 1e4,1e5,6e5] [--layers pulp,linopy,pyoptinterface,highspy]
                                           [--solve milp|lp|none] [--time-limit 60] [--seed 0]

The model (our own generator, seeded): S candidate sites, 1000 customers; open_s binary, x_s_c in [0, 1] the share
of customer c served by site s. Rows: each customer fully served (demand_c), each site's capacity
(capacity_s: sum_c d_c x_s_c <= cap_s open_s), and the strong link x_s_c <= open_s (link_s_c). About S*1000
variables and rows. Every layer builds the same rows with the same names (where the layer can name them), writes
model.mps and solves with HiGHS on one thread; each layer runs in its own process so its peak resident memory
(os.wait4's ru_maxrss) is its own. Ratios are to the highspy array build (a HighsLp filled from numpy arrays).
Prints numbers measured in one run; it is not a test.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

CUSTOMERS = 1000
LAYERS = ("pulp", "linopy", "pyoptinterface", "highspy_expr", "highspy")
IMPORTS = {"pulp": ["pulp"], "linopy": ["linopy", "pandas", "xarray"], "pyoptinterface": ["pyoptinterface.highs"],
           "highspy": ["highspy"], "highspy_expr": ["highspy"]}


def instance(sites: int, seed: int) -> dict:
    """Sites and customers on a unit square; capacity about 2.5x total demand spread over the sites."""
    rng = np.random.default_rng(seed)
    site_xy, cust_xy = rng.random((sites, 2)), rng.random((CUSTOMERS, 2))
    demand = rng.integers(5, 36, CUSTOMERS).astype(float)
    cost = np.hypot(*(site_xy[:, None, :] - cust_xy[None, :, :]).transpose(2, 0, 1)) * 100
    cap = rng.integers(50, 150, sites) * (2.5 * demand.sum() / sites / 100)
    fixed = rng.integers(3000, 9000, sites).astype(float) * (100 / sites) ** 0.5
    return {"fixed": fixed, "cap": np.round(cap), "demand": demand, "cost": np.round(cost * demand, 2)}


# ----------------------------------------------------------------------------------------------- the layers
def build_pulp(d: dict, relax: bool):
    import pulp

    S, C = len(d["fixed"]), CUSTOMERS
    prob = pulp.LpProblem("cfl", pulp.LpMinimize)
    cat = "Continuous" if relax else "Binary"
    open_ = [prob.add_variable(f"open_s{s}", 0, 1, cat) for s in range(S)]
    x = [[prob.add_variable(f"x_s{s}_c{c}", 0, 1) for c in range(C)] for s in range(S)]
    cost, dem = d["cost"].tolist(), d["demand"].tolist()
    prob += pulp.lpSum(d["fixed"][s] * open_[s] for s in range(S)) + pulp.lpSum(
        cost[s][c] * x[s][c] for s in range(S) for c in range(C))
    for c in range(C):
        prob += pulp.lpSum(x[s][c] for s in range(S)) == 1, f"demand_c{c}"
    for s in range(S):
        prob += pulp.lpSum(dem[c] * x[s][c] for c in range(C)) <= d["cap"][s] * open_[s], f"capacity_s{s}"
    for s in range(S):
        for c in range(C):
            prob += x[s][c] <= open_[s], f"link_s{s}_c{c}"
    return prob


def write_pulp(prob, path: Path) -> None:
    prob.writeMPS(str(path))


def solve_pulp(prob, limit: float):
    import pulp

    prob.solve(pulp.HiGHS(msg=False, timeLimit=limit, threads=1))
    return pulp.LpStatus[prob.status], pulp.value(prob.objective)


def build_linopy(d: dict, relax: bool):
    import linopy
    import pandas as pd
    import xarray as xr

    site = pd.RangeIndex(len(d["fixed"]), name="site")
    cust = pd.RangeIndex(CUSTOMERS, name="customer")
    m = linopy.Model()
    bounds = {"lower": 0, "upper": 1} if relax else {"binary": True}
    open_ = m.add_variables(coords=[site], name="open", **bounds)
    x = m.add_variables(lower=0, upper=1, coords=[site, cust], name="x")
    fixed = xr.DataArray(d["fixed"], coords=[site])
    cost = xr.DataArray(d["cost"], coords=[site, cust])
    dem = xr.DataArray(d["demand"], coords=[cust])
    cap = xr.DataArray(d["cap"], coords=[site])
    m.add_objective((fixed * open_).sum() + (cost * x).sum())
    m.add_constraints(x.sum("site") == 1, name="demand")
    m.add_constraints((dem * x).sum("customer") - cap * open_ <= 0, name="capacity")
    m.add_constraints(x - open_ <= 0, name="link")
    return m


def write_linopy(m, path: Path) -> None:
    m.to_file(path, explicit_coordinate_names=True)


def solve_linopy(m, limit: float):
    _, cond = m.solve("highs", time_limit=limit, threads=1, output_flag=False)
    return cond, m.objective.value


def build_pyoptinterface(d: dict, relax: bool):
    import pyoptinterface as poi
    from pyoptinterface import highs

    highs.autoload_library()
    S, C = len(d["fixed"]), CUSTOMERS
    m = highs.Model()
    m.set_model_attribute(poi.ModelAttribute.Silent, True)
    dom = poi.VariableDomain.Continuous if relax else poi.VariableDomain.Binary
    open_ = [m.add_variable(dom, 0, 1, name=f"open_s{s}") for s in range(S)]
    x = [[m.add_variable(lb=0, ub=1, name=f"x_s{s}_c{c}") for c in range(C)] for s in range(S)]
    cost, dem, cap, fixed = d["cost"].tolist(), d["demand"].tolist(), d["cap"].tolist(), d["fixed"].tolist()
    obj = poi.quicksum(fixed[s] * open_[s] for s in range(S)) + poi.quicksum(
        cost[s][c] * x[s][c] for s in range(S) for c in range(C))
    m.set_objective(obj, poi.ObjectiveSense.Minimize)
    for c in range(C):
        m.add_linear_constraint(poi.quicksum(x[s][c] for s in range(S)), poi.Eq, 1, name=f"demand_c{c}")
    for s in range(S):
        expr = poi.quicksum(dem[c] * x[s][c] for c in range(C)) - cap[s] * open_[s]
        m.add_linear_constraint(expr, poi.Leq, 0, name=f"capacity_s{s}")
    for s in range(S):
        for c in range(C):
            m.add_linear_constraint(x[s][c] - open_[s], poi.Leq, 0, name=f"link_s{s}_c{c}")
    return m


def write_pyoptinterface(m, path: Path) -> None:
    m.write(str(path))


def solve_pyoptinterface(m, limit: float):
    import pyoptinterface as poi

    m.set_model_attribute(poi.ModelAttribute.TimeLimitSec, limit)
    m.set_raw_parameter("threads", 1)
    m.optimize()
    return str(m.get_model_attribute(poi.ModelAttribute.TerminationStatus)), m.get_obj_value()


def build_highspy_expr(d: dict, relax: bool):
    """highspy's own modeling API (addVariable / addConstr with expressions), written loop by loop."""
    import highspy

    S, C = len(d["fixed"]), CUSTOMERS
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    vtype = highspy.HighsVarType.kContinuous if relax else highspy.HighsVarType.kInteger
    open_ = [h.addVariable(0, 1, type=vtype, name=f"open_s{s}") for s in range(S)]
    x = [[h.addVariable(0, 1, name=f"x_s{s}_c{c}") for c in range(C)] for s in range(S)]
    cost, dem, cap, fixed = d["cost"].tolist(), d["demand"].tolist(), d["cap"].tolist(), d["fixed"].tolist()
    h.setObjective(h.qsum(fixed[s] * open_[s] for s in range(S)) + h.qsum(
        cost[s][c] * x[s][c] for s in range(S) for c in range(C)), highspy.ObjSense.kMinimize)
    for c in range(C):
        h.addConstr(h.qsum(x[s][c] for s in range(S)) == 1, name=f"demand_c{c}")
    for s in range(S):
        h.addConstr(h.qsum(dem[c] * x[s][c] for c in range(C)) <= cap[s] * open_[s], name=f"capacity_s{s}")
    for s in range(S):
        for c in range(C):
            h.addConstr(x[s][c] <= open_[s], name=f"link_s{s}_c{c}")
    return h


write_highspy_expr = None   # set below: the same Highs object as the array build
solve_highspy_expr = None


def build_highspy(d: dict, relax: bool):
    """The baseline: one HighsLp from numpy arrays (rows as CSR), names from list comprehensions."""
    import highspy

    S, C = len(d["fixed"]), CUSTOMERS
    n = S + S * C                                         # open_s first, then x_s_c at S + s*C + c
    xcol = (S + np.arange(S * C)).reshape(S, C)
    # demand_c: x_{.,c}; capacity_s: d_c x_s_c - cap_s open_s; link_s_c: x_s_c - open_s
    dem_idx = xcol.T.ravel()
    cap_idx = np.concatenate([np.column_stack([xcol, np.arange(S)]).ravel()])
    cap_val = np.column_stack([np.tile(d["demand"], (S, 1)), -d["cap"]]).ravel()
    link_idx = np.column_stack([xcol.ravel(), np.repeat(np.arange(S), C)]).ravel()
    link_val = np.tile([1.0, -1.0], S * C)
    index = np.concatenate([dem_idx, cap_idx, link_idx]).astype(np.int32)
    value = np.concatenate([np.ones(S * C), cap_val, link_val])
    lens = np.concatenate([np.full(C, S), np.full(S, C + 1), np.full(S * C, 2)])
    lp = highspy.HighsLp()
    lp.num_col_, lp.num_row_ = n, len(lens)
    lp.col_cost_ = np.concatenate([d["fixed"], d["cost"].ravel()])
    lp.col_lower_, lp.col_upper_ = np.zeros(n), np.ones(n)
    lp.row_lower_ = np.concatenate([np.ones(C), np.full(S + S * C, -highspy.kHighsInf)])
    lp.row_upper_ = np.concatenate([np.ones(C), np.zeros(S + S * C)])
    lp.a_matrix_.format_ = highspy.MatrixFormat.kRowwise
    lp.a_matrix_.start_ = np.concatenate([[0], np.cumsum(lens)]).astype(np.int32)
    lp.a_matrix_.index_, lp.a_matrix_.value_ = index, value
    if not relax:
        lp.integrality_ = [highspy.HighsVarType.kInteger] * S + [highspy.HighsVarType.kContinuous] * (S * C)
    lp.col_names_ = [f"open_s{s}" for s in range(S)] + [f"x_s{s}_c{c}" for s in range(S) for c in range(C)]
    lp.row_names_ = ([f"demand_c{c}" for c in range(C)] + [f"capacity_s{s}" for s in range(S)]
                     + [f"link_s{s}_c{c}" for s in range(S) for c in range(C)])
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.passModel(lp)
    return h


def write_highspy(h, path: Path) -> None:
    h.writeModel(str(path))


def solve_highspy(h, limit: float):
    h.setOptionValue("time_limit", float(limit))
    h.setOptionValue("threads", 1)
    h.run()
    return h.modelStatusToString(h.getModelStatus()), h.getInfo().objective_function_value


write_highspy_expr, solve_highspy_expr = write_highspy, solve_highspy


# ----------------------------------------------------------------------------------------------- one child
def mps_names(path: Path) -> tuple[str, str]:
    """The first constraint row's name and the first column's name in an MPS file (names survive or not)."""
    row = col = ""
    section = ""
    with open(path) as f:
        for line in f:
            if not line.startswith(" "):
                section = line.split()[0] if line.strip() else section
                continue
            parts = line.split()
            if section == "ROWS" and parts[0] != "N" and not row:
                row = parts[1]
            elif section == "COLUMNS" and "MARKER" not in line:
                return row, parts[0]
    return row, col


def child(layer: str, sites: int, seed: int, solve: str, limit: float) -> None:
    d = instance(sites, seed)
    g = globals()
    for module in IMPORTS[layer]:              # imports are not the build's time
        __import__(module)
    t0 = time.perf_counter()
    model = g[f"build_{layer}"](d, solve == "lp")
    t1 = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "model.mps"
        g[f"write_{layer}"](model, path)
        t2 = time.perf_counter()
        row, col = mps_names(path)
    import resource
    peak_bw = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024   # before the solve
    status, obj = ("-", None)
    t3 = time.perf_counter()
    if solve != "none":
        status, obj = g[f"solve_{layer}"](model, limit)
    t4 = time.perf_counter()
    print(json.dumps({"build": t1 - t0, "write": t2 - t1, "solve": t4 - t3, "status": str(status),
                      "objective": obj, "row": row, "col": col,
                      "peak_bw": peak_bw}))


def measure(layer: str, sites: int, args) -> dict:
    cmd = [sys.executable, __file__, "--child", layer, "--sites", str(sites), "--seed", str(args.seed),
           "--solve", args.solve, "--time-limit", str(args.time_limit)]
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        proc = subprocess.Popen(cmd, stdout=out, stderr=err, text=True)
        _, status, usage = os.wait4(proc.pid, 0)   # this child's own rusage, not the maximum over all children
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0), err.seek(0)
        stdout, stderr = out.read(), err.read().strip()
    if proc.returncode:
        return {"error": stderr.splitlines()[-1] if stderr else f"exit {proc.returncode}"}
    result = json.loads(stdout.strip().splitlines()[-1])
    result["peak_mib"] = usage.ru_maxrss / 1024
    return result


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--vars", default="1e4,1e5,6e5", help="sizes in variables, comma-separated (1000 customers each)")
    ap.add_argument("--layers", default=",".join(LAYERS))
    ap.add_argument("--solve", choices=("milp", "lp", "none"), default="milp")
    ap.add_argument("--time-limit", type=float, default=60.0)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--child", help=argparse.SUPPRESS)
    ap.add_argument("--sites", type=int, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args.child, args.sites, args.seed, args.solve, args.time_limit)
        return 0
    layers = [x for x in args.layers.split(",") if x]
    order = ["highspy"] + [x for x in layers if x != "highspy"]   # the baseline first, for the ratios
    for size in (float(v) for v in args.vars.split(",")):
        sites = max(1, round(size / CUSTOMERS))
        print(f"\n{sites} sites x {CUSTOMERS} customers: {sites * CUSTOMERS + sites} variables, "
              f"{sites * CUSTOMERS + sites + CUSTOMERS} rows; solve {args.solve}, limit {args.time_limit:g} s")
        print(f"{'layer':15} {'build s':>8} {'write s':>8} {'solve s':>8} {'peak MiB':>9} {'b+w MiB':>8} {'build x':>8} "
              f"{'b+w x':>7} {'b+w MiB x':>9}  status / objective / names (first row, first column)")
        base = None
        for layer in order:
            r = measure(layer, sites, args)
            if "error" in r:
                print(f"{layer:15} error: {r['error'][:100]}")
                continue
            base = base or r
            obj = f"{r['objective']:.6g}" if isinstance(r["objective"], (int, float)) else "-"
            print(f"{layer:15} {r['build']:8.2f} {r['write']:8.2f} {r['solve']:8.2f} {r['peak_mib']:9.0f} {r['peak_bw']:8.0f} "
                  f"{r['build'] / base['build']:8.2f} "
                  f"{(r['build'] + r['write']) / (base['build'] + base['write']):7.2f} "
                  f"{r['peak_bw'] / base['peak_bw']:9.2f}  {r['status']} / {obj} / {r['row']}, {r['col']}",
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
