"""The incremental horizon contract: one solver for every horizon, its learned clauses kept from T-1 to T.

A program follows it when it defines, at top level,

    class Horizon:
        logic = "QF_FD"                 # optional: the solver's logic (QF_FD: Booleans and cardinalities)
        def __init__(self, data, solver): ...  # step 0's facts and the initial state, asserted in `solver`
        def extend(self, t): ...        # step t: the action at t and the facts at t+1, all asserted
        def goal(self, t): ...          # {track name: fact at step t}, NOT asserted (the harness does)
        def output(self, model, t): ... # output.json's content for the plan of t steps in `model`

(read from the source, never by running it: a program without it is run as `python solver.py T`, one
process per horizon). The driver asserts goal(T) under an assumption literal and asks `s.check(goal_at_T)`;
an unsat T's literal is then asserted false and the next step added. For the re-check it writes each answer's
query as SMT-LIB: model.smt2 is T's (the step assertions so far and goal(T) tracked under its names, none of
the driver's literals), shorter.smt2 is T-1's, so the re-check proves T-1 unsat on its own. Every T's verdict
goes to horizon/progress.jsonl as it is reached. A plan is also looked for early (search, first_plan): the goal
at any step within max_horizon, on a second solver, once the walk has used a quarter of the budget; it is kept
as status feasible until the walk proves it shortest or finds a shorter one. Imports nothing from optimus.
"""

from __future__ import annotations

import ast
import json
import os
import time

METHODS = {"__init__", "extend", "goal", "output"}
PROGRESS = os.path.join("horizon", "progress.jsonl")
FIRST_PLAN = os.path.join("horizon", "first_plan.jsonl")
PLAN_AFTER = 0.25  # of the budget, spent walking T up before a second solver looks for any plan
PLAN_SHARE = 0.5  # of what is left then, for that look
MARGIN_S = 1.0


def follows(program: str) -> bool:
    """Whether the program's source defines the Horizon class with the contract's four methods."""
    try:
        with open(program, "rb") as fh:
            tree = ast.parse(fh.read())
    except (OSError, SyntaxError, ValueError):
        return False  # run the old way: Python reports the error as it would
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == "Horizon":
            defined = {f.name for f in node.body if isinstance(f, ast.FunctionDef)}
            return METHODS <= defined
    return False


def load(program: str):
    """The program as a module named solver_program (its `if __name__ == "__main__":` block does not run)."""
    import types

    path = os.path.abspath(program)
    module = types.ModuleType("solver_program")
    module.__file__ = path
    with open(path, "rb") as fh:
        exec(compile(fh.read(), path, "exec"), module.__dict__)  # noqa: S102 — the sandboxed program
    return module


class Unrolled:
    """One solver and the program's Horizon on it, unrolled step by step: what was asserted per T, the goal facts
    per T, and the driver's own assertions (goal literals), which no dump holds."""

    def __init__(self, cls, data: dict) -> None:
        self.s = recording_solver()(getattr(cls, "logic", None))
        self.h = cls(data, self.s)
        self.marks: list[int] = []  # per T: how many of the solver's assertions belong to T's query
        self.ours: set[int] = set()
        self.goals: list[dict] = []

    def unroll(self, t: int) -> None:
        while len(self.goals) <= t:
            k = len(self.goals)
            if k:
                self.h.extend(k - 1)
            self.goals.append({str(n): v for n, v in self.h.goal(k).items()})
            self.marks.append(len(self.s.recorded))

    def own(self, expr) -> None:
        self.ours.add(len(self.s.recorded))
        self.s.add(expr)

    def check(self, literal, until: float):
        import z3

        self.s.set("timeout", max(1, int((until - time.monotonic()) * 1000)))
        answer = self.s.check(literal)
        return "feasible" if answer == z3.sat else "infeasible" if answer == z3.unsat else "time_limit"

    def query(self, t: int) -> str:
        import z3

        d = z3.Solver()
        d.add(*[self.s.recorded[k] for k in range(self.marks[t]) if k not in self.ours])
        for name, fact in self.goals[t].items():
            d.add(z3.Implies(z3.Bool(name), fact))  # prints as assert_and_track(fact, name) does
        return d.sexpr()

    def keep(self, t: int, status: str) -> None:
        """The plan of t steps in the solver's model: output.json, model.smt2 (T = t) and solution.json."""
        from .forked import write
        from .smt import py_value

        text = self.query(t)
        _write_text("model.smt2", text)
        m = self.s.model()
        values = {c.decl().name(): py_value(m.eval(c, model_completion=True)) for c in declared(text)}
        write("output.json", self.h.output(m, t))
        write("solution.json", {"status": status, "objective": t, "values": values, "horizon_status": "feasible"})


