"""Don't trust the generated code: re-solve the model.mps it captured, outside its control, and compare.

The re-solve (HiGHS, and CBC for a MILP) runs in the sandbox, since the MPS file is untrusted input
(`optimus.core.families.pulp.resolve`, copied into a fresh work dir). Its answer is compared with solution.json: status, and the
objective against the interval the solvers prove ([bound, incumbent]); the variable values solution.json gives
by the model's own names ("values": {name: value}) are checked against the captured bounds, rows, integrality
and objective. Nothing is matched by guessing names: output.json is left to the tests and optimus.core.checks.
A disagreement becomes evidence for the fix prompt.
"""

from __future__ import annotations

import json
import math
import shutil
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from optimus.core.errors import OptimusError
from optimus.core.families import write_verdict
from optimus.core.outcomes import NO_SOLUTION, WITH_VALUES, Execution, Verdict, stages_of
from optimus.core.sandbox import Limits, read_result_file, write_beside_results
from optimus.core.sandbox.base import Backend as SandboxBackend
from optimus.core.sandbox.files import copy_result_file, read_object, take_out
from optimus.core.snop import objective_sense
from optimus.core.solver_options import SolverOptions
from optimus.core.terminal import gap_words, number

# Agreement tolerances for the objective (solution.json against the re-solve).
OBJ_REL_TOL = 1e-6
OBJ_ABS_TOL = 1e-6
# A MILP "optimal" is proven only to the solver's relative gap; HiGHS's default is 1e-4.
MIP_GAP_TOL = 1e-4
# A time-limit answer's written gap may fall short of what its objective and bound allow by this much (rounding).
GAP_TOL = 1e-6
# Seconds the re-solve and diagnosis may take, at most (and at most 80 % of the program's own limit).
VERIFY_BUDGET_S = 60.0
# ... or this many times the program's own run, when that is longer: a large model takes as long to read again.
RESOLVE_PER_RUN_S = 1.5
if TYPE_CHECKING:
    from optimus.core.stages.context import Context

RESOLVE_PACKAGE = Path(__file__).parent / "resolve"
NO_MODEL = "the program wrote no model.mps, so nothing re-solved it"
MAX_NAMES = 5
_VERB = {"min": "minimize", "max": "maximize"}


def verify_execution(ctx: Context, ex: Execution) -> Verdict:
    """The agent's entry point: verify an attempt that ran, against the statements being tried."""
    sense = (ctx.problem.expected or {}).get("sense") or objective_sense(ctx.snop.objective)
    stages = stages_of(ex.solution or {})
    if stages:  # goals in priority order: model.mps is the last stage's model, in that stage's sense
        sense = stages[-1].get("sense")
    # A model the program took minutes to solve gets as long to re-solve (within the run's wall limit).
    budget = max(VERIFY_BUDGET_S, RESOLVE_PER_RUN_S * getattr(ex.result, "wall_s", 0.0))
    verdict = verify_attempt(ex.workdir, ctx.snop.problem_info, ctx.sandbox, ctx.limits, budget, sense=sense,
                             solver=ctx.solver, data=ctx.problem.data, claimed=ex.solution)
    ctx.sandbox_seconds += verdict.seconds
    return verdict


def verify_attempt(workdir: Path, statements: list[str], sandbox: SandboxBackend, limits: Limits,
                   budget_s: float = VERIFY_BUDGET_S, sense: str | None = None,
                   solver: SolverOptions | None = None, data: dict | None = None,
                   claimed: dict | None = None) -> Verdict:
    """Verify one attempt's work dir (solver.py, solution.json, output.json, model.mps); write verification.json.
    `sense` is the objective sense the problem asks for ("min"/"max"), when known; `solver` the user's solver
    options, which the re-solve honours as the program did; `data` lets a diagnosis name limits by data key;
    `claimed` is solution.json when the caller has read it already (else it is read here)."""
    started = time.monotonic()
    verdict = _verify(Path(workdir), statements, sandbox, limits, budget_s, sense, solver or SolverOptions(), data,
                      claimed)
    verdict.seconds = round(time.monotonic() - started, 4)
    write_verdict(Path(workdir), verdict)
    return verdict


