"""python -m z3_sandbox recheck REQUEST RESULT: re-solve model.smt2 with Z3, substitute solution.json's values into
every assertion, and for an unsat model find a minimal set of statements that cannot all hold.

REQUEST: {"model": "model.smt2", "solution": "solution.json", "budget_s": s, "shorter": "shorter.smt2" or null,
"plan": {"domain": …, "problem": …, "plan": "output.json"} or null, "planner": bool}. RESULT is always written;
a failure becomes {"error": "…"}. Everything reported here is exact (a z3 verdict or an evaluation), or is
reported as undecided.
"""

from __future__ import annotations

import json
import re
import sys
import time
import traceback

import z3

from .smt import Captured, SmtError, as_value, is_infinite, py_value, read

QUOTE = 160
STATEMENT = re.compile(r"^(s\d+)_")
SYMMETRY = re.compile(r"^s\d+_symmetry")


def main(request_path: str, result_path: str) -> int:
    try:
        with open(request_path) as fh:
            result = run(json.load(fh))
    except SmtError as exc:
        result = {"error": f"model.smt2 cannot be read back: {exc}"}
    except Exception as exc:  # noqa: BLE001 — RESULT must say what went wrong, never a bare traceback
        result = {"error": f"{type(exc).__name__}: {exc}", "trace": traceback.format_exc()[-1500:]}
    with open(result_path, "w") as fh:
        json.dump(result, fh, indent=2, default=str)
    return 0


def run(request: dict) -> dict:
    deadline = time.monotonic() + float(request.get("budget_s", 30))
    with open(request["model"]) as fh:
        cap = read(fh.read())
    try:
        with open(request["solution"]) as fh:
            claimed = json.load(fh)
    except (OSError, json.JSONDecodeError):
        claimed = {}
    claimed = claimed if isinstance(claimed, dict) else {}
    result: dict = {"model": {"tracked": sorted(cap.tracked), "plain": len(cap.plain), "constants": len(cap.constants),
                              "objectives": [s for s, _ in cap.objectives], "ignored": cap.ignored}}
    result["resolve"] = resolve(cap, _left(deadline, 0.4))
    if claimed.get("status") in ("optimal", "feasible", "time_limit") and isinstance(claimed.get("values"), dict):
        result["values_check"] = check_values(cap, claimed["values"])
    if result["resolve"]["status"] == "infeasible":
        result["core"] = minimal_core(cap, deadline)
    if request.get("shorter"):
        with open(request["shorter"]) as fh:
            shorter = read(fh.read(), constants=False)  # only re-solved: its values are never checked
        left_out = without_symmetry(shorter)
        result["shorter"] = resolve(shorter, _left(deadline, 0.5), objectives=False)
        result["shorter"]["symmetry_left_out"] = left_out
    if request.get("plan"):
        if request["plan"].get("validate", True):
            result["plan"] = validate_plan(request["plan"])
        if request.get("planner"):
            result["planner"] = optimal_length(request["plan"], _left(deadline, 1.0))
    return result


def _left(deadline: float, share: float) -> float:
    return max(0.5, share * (deadline - time.monotonic()))


def resolve(cap: Captured, seconds: float, objectives: bool = True) -> dict:
    """The captured model solved again: status, and the optimum of its (first) objective."""
    started = time.monotonic()
    optimise = objectives and bool(cap.objectives)
    s = z3.Optimize() if optimise else z3.SolverFor("QF_FD") if cap.boolean else z3.Solver()
    s.set("timeout", int(seconds * 1000))
    for e in [*cap.plain, *cap.tracked.values()]:
        s.add(e)
    handles = [s.minimize(e) if sense == "min" else s.maximize(e) for sense, e in cap.objectives] if optimise else []
    answer = s.check()
    out: dict = {"solver": "z3 " + z3.get_version_string(), "objective": None,
                 "sense": cap.objectives[0][0] if cap.objectives else None}
    if answer == z3.sat:
        out["status"] = "optimal" if optimise else "feasible"
        if handles:
            text = str(handles[0].value())
            if is_infinite(text):
                out["status"], out["unbounded_value"] = "unbounded", text
            else:
                out["objective"] = py_value(s.model().eval(cap.objectives[0][1], model_completion=True))
            if len(handles) > 1:
                out["note"] = f"{len(handles)} objectives (lexicographic): the first is compared"
    elif answer == z3.unsat:
        out["status"] = "infeasible"
    else:
        out["status"], out["reason"] = "time_limit", s.reason_unknown()
    out["seconds"] = round(time.monotonic() - started, 4)
    return out


