"""Reference Z3 program for the blocks kind: is there a plan of exactly T actions (T = sys.argv[1])?

State at step t: where each block is, as one integer per block (another block's index, TABLE or ARM).
Step t's action is one integer (an index into the ground actions). The harness runs T = 0, 1, 2, ... and the
first T that is sat is the shortest plan.
"""

import json
import sys
from pathlib import Path

import z3

# The SNOP's names: data keys, the word for the table, and the four actions (s3-s6).
BLOCKS, INIT_ON, GOAL_ON, MAX_HORIZON, TABLE_WORD = "blocks", "init_on", "goal_on", "max_horizon", "table"
PICKUP, PUTDOWN, STACK, UNSTACK = "pickup", "putdown", "stack", "unstack"


def main() -> None:
    horizon = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    data = json.loads(Path("data.json").read_text())
    names = list(data[BLOCKS])
    n = len(names)
    table, arm = n, n + 1
    index = {b: i for i, b in enumerate(names)}

    def spot(name: str) -> int:
        return table if name == TABLE_WORD else index[name]

    # ground actions: (name, args, moved block, source place, target place); one block moves per action
    ground = []
    for x in range(n):
        ground.append((PICKUP, [names[x]], x, table, arm))
        ground.append((PUTDOWN, [names[x]], x, arm, table))
        for y in range(n):
            if y != x:
                ground.append((STACK, [names[x], names[y]], x, arm, y))
                ground.append((UNSTACK, [names[x], names[y]], x, y, arm))

    below = [[z3.Int(f"below_{names[b]}_{t}") for b in range(n)] for t in range(horizon + 1)]
    act = [z3.Int(f"action_{t}") for t in range(horizon)]
    s = z3.Solver()

    def clear(t: int, x: int) -> z3.BoolRef:
        return z3.And(below[t][x] != arm, *[below[t][y] != x for y in range(n) if y != x])

    def arm_empty(t: int) -> z3.BoolRef:
        return z3.And(*[below[t][y] != arm for y in range(n)])

    for t in range(horizon + 1):
        for b in range(n):  # s1: a block rests on the table, on another block, or is held
            s.assert_and_track(z3.And(below[t][b] >= 0, below[t][b] <= arm, below[t][b] != b),
                               f"s1_place_{names[b]}_t{t}")
        for x in range(n):  # s1: at most one block rests on any block
            for a in range(n):
                for c in range(a + 1, n):
                    if x not in (a, c):
                        s.assert_and_track(z3.Not(z3.And(below[t][a] == x, below[t][c] == x)),
                                           f"s1_one_on_{names[x]}_{names[a]}_{names[c]}_t{t}")
        for a in range(n):  # s2: the arm holds at most one block
            for c in range(a + 1, n):
                s.assert_and_track(z3.Not(z3.And(below[t][a] == arm, below[t][c] == arm)),
                                   f"s2_one_held_{names[a]}_{names[c]}_t{t}")

    statement = {PICKUP: "s3", PUTDOWN: "s4", STACK: "s5", UNSTACK: "s6"}
    for t in range(horizon):
        s.assert_and_track(z3.And(act[t] >= 0, act[t] < len(ground)), f"s9_one_action_t{t}")
        for k, (name, args, x, source, target) in enumerate(ground):
            pre = [below[t][x] == source]
            if name in (PICKUP, UNSTACK):
                pre += [clear(t, x), arm_empty(t)]
            if name == STACK:
                pre.append(clear(t, target))
            tag = f"{statement[name]}_{name}_{'_'.join(args)}_t{t}"
            s.assert_and_track(z3.Implies(act[t] == k, z3.And(*pre)), f"{tag}_pre")
            s.assert_and_track(z3.Implies(act[t] == k, below[t + 1][x] == target), f"{tag}_effect")
            # s9: an action changes only the block it moves
            others = [below[t + 1][y] == below[t][y] for y in range(n) if y != x]
            s.assert_and_track(z3.Implies(act[t] == k, z3.And(*others)), f"s9_frame_{tag}")

    for b in range(n):  # s7: the initial state (nothing held)
        s.assert_and_track(below[0][b] == spot(data[INIT_ON][b]), f"s7_initial_{names[b]}")
    for upper, lower in data[GOAL_ON]:  # s8: the goal after the last action
        s.assert_and_track(below[horizon][index[upper]] == spot(lower), f"s8_goal_{upper}_{lower}")

    Path("model.smt2").write_text(s.sexpr())
    result = s.check()
    if result == z3.sat:
        m = s.model()
        plan = []
        for t in range(horizon):
            name, args, *_ = ground[m.eval(act[t], model_completion=True).as_long()]
            plan.append({"action": name, "args": args})
        values = {str(v): m.eval(v, model_completion=True).as_long()
                  for v in [*act, *(v for row in below for v in row)]}
        solution = {"status": "feasible", "objective": None, "values": values, "horizon": horizon}
        output = {"plan": plan}
    else:
        status = "infeasible" if result == z3.unsat else "time_limit"
        solution, output = {"status": status, "objective": None, "values": {}, "horizon": horizon}, {}
    Path("solution.json").write_text(json.dumps(solution, indent=1))
    Path("output.json").write_text(json.dumps(output, indent=1))


if __name__ == "__main__":
    main()
