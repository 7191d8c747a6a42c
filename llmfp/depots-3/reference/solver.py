"""Reference Z3 program for the drinks wholesaler's depots (llmfp/depots-*): capacitated facility location with
single sourcing, Booleans and pseudo-Boolean rows in z3.Optimize, every constraint tracked."""

import json
from pathlib import Path

import z3

d = json.loads(Path("data.json").read_text())
W, S = range(len(d["lease"])), range(len(d["crates"]))
opt = z3.Optimize()
opt.set("timeout", 60_000)
open_ = [z3.Bool(f"open_{w}") for w in W]  # s1
serve = [[z3.Bool(f"serve_{w}_{s}") for s in S] for w in W]  # s1
for s in S:
    opt.assert_and_track(z3.PbEq([(serve[w][s], 1) for w in W], 1), f"s4_one_depot_{s}")
for w in W:
    load = [(serve[w][s], d["crates"][s]) for s in S]
    opt.assert_and_track(z3.Implies(z3.Not(open_[w]), z3.Not(z3.Or(serve[w]))), f"s5_closed_serves_none_{w}")
    opt.assert_and_track(z3.PbLe(load, d["capacity"][w]), f"s5_capacity_{w}")
    for s in S:
        if d["drive"][w][s] > d["max_drive"]:
            opt.assert_and_track(z3.Not(serve[w][s]), f"s6_too_far_{w}_{s}")
opt.assert_and_track(z3.AtMost(*open_, d["max_open"]), "s7_max_open")
cost = (z3.Sum([z3.If(open_[w], d["lease"][w], 0) for w in W])  # s2
        + z3.Sum([z3.If(serve[w][s], d["serve_cost"][w][s], 0) for w in W for s in S]))  # s3
opt.minimize(cost)

Path("model.smt2").write_text(opt.sexpr())
result = opt.check()
status = "optimal" if result == z3.sat else "infeasible" if result == z3.unsat else "time_limit"
output, objective, values = {}, None, {}
if result == z3.sat:
    m = opt.model()
    on = lambda e: z3.is_true(m.eval(e, model_completion=True))
    objective = m.eval(cost, model_completion=True).as_long()
    output = {"open": [int(on(v)) for v in open_],
              "depot_of": [next(w for w in W if on(serve[w][s])) for s in S], "total_cost": objective}
    values = {v.decl().name(): on(v) for v in [*open_, *(v for row in serve for v in row)]}
    values.update({k.name(): z3.is_true(m[k]) for k in m.decls() if k.name() not in values})
Path("output.json").write_text(json.dumps(output))
Path("solution.json").write_text(json.dumps({"status": status, "objective": objective, "values": values}))