def without_symmetry(cap: Captured) -> int:
    """Leave out the symmetry-breaking assertions (tracked `sK_symmetry…`): T-1 unsat without them proves no
    plan of T-1 steps exists at all, so breaking the symmetry cut off no shortest plan. How many were left out."""
    left_out = [name for name in cap.tracked if SYMMETRY.match(name)]
    for name in left_out:
        del cap.tracked[name]
    return len(left_out)


def check_values(cap: Captured, values: dict) -> dict:
    """Every assertion evaluated at solution.json's values: which are false, which cannot be decided, and why."""
    pairs, missing, bad = [], [], []
    for name, const in sorted(cap.constants.items()):
        if name not in values:
            missing.append(name)
            continue
        try:
            pairs.append((const, as_value(const, values[name])))
        except ValueError as exc:
            bad.append(f"{name}: {exc}")
    false, undecided = [], []
    items = [*cap.tracked.items(), *((f"untracked assertion {k + 1}", e) for k, e in enumerate(cap.plain))]
    at_values = substituter(pairs)
    for name, e in items:
        got = z3.simplify(at_values(e))
        if z3.is_false(got):
            false.append({"name": name, "statement": _statement(name), "assertion": _quote(e)})
        elif not z3.is_true(got):
            undecided.append(name)
    out = {"checked": len(items), "false": false, "undecided": undecided, "missing": missing, "bad": bad}
    if cap.objectives:
        got = z3.simplify(at_values(cap.objectives[0][1])) if pairs else cap.objectives[0][1]
        if z3.is_int_value(got) or z3.is_rational_value(got) or z3.is_algebraic_value(got):
            out["objective_at_values"] = py_value(got)
    return out


def substituter(pairs: list[tuple[z3.ExprRef, z3.ExprRef]]):
    """e ↦ e with every constant of `pairs` replaced by its value: z3.substitute's own call, with the pairs
    turned into z3's arrays once (z3.substitute re-checks and re-copies every pair at each call: seconds over a
    planning model's thousands of assertions). as_value made each value of its constant's sort."""
    if not pairs:
        return lambda e: e
    frm, to = (z3.Ast * len(pairs))(), (z3.Ast * len(pairs))()
    for k, (const, value) in enumerate(pairs):
        frm[k], to[k] = const.as_ast(), value.as_ast()
    ctx = pairs[0][0].ctx
    return lambda e: z3.ExprRef(z3.Z3_substitute(ctx.ref(), e.as_ast(), len(pairs), frm, to), ctx)


def statement_groups(tracked) -> dict[str, list[str]]:
    """Tracked assertion names by the statement they encode (`sK_…` → sK; an untagged name is its own group)."""
    groups: dict[str, list[str]] = {}
    for name in tracked:
        groups.setdefault(_statement(name) or name, []).append(name)
    return groups


