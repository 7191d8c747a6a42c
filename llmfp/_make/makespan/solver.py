"""Reference Z3 program for the print shop (llmfp/makespan-*): assignment of jobs to unrelated presses
minimising the makespan, Booleans and an integer makespan in z3.Optimize, every constraint tracked."""

import json
from pathlib import Path

import z3

d = json.loads(Path("data.json").read_text())
J, M = range(len(d["minutes"])), range(len(d["minutes"][0]))
opt = z3.Optimize()
opt.set("timeout", 60_000)
assign = [[z3.Bool(f"assign_{j}_{m}") for m in M] for j in J]  # s1
makespan = z3.Int("makespan")  # s6
for j in J:
    opt.assert_and_track(z3.PbEq([(assign[j][m], 1) for m in M], 1), f"s2_one_press_{j}")
    for m in M:
        if not d["fits"][j][m]:
            opt.assert_and_track(z3.Not(assign[j][m]), f"s4_does_not_fit_{j}_{m}")
for p, (a, b) in enumerate(d["apart"]):
    for m in M:
        opt.assert_and_track(z3.Not(z3.And(assign[a][m], assign[b][m])), f"s5_apart_{p}_{m}")
busy = [z3.Sum([z3.If(assign[j][m], d["minutes"][j][m], 0) for j in J]) for m in M]  # s3
for m in M:
    opt.assert_and_track(makespan >= busy[m], f"s6_makespan_covers_{m}")
opt.minimize(makespan)

Path("model.smt2").write_text(opt.sexpr())
result = opt.check()
status = "optimal" if result == z3.sat else "infeasible" if result == z3.unsat else "time_limit"
output, objective, values = {}, None, {}
if result == z3.sat:
    m_ = opt.model()
    on = lambda e: z3.is_true(m_.eval(e, model_completion=True))
    objective = m_.eval(makespan, model_completion=True).as_long()
    output = {"press_of": [next(m for m in M if on(assign[j][m])) for j in J], "makespan": objective}
    values = {v.decl().name(): on(v) for row in assign for v in row}
    values["makespan"] = objective
    values.update({k.name(): z3.is_true(m_[k]) for k in m_.decls() if k.name() not in values})
Path("output.json").write_text(json.dumps(output))
Path("solution.json").write_text(json.dumps({"status": status, "objective": objective, "values": values}))