def search(program: str, last: int, deadline: float) -> int:
    """In a forked child: T = 0, 1, … last on one solver, each T's goal under its own literal. When the walk
    has used PLAN_AFTER of the budget without a plan, a second solver looks for any plan within max_horizon
    (first_plan): its plan is kept at once (status feasible), and the walk goes on, to prove it shortest or
    find a shorter one. Writes the result files; the exit code."""
    import z3

    from .forked import write

    with open("data.json") as fh:
        data = json.load(fh)
    cls = load(program).Horizon
    deadline -= min(MARGIN_S, 0.1 * max(0.0, deadline - time.monotonic()))  # to write its files before the kill
    walk, plan = Unrolled(cls, data), None
    pause = time.monotonic() + PLAN_AFTER * max(0.0, deadline - time.monotonic())
    t = 0
    while t <= last:
        if plan is None and time.monotonic() >= pause:
            plan, pause = look_for_plan(cls, data, last, deadline), deadline
        started = time.monotonic()
        walk.unroll(t)
        literal = z3.Bool(f"horizon_goal_at_{t}")
        walk.own(z3.Implies(literal, z3.And(*walk.goals[t].values())))
        status = walk.check(literal, min(deadline, pause) if plan is None else deadline)
        if status == "time_limit" and plan is None and time.monotonic() < deadline - 1:
            plan, pause = look_for_plan(cls, data, last, deadline), deadline
            status = walk.check(literal, deadline)
        _progress({"T": t, "status": status, "seconds": round(time.monotonic() - started, 3)})
        if status == "time_limit":
            if plan is None:
                write("output.json", {})
                write("solution.json", {"status": "time_limit", "objective": None,
                                        "reason": walk.s.reason_unknown()})
            return 0  # a plan first_plan found stays, status feasible
        if status == "feasible":
            walk.keep(t, "optimal")
            if t:
                _write_text("shorter.smt2", walk.query(t - 1))
            return 0
        walk.own(z3.Not(literal))  # T is settled: its goal clauses can go
        if plan is not None and t + 1 == plan:  # every shorter horizon is unsat: the plan kept is shortest
            _write_text("shorter.smt2", walk.query(t))
            _mark_optimal()
            return 0
        t += 1
    _write_text("model.smt2", walk.query(last))
    write("output.json", {})
    write("solution.json", {"status": "infeasible", "objective": None, "within_horizon": last})
    return 0


def look_for_plan(cls, data: dict, last: int, deadline: float) -> int | None:
    return first_plan(cls, data, last, time.monotonic() + PLAN_SHARE * max(0.0, deadline - time.monotonic()))


def first_plan(cls, data: dict, last: int, until: float) -> int | None:
    """Any plan of at most `last` steps, on a solver of its own: the goal at some step ≤ last. A loose horizon is
    quick to satisfy where proving the tight ones unsat is slow. The plan found is kept (status feasible) and
    its length returned. An unsat answer here proves nothing (the steps after the goal must be doable too);
    only the walk proves a horizon unsat."""
    import z3

    started = time.monotonic()
    run = Unrolled(cls, data)
    run.unroll(last)
    literal = z3.Bool(f"horizon_plan_within_{last}")
    run.own(z3.Implies(literal, z3.Or(*[z3.And(*g.values()) for g in run.goals])))
    status = run.check(literal, until)
    _progress({"within": last, "status": status, "seconds": round(time.monotonic() - started, 3)}, FIRST_PLAN)
    if status != "feasible":
        return None
    m = run.s.model()
    length = next(k for k, g in enumerate(run.goals) if z3.is_true(m.eval(z3.And(*g.values()), model_completion=True)))
    run.keep(length, "feasible")
    return length


def _mark_optimal() -> None:
    from .forked import write

    with open("solution.json") as fh:
        solution = json.load(fh)
    write("solution.json", {**solution, "status": "optimal"})


def recording_solver():
    """A z3.Solver that keeps what was asserted, as asserted (a QF_FD solver's assertions() does not)."""
    import z3

    class Recording(z3.Solver):
        def __init__(self, logic: str | None) -> None:
            ctx = z3.main_ctx()
            made = z3.Z3_mk_solver_for_logic(ctx.ref(), z3.to_symbol(logic, ctx)) if logic else None
            super().__init__(solver=made, ctx=ctx)
            self.recorded: list = []

        def assert_exprs(self, *args) -> None:
            super().assert_exprs(*args)
            for arg in args:
                self.recorded.extend(arg if isinstance(arg, (list, tuple, z3.AstVector)) else [arg])

        def assert_and_track(self, a, p) -> None:
            super().assert_and_track(a, p)
            self.recorded.append(z3.Implies(z3.Bool(p) if isinstance(p, str) else p, a))

    return Recording


def declared(text: str) -> list:
    """The decision constants an SMT-LIB dump declares (Bool, Int, Real; not the track names), as z3 terms:
    read off its declarations, where walking the terms would cost seconds."""
    import z3

    from .smt import DECLARATION, TRACK_NAME

    sorts = {"Bool": z3.BoolSort(), "Int": z3.IntSort(), "Real": z3.RealSort()}
    return [z3.Const(name, sorts[sort]) for name, sort in DECLARATION.findall(text)
            if sort in sorts and not TRACK_NAME.match(name)]


def _progress(entry: dict, path: str | None = None) -> None:
    with open(path or PROGRESS, "a") as fh:
        fh.write(json.dumps(entry) + "\n")


def _write_text(name: str, text: str) -> None:
    with open(name, "w") as fh:
        fh.write(text)


def progress(path: str | None = None) -> list[dict]:
    """Every T's verdict the search reached (a killed search leaves those it finished); with FIRST_PLAN, the
    first-plan search's."""
    try:
        with open(path or PROGRESS) as fh:
            return [json.loads(line) for line in fh if line.strip()]
    except (OSError, ValueError):
        return []