def _verify(workdir: Path, statements: list[str], sandbox: SandboxBackend, limits: Limits, budget_s: float,
            sense: str | None, solver: SolverOptions, data: dict | None = None,
            claimed: dict | None = None) -> Verdict:
    from optimus.core.diagnose import explain

    claimed = claimed if claimed is not None else read_object(workdir, "solution.json")[0] or {}
    kept = without_values(claimed)  # the Verdict goes into report.json: a million values stay in solution.json
    if not (workdir / "model.mps").exists() and not (workdir / "model.mps").is_symlink():
        return Verdict("skipped", f"unverified: {NO_MODEL}", claimed=kept)
    # Values mean something only beside a solution (an infeasible run's are whatever the solver left).
    values = claimed.get("values") if claimed.get("status") in WITH_VALUES else None
    bad = [] if values is None or isinstance(values, dict) else \
        [f'solution.json\'s "values" must be an object {{variable name: value}}, found {type(values).__name__}']
    raw = resolve(workdir, sandbox, limits, budget_s, solver=solver,
                  with_solution=isinstance(values, dict) and bool(values), claimed=claimed)
    if "error" in raw:
        return Verdict("error", f"the captured model could not be re-solved: {raw['error']}", claimed=kept)
    verdict = judge(claimed, raw, sense, bad + wrong_values(raw.get("values_wrong")))
    verdict.claimed = kept
    verdict.capture = capture(raw["model"], statements)
    if "row_families" in raw["model"]:  # which statements have rows: one name per family tells
        raw["model"]["row_names"] = [first for _, first in raw["model"]["row_families"].values()]
    verdict.diagnosis = explain(raw, statements, data)
    return verdict


def without_values(claimed: dict) -> dict:
    """solution.json as the Verdict keeps it: "values" replaced by how many there are."""
    values = claimed.get("values")
    if values is None:
        return claimed
    kept = {k: v for k, v in claimed.items() if k != "values"}
    kept["values_given"] = len(values) if isinstance(values, dict) else None
    return kept


def wrong_values(wrong: dict | None) -> list[str]:
    """The re-check's count and examples of values that are not finite numbers, as a finding."""
    if not wrong:
        return []
    return [f'solution.json\'s "values" give {wrong["count"]} variable(s) a value that is not a finite number: '
            + ", ".join(wrong.get("examples", [])[:MAX_NAMES])]


def capture(model: dict, statements: list[str]) -> dict:
    """Statement → rows of the captured model: from every row name, or (a large model) from each row family
    once, its count added: the same statements and families, without a million names."""
    from optimus.core.diagnose import capture_map, statement_of

    if "row_families" not in model:
        return capture_map(model.get("row_names", []), statements)
    firsts = {first: count for count, first in model["row_families"].values()}
    found = capture_map(list(firsts), statements)
    rows: dict[int | None, int] = {}
    for first, count in firsts.items():
        rows[statement_of(first)] = rows.get(statement_of(first), 0) + count
    for key, entry in found["statements"].items():
        entry["rows"] = rows[int(key[1:])]
    found["unnamed_rows"] = rows.get(None, 0)
    return found


def given_values(claimed: dict) -> tuple[dict[str, float] | None, list[str]]:
    """solution.json's "values" as {name: finite number} (None when it gives none), and what is wrong with them:
    not an object, or entries that are not finite numbers (null, a variable without a value, is left out)."""
    values = claimed.get("values")
    if values is None:
        return None, []
    if not isinstance(values, dict):
        kind = type(values).__name__
        return None, [f'solution.json\'s "values" must be an object {{variable name: value}}, found {kind}']
    good = {str(k): float(v) for k, v in values.items() if _number(v)}
    wrong = [k for k, v in values.items() if v is not None and not _number(v)]
    bad = [f'solution.json\'s "values" give {len(wrong)} variable(s) a value that is not a finite number: '
           + ", ".join(f"{k} = {values[k]!r}"[:60] for k in wrong[:MAX_NAMES])] if wrong else []
    return good, bad


