"""Reference Z3 program for the blocks kind on the incremental horizon contract (the harness drives it).

One solver for every horizon: __init__ encodes step 0, extend(t) adds step t (the action at t, the state at t+1),
goal(t) names the goal facts at step t (the harness asserts them under an assumption literal, so the clauses
learned at T-1 serve T), output() reads the plan. Planners' encoding: a Boolean per fact and per ground action,
exactly one action per step as a cardinality constraint, explanatory frame axioms (a fact changes only when an
action at that step adds or deletes it), and the statements' invariants at every step as cardinality
constraints. "Clear" and "the arm is empty" are not facts of their own: they are read off where blocks are.
"""

import z3

# The SNOP's names: data keys, the word for the table, and the four actions (s3-s6).
BLOCKS, INIT_ON, GOAL_ON, TABLE_WORD = "blocks", "init_on", "goal_on", "table"
PICKUP, PUTDOWN, STACK, UNSTACK = "pickup", "putdown", "stack", "unstack"


class Horizon:
    logic = "QF_FD"  # Booleans and cardinalities only: z3's SAT solver

    def __init__(self, data: dict, solver: z3.Solver) -> None:
        self.names = list(data[BLOCKS])
        self.goal_on = data[GOAL_ON]
        self.solver = solver
        self.on, self.table, self.held = [], [], []  # per step: on[x][y], table[x], held[x]
        self.clear, self.arm_empty = [], []  # per step: read off the facts
        self.acts: list[dict[tuple, z3.BoolRef]] = []
        self._state(0)
        start = dict(zip(self.names, data[INIT_ON]))
        facts = [self.table[0][x] == (start[x] == TABLE_WORD) for x in self.names]
        facts += [self.on[0][x][y] == (start[x] == y) for x in self.names for y in self.names if x != y]
        facts += [z3.Not(self.held[0][x]) for x in self.names]  # s2: the arm holds nothing at the start
        self.solver.assert_and_track(z3.And(*facts), "s7_initial")

    def _state(self, t: int) -> None:
        """The facts at step t and the invariants of s1 and s2 on them."""
        n = self.names
        self.on.append({x: {y: z3.Bool(f"on_{x}_{y}_{t}") for y in n if y != x} for x in n})
        self.table.append({x: z3.Bool(f"ontable_{x}_{t}") for x in n})
        self.held.append({x: z3.Bool(f"holding_{x}_{t}") for x in n})
        self.clear.append({y: z3.Not(z3.Or(self.held[t][y], *[self.on[t][x][y] for x in n if x != y])) for y in n})
        self.arm_empty.append(z3.Not(z3.Or(*self.held[t].values())))
        s = self.solver
        place = [z3.PbEq([(v, 1) for v in [self.table[t][x], self.held[t][x], *self.on[t][x].values()]], 1)
                 for x in n]
        s.assert_and_track(z3.And(*place), f"s1_one_place_t{t}")
        s.assert_and_track(z3.And(*[z3.AtMost(*[self.on[t][x][y] for x in n if x != y], 1) for y in n]),
                           f"s1_one_on_each_t{t}")
        s.assert_and_track(z3.AtMost(*self.held[t].values(), 1), f"s2_one_held_t{t}")

    def extend(self, t: int) -> None:
        """Step t: the action done at t and the state at t+1."""
        self._state(t + 1)
        n, now, nxt = self.names, t, t + 1
        act = {}
        for x in n:
            act[(PICKUP, x)] = z3.Bool(f"pickup_{x}_{t}")
            act[(PUTDOWN, x)] = z3.Bool(f"putdown_{x}_{t}")
            for y in n:
                if y != x:
                    act[(STACK, x, y)] = z3.Bool(f"stack_{x}_{y}_{t}")
                    act[(UNSTACK, x, y)] = z3.Bool(f"unstack_{x}_{y}_{t}")
        self.acts.append(act)
        s = self.solver
        s.assert_and_track(z3.PbEq([(v, 1) for v in act.values()], 1), f"s9_one_action_t{t}")
        rules = {PICKUP: [], PUTDOWN: [], STACK: [], UNSTACK: []}
        for key, a in act.items():
            x = key[1]
            if key[0] == PICKUP:
                pre, eff = [self.arm_empty[now], self.clear[now][x], self.table[now][x]], self.held[nxt][x]
            elif key[0] == PUTDOWN:
                pre, eff = [self.held[now][x]], self.table[nxt][x]
            elif key[0] == STACK:
                pre, eff = [self.held[now][x], self.clear[now][key[2]]], self.on[nxt][x][key[2]]
            else:
                pre, eff = [self.arm_empty[now], self.clear[now][x], self.on[now][x][key[2]]], self.held[nxt][x]
            rules[key[0]].append(z3.Implies(a, z3.And(*pre, eff)))
        for name, stmt in ((PICKUP, "s3"), (PUTDOWN, "s4"), (STACK, "s5"), (UNSTACK, "s6")):
            s.assert_and_track(z3.And(*rules[name]), f"{stmt}_{name}_t{t}")
        s.assert_and_track(self._frame(t, act), f"s9_frame_t{t}")

    def _frame(self, t: int, act: dict) -> z3.BoolRef:
        """Explanatory frame axioms: a fact that changes from t to t+1 was added or deleted by the action at t."""
        axioms = []

        def explain(before, after, adders, deleters) -> None:
            axioms.append(z3.Implies(z3.And(z3.Not(before), after), z3.Or(*adders)))
            axioms.append(z3.Implies(z3.And(before, z3.Not(after)), z3.Or(*deleters)))

        n = self.names
        for x in n:
            explain(self.table[t][x], self.table[t + 1][x], [act[(PUTDOWN, x)]], [act[(PICKUP, x)]])
            explain(self.held[t][x], self.held[t + 1][x], [act[(PICKUP, x)], *(act[(UNSTACK, x, y)] for y in n if y != x)],
                    [act[(PUTDOWN, x)], *(act[(STACK, x, y)] for y in n if y != x)])
            for y in n:
                if y != x:
                    explain(self.on[t][x][y], self.on[t + 1][x][y], [act[(STACK, x, y)]], [act[(UNSTACK, x, y)]])
        return z3.And(*axioms)

    def goal(self, t: int) -> dict:
        return {f"s8_goal_{u}_{lo}": self.table[t][u] if lo == TABLE_WORD else self.on[t][u][lo]
                for u, lo in self.goal_on}

    def output(self, model: z3.ModelRef, t: int) -> dict:
        plan = []
        for step in self.acts[:t]:
            key = next(k for k, a in step.items() if z3.is_true(model.eval(a, model_completion=True)))
            plan.append({"action": key[0], "args": list(key[1:])})
        return {"plan": plan}
