"""Candidate answers of one problem for the verifier and heuristic roles, each labelled by the harness's checks.

Plans (a pddl folder, or a z3 folder with validate/*.pddl): the reference plan (a pddl folder's
reference/plan.json; for a z3 plan a shortest plan by our breadth-first search), the same plan with a detour
(an action and one that undoes it: valid, two steps longer), and two broken ones (its first step dropped, its
last step dropped). Each is labelled two ways: our PDDL simulator and unified-planning's PlanValidator.

Other problems: the reference program's output, the output of the reference program with a restriction no
statement gives (the fault catalogue's added_restriction: feasible, often worse) and with one constraint left
out (drop_constraint: often infeasible), and the folder's reference/wrong_output.json (a violated row).
Each is labelled by the folder's supervised tests and, for a PuLP program that reports its values, by
substituting them into the reference program's model.mps (re-solved sandboxed, optimus.core.families.pulp.resolve). Candidates
are built from programs, but labelled only by what the checks find: a dropped constraint that did not bind
gives a feasible, optimal candidate, and says so.
"""

from __future__ import annotations

import json
import shutil
import threading
from dataclasses import asdict, dataclass, field
from pathlib import Path

from optimus.bench.draw import Subject, run_program
from optimus.bench.draw import candidates as fault_candidates
from optimus.bench.groundtruth import pddl
from optimus.bench.judge import executed, family_of, supervised_tests
from optimus.core.families.pulp.verify import given_values, resolve
from optimus.core.families.z3 import run_recheck, validate_files
from optimus.core.outcomes import Execution
from optimus.core.report import ABS_TOL, REL_TOL, label_abs_tol, objective_matches
from optimus.core.sandbox import Limits
from optimus.core.sandbox.base import Backend as SandboxBackend
from optimus.core.sandbox.files import read_object
from optimus.core.stages.context import Context
from optimus.core.stages.testrun import run_tests

FAULTS = ("added_restriction", "drop_constraint")  # a feasible-but-worse and an infeasible program
# unified-planning keeps one global environment: two threads reading problems at once break it ("a different
# environment of the expression manager"), so plans are validated one problem at a time.
UP_LOCK = threading.Lock()
TRIES = 3  # fault sites tried per fault before it gives no candidate (a tightened limit can leave no solution)


@dataclass
class Candidate:
    """One answer to judge. `feasible`/`objective`/`optimal` are the harness's label; `checks` says what each
    way of checking found; `disputed`: the ways disagree, so the candidate is left out of every score."""

    origin: str
    output: dict
    feasible: bool = False
    objective: float | None = None
    optimal: bool = False
    checks: dict[str, str] = field(default_factory=dict)
    disputed: bool = False

    def to_dict(self) -> dict:
        return asdict(self)


def plan_files(subject: Subject) -> tuple[Path, Path] | None:
    """The domain and problem files a plan of this folder is validated against, or None (not a plan problem)."""
    root = subject.problem.root
    if (root / "domain.pddl").is_file() and (root / "reference" / "problem.pddl").is_file():
        return root / "domain.pddl", root / "reference" / "problem.pddl"
    return validate_files(root) if subject.problem.snop.problem_type == "PLANNING" else None


class NoCandidates(Exception):
    """Why a problem gives no candidates (its row says so)."""


def build(subject: Subject, sandbox: SandboxBackend, limits: Limits, work: Path, seed: int = 0) -> list[Candidate]:
    """Every candidate of the problem, labelled; NoCandidates says why there are none."""
    status = subject.expected.get("status")
    if status not in ("optimal", "feasible"):
        raise NoCandidates(f"expected status {status}: no answer to build candidates from")
    files = plan_files(subject)
    if files:
        return plan_candidates(subject, *files)
    return program_candidates(subject, sandbox, limits, work, seed)


# ---------------------------------------------------------------- plans

def reference_plan(subject: Subject, domain: Path, problem: Path) -> list[dict] | None:
    plan = pddl.load_plan(subject.problem.root)
    if plan is not None:
        return plan
    try:
        found = pddl.shortest_plan(domain, problem)
    except pddl.StateLimitError:
        return None
    return None if found is None else [{"action": s[0], "args": list(s[1:])} for s in found]


def detour(domain: Path, problem: Path, plan: list[dict]) -> list[dict] | None:
    """The plan with an action and one that undoes it inserted at the first place where such a pair applies."""
    dom, task = pddl.read_domain(domain), pddl.read_problem(problem)
    actions = pddl.ground(dom, task)
    by_key = {(g.name, g.args): g for g in actions}
    state = task.init
    for i in range(len(plan) + 1):
        for a in (a for a in actions if pddl.applicable(state, a)):
            after = pddl.apply(state, a)
            back = next((b for b in actions if pddl.applicable(after, b) and pddl.apply(after, b) == state), None)
            if back is not None:
                pair = [{"action": g.name, "args": list(g.args)} for g in (a, back)]
                return plan[:i] + pair + plan[i:]
        if i < len(plan):
            step = by_key.get((plan[i]["action"].lower(), tuple(str(x).lower() for x in plan[i].get("args", []))))
            if step is None:
                return None
            state = pddl.apply(state, step)
    return None


