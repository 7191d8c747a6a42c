"""Reference Z3 program for the gripper2 kind, on the incremental horizon contract (the harness drives it).

One solver for every horizon: __init__ encodes step 0, extend(t) adds step t (the action at t, the state at t+1),
goal(t) names the goal facts at step t (the harness asserts them under an assumption literal, so the clauses
learned at T-1 serve T), output() reads the plan. A Boolean per fact and per ground action, exactly one action
per step as a cardinality constraint, explanatory frame axioms (a fact changes only when an action at that step
adds or deletes it), the statements' invariants at every step, and symmetry breaking for each robot's arms and
for trays with one goal (tracked as `s2_symmetry_…`). Run as `python solver.py T` it answers one horizon
(the per-horizon contract the ground truth uses): is there a plan of exactly T actions?
"""

import json
import re
import sys
from pathlib import Path

import z3


class Horizon:
    logic = "QF_FD"  # Booleans and cardinalities only: z3's SAT solver

    def __init__(self, data: dict, solver: z3.Solver) -> None:
        self.wards, self.robots, self.arms, self.trays = data["wards"], data["robots"], data["arms"], data["trays"]
        links = {(a, b) for a, b in data["corridors"]} | {(b, a) for a, b in data["corridors"]}
        self.walks = sorted((a, b) for a, b in links if a != b)
        self.goal_in = data["goal_in"]
        goal = {t: w for t, w in data["goal_in"]}
        # trays the statements cannot tell apart once they lie in one ward: the same goal (or none)
        self.twins = [(a, b) for i, a in enumerate(self.trays) for b in self.trays[i + 1:] if goal.get(a) == goal.get(b)]
        self.solver = solver
        self.at, self.lies, self.carries, self.free = [], [], [], []
        self.acts: list[dict[tuple, z3.BoolRef]] = []
        self._state(0)
        s, starts = self.solver, dict(zip(self.robots, data["robot_start"]))
        s.assert_and_track(z3.And(*[self.at[0][r][w] == (starts[r] == w) for r in self.robots for w in self.wards]),
                           "s6_robot_start")
        start = dict(zip(self.trays, data["tray_start"]))
        s.assert_and_track(z3.And(*[self.lies[0][t][w] == (start[t] == w) for t in self.trays for w in self.wards]),
                           "s6_tray_start")
        s.assert_and_track(z3.And(*[z3.Not(v) for r in self.robots for row in self.carries[0][r].values()
                                    for v in row.values()]), "s2_arms_free_at_start")

    def _state(self, t: int) -> None:
        """The facts at step t and the invariants of s1 and s2 on them."""
        self.at.append({r: {w: z3.Bool(f"at_{r}_{w}_{t}") for w in self.wards} for r in self.robots})
        self.lies.append({x: {w: z3.Bool(f"lies_{x}_{w}_{t}") for w in self.wards} for x in self.trays})
        self.carries.append({r: {a: {x: z3.Bool(f"carries_{r}_{a}_{x}_{t}") for x in self.trays} for a in self.arms}
                             for r in self.robots})
        self.free.append({r: {a: z3.Not(z3.Or(*self.carries[t][r][a].values())) for a in self.arms}
                          for r in self.robots})
        s, held = self.solver, self.carries[t]
        s.assert_and_track(z3.And(*[z3.PbEq([(v, 1) for v in self.at[t][r].values()], 1) for r in self.robots]),
                           f"s1_one_ward_t{t}")
        s.assert_and_track(z3.And(*[z3.PbEq([(v, 1) for v in [*self.lies[t][x].values(),
                                                               *(held[r][a][x] for r in self.robots for a in self.arms)]],
                                            1) for x in self.trays]), f"s2_one_place_t{t}")
        s.assert_and_track(z3.And(*[z3.AtMost(*held[r][a].values(), 1) for r in self.robots for a in self.arms]),
                           f"s2_one_per_arm_t{t}")

    def _ground(self, t: int) -> dict[tuple, z3.BoolRef]:
        act = {("walk", r, a, b): z3.Bool(f"walk_{r}_{a}_{b}_{t}") for r in self.robots for a, b in self.walks}
        for r in self.robots:
            for x in self.trays:
                for w in self.wards:
                    for a in self.arms:
                        act[("pick", r, x, w, a)] = z3.Bool(f"pick_{r}_{x}_{w}_{a}_{t}")
                        act[("drop", r, x, w, a)] = z3.Bool(f"drop_{r}_{x}_{w}_{a}_{t}")
        return act

    def extend(self, t: int) -> None:
        """Step t: the action done at t and the state at t+1."""
        self._state(t + 1)
        s, now, nxt = self.solver, t, t + 1
        act = self._ground(t)
        self.acts.append(act)
        s.assert_and_track(z3.PbEq([(v, 1) for v in act.values()], 1), f"s8_one_action_t{t}")
        walk, pick, drop = [], [], []
        for key, v in act.items():
            if key[0] == "walk":
                _, r, a, b = key
                walk.append(z3.Implies(v, z3.And(self.at[now][r][a], self.at[nxt][r][b])))
            elif key[0] == "pick":
                _, r, x, w, a = key
                pick.append(z3.Implies(v, z3.And(self.at[now][r][w], self.lies[now][x][w], self.free[now][r][a],
                                                 self.carries[nxt][r][a][x])))
            else:
                _, r, x, w, a = key
                drop.append(z3.Implies(v, z3.And(self.at[now][r][w], self.carries[now][r][a][x],
                                                 self.lies[nxt][x][w])))
        s.assert_and_track(z3.And(*walk), f"s3_walk_t{t}")
        s.assert_and_track(z3.And(*pick), f"s4_pick_t{t}")
        s.assert_and_track(z3.And(*drop), f"s5_drop_t{t}")
        s.assert_and_track(self._frame(t, act), f"s8_frame_t{t}")
        s.assert_and_track(self._symmetry(t, act), f"s2_symmetry_t{t}")

    def _frame(self, t: int, act: dict) -> z3.BoolRef:
        """Explanatory frame axioms: a fact that changes from t to t+1 was added or deleted by the action at t."""
        axioms = []

        def explain(before, after, adders, deleters) -> None:
            axioms.append(z3.Implies(z3.And(z3.Not(before), after), z3.Or(*adders)))
            axioms.append(z3.Implies(z3.And(before, z3.Not(after)), z3.Or(*deleters)))

        for r in self.robots:
            for w in self.wards:
                explain(self.at[t][r][w], self.at[t + 1][r][w], [act[("walk", r, a, b)] for a, b in self.walks if b == w],
                        [act[("walk", r, a, b)] for a, b in self.walks if a == w])
        for x in self.trays:
            for w in self.wards:
                explain(self.lies[t][x][w], self.lies[t + 1][x][w],
                        [act[("drop", r, x, w, a)] for r in self.robots for a in self.arms],
                        [act[("pick", r, x, w, a)] for r in self.robots for a in self.arms])
            for r in self.robots:
                for a in self.arms:
                    explain(self.carries[t][r][a][x], self.carries[t + 1][r][a][x],
                            [act[("pick", r, x, w, a)] for w in self.wards],
                            [act[("drop", r, x, w, a)] for w in self.wards])
        return z3.And(*axioms)

    def _symmetry(self, t: int, act: dict) -> z3.BoolRef:
        """Interchangeable objects are used in their listed order: a robot's arm picks only when each of its arms
        listed before it is busy; of two trays with one goal lying in one ward, the first is picked first."""
        rules = []
        for r in self.robots:
            for k, a in enumerate(self.arms):
                rules += [z3.Implies(act[("pick", r, x, w, a)], z3.Not(self.free[t][r][g]))
                          for x in self.trays for w in self.wards for g in self.arms[:k]]
        for x, y in self.twins:
            rules += [z3.Implies(act[("pick", r, y, w, a)], z3.Not(self.lies[t][x][w]))
                      for r in self.robots for w in self.wards for a in self.arms]
        return z3.And(*rules)

    def goal(self, t: int) -> dict:
        return {f"s7_goal_{x}_{w}": self.lies[t][x][w] for x, w in self.goal_in}

    def output(self, model: z3.ModelRef, t: int) -> dict:
        plan = []
        for step in self.acts[:t]:
            key = next(k for k, v in step.items() if z3.is_true(model.eval(v, model_completion=True)))
            plan.append({"action": key[0], "args": list(key[1:])})
        return {"plan": plan}


def main() -> None:
    """One horizon T = sys.argv[1]: the steps and the goal at T tracked, model.smt2, solution.json, output.json."""
    horizon = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    data = json.loads(Path("data.json").read_text())
    s = z3.SolverFor(Horizon.logic)
    h = Horizon(data, s)
    for t in range(horizon):
        h.extend(t)
    for name, fact in h.goal(horizon).items():
        s.assert_and_track(fact, name)
    Path("model.smt2").write_text(s.sexpr())
    result = s.check()
    status = "feasible" if result == z3.sat else "infeasible" if result == z3.unsat else "time_limit"
    solution = {"status": status,
                "objective": None, "values": {}, "horizon": horizon}
    output = {}
    if result == z3.sat:
        m = s.model()
        output = h.output(m, horizon)
        solution["values"] = {d.name(): z3.is_true(m[d]) for d in m.decls() if not re.match(r"s\d+_", d.name())}
    Path("solution.json").write_text(json.dumps(solution, indent=1))
    Path("output.json").write_text(json.dumps(output, indent=1))


if __name__ == "__main__":
    main()