def resolve(workdir: Path, sandbox: SandboxBackend, limits: Limits, budget_s: float = VERIFY_BUDGET_S,
            values: dict[str, float] | None = None, solver: SolverOptions | None = None,
            with_solution: bool = False, claimed: dict | None = None) -> dict:
    """Run `optimus.core.families.pulp.resolve` on the attempt's model.mps in a fresh sandboxed work dir, and check
    against it the program's variable values by name: solution.json's own (`with_solution`: the file is copied
    and read there, never re-serialised here) or `values`. Its result.json as a dict."""
    extra = {"values.json": json.dumps(values)} if values else {}  # re-serialised by us: finite numbers only
    solver = solver or SolverOptions()
    seconds = (claimed or {}).get("seconds")
    solve_s = seconds.get("solve") if isinstance(seconds, dict) and _number(seconds.get("solve")) else None
    request = {"values": "values.json" if values else None, "solution": "solution.json" if with_solution else None,
               "claimed_status": (claimed or {}).get("status"), "solve_s": solve_s,
               "time_limit": solver.time_limit, "mip_gap": solver.mip_gap, "threads": solver.threads,
               "export_lp": solver.export_lp}
    copies = ("model.mps", "solution.json") if with_solution else ("model.mps",)
    return sandboxed(workdir, "verify", "resolve", request, sandbox, limits, budget_s, extra, copies)


def sandboxed(workdir: Path, job_name: str, module: str, request: dict, sandbox: SandboxBackend, limits: Limits,
              budget_s: float, files: dict[str, str] | None = None, copies: tuple[str, ...] = ("model.mps",)) -> dict:
    """Run `python -m <module>` of the sandbox-side package optimus/core/families/pulp/resolve on copies of
    workdir's result files `copies` (model.mps first), in a fresh work dir `workdir/<job_name>`, with `request`
    (model and budget added) and `files` beside it."""
    job = workdir / job_name
    shutil.rmtree(job, ignore_errors=True)
    job.mkdir()
    shutil.copytree(RESOLVE_PACKAGE, job / "resolve", ignore=shutil.ignore_patterns("__pycache__"))
    try:  # copied by us with O_NOFOLLOW: a planted symlink must not carry a host file into the sandbox
        for name in copies:  # at most what the program could write: its file size limit
            copy_result_file(workdir, name, job / name, limits.file_size_mb * 1024 * 1024)
    except OptimusError as exc:
        return {"error": str(exc)}
    for name, text in (files or {}).items():
        (job / name).write_text(text)
    budget = max(1.0, min(budget_s, 0.8 * limits.wall_s))
    (job / "request.json").write_text(json.dumps({"model": "model.mps", **request, "budget_s": budget}))
    run_limits = Limits(wall_s=budget + 20, cpu_s=int(budget) + 20, memory_mb=limits.memory_mb,
                        file_size_mb=limits.file_size_mb)
    result = sandbox.run(["python", "-m", module, "request.json", "result.json"], workdir=job, limits=run_limits)
    take_out(job, "resolve")
    if request.get("export_lp"):
        export_lp(job, workdir)
    try:
        return json.loads(read_result_file(job, "result.json"))
    except (OptimusError, json.JSONDecodeError, UnicodeDecodeError):
        reason = result.killed_by or f"exit code {result.exit_code}"
        return {"error": f"the re-solve stopped without a result ({reason}): {(result.stderr or '')[-300:]}"}


def export_lp(job: Path, workdir: Path) -> None:
    """model.lp, which the re-solve wrote from model.mps in the sandbox, beside model.mps (read as a result file)."""
    try:
        write_beside_results(workdir, "model.lp", read_result_file(job, "model.lp").decode("utf-8", "replace"))
    except OptimusError:
        pass  # the re-solve could not read the model: its result says why


