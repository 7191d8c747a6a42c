"""The z3 re-check's result (z3_sandbox/recheck.py) judged against solution.json: a Verdict, with evidence.

Every finding is exact: a z3 verdict on the captured model, a value substituted into an assertion, or the plan
validator's simulation. What cannot be decided is said to be undecided, never guessed.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from optimus.core.diagnose import capture_map, explain_infeasible
from optimus.core.outcomes import FOUND, NO_SOLUTION, Execution, Verdict
from optimus.core.planval.validate import failure
from optimus.core.snop import objective_sense

if TYPE_CHECKING:
    from optimus.core.stages.context import Context

OBJ_REL_TOL = 1e-6
OBJ_ABS_TOL = 1e-6
MAX_LISTED = 8
_VERB = {"min": "minimize", "max": "maximize"}


def judge(ctx: Context, ex: Execution, raw: dict) -> Verdict:
    claimed = ex.solution or {}
    status = claimed.get("status")
    statements = ctx.snop.problem_info
    if status == "error":
        return Verdict("skipped", "no re-check: the program reported status error", claimed=claimed)
    if "absent" in raw:
        return Verdict("disagrees", "the program wrote no model.smt2", [
            ("the program wrote no model.smt2: write solver.sexpr() to model.smt2 before check(), so the harness "
            "can re-solve the model itself")], claimed)
    if "error" in raw:
        return Verdict("error", f"the captured model could not be re-checked: {raw['error']}", claimed=claimed)
    planning = ctx.snop.problem_type == "PLANNING"
    findings = plan_findings(raw, claimed) if planning else model_findings(ctx, raw, claimed)
    findings += value_findings(raw, claimed)
    r = raw["resolve"]
    verdict = Verdict("agrees", "", findings, claimed, [r])
    verdict.capture = capture_map(raw["model"]["tracked"], statements)
    if raw.get("core") is not None and not planning:
        core = raw["core"]
        verdict.diagnosis = explain_infeasible({"rows": core["names"], "irreducible": core["irreducible"],
                                                "method": core.get("method")}, statements)
        if core.get("note"):
            verdict.diagnosis["message"] += " " + core["note"] + "."
    elif status == "time_limit" or r["status"] == "time_limit":
        verdict.diagnosis = {"kind": "time_limit", "statements": [], "message": time_limit_text(claimed, r)}
    elif planning and status == "infeasible":
        verdict.diagnosis = {"kind": "no_plan", "statements": [], "message": no_plan_text(raw)}
        core = raw.get("core") or {}
        if core.get("statements"):  # the longest horizon's model: which statements rule out every plan that long
            within = explain_infeasible({"rows": core["names"], "irreducible": core["irreducible"]}, statements)
            verdict.diagnosis.update(statements=within["statements"], rows=within["rows"])
            verdict.diagnosis["message"] += (" In the model of the longest horizon, these statements cannot all "
                                             "hold: " + within["message"].split("cannot all hold: ", 1)[-1])
    if findings:
        verdict.outcome, verdict.summary = "disagrees", f"re-check disagrees: {findings[0]}"
    elif r["status"] == "time_limit" or status == "time_limit" or (planning and status == "infeasible"
                                                                    and not _planner_says(raw, "infeasible")):
        verdict.outcome = "unconfirmed"
        verdict.summary = f"re-check could not confirm solution.json ({status}): " + (
            verdict.diagnosis["message"] if verdict.diagnosis else r["status"])
    elif planning and status == "optimal" and (raw.get("shorter") or {}).get("status") == "time_limit":
        verdict.outcome = "unconfirmed"
        verdict.summary = (f"re-check could not confirm that {claimed.get('objective')} steps is shortest: the "
                           "re-solve of the shorter model stopped at its time limit")
    else:
        verdict.summary = agreement_text(raw, claimed, planning)
    return verdict


def model_findings(ctx: Context, raw: dict, claimed: dict) -> list[str]:
    r, status, objective = raw["resolve"], claimed.get("status"), claimed.get("objective")
    out = []
    wanted = (ctx.problem.expected or {}).get("sense") or objective_sense(ctx.snop.objective)
    if wanted in _VERB and r.get("sense") and r["sense"] != wanted:
        out.append(f"the problem asks to {_VERB[wanted]} the objective, but model.smt2 {_VERB[r['sense']]}s it")
    found = f"{r['status']}" + (f" with objective {_fmt(r['objective'])}" if _number(r.get("objective")) else "")
    if status == "optimal":
        if r["status"] == "feasible":
            out.append("solution.json says optimal, but model.smt2 has no objective (no minimize/maximize): "
                       "a satisfaction problem's status is feasible, or the objective was never given to Optimize")
        elif r["status"] == "optimal" and not _number(objective):
            out.append(f"solution.json says optimal but its objective is {objective!r}, not a number")
        elif r["status"] == "optimal" and not _close(objective, r["objective"]):
            out.append(f"solution.json says optimal with objective {_fmt(objective)}, but re-solving model.smt2 "
                       f"gives the optimum {_fmt(r['objective'])} ({r['solver']})")
        elif r["status"] in NO_SOLUTION:
            out.append(f"solution.json says optimal, but re-solving model.smt2 finds it {r['status']}")
    elif status == "feasible" and r["status"] in ("optimal", "infeasible", "unbounded"):
        out.append(f"solution.json says feasible, but re-solving model.smt2 finds it {found}"
                   + (": an Optimize result that is sat is optimal, with its objective" if r["status"] == "optimal"
                      else ""))
    elif status == "infeasible" and r["status"] in ("optimal", "feasible", "unbounded"):
        out.append(f"solution.json says infeasible, but re-solving model.smt2 finds it {found}")
    elif status == "time_limit" and _number(objective) and r["status"] == "optimal" and \
            _better(objective, r["objective"], r["sense"]):
        out.append(f"solution.json gives objective {_fmt(objective)}, better than the optimum of model.smt2, "
                   f"{_fmt(r['objective'])}")
    return out


def plan_findings(raw: dict, claimed: dict) -> list[str]:
    r, status, length = raw["resolve"], claimed.get("status"), claimed.get("objective")
    out = []
    if status in FOUND and r["status"] == "infeasible":
        out.append(f"the run says a plan of {length} steps exists, but re-solving its model.smt2 finds it unsat")
    shorter = raw.get("shorter")
    if status == "optimal" and _number(length) and length > 0:
        if shorter is None:
            out.append(f"no model of {length - 1} steps was kept (shorter.smt2), so the horizon proof is missing")
        elif shorter["status"] in FOUND:
            out.append(f"the program's own model of {length - 1} steps is sat when re-solved"
                       + (f" without its {shorter['symmetry_left_out']} symmetry-breaking assertions: they cut off a "
                          "shorter plan" if shorter.get("symmetry_left_out") else ", yet its run said infeasible")
                       + ": the plan is not shown shortest")
    plan = raw.get("plan")
    if plan is not None and status in FOUND:
        if not plan.get("valid"):
            out.append(f"the plan in output.json is not valid: {failure(plan)}")
        elif _number(length) and plan.get("length") != length:
            out.append(f"the plan in output.json has {plan.get('length')} steps, but the horizon loop found "
                       f"{length}: output.json must hold exactly the T actions of the model")
    planner = raw.get("planner") or {}
    if planner.get("status") == "optimal" and status == "optimal" and _number(length) and planner["length"] != length:
        out.append(f"Fast Downward's optimal planner finds a shortest plan of {planner['length']} steps, "
                   f"but the horizon loop found {length}")
    if planner.get("status") == "optimal" and status == "infeasible":
        limit = claimed.get("within_horizon")
        if not _number(limit) or planner["length"] <= limit:
            out.append(f"no plan was found within {limit} steps, but Fast Downward finds one of "
                       f"{planner['length']} steps: the encoding is too strict")
    return out


def value_findings(raw: dict, claimed: dict) -> list[str]:
    if claimed.get("status") not in (*FOUND, "time_limit"):
        return []
    check = raw.get("values_check")
    if check is None:
        if claimed.get("status") in FOUND:
            return [('solution.json has no "values" (every declared constant\'s value, from '
                    "model.eval(c, model_completion=True)), so the assertions cannot be checked at the solution")]
        return []
    out = [f"solution.json's values break {f['name']}" + (f" (statement {f['statement']})" if f["statement"] else "")
           + f": {f['assertion']}" for f in check["false"][:MAX_LISTED]]
    if len(check["false"]) > MAX_LISTED:
        out.append(f"… {len(check['false']) - MAX_LISTED} more assertions are false at solution.json's values")
    if check["missing"]:
        out.append(f'solution.json\'s "values" lacks {_names(check["missing"])}: give every declared constant '
                   "(model_completion=True)")
    out += [f'solution.json\'s "values": {b}' for b in check["bad"][:MAX_LISTED]]
    at, objective = check.get("objective_at_values"), claimed.get("objective")
    if _number(at) and _number(objective) and not _close(objective, at):
        out.append(f"solution.json says objective {_fmt(objective)}, but the objective of model.smt2 evaluated at "
                   f"its values is {_fmt(at)}")
    return out


def time_limit_text(claimed: dict, r: dict) -> str:
    if claimed.get("status") == "time_limit":
        got = f" (best found: {_fmt(claimed.get('objective'))})" if _number(claimed.get("objective")) else ""
        return (f"Z3 stopped at its time limit: a solution exists{got} but its optimality is unknown"
                if _number(claimed.get("objective")) else "Z3 stopped at its time limit without a verdict")
    return f"the re-solve stopped at its time limit ({r.get('reason') or 'unknown'}): nothing could be confirmed"


def no_plan_text(raw: dict) -> str:
    horizon = raw.get("horizon") or {}
    planner = raw.get("planner") or {}
    text = f"No plan of at most {horizon.get('max_horizon', '?')} steps in the program's model"
    if planner.get("status") == "infeasible":
        return text + "; Fast Downward proves the task unsolvable."
    return text + "; longer plans are not ruled out."


def agreement_text(raw: dict, claimed: dict, planning: bool) -> str:
    r, status = raw["resolve"], claimed.get("status")
    checked = raw.get("values_check")
    values = (f"; all {checked['checked']} assertions hold at solution.json's values"
              + (f" ({len(checked['undecided'])} undecided)" if checked["undecided"] else "")) if checked else ""
    if not planning:
        what = f"{r['status']}" + (f", objective {_fmt(r['objective'])}" if _number(r.get("objective")) else "")
        return f"re-solving model.smt2 agrees with solution.json ({status}): {what} ({r['solver']}){values}"
    if status == "infeasible":
        return "re-check agrees: " + no_plan_text(raw)
    length = claimed.get("objective")
    parts = [f"a plan of {length} steps"]
    shorter = raw.get("shorter") or {}
    if shorter.get("status") == "infeasible":
        parts.append(f"the model of {length - 1} steps is unsat" + (
            f" without its {shorter['symmetry_left_out']} symmetry-breaking assertions"
            if shorter.get("symmetry_left_out") else ""))
    plan = raw.get("plan")
    parts.append("planval validates the plan" if plan and plan.get("valid") else
                 "the plan is not simulated: the folder has no validate/ PDDL" if not raw.get("validated") else
                 "the plan was not validated")
    planner = raw.get("planner") or {}
    if planner.get("status") == "optimal":
        parts.append(f"Fast Downward's optimal planner agrees ({planner['length']} steps)"
                     if planner["length"] == length else
                     f"Fast Downward's optimal planner finds a shortest plan of {planner['length']} steps")
    if (raw.get("horizon") or {}).get("contract") == "incremental":
        parts.append("one solver searched every horizon (the incremental contract)")
    if status == "feasible":  # the first plan found, returned though the walk did not prove it shortest
        parts[0] = (raw.get("horizon") or {}).get("summary") or f"feasible: a {length}-step plan; shortest not proven"
    return "re-check agrees: " + "; ".join(parts) + values


def _planner_says(raw: dict, status: str) -> bool:
    return (raw.get("planner") or {}).get("status") == status


def _close(a: Any, b: Any) -> bool:
    return _number(a) and _number(b) and math.isclose(a, b, rel_tol=OBJ_REL_TOL, abs_tol=OBJ_ABS_TOL)


def _better(value: float, optimum: float, sense: str | None) -> bool:
    tol = max(OBJ_ABS_TOL, OBJ_REL_TOL * abs(optimum))
    return value < optimum - tol if sense == "min" else value > optimum + tol


def _names(names: list[str]) -> str:
    return ", ".join(names[:MAX_LISTED]) + (f", … ({len(names)} in all)" if len(names) > MAX_LISTED else "")


def _fmt(x: Any) -> str:
    return f"{x:.10g}" if _number(x) else str(x)


def _number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)
