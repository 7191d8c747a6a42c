"""Reference Z3 program for the household kind: is there a plan of exactly T actions (T = sys.argv[1])?

State at step t: the robot's place and each item's place (P when in the hand) as integers, whether each
container is open and whether each item is clean as Booleans. Step t's action is one integer (an index into
the ground actions). The harness runs T = 0, 1, ... and the first T that is sat is the shortest plan.
"""

import json
import sys
from pathlib import Path

import z3


def main() -> None:
    horizon = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    data = json.loads(Path("data.json").read_text())
    places, items = data["places"], data["items"]
    n, hand = len(places), len(places)
    at = {p: i for i, p in enumerate(places)}
    item = {x: i for i, x in enumerate(items)}
    boxes = [p for p in range(n) if data["container"][p]]
    taps = [p for p in range(n) if data["tap"][p]]

    # ground actions: (name, args, statement, item index or None, place index, target place for goto)
    ground = [("goto", [places[a], places[b]], "s3", None, a, b) for a in range(n) for b in range(n) if a != b]
    ground += [(name, [places[p]], stmt, None, p, None) for p in boxes for name, stmt in (("open", "s4"), ("close", "s5"))]
    for i, name in enumerate(items):
        ground += [("take", [name, places[p]], "s6", i, p, None) for p in range(n)]
        ground += [("put", [name, places[p]], "s7", i, p, None) for p in range(n)]
        ground += [("wash", [name, places[p]], "s8", i, p, None) for p in taps]

    robot = [z3.Int(f"robot_{t}") for t in range(horizon + 1)]
    pos = [[z3.Int(f"pos_{x}_{t}") for x in items] for t in range(horizon + 1)]
    opened = [{p: z3.Bool(f"open_{places[p]}_{t}") for p in boxes} for t in range(horizon + 1)]
    clean = [[z3.Bool(f"clean_{x}_{t}") for x in items] for t in range(horizon + 1)]
    act = [z3.Int(f"action_{t}") for t in range(horizon)]
    s = z3.Solver()

    def hand_empty(t: int) -> z3.BoolRef:
        return z3.And(*[pos[t][i] != hand for i in range(len(items))])

    def reachable(t: int, p: int) -> z3.BoolRef:  # s1: a surface always, a container while open
        return opened[t][p] if p in opened[t] else z3.BoolVal(True)

    def same(t: int, robot_too: bool = True, but_item: int | None = None, but_box: int | None = None,
             but_clean: int | None = None) -> list:
        """Frame (s11): everything the action does not change stays as it was."""
        keep = [robot[t + 1] == robot[t]] if robot_too else []
        keep += [pos[t + 1][i] == pos[t][i] for i in range(len(items)) if i != but_item]
        keep += [opened[t + 1][p] == opened[t][p] for p in boxes if p != but_box]
        keep += [clean[t + 1][i] == clean[t][i] for i in range(len(items)) if i != but_clean]
        return keep

    for t in range(horizon + 1):
        s.assert_and_track(z3.And(robot[t] >= 0, robot[t] < n), f"s1_robot_at_a_place_t{t}")
        for i, name in enumerate(items):  # s2: an item is at a place or in the hand
            s.assert_and_track(z3.And(pos[t][i] >= 0, pos[t][i] <= hand), f"s2_place_{name}_t{t}")
        for a in range(len(items)):  # s2: the hand holds at most one item
            for b in range(a + 1, len(items)):
                s.assert_and_track(z3.Not(z3.And(pos[t][a] == hand, pos[t][b] == hand)),
                                   f"s2_one_in_hand_{items[a]}_{items[b]}_t{t}")

    for t in range(horizon):
        s.assert_and_track(z3.And(act[t] >= 0, act[t] < len(ground)), f"s11_one_action_t{t}")
        for k, (name, args, stmt, i, p, target) in enumerate(ground):
            tag = f"{stmt}_{name}_{'_'.join(args)}_t{t}"
            pre = [robot[t] == p]
            if name == "goto":
                eff, frame = [robot[t + 1] == target], same(t, robot_too=False)
            elif name in ("open", "close"):
                pre += [z3.Not(opened[t][p]) if name == "open" else opened[t][p], hand_empty(t)]
                eff, frame = [opened[t + 1][p] == (name == "open")], same(t, but_box=p)
            elif name == "take":
                pre += [pos[t][i] == p, reachable(t, p), hand_empty(t)]
                eff, frame = [pos[t + 1][i] == hand], same(t, but_item=i)
            elif name == "put":
                pre += [pos[t][i] == hand, reachable(t, p)]
                eff, frame = [pos[t + 1][i] == p], same(t, but_item=i)
            else:  # wash
                pre += [pos[t][i] == hand, z3.Not(clean[t][i])]
                eff, frame = [clean[t + 1][i]], same(t, but_clean=i)
            s.assert_and_track(z3.Implies(act[t] == k, z3.And(*pre)), f"{tag}_pre")
            s.assert_and_track(z3.Implies(act[t] == k, z3.And(*eff)), f"{tag}_effect")
            s.assert_and_track(z3.Implies(act[t] == k, z3.And(*frame)), f"s11_frame_{tag}")

    s.assert_and_track(robot[0] == at[data["robot_start"]], "s9_robot_start")  # s9: the start, hand empty
    for i, name in enumerate(items):
        s.assert_and_track(pos[0][i] == at[data["item_start"][i]], f"s9_start_{name}")
        s.assert_and_track(clean[0][i] == bool(data["start_clean"][i]), f"s9_start_clean_{name}")
    for p in boxes:
        s.assert_and_track(opened[0][p] == bool(data["start_open"][p]), f"s9_start_open_{places[p]}")
    for name, place in data["goal_at"]:  # s10: the goal after the last action
        s.assert_and_track(pos[horizon][item[name]] == at[place], f"s10_goal_{name}_at_{place}")
    for name in data["goal_clean"]:
        s.assert_and_track(clean[horizon][item[name]], f"s10_goal_{name}_clean")
    for place in data["goal_closed"]:
        shut = z3.Not(opened[horizon][at[place]]) if at[place] in opened[horizon] else z3.BoolVal(False)
        s.assert_and_track(shut, f"s10_goal_{place}_closed")

    Path("model.smt2").write_text(s.sexpr())
    result = s.check()
    if result == z3.sat:
        m = s.model()
        plan = []
        for t in range(horizon):
            name, args, *_ = ground[m.eval(act[t], model_completion=True).as_long()]
            plan.append({"action": name, "args": args})
        ints = [*act, *robot, *(v for row in pos for v in row)]
        bools = [*(v for row in opened for v in row.values()), *(v for row in clean for v in row)]
        values = {str(v): m.eval(v, model_completion=True).as_long() for v in ints}
        values |= {str(v): z3.is_true(m.eval(v, model_completion=True)) for v in bools}
        solution = {"status": "feasible", "objective": None, "values": values, "horizon": horizon}
        output = {"plan": plan}
    else:
        status = "infeasible" if result == z3.unsat else "time_limit"
        solution, output = {"status": status, "objective": None, "values": {}, "horizon": horizon}, {}
    Path("solution.json").write_text(json.dumps(solution, indent=1))
    Path("output.json").write_text(json.dumps(output, indent=1))


if __name__ == "__main__":
    main()