def judge(claimed: dict, raw: dict, wanted_sense: str | None = None, bad_values: list[str] | None = None) -> Verdict:
    """Compare what solution.json claims with what the solvers found on the captured model, and the model's
    objective sense with the one the problem asks for (`wanted_sense`, when known). `bad_values`: what is wrong
    with solution.json's "values" (given_values)."""
    status, objective = claimed.get("status"), claimed.get("objective")
    offset = claimed.get("objective_constant", 0)  # model.mps cannot hold a constant objective term
    offset = offset if _number(offset) else 0
    mip = raw["model"].get("integers", 0) > 0
    gap = raw.get("mip_gap") if _number(raw.get("mip_gap")) else 0.0  # --mip-gap: the program may stop that far off
    sense = raw["model"].get("sense", "min")
    resolves = [raw[k] for k in ("highs", "cbc") if k in raw]
    findings: list[str] = []
    if wanted_sense in ("min", "max") and sense != wanted_sense:
        # A flipped objective runs, passes every constraint check and reports a wrong optimum: catch it here.
        findings.append(f"the problem asks to {_VERB[wanted_sense]} the objective, but the captured model "
                        f"{_VERB[sense]}s it ({raw['model'].get('sense_source', 'model.mps')})")
    decisive = False
    for r in resolves:
        lo, hi = _interval(r, sense, offset)
        found = _fmt(r["objective"] + offset) if _number(r.get("objective")) else None
        if r["status"] in NO_SOLUTION or (r["status"] == "optimal" and not mip):
            decisive = True
        if status == "optimal":
            if not _number(objective):
                findings.append(f"solution.json says optimal but its objective is {objective!r}, not a number")
                break
            if r["status"] in NO_SOLUTION:
                findings.append(f"solution.json says optimal with objective {_fmt(objective)}, but re-solving the "
                                f"captured model finds it {r['status']} ({r['solver']})")
            elif lo is not None and not _within(objective, lo, hi, mip, gap):
                decisive = True
                findings.append(f"solution.json says optimal with objective {_fmt(objective)}, but re-solving the "
                                f"captured model gives {_range(lo, hi, found)} ({r['solver']}{_how(r)})")
        elif status in NO_SOLUTION and r["status"] != status and (
                r["status"] in NO_SOLUTION or _number(r.get("objective"))):
            what = r["status"] if r["status"] in NO_SOLUTION else f"a solution with objective {found}"
            findings.append(f"solution.json says {status}, but re-solving the captured model finds {what} "
                            f"({r['solver']}{_how(r)})")
        elif status == "time_limit" and _number(objective) and lo is not None and _beyond(objective, lo, hi, sense, mip):
            findings.append(f"solution.json gives objective {_fmt(objective)}, better than the captured model "
                            f"allows: {_range(lo, hi, found)} ({r['solver']})")
    findings += bad_values or []
    check = raw.get("values_check")
    if check and status in WITH_VALUES:
        findings += _values_findings(check, status, objective, offset, mip)
    incumbent, more = incumbent_of(claimed, sense, resolves, offset, mip) if status == "time_limit" else (None, [])
    findings += more
    statuses = ", ".join(f"{r['status']}"
                         f"{' ' + as_claimed(r['objective'] + offset, objective) if _number(r.get('objective')) else ''}"
                         f" ({r['solver']})" for r in resolves)
    if findings:
        outcome, summary = "disagrees", f"re-solve disagrees: {findings[0]}"
    elif incumbent is not None:
        return _time_limit_verdict(claimed, incumbent, check, statuses, resolves)
    elif decisive or any(r["status"] == "optimal" for r in resolves):
        outcome, summary = "agrees", f"re-solve agrees with solution.json ({status}): {statuses}{_values_note(check, status)}"
    else:
        outcome, summary = "unconfirmed", f"re-solve could not confirm solution.json ({status}): {statuses}"
    return Verdict(outcome, summary, findings, claimed, resolves, check)


