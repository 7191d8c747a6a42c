"""Reference Z3 program for the gripper kind on the incremental horizon contract (the harness drives it).

One solver for every horizon: __init__ encodes step 0, extend(t) adds step t (the action at t, the state at t+1),
goal(t) names the goal facts at step t (the harness asserts them under an assumption literal, so the clauses
learned at T-1 serve T), output() reads the plan. Planners' encoding: a Boolean per fact and per ground action,
exactly one action per step as a cardinality constraint, explanatory frame axioms (a fact changes only when an
action at that step adds or deletes it), the statements' invariants at every step as cardinality constraints,
and symmetry breaking for interchangeable hands and exhibits (tracked as `s2_symmetry_…`: the re-check proves
T-1 unsat without them).
"""

import z3


class Horizon:
    logic = "QF_FD"  # Booleans and cardinalities only: z3's SAT solver

    def __init__(self, data: dict, solver: z3.Solver) -> None:
        self.halls, self.hands, self.exhibits = data["halls"], data["hands"], data["exhibits"]
        links = {(a, b) for a, b in data["passages"]} | {(b, a) for a, b in data["passages"]}
        self.walks = sorted((a, b) for a, b in links if a != b)
        goal = {e: r for e, r in data["goal_in"]}
        self.goal_in = data["goal_in"]
        # exhibits the statements cannot tell apart once they stand in the same hall: the same goal (or none)
        self.twins = [(a, b) for i, a in enumerate(self.exhibits) for b in self.exhibits[i + 1:]
                      if goal.get(a) == goal.get(b)]
        self.solver = solver
        self.robot, self.stands, self.holds, self.empty = [], [], [], []
        self.acts: list[dict[tuple, z3.BoolRef]] = []
        self._state(0)
        s = self.solver
        s.assert_and_track(z3.And(*[self.robot[0][r] == (r == data["robot_start"]) for r in self.halls]),
                           "s6_robot_start")
        start = dict(zip(self.exhibits, data["exhibit_start"]))
        s.assert_and_track(z3.And(*[self.stands[0][e][r] == (start[e] == r) for e in self.exhibits
                                    for r in self.halls]), "s6_exhibit_start")
        s.assert_and_track(z3.And(*[z3.Not(v) for row in self.holds[0].values() for v in row.values()]),
                           "s2_hands_empty_at_start")

    def _state(self, t: int) -> None:
        """The facts at step t and the invariants of s1 and s2 on them."""
        self.robot.append({r: z3.Bool(f"robot_in_{r}_{t}") for r in self.halls})
        self.stands.append({e: {r: z3.Bool(f"stands_{e}_{r}_{t}") for r in self.halls} for e in self.exhibits})
        self.holds.append({h: {e: z3.Bool(f"holds_{h}_{e}_{t}") for e in self.exhibits} for h in self.hands})
        self.empty.append({h: z3.Not(z3.Or(*self.holds[t][h].values())) for h in self.hands})
        s = self.solver
        s.assert_and_track(z3.PbEq([(v, 1) for v in self.robot[t].values()], 1), f"s1_one_hall_t{t}")
        s.assert_and_track(z3.And(*[z3.PbEq([(v, 1) for v in [*self.stands[t][e].values(),
                                                               *(self.holds[t][h][e] for h in self.hands)]], 1)
                                    for e in self.exhibits]), f"s2_one_place_t{t}")
        s.assert_and_track(z3.And(*[z3.AtMost(*self.holds[t][h].values(), 1) for h in self.hands]),
                           f"s2_one_per_hand_t{t}")


    def extend(self, t: int) -> None:
        """Step t: the action done at t and the state at t+1."""
        self._state(t + 1)
        s, now, nxt = self.solver, t, t + 1
        act = {("walk", a, b): z3.Bool(f"walk_{a}_{b}_{t}") for a, b in self.walks}
        for e in self.exhibits:
            for r in self.halls:
                for h in self.hands:
                    act[("grasp", e, r, h)] = z3.Bool(f"grasp_{e}_{r}_{h}_{t}")
                    act[("release", e, r, h)] = z3.Bool(f"release_{e}_{r}_{h}_{t}")
        self.acts.append(act)
        s.assert_and_track(z3.PbEq([(v, 1) for v in act.values()], 1), f"s8_one_action_t{t}")
        walk, grasp, release = [], [], []
        for key, a in act.items():
            if key[0] == "walk":
                _, x, y = key
                walk.append(z3.Implies(a, z3.And(self.robot[now][x], self.robot[nxt][y])))
            elif key[0] == "grasp":
                _, e, r, h = key
                grasp.append(z3.Implies(a, z3.And(self.robot[now][r], self.stands[now][e][r], self.empty[now][h],
                                                  self.holds[nxt][h][e])))
            else:
                _, e, r, h = key
                release.append(z3.Implies(a, z3.And(self.robot[now][r], self.holds[now][h][e],
                                                    self.stands[nxt][e][r])))
        s.assert_and_track(z3.And(*walk), f"s3_walk_t{t}")
        s.assert_and_track(z3.And(*grasp), f"s4_grasp_t{t}")
        s.assert_and_track(z3.And(*release), f"s5_release_t{t}")
        s.assert_and_track(self._frame(t, act), f"s8_frame_t{t}")
        s.assert_and_track(self._symmetry(t, act), f"s2_symmetry_t{t}")

    def _frame(self, t: int, act: dict) -> z3.BoolRef:
        """Explanatory frame axioms: a fact that changes from t to t+1 was added or deleted by the action at t."""
        axioms = []

        def explain(before, after, adders, deleters) -> None:
            axioms.append(z3.Implies(z3.And(z3.Not(before), after), z3.Or(*adders)))
            axioms.append(z3.Implies(z3.And(before, z3.Not(after)), z3.Or(*deleters)))

        for r in self.halls:
            explain(self.robot[t][r], self.robot[t + 1][r], [act[("walk", a, b)] for a, b in self.walks if b == r],
                    [act[("walk", a, b)] for a, b in self.walks if a == r])
        for e in self.exhibits:
            for r in self.halls:
                explain(self.stands[t][e][r], self.stands[t + 1][e][r], [act[("release", e, r, h)] for h in self.hands],
                        [act[("grasp", e, r, h)] for h in self.hands])
            for h in self.hands:
                explain(self.holds[t][h][e], self.holds[t + 1][h][e], [act[("grasp", e, r, h)] for r in self.halls],
                        [act[("release", e, r, h)] for r in self.halls])
        return z3.And(*axioms)

    def _symmetry(self, t: int, act: dict) -> z3.BoolRef:
        """Interchangeable objects are used in their listed order: a hand grasps only when every hand listed
        before it is busy; of two exhibits with the same goal standing in one hall, the first is grasped first."""
        rules = []
        for k, h in enumerate(self.hands):
            for e in self.exhibits:
                for r in self.halls:
                    rules += [z3.Implies(act[("grasp", e, r, h)], z3.Not(self.empty[t][g])) for g in self.hands[:k]]
        for a, b in self.twins:
            for r in self.halls:
                rules += [z3.Implies(act[("grasp", b, r, h)], z3.Not(self.stands[t][a][r])) for h in self.hands]
        return z3.And(*rules)

    def goal(self, t: int) -> dict:
        return {f"s7_goal_{e}_{r}": self.stands[t][e][r] for e, r in self.goal_in}

    def output(self, model: z3.ModelRef, t: int) -> dict:
        plan = []
        for step in self.acts[:t]:
            key = next(k for k, a in step.items() if z3.is_true(model.eval(a, model_completion=True)))
            name, args = key[0], list(key[1:])
            plan.append({"action": name, "args": args})
        return {"plan": plan}
