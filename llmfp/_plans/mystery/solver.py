"""Reference Z3 program for the mystery kind: is there a plan of exactly T actions (T = sys.argv[1])?

State at step t: what each mote skels, as one integer per mote (another mote's index, FLOON or GROX).
Step t's action is one integer (an index into the ground actions). The harness runs T = 0, 1, 2, ... and the
first T that is sat is the shortest plan.
"""

import json
import sys
from pathlib import Path

import z3

# The SNOP's names: data keys, the word for the floon, and the four actions (s3-s6). The domain is the blocks
# kind's under invented words: a mote skels another mote or the floon; the grox harbours at most one mote.
BLOCKS, INIT_ON, GOAL_ON, MAX_HORIZON, TABLE_WORD = "motes", "init_skels", "goal_skels", "max_horizon", "floon"
PICKUP, PUTDOWN, STACK, UNSTACK = "yonk", "plorf", "quibble", "dazzle"


def main() -> None:
    horizon = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    data = json.loads(Path("data.json").read_text())
    names = list(data[BLOCKS])
    n = len(names)
    floon, grox = n, n + 1
    index = {b: i for i, b in enumerate(names)}

    def spot(name: str) -> int:
        return floon if name == TABLE_WORD else index[name]

    # ground actions: (name, args, moved mote, source place, target place); one mote moves per action
    ground = []
    for x in range(n):
        ground.append((PICKUP, [names[x]], x, floon, grox))
        ground.append((PUTDOWN, [names[x]], x, grox, floon))
        for y in range(n):
            if y != x:
                ground.append((STACK, [names[x], names[y]], x, grox, y))
                ground.append((UNSTACK, [names[x], names[y]], x, y, grox))

    skels = [[z3.Int(f"skels_{names[b]}_{t}") for b in range(n)] for t in range(horizon + 1)]
    act = [z3.Int(f"action_{t}") for t in range(horizon)]
    s = z3.Solver()

    def brindled(t: int, x: int) -> z3.BoolRef:
        return z3.And(skels[t][x] != grox, *[skels[t][y] != x for y in range(n) if y != x])

    def grox_vacant(t: int) -> z3.BoolRef:
        return z3.And(*[skels[t][y] != grox for y in range(n)])

    for t in range(horizon + 1):
        for b in range(n):  # s1: a mote skels the floon or another mote, or is harboured
            s.assert_and_track(z3.And(skels[t][b] >= 0, skels[t][b] <= grox, skels[t][b] != b),
                               f"s1_place_{names[b]}_t{t}")
        for x in range(n):  # s1: at most one mote skels any mote
            for a in range(n):
                for c in range(a + 1, n):
                    if x not in (a, c):
                        s.assert_and_track(z3.Not(z3.And(skels[t][a] == x, skels[t][c] == x)),
                                           f"s1_one_skels_{names[x]}_{names[a]}_{names[c]}_t{t}")
        for a in range(n):  # s2: the grox harbours at most one mote
            for c in range(a + 1, n):
                s.assert_and_track(z3.Not(z3.And(skels[t][a] == grox, skels[t][c] == grox)),
                                   f"s2_one_harboured_{names[a]}_{names[c]}_t{t}")

    statement = {PICKUP: "s3", PUTDOWN: "s4", STACK: "s5", UNSTACK: "s6"}
    for t in range(horizon):
        s.assert_and_track(z3.And(act[t] >= 0, act[t] < len(ground)), f"s9_one_action_t{t}")
        for k, (name, args, x, source, target) in enumerate(ground):
            pre = [skels[t][x] == source]
            if name in (PICKUP, UNSTACK):
                pre += [brindled(t, x), grox_vacant(t)]
            if name == STACK:
                pre.append(brindled(t, target))
            tag = f"{statement[name]}_{name}_{'_'.join(args)}_t{t}"
            s.assert_and_track(z3.Implies(act[t] == k, z3.And(*pre)), f"{tag}_pre")
            s.assert_and_track(z3.Implies(act[t] == k, skels[t + 1][x] == target), f"{tag}_effect")
            # s9: an action changes only the mote it moves
            others = [skels[t + 1][y] == skels[t][y] for y in range(n) if y != x]
            s.assert_and_track(z3.Implies(act[t] == k, z3.And(*others)), f"s9_frame_{tag}")

    for b in range(n):  # s7: the initial state (nothing harboured)
        s.assert_and_track(skels[0][b] == spot(data[INIT_ON][b]), f"s7_initial_{names[b]}")
    for upper, lower in data[GOAL_ON]:  # s8: the goal after the last action
        s.assert_and_track(skels[horizon][index[upper]] == spot(lower), f"s8_goal_{upper}_{lower}")

    Path("model.smt2").write_text(s.sexpr())
    result = s.check()
    if result == z3.sat:
        m = s.model()
        plan = []
        for t in range(horizon):
            name, args, *_ = ground[m.eval(act[t], model_completion=True).as_long()]
            plan.append({"action": name, "args": args})
        values = {str(v): m.eval(v, model_completion=True).as_long()
                  for v in [*act, *(v for row in skels for v in row)]}
        solution = {"status": "feasible", "objective": None, "values": values, "horizon": horizon}
        output = {"plan": plan}
    else:
        status = "infeasible" if result == z3.unsat else "time_limit"
        solution, output = {"status": status, "objective": None, "values": {}, "horizon": horizon}, {}
    Path("solution.json").write_text(json.dumps(solution, indent=1))
    Path("output.json").write_text(json.dumps(output, indent=1))


if __name__ == "__main__":
    main()