def incumbent_of(claimed: dict, sense: str, resolves: list[dict], offset: float,
                 mip: bool) -> tuple[dict | None, list[str]]:
    """An answer at a time limit: its objective, bound and gap (a fraction, recomputed from the two: the gap the
    verdict states is ours), and what contradicts them: a bound on the wrong side of the objective, a gap smaller
    than objective and bound allow, a re-solve that found a solution better than the bound says exists."""
    objective, bound, said = claimed.get("objective"), claimed.get("bound"), claimed.get("gap")
    if not _number(objective):
        return None, []  # no incumbent: nothing to verify by substitution
    if not _number(bound):
        return {"objective": objective, "bound": None, "gap": None, "claimed_gap": said}, []
    findings, distance = [], abs(objective - bound)
    tol = max(OBJ_ABS_TOL, (MIP_GAP_TOL if mip else OBJ_REL_TOL) * abs(objective))
    if (bound > objective + tol) if sense == "min" else (bound < objective - tol):
        findings.append(f"solution.json gives bound {_fmt(bound)} on the wrong side of its objective "
                        f"{_fmt(objective)}: a {_VERB[sense]} problem's bound is {'at most' if sense == 'min' else 'at least'} "
                        "the objective of any solution")
    gap = distance / abs(objective) if objective else (0.0 if distance <= tol else math.inf)
    least = distance / max(abs(objective), abs(bound)) if distance > tol else 0.0  # under any usual denominator
    if _number(said) and said < least - GAP_TOL:
        findings.append(f"solution.json says gap {_fmt(said)}, but its objective {_fmt(objective)} and bound "
                        f"{_fmt(bound)} are {_fmt(gap)} apart (relative to the objective)")
    for r in resolves:
        found = r.get("objective")
        if _number(found) and ((found + offset < bound - tol) if sense == "min" else (found + offset > bound + tol)):
            findings.append(f"solution.json gives bound {_fmt(bound)}, but re-solving the captured model finds a "
                            f"solution with objective {_fmt(found + offset)}, beyond that bound ({r['solver']})")
    return {"objective": objective, "bound": bound, "gap": gap, "claimed_gap": said}, findings


def _time_limit_verdict(claimed: dict, incumbent: dict, check: dict | None, statuses: str,
                        resolves: list[dict]) -> Verdict:
    """Verified when the substitution checked every variable and row: the incumbent is feasible, its objective
    is the one written, and nothing contradicts the bound."""
    complete = bool(check) and check["columns_given"] == check["columns"] and check["rows_checked"] == check["rows"]
    if not complete:
        return Verdict("unconfirmed", "the time-limit answer is not verified: solution.json's values do not give "
                       f"every variable of the captured model{_values_note(check, 'time_limit')}", [], claimed,
                       resolves, check, incumbent=incumbent)
    words = gap_words(incumbent["gap"])
    incumbent["words"] = words
    summary = (f"substitution into the captured model: {words}: objective {number(incumbent['objective'])}"
               + (f", bound {number(incumbent['bound'])}" if incumbent["bound"] is not None else "")
               + f"{_values_note(check, 'time_limit')}; re-solve: {statuses}")
    return Verdict("agrees", summary, [], claimed, resolves, check, incumbent=incumbent)


def _values_note(check: dict | None, status: Any) -> str:
    if status not in WITH_VALUES:
        return ""
    if not check:
        return '; variable values not checked (solution.json gives no "values")'
    return (f"; values of {check['columns_given']} of {check['columns']} variables checked against "
            f"{check['rows_checked']} of {check['rows']} rows")


