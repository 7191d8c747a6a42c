"""Reference Z3 program for the gripper kind: is there a plan of exactly T actions (T = sys.argv[1])?

State at step t: the robot's hall (an integer) and each exhibit's place (a hall index, or H + h when hand h
holds it). Step t's action is one integer (an index into the ground actions). The harness runs T = 0, 1, ...
and the first T that is sat is the shortest plan.
"""

import json
import sys
from pathlib import Path

import z3


def main() -> None:
    horizon = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    data = json.loads(Path("data.json").read_text())
    halls, hands, exhibits = data["halls"], data["hands"], data["exhibits"]
    n_halls = len(halls)
    hall = {h: i for i, h in enumerate(halls)}
    exhibit = {e: i for i, e in enumerate(exhibits)}
    links = {(hall[a], hall[b]) for a, b in data["passages"]} | {(hall[b], hall[a]) for a, b in data["passages"]}

    # ground actions: (name, args, statement, kind, exhibit, hall, hand or target hall)
    ground = [("walk", [halls[a], halls[b]], "s3", "walk", None, a, b) for a, b in sorted(links) if a != b]
    for e, name in enumerate(exhibits):
        for r in range(n_halls):
            for h, hand in enumerate(hands):
                ground.append(("grasp", [name, halls[r], hand], "s4", "grasp", e, r, h))
                ground.append(("release", [name, halls[r], hand], "s5", "release", e, r, h))

    robot = [z3.Int(f"robot_{t}") for t in range(horizon + 1)]
    place = [[z3.Int(f"place_{e}_{t}") for e in exhibits] for t in range(horizon + 1)]
    act = [z3.Int(f"action_{t}") for t in range(horizon)]
    s = z3.Solver()

    def held_in(t: int, h: int) -> z3.BoolRef:
        return z3.Or(*[place[t][e] == n_halls + h for e in range(len(exhibits))])

    for t in range(horizon + 1):
        s.assert_and_track(z3.And(robot[t] >= 0, robot[t] < n_halls), f"s1_robot_in_a_hall_t{t}")
        for e, name in enumerate(exhibits):  # s2: an exhibit is in a hall or in one hand
            s.assert_and_track(z3.And(place[t][e] >= 0, place[t][e] < n_halls + len(hands)), f"s2_place_{name}_t{t}")
        for h, hand in enumerate(hands):  # s2: a hand holds at most one exhibit
            for a in range(len(exhibits)):
                for b in range(a + 1, len(exhibits)):
                    s.assert_and_track(z3.Not(z3.And(place[t][a] == n_halls + h, place[t][b] == n_halls + h)),
                                       f"s2_one_in_{hand}_{exhibits[a]}_{exhibits[b]}_t{t}")

    for t in range(horizon):
        s.assert_and_track(z3.And(act[t] >= 0, act[t] < len(ground)), f"s8_one_action_t{t}")
        for k, (name, args, stmt, kind, e, r, x) in enumerate(ground):
            tag = f"{stmt}_{name}_{'_'.join(args)}_t{t}"
            if kind == "walk":
                pre, eff = [robot[t] == r], [robot[t + 1] == x]
                frame = [place[t + 1][i] == place[t][i] for i in range(len(exhibits))]
            elif kind == "grasp":
                pre = [robot[t] == r, place[t][e] == r, z3.Not(held_in(t, x))]
                eff = [place[t + 1][e] == n_halls + x]
            else:
                pre, eff = [robot[t] == r, place[t][e] == n_halls + x], [place[t + 1][e] == r]
            if kind != "walk":
                frame = [robot[t + 1] == robot[t]] + [place[t + 1][i] == place[t][i]
                                                       for i in range(len(exhibits)) if i != e]
            s.assert_and_track(z3.Implies(act[t] == k, z3.And(*pre)), f"{tag}_pre")
            s.assert_and_track(z3.Implies(act[t] == k, z3.And(*eff)), f"{tag}_effect")
            s.assert_and_track(z3.Implies(act[t] == k, z3.And(*frame)), f"s8_frame_{tag}")

    s.assert_and_track(robot[0] == hall[data["robot_start"]], "s6_robot_start")  # s6: the start, hands empty
    for e, name in enumerate(exhibits):
        s.assert_and_track(place[0][e] == hall[data["exhibit_start"][e]], f"s6_start_{name}")
    for name, target in data["goal_in"]:  # s7: the goal after the last action
        s.assert_and_track(place[horizon][exhibit[name]] == hall[target], f"s7_goal_{name}_{target}")

    Path("model.smt2").write_text(s.sexpr())
    result = s.check()
    if result == z3.sat:
        m = s.model()
        plan = []
        for t in range(horizon):
            name, args, *_ = ground[m.eval(act[t], model_completion=True).as_long()]
            plan.append({"action": name, "args": args})
        values = {str(v): m.eval(v, model_completion=True).as_long()
                  for v in [*act, *robot, *(v for row in place for v in row)]}
        solution = {"status": "feasible", "objective": None, "values": values, "horizon": horizon}
        output = {"plan": plan}
    else:
        status = "infeasible" if result == z3.unsat else "time_limit"
        solution, output = {"status": status, "objective": None, "values": {}, "horizon": horizon}, {}
    Path("solution.json").write_text(json.dumps(solution, indent=1))
    Path("output.json").write_text(json.dumps(output, indent=1))


if __name__ == "__main__":
    main()
