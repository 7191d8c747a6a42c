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
goes to horizon/progress.jsonl as it is reached. Imports nothing from optimus.
"""

from __future__ import annotations

import ast
import json
import os
import time

METHODS = {"__init__", "extend", "goal", "output"}
PROGRESS = os.path.join("horizon", "progress.jsonl")


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


def search(program: str, last: int, deadline: float) -> int:
    """In a forked child: T = 0, 1, … last on one solver. Writes the result files; the exit code."""
    import z3

    from .forked import write
    from .smt import py_value

    Recording = recording_solver()

    with open("data.json") as fh:
        data = json.load(fh)
    cls = load(program).Horizon
    s = Recording(getattr(cls, "logic", None))
    h = cls(data, s)
    marks: list[int] = []  # per T: how many of the solver's assertions belong to T's query (the steps so far)
    ours: set[int] = set()  # indices of the driver's own assertions (goal literals), left out of every dump
    goals: list[dict] = []

    def query(t: int) -> str:
        mine = [s.recorded[k] for k in range(marks[t]) if k not in ours]
        d = z3.Solver()
        d.add(*mine)
        for name, fact in goals[t].items():
            d.add(z3.Implies(z3.Bool(name), fact))  # prints as assert_and_track(fact, name) does
        return d.sexpr()

    for t in range(last + 1):
        started = time.monotonic()
        if t:
            h.extend(t - 1)
        goals.append({str(k): v for k, v in h.goal(t).items()})
        marks.append(len(s.recorded))
        literal = z3.Bool(f"horizon_goal_at_{t}")
        ours.add(marks[t])
        s.add(z3.Implies(literal, z3.And(*goals[t].values())))
        s.set("timeout", max(1, int((deadline - time.monotonic()) * 1000)))
        answer = s.check(literal)
        status = "feasible" if answer == z3.sat else "infeasible" if answer == z3.unsat else "time_limit"
        _progress({"T": t, "status": status, "seconds": round(time.monotonic() - started, 3)})
        if answer == z3.unsat:
            ours.add(len(s.recorded))
            s.add(z3.Not(literal))  # T is settled: its goal clauses can go
            if t < last:
                continue
        text = query(t)
        _write_text("model.smt2", text)
        if answer != z3.sat:
            write("output.json", {})
            outcome = ({"status": "infeasible", "objective": None, "within_horizon": last} if answer == z3.unsat
                       else {"status": "time_limit", "objective": None, "reason": s.reason_unknown()})
            write("solution.json", outcome)
            return 0
        if t:
            _write_text("shorter.smt2", query(t - 1))
        m = s.model()
        values = {c.decl().name(): py_value(m.eval(c, model_completion=True)) for c in declared(text)}
        write("output.json", h.output(m, t))
        write("solution.json", {"status": "optimal", "objective": t, "values": values, "horizon_status": "feasible"})
        return 0
    return 0


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


def _progress(entry: dict) -> None:
    with open(PROGRESS, "a") as fh:
        fh.write(json.dumps(entry) + "\n")


def _write_text(name: str, text: str) -> None:
    with open(name, "w") as fh:
        fh.write(text)


def progress() -> list[dict]:
    """Every T's verdict the search reached (a killed search leaves those it finished)."""
    try:
        with open(PROGRESS) as fh:
            return [json.loads(line) for line in fh if line.strip()]
    except (OSError, ValueError):
        return []
