"""Reference Z3 program for the clinic's nurse rota (llmfp/rota-*): a satisfaction problem over Booleans in
z3.Solver, every constraint tracked under the statement it encodes."""

import json
from pathlib import Path

import z3

d = json.loads(Path("data.json").read_text())
N, D, K = len(d["available"]), len(d["need"]), len(d["need"][0])
nurses, days, shifts = range(N), range(D), range(K)
s = z3.Solver()
s.set("timeout", 60_000)
work = [[[z3.Bool(f"work_{n}_{t}_{k}") for k in shifts] for t in days] for n in nurses]  # s1
for t in days:
    for k in shifts:
        on_duty = [(work[n][t][k], 1) for n in nurses]
        s.assert_and_track(z3.PbGe(on_duty, d["need"][t][k]), f"s2_need_{t}_{k}")
for n in nurses:
    for t in days:
        for k in shifts:
            if not d["available"][n][t][k]:
                s.assert_and_track(z3.Not(work[n][t][k]), f"s3_unavailable_{n}_{t}_{k}")
        s.assert_and_track(z3.AtMost(*work[n][t], 1), f"s4_one_shift_a_day_{n}_{t}")
        if t + 1 < D:
            s.assert_and_track(z3.Not(z3.And(work[n][t][K - 1], work[n][t + 1][0])), f"s7_rest_after_night_{n}_{t}")
    week = [(work[n][t][k], 1) for t in days for k in shifts]
    s.assert_and_track(z3.PbLe(week, d["max_shifts"][n]), f"s5_max_shifts_{n}")
    s.assert_and_track(z3.PbGe(week, d["min_shifts"]), f"s6_min_shifts_{n}")
for p, (a, b) in enumerate(d["apart"]):
    for t in days:
        for k in shifts:
            s.assert_and_track(z3.Not(z3.And(work[a][t][k], work[b][t][k])), f"s8_apart_{p}_{t}_{k}")

Path("model.smt2").write_text(s.sexpr())
result = s.check()
status = "feasible" if result == z3.sat else "infeasible" if result == z3.unsat else "time_limit"
output, values = {}, {}
if result == z3.sat:
    m = s.model()
    on = lambda e: int(z3.is_true(m.eval(e, model_completion=True)))
    output = {"work": [[[on(v) for v in row] for row in plan] for plan in work]}
    values = {v.decl().name(): bool(on(v)) for plan in work for row in plan for v in row}
    values.update({k.name(): z3.is_true(m[k]) for k in m.decls() if k.name() not in values})
Path("output.json").write_text(json.dumps(output))
Path("solution.json").write_text(json.dumps({"status": status, "objective": None, "values": values}))