def _values_findings(check: dict, status: Any, objective: Any, offset: float, mip: bool) -> list[str]:
    out = []
    for p in check.get("problems", []):
        if p["kind"] == "row":
            out.append(f"solution.json's values break constraint {p['name']}: its left side is {_fmt(p['activity'])}, "
                       f"but it must be {_relation(p)}")
        elif p["kind"] == "bound":
            out.append(f"solution.json's values give {p['name']} = {_fmt(p['value'])}, outside its bounds "
                       f"[{_fmt(p['lower'])}, {_fmt(p['upper'])}] in the captured model")
        else:
            out.append(f"solution.json's values give {p['name']} = {_fmt(p['value'])}, but it is an integer variable")
    if check.get("violations", 0) > len(check.get("problems", [])):
        out.append(f"… {check['violations'] - len(check['problems'])} more violations")
    if check.get("unknown_count"):
        out.append(f"solution.json's values name {check['unknown_count']} variable(s) the captured model does not "
                   f"have: {', '.join(check['unknown'][:MAX_NAMES])} (write each variable's value under var.name)")
    at_values = check.get("objective_at_values")
    if status in ("optimal", "time_limit") and _number(objective) and _number(at_values) and not \
            _within(objective, at_values + offset, at_values + offset, mip):
        out.append(f"solution.json says objective {_fmt(objective)}, but the captured objective evaluated at "
                   f"its values is {_fmt(at_values + offset)}")
    return out


def _relation(p: dict) -> str:
    """The row's real sense: `= 500`, `<= 500`, `>= 20`, or `between 20 and 500`."""
    sense = p.get("sense")
    if sense == "=":
        return f"= {_fmt(p['lower'])}"
    if sense == "range":
        return f"between {_fmt(p['lower'])} and {_fmt(p['upper'])} (a range row)"
    return f"<= {_fmt(p['upper'])}" if sense == "<=" else f">= {_fmt(p['lower'])}"


def _interval(r: dict, sense: str, offset: float) -> tuple[float | None, float | None]:
    """[lo, hi] that holds the optimum, from the incumbent (one side) and the proven bound (the other)."""
    inc, bound = r.get("objective"), r.get("bound")
    if r["status"] not in ("optimal", "time_limit") or not (_number(inc) or _number(bound)):
        return None, None
    inc = inc + offset if _number(inc) else (math.inf if sense == "min" else -math.inf)
    bound = bound + offset if _number(bound) else (-math.inf if sense == "min" else math.inf)
    return (bound, inc) if sense == "min" else (inc, bound)


def _beyond(value: float, lo: float, hi: float, sense: str, mip: bool) -> bool:
    """A feasible value better than the proven bound: impossible."""
    return not _within(value, lo, math.inf, mip) if sense == "min" else not _within(value, -math.inf, hi, mip)


def _within(value: float, lo: float, hi: float, mip: bool, gap: float = 0.0) -> bool:
    tol = max(OBJ_ABS_TOL, (max(MIP_GAP_TOL, gap) if mip else OBJ_REL_TOL) * abs(value))
    return lo - tol <= value <= hi + tol


def _range(lo: float, hi: float, found: str | None) -> str:
    if math.isclose(lo, hi, rel_tol=1e-12, abs_tol=1e-12):
        return _fmt(lo)
    if math.isinf(lo) or math.isinf(hi):
        side = f"at least {_fmt(lo)}" if math.isinf(hi) else f"at most {_fmt(hi)}"
        return f"{side} (best found {found})" if found else side
    return f"between {_fmt(lo)} and {_fmt(hi)}"


def _how(r: dict) -> str:
    return ", stopped at its time limit" if r["status"] == "time_limit" else ""


def as_claimed(found: float, claimed: Any) -> str:
    """A re-solve's objective as the terminal shows it: where it is the program's own but for float noise (within
    1e-7 relative), rounded as the program's is, so one quantity never reads as two numbers (6.1349296 beside
    6.1349297); otherwise its own rounding."""
    if _number(claimed) and math.isclose(found, claimed, rel_tol=1e-7, abs_tol=1e-9):
        return number(claimed)
    return number(found)


def _fmt(x: Any) -> str:
    """A number in a finding (evidence for the fix prompt): 10 digits, where a violation can still show."""
    return f"{x:.10g}" if _number(x) else str(x)


def _number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)