def plan_candidates(subject: Subject, domain: Path, problem: Path) -> list[Candidate]:
    plan = reference_plan(subject, domain, problem)
    if not plan:
        raise NoCandidates("no reference plan, and breadth-first search found none within its state limit")
    variants = [("reference plan", plan), ("reference plan with a detour", detour(domain, problem, plan)),
                ("first step dropped", plan[1:]), ("last step dropped", plan[:-1])]
    kept: list[tuple[str, list]] = []
    for origin, steps in variants:
        if steps is not None and all(steps != k for _, k in kept):
            kept.append((origin, steps))
    return label_plans(subject, domain, problem, kept)


def label_plans(subject: Subject, domain: Path, problem: Path, plans: list[tuple[str, object]]) -> list[Candidate]:
    """Two ways: our simulator and unified-planning's PlanValidator; the objective is the plan's length."""
    cands = [Candidate(origin, {"plan": steps}) for origin, steps in plans]
    shaped = [c for c in cands if isinstance(c.output["plan"], list) and all(
        isinstance(s, dict) and isinstance(s.get("action"), str) for s in c.output["plan"])]
    try:
        with UP_LOCK:
            theirs = pddl.up_validate_all(domain, problem, [c.output["plan"] for c in shaped])
    except Exception as exc:  # noqa: BLE001 — a validator that cannot run is a finding, not a crash
        theirs = [f"PlanValidator failed ({type(exc).__name__}: {exc})"] * len(shaped)
    for cand in cands:
        cand.checks["shape"] = "not a list of {action, args} steps"
    for cand, why in zip(shaped, theirs):
        steps = cand.output["plan"]
        ours = pddl.simulate(domain, problem, steps)
        cand.checks = {"simulator": ours or "valid", "planval": why or "valid"}
        cand.disputed = (ours is None) != (why is None)
        cand.feasible = ours is None and why is None
        cand.objective = float(len(steps)) if cand.feasible else None
        cand.optimal = cand.feasible and _matches(subject, cand.objective)
    return cands


def label_answer(subject: Subject, output: dict | list, sandbox: SandboxBackend, limits: Limits, work: Path,
                 objective_key: str | None, known: list[Candidate]) -> Candidate:
    """A model's own answer (the solver role), labelled as any candidate: a plan by both validators, any other
    output by the supervised tests (no values by model names to substitute). An answer equal to one of the `known`
    candidates takes its label."""
    files = plan_files(subject)
    if files:
        steps = output.get("plan") if isinstance(output, dict) else output
        output = {"plan": steps}
    same = next((c for c in known if c.output == output), None)
    if same is not None:  # the same answer as a candidate: the same checks would find the same
        return Candidate("the model's answer", output, same.feasible, same.objective, same.optimal,
                         {**same.checks, "same as": same.origin}, same.disputed)
    if files:
        return label_plans(subject, *files, [("the model's answer", steps)])[0]
    return label_output(subject, Candidate("the model's answer", output), None, sandbox, limits, work, objective_key)


# ---------------------------------------------------------------- programs

def program_candidates(subject: Subject, sandbox: SandboxBackend, limits: Limits, work: Path,
                       seed: int) -> list[Candidate]:
    family = family_of(subject.problem)
    source = (subject.problem.reference_dir / family.artifact).read_text()
    ref_dir = run_program(subject, source, work / "reference", sandbox, limits)
    ref = executed(ref_dir)
    if ref.output is None:
        raise NoCandidates("the reference program left no output.json (a time-out under load?); a rerun tries again")
    key = objective_key(ref.output, (ref.solution or {}).get("objective"))
    runs: list[tuple[str, Execution | None, dict]] = [("reference program", ref, ref.output)]
    for fault in FAULTS:
        for n, inj in enumerate(fault_candidates(subject, fault, seed)[:TRIES]):
            ex = executed(run_program(subject, inj.text, work / f"{fault}-{n}", sandbox, limits))
            found = (ex.solution or {}).get("status") in ("optimal", "feasible")  # a program with no solution
            if found and ex.output is not None and all(ex.output != o for _, _, o in runs):  # gives none
                runs.append((f"reference program with {fault.replace('_', ' ')}", ex, ex.output))
                break
    wrong = read_object(subject.problem.reference_dir, "wrong_output.json")[0]
    if wrong is not None and all(wrong != o for _, _, o in runs):
        runs.append(("reference/wrong_output.json", None, wrong))
    model = ref_dir / MODELS.get(family.name, "none")
    model = model if model.is_file() else None
    return [label_output(subject, Candidate(origin, output), ex, sandbox, limits, work / f"label-{i}", key,
                         model, (ref.solution or {}).get("objective_constant", 0))
            for i, (origin, ex, output) in enumerate(runs)]


