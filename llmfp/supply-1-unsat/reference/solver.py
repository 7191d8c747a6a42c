"""Reference Z3 program for the bean roaster's supply chain (llmfp/supply-*): an integer flow problem in
z3.Optimize, every constraint tracked under the statement it encodes."""

import json
from pathlib import Path

import z3

d = json.loads(Path("data.json").read_text())
S, R, C = range(len(d["harvest"])), range(len(d["roast_capacity"])), range(len(d["demand"]))
opt = z3.Optimize()
opt.set("timeout", 60_000)
buy = [[z3.Int(f"buy_{s}_{r}") for r in R] for s in S]  # s1
send = [[z3.Int(f"send_{r}_{c}") for c in C] for r in R]  # s1
for s in S:
    for r in R:
        opt.assert_and_track(buy[s][r] >= 0, f"s9_buy_nonneg_{s}_{r}")
    opt.assert_and_track(z3.Sum(buy[s]) <= d["harvest"][s], f"s4_harvest_{s}")
    if d["closed"][s]:
        opt.assert_and_track(z3.Sum(buy[s]) == 0, f"s8_closed_{s}")
for r in R:
    bought = z3.Sum([buy[s][r] for s in S])
    opt.assert_and_track(bought <= d["roast_capacity"][r], f"s5_roast_capacity_{r}")
    opt.assert_and_track(z3.Sum(send[r]) == bought, f"s6_roast_what_is_bought_{r}")
    for c in C:
        opt.assert_and_track(send[r][c] >= 0, f"s9_send_nonneg_{r}_{c}")
for c in C:
    opt.assert_and_track(z3.Sum([send[r][c] for r in R]) >= d["demand"][c], f"s7_demand_{c}")
cost = (z3.Sum([d["bean_cost"][s][r] * buy[s][r] for s in S for r in R])  # s2
        + z3.Sum([d["roast_cost"][r] * buy[s][r] for s in S for r in R])  # s3
        + z3.Sum([d["delivery_cost"][r][c] * send[r][c] for r in R for c in C]))  # s3
opt.minimize(cost)

Path("model.smt2").write_text(opt.sexpr())
result = opt.check()
status = "optimal" if result == z3.sat else "infeasible" if result == z3.unsat else "time_limit"
output, objective, values = {}, None, {}
if result == z3.sat:
    m = opt.model()
    num = lambda e: m.eval(e, model_completion=True).as_long()
    objective = num(cost)
    output = {"buy": [[num(v) for v in row] for row in buy], "send": [[num(v) for v in row] for row in send],
              "total_cost": objective}
    values = {k.name(): (z3.is_true(m[k]) if z3.is_bool(m[k]) else m[k].as_long()) for k in m.decls()}
Path("output.json").write_text(json.dumps(output, indent=2))
Path("solution.json").write_text(json.dumps({"status": status, "objective": objective, "values": values}))
