"""Reference program for industrial/network-design at 10^5 rows and up: the model of solver.py, with the same
names, built as numpy arrays and handed to HiGHS through highspy (no per-element Python modelling calls)."""

import json
import os
import re
import time

import duckdb
import highspy
import numpy as np


def safe(ids) -> np.ndarray:
    """Each identifier once as a name part: letters, digits and underscores only."""
    return np.array([re.sub(r"\W", "_", str(i)) for i in ids], dtype=object)


def positions(ids, keys) -> np.ndarray:
    """The position in `ids` (a table's key column, in file order) of each of `keys`."""
    at = {k: i for i, k in enumerate(ids)}
    return np.fromiter((at[k] for k in keys), np.int64, len(keys))


started = time.perf_counter()
data = json.load(open("data.json"))
db = duckdb.connect()
terminals = db.sql("SELECT terminal FROM 'data/terminals.csv'").fetchnumpy()["terminal"]  # file order
links = db.sql("SELECT link, tail, head, lease_cost, cost_per_crate, capacity FROM 'data/links.parquet'").fetchnumpy()
shipments = db.sql("SELECT shipment, origin, destination, crates FROM 'data/shipments.csv'").fetchnumpy()
tail, head = positions(terminals, links["tail"]), positions(terminals, links["head"])
origin, destination = positions(terminals, shipments["origin"]), positions(terminals, shipments["destination"])
nt, na, nk = len(terminals), len(tail), len(origin)
crates = shipments["crates"].astype(float)
terminal_part, link_part, shipment_part = safe(terminals), safe(links["link"]), safe(shipments["shipment"])

# columns: lease[a] (s1) first, then flow[a, k] link by link, shipment by shipment within a link (s1, s9)
y = np.arange(na)
pair_link, pair_shipment = np.repeat(np.arange(na), nk), np.tile(np.arange(nk), na)  # of flow[a, k], in order
pair_part = link_part[pair_link] + "_" + shipment_part[pair_shipment]  # flow[a, k] and its s6 row
x = na + np.arange(na * nk)
col_names = np.concatenate(["lease_" + link_part, "flow_" + pair_part]).tolist()
# s2, s3: the lease cost of each link, the routing cost of each crate on it
cost = np.concatenate([links["lease_cost"].astype(float), np.repeat(links["cost_per_crate"].astype(float), nk)])
upper = np.concatenate([np.ones(na), np.full(na * nk, np.inf)])  # lease binary; s9: flows from 0 up

# s4 balance of shipment k at terminal t is row k * nt + t: crates at the origin, minus them at the destination
# (the origin wins should the two coincide, as in solver.py), else 0
net = np.zeros((nk, nt))
net[np.arange(nk), destination] = -crates
net[np.arange(nk), origin] = crates
net = net.ravel()
balance_names = "s4_balance_" + np.repeat(shipment_part, nt) + "_" + np.tile(terminal_part, nk)

# rows as (row, column, coefficient) triplets per statement, numbered from the statement's first row
pair = np.arange(na * nk)
blocks = [  # (rows, columns, coefficients, lower, upper, names)
    (np.concatenate([pair_shipment * nt + tail[pair_link], pair_shipment * nt + head[pair_link]]),
     np.concatenate([x, x]), np.concatenate([np.ones(na * nk), -np.ones(na * nk)]),
     net, net, balance_names),  # s4: a link's flow leaves its tail and enters its head
    (np.concatenate([pair_link, y]), np.concatenate([x, y]),
     np.concatenate([np.ones(na * nk), -links["capacity"].astype(float)]),
     np.full(na, -np.inf), np.zeros(na), "s5_capacity_" + link_part),  # s2, s5: capacity, only when leased
    (np.concatenate([pair, pair]), np.concatenate([x, y[pair_link]]),
     np.concatenate([np.ones(na * nk), -crates[pair_shipment]]),
     np.full(na * nk, -np.inf), np.zeros(na * nk),
     "s6_link_" + pair_part),  # s6: a shipment's flow at most its crates, only on a leased link
]
del balance_names, net, pair_part
first = np.cumsum([0] + [len(b[3]) for b in blocks])  # each statement's first row
rows = np.concatenate([b[0] + f for b, f in zip(blocks, first)])
order = np.argsort(rows, kind="stable")  # row by row, as addRows takes them
starts = np.concatenate([[0], np.cumsum(np.bincount(rows, minlength=first[-1]))[:-1]])
columns, coefficients = np.concatenate([b[1] for b in blocks])[order], np.concatenate([b[2] for b in blocks])[order]

h = highspy.Highs()
h.setOptionValue("output_flag", False)
h.addCols(na + na * nk, cost, np.zeros(na + na * nk), upper, 0, np.zeros(0, np.int32), np.zeros(0, np.int32),
          np.zeros(0))
h.addRows(first[-1], np.concatenate([b[3] for b in blocks]).astype(float),
          np.concatenate([b[4] for b in blocks]).astype(float), len(order), starts.astype(np.int32),
          columns.astype(np.int32), coefficients)
h.changeColsIntegrality(na, y.astype(np.int32), np.full(na, highspy.HighsVarType.kInteger))
lp = h.getLp()
lp.col_names_, lp.row_names_ = col_names, np.concatenate([b[5] for b in blocks]).tolist()
h.passModel(lp)
del lp, rows, order, columns, coefficients, blocks, cost, upper, pair  # the model lives in HiGHS now
built = time.perf_counter()
h.writeModel("model.mps")
written = time.perf_counter()

if os.environ.get("OPTIMUS_TIME_LIMIT"):
    h.setOptionValue("time_limit", float(os.environ["OPTIMUS_TIME_LIMIT"]))
if os.environ.get("OPTIMUS_MIP_GAP"):
    h.setOptionValue("mip_rel_gap", float(os.environ["OPTIMUS_MIP_GAP"]))
if os.environ.get("OPTIMUS_THREADS"):
    h.setOptionValue("threads", int(os.environ["OPTIMUS_THREADS"]))
h.run()
solved = time.perf_counter()

S = highspy.HighsModelStatus
info = h.getInfo()
status = {S.kOptimal: "optimal", S.kInfeasible: "infeasible", S.kUnboundedOrInfeasible: "infeasible",
          S.kUnbounded: "unbounded", S.kTimeLimit: "time_limit"}.get(h.getModelStatus(), "error")
has_solution = info.primal_solution_status == 2  # a feasible point
solution = {"status": status, "objective": None,
            "seconds": {"build": built - started, "write": written - built, "solve": solved - written}}
output = {}
if status in ("optimal", "time_limit") and has_solution:
    value = np.asarray(h.getSolution().col_value)
    solution["objective"] = info.objective_function_value
    solution["values"] = dict(zip(col_names, value.tolist()))
    if status == "time_limit":  # an incumbent: how far from optimal it may be
        solution.update(bound=info.mip_dual_bound, gap=info.mip_gap)
    carried = np.flatnonzero(value[x] > 1e-9)
    output = {"leased": links["link"][value[y] > 0.5].tolist(),
              "flows": [{"link": a, "shipment": k, "crates": c} for a, k, c in
                        zip(links["link"][pair_link[carried]].tolist(),
                            shipments["shipment"][pair_shipment[carried]].tolist(), value[x][carried].tolist())],
              "total_cost": solution["objective"]}
json.dump(solution, open("solution.json", "w"))
json.dump(output, open("output.json", "w"))