def objective_key(output: dict, objective) -> str | None:
    """The top-level output.json key that holds the objective: the one whose value in the reference output is the
    reference program's objective (found by the numbers, never by the name); None when none or several do."""
    if not isinstance(objective, (int, float)):
        return None
    keys = [k for k, v in output.items() if isinstance(v, (int, float)) and not isinstance(v, bool)
            and objective_matches(float(v), float(objective), REL_TOL, ABS_TOL)]
    return keys[0] if len(keys) == 1 else None


def label_output(subject: Subject, cand: Candidate, ex: Execution | None, sandbox: SandboxBackend, limits: Limits,
                 work: Path, key: str | None, model: Path | None = None, constant: float = 0.0) -> Candidate:
    """Way one: the supervised tests on the output (tests that read solution.json see only a status). Way two,
    for a program that gave its values by model names: those values substituted into the reference model."""
    work.mkdir(parents=True, exist_ok=True)
    (work / "output.json").write_text(json.dumps(cand.output))
    (work / "solution.json").write_text(json.dumps({"status": "feasible"}))
    tests = supervised_tests(subject.problem)
    family = family_of(subject.problem)
    outcome = run_tests(sandbox, limits, subject.problem.data_path, tests,
                        Execution(work, None, cand.output, {"status": "feasible"}), work / "tests",
                        family.conftest(), family.test_files(work))
    cand.checks["tests"] = "pass" if outcome.ok else (outcome.broken or (outcome.failures or ["failed"])[0])[:200]
    cand.feasible = outcome.ok
    value = cand.output.get(key) if key and isinstance(cand.output, dict) else None
    cand.objective = float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None
    if model is not None and ex is not None and isinstance((ex.solution or {}).get("values"), dict):
        substituted(subject, cand, {**ex.solution, "objective_constant": constant}, model, sandbox, limits,
                    work / "subst")
    if subject.expected.get("objective") is None:  # nothing to optimise: every feasible answer is optimal
        cand.optimal = cand.feasible and not cand.disputed
    else:
        cand.optimal = cand.feasible and _matches(subject, cand.objective)
    return cand


MODELS = {"pulp": "model.mps", "z3": "model.smt2"}  # the captured model a family's values substitute into


def substituted(subject: Subject, cand: Candidate, solution: dict, model: Path, sandbox: SandboxBackend,
                limits: Limits, job: Path) -> None:
    """Way two: the values against the reference model (pulp: its bounds, rows and integrality, re-solved by
    optimus.core.families.pulp.resolve; z3: every assertion, by the z3 family's re-check), and its objective at them."""
    if job.exists():
        shutil.rmtree(job)
    job.mkdir(parents=True)
    shutil.copy(model, job / model.name)
    if model.suffix == ".mps":
        raw = resolve(job, sandbox, limits, values=given_values(solution)[0])
        check = raw.get("values_check") or {}
        broken = check.get("violations") if check else None
    else:
        (job / "solution.json").write_text(json.dumps(solution))
        ctx = Context(subject.problem, subject.problem.snop, None, sandbox, limits, None, "",
                      family=family_of(subject.problem))
        raw = run_recheck(ctx, Execution(job, None, None, solution))
        check = raw.get("values_check") or {}
        unsure = check.get("undecided") or check.get("missing") or check.get("bad")
        broken = len(check["false"]) if check and not unsure else None
    if broken is None:
        cand.checks["reference model"] = f"not decided: {raw.get('error', 'values missing or undecided')}"[:200]
        return
    cand.checks["reference model"] = "holds" if not broken else f"{broken} bound(s), row(s) or assertion(s) broken"
    cand.disputed = cand.disputed or (broken == 0) != cand.feasible
    at = check.get("objective_at_values")
    if isinstance(at, (int, float)) and cand.feasible:
        at += solution.get("objective_constant", 0) if model.suffix == ".mps" else 0
        if cand.objective is not None and not objective_matches(cand.objective, at, REL_TOL, ABS_TOL):
            cand.checks["objective"] = f"output.json says {cand.objective}, the reference model {at}"
            cand.disputed = True
        cand.objective = at if cand.objective is None else cand.objective


def _matches(subject: Subject, objective: float | None) -> bool:
    want = subject.expected.get("objective")
    if want is None:
        return objective is not None or subject.expected.get("status") == "feasible"
    return objective is not None and objective_matches(objective, want, REL_TOL, label_abs_tol(subject.expected,
                                                                                               ABS_TOL))


def save(cands: list[Candidate], path: Path) -> None:
    path.write_text(json.dumps([c.to_dict() for c in cands], indent=1) + "\n")


def load(path: Path) -> list[Candidate] | None:
    try:
        return [Candidate(**c) for c in json.loads(path.read_text())]
    except (OSError, ValueError, TypeError):
        return None