def minimal_core(cap: Captured, deadline: float) -> dict:
    """Statements (assertions grouped by their `sK_` prefix) that cannot all hold, minimal: z3's unsat core over
    the tracked names, then a deletion filter over statements (drop one; still unsat → it was not needed), then
    the same over single assertions within what is left, for the constraints to name."""
    s = z3.Solver()
    for e in cap.plain:
        s.add(e)
    marks = {name: z3.Bool(f"__track_{k}") for k, name in enumerate(cap.tracked)}
    for name, e in cap.tracked.items():
        s.add(z3.Implies(marks[name], e))
    by_id = {v.get_id(): k for k, v in marks.items()}
    handles = {name: mark.as_ast() for name, mark in marks.items()}
    stopped = False

    def check(names: list[str]):
        """s.check(*assumptions) without z3's per-assumption cast (the marks are Bool constants): the
        deletion filter checks hundreds of times over hundreds of assumptions, and the casts cost more than z3."""
        nonlocal stopped
        s.set("timeout", int(max(0.1, deadline - time.monotonic()) * 1000))
        assumptions = (z3.Ast * len(names))(*(handles[n] for n in names))
        answer = z3.CheckSatResult(z3.Z3_solver_check_assumptions(s.ctx.ref(), s.solver, len(names), assumptions))
        if answer == z3.unknown:
            stopped = True
        return answer

    def unsat_core() -> list[str]:
        return [by_id[p.get_id()] for p in s.unsat_core()]

    if check(list(cap.tracked)) != z3.unsat:
        return {"names": [], "statements": [], "irreducible": False,
                "note": "the tracked assertions could not be shown unsat together within the time limit"}
    core = unsat_core()
    if not core:
        return {"names": [], "statements": [], "irreducible": True,
                "note": "the untracked assertions alone cannot all hold"}
    groups = statement_groups(cap.tracked)
    keep = list(dict.fromkeys(_statement(n) or n for n in core))
    for g in list(keep):
        if stopped:
            break
        if g not in keep:  # already left out by an earlier check's core
            continue
        trial = [k for k in keep if k != g]
        if check([n for k in trial for n in groups[k]]) == z3.unsat:
            found = {_statement(n) or n for n in unsat_core()}
            keep = [k for k in trial if k in found]
    names = [n for k in keep for n in groups[k]]
    if not stopped and check(names) == z3.unsat:
        names = unsat_core()
        for n in list(names):
            if stopped:
                break
            if n not in names:  # already left out by an earlier check's core: each one kept is checked below
                continue
            trial = [m for m in names if m != n]
            if check(trial) == z3.unsat:
                names = unsat_core()
    return {"names": names, "statements": keep, "irreducible": not stopped,
            "method": "z3 unsat core over the tracked assertions, then deletion of statements and of assertions"}


def validate_plan(spec: dict) -> dict:
    try:
        from planval import validate_files
    except ImportError as exc:
        return {"valid": False, "reason": f"the plan validator is missing: {exc}"}
    return validate_files(spec["domain"], spec["problem"], spec["plan"])


def optimal_length(spec: dict, seconds: float) -> dict:
    """The shortest plan's length by Fast Downward's optimal configuration (A* with LM-cut, its own driver on
    the files): a proof independent of the program's encoding (the program's own model of T-1 steps may be
    wrong in the same way as its model of T)."""
    try:
        from planval.planner import plan
    except ImportError as exc:
        return {"status": "error", "reason": f"the planner is missing: {exc}"}
    found = plan(spec["domain"], spec["problem"], optimal=True, timeout=seconds)
    if found["status"] == "optimal":
        return {"status": "optimal", "length": len(found["plan"]), "planner": "fast-downward seq-opt-lmcut"}
    if found["status"] == "infeasible":
        return {"status": "infeasible", "planner": "fast-downward seq-opt-lmcut"}
    return {"status": "unknown" if found["status"] != "error" else "error",
            "reason": found["status"] if found["status"] != "error" else found.get("log", "")[-300:],
            "planner": "fast-downward seq-opt-lmcut"}


def _statement(name: str) -> str | None:
    match = STATEMENT.match(name)
    return match.group(1) if match else None


def _quote(e: z3.ExprRef) -> str:
    text = " ".join(e.sexpr().split())
    return text if len(text) <= QUOTE else text[:QUOTE] + " …"


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
