"""Reference Z3 program for the warehouse picking route (llmfp/picking-*): an ordered tour with precedences,
arcs as Booleans and visit positions as integers (Miller-Tucker-Zemlin style) in z3.Optimize, every constraint
tracked."""

import json
from pathlib import Path

import z3

d = json.loads(Path("data.json").read_text())
dist, N = d["dist"], len(d["chilled"])
points, shelves = range(N + 1), range(1, N + 1)
opt = z3.Optimize()
opt.set("timeout", 60_000)
arc = {(a, b): z3.Bool(f"arc_{a}_{b}") for a in points for b in points if a != b}  # s1: b right after a
pos = {i: z3.Int(f"pos_{i}") for i in shelves}  # s1: shelf i is the pos_i-th visited
for a in points:
    opt.assert_and_track(z3.PbEq([(arc[a, b], 1) for b in points if b != a], 1), f"s3_leave_once_{a}")
    opt.assert_and_track(z3.PbEq([(arc[b, a], 1) for b in points if b != a], 1), f"s3_enter_once_{a}")
for i in shelves:
    opt.assert_and_track(z3.And(pos[i] >= 1, pos[i] <= N), f"s3_position_range_{i}")
    opt.assert_and_track(z3.Implies(arc[0, i], pos[i] == 1), f"s3_start_at_desk_{i}")
    for j in shelves:
        if i != j:
            opt.assert_and_track(z3.Implies(arc[i, j], pos[j] == pos[i] + 1), f"s3_next_{i}_{j}")
for p, (a, b) in enumerate(d["before"]):
    opt.assert_and_track(pos[a] < pos[b], f"s4_before_{p}")
for c in shelves:
    for g in shelves:
        if d["chilled"][c - 1] and not d["chilled"][g - 1]:
            opt.assert_and_track(pos[c] > pos[g], f"s5_chilled_last_{c}_{g}")
metres = z3.Sum([z3.If(v, dist[a][b], 0) for (a, b), v in arc.items()])  # s2
opt.minimize(metres)

Path("model.smt2").write_text(opt.sexpr())
result = opt.check()
status = "optimal" if result == z3.sat else "infeasible" if result == z3.unsat else "time_limit"
output, objective, values = {}, None, {}
if result == z3.sat:
    m = opt.model()
    val = lambda e: m.eval(e, model_completion=True)
    objective = val(metres).as_long()
    output = {"route": sorted(shelves, key=lambda i: val(pos[i]).as_long()), "metres": objective}
    values = {v.decl().name(): z3.is_true(val(v)) for v in arc.values()}
    values.update({v.decl().name(): val(v).as_long() for v in pos.values()})
    values.update({k.name(): z3.is_true(m[k]) for k in m.decls() if k.name() not in values})
Path("output.json").write_text(json.dumps(output))
Path("solution.json").write_text(json.dumps({"status": status, "objective": objective, "values": values}))
