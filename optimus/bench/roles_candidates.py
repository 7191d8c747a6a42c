"""Candidate answers of one problem for the verifier and heuristic roles, each labelled by the harness's checks.

Plans (a pddl folder, or a z3 folder with validate/*.pddl): the reference plan (a pddl folder's
reference/plan.json; for a z3 plan a shortest plan by our breadth-first search), the same plan with a detour
(an action and one that undoes it: valid, two steps longer), and two broken ones (its first step dropped, its
last step dropped). Each is labelled two ways: our PDDL simulator and unified-planning's PlanValidator.

Other problems: the reference program's output; the output of the reference program solving a perturbed problem
(PERTURBED: pulp reweights its objective or holds it past its optimum, cvxpy tilts it, z3 holds it past its
optimum; kept only when the checks find it feasible and worse than the optimum); the output of the reference
program with a restriction no statement gives (the fault catalogue's added_restriction: feasible, often worse) and
with one constraint left out (drop_constraint: often infeasible); and the folder's reference/wrong_output.json
(a violated row).
Each is labelled by the folder's supervised tests and, for a PuLP or Z3 program that reports its values, by
substituting them into the reference program's model.mps (re-solved sandboxed, optimus.core.families.pulp.resolve)
or model.smt2 (the z3 family's re-check). Candidates are built from programs, but labelled only by what the
checks find: a dropped constraint that did not bind gives a feasible, optimal candidate, and says so.
"""

from __future__ import annotations

import ast
import json
import random
import shutil
import threading
from collections.abc import Callable
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
    runs += fault_runs(subject, [ref.output], sandbox, limits, work, seed)
    wrong = read_object(subject.problem.reference_dir, "wrong_output.json")[0]
    if wrong is not None and all(wrong != o for _, _, o in runs):
        runs.append(("reference/wrong_output.json", None, wrong))
    model = ref_dir / MODELS.get(family.name, "none")
    model = model if model.is_file() else None
    constant = (ref.solution or {}).get("objective_constant", 0)

    def label(origin: str, ex: Execution | None, output: dict, job: str) -> Candidate:
        return label_output(subject, Candidate(origin, output), ex, sandbox, limits, work / job, key, model, constant)

    cands = [label(origin, ex, output, f"label-{i}") for i, (origin, ex, output) in enumerate(runs)]
    worse = perturbed_candidate(subject, source, [o for _, _, o in runs], label, sandbox, limits, work, seed)
    return cands[:1] + ([worse] if worse else []) + cands[1:]


def fault_runs(subject: Subject, outputs: list[dict], sandbox: SandboxBackend, limits: Limits, work: Path,
               seed: int) -> list[tuple[str, Execution, dict]]:
    """Per fault of FAULTS, the first of its sites that runs to a solution different from every output so far."""
    runs: list[tuple[str, Execution, dict]] = []
    for fault in FAULTS:
        for n, inj in enumerate(fault_candidates(subject, fault, seed)[:TRIES]):
            ex = executed(run_program(subject, inj.text, work / f"{fault}-{n}", sandbox, limits))
            if found(ex) and all(ex.output != o for o in outputs + [o for _, _, o in runs]):
                runs.append((f"reference program with {fault.replace('_', ' ')}", ex, ex.output))
                break
    return runs


def found(ex: Execution) -> bool:
    """The run reports a solution (a program with no solution gives none) and wrote output.json."""
    return (ex.solution or {}).get("status") in ("optimal", "feasible") and ex.output is not None


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


# ---------------------------------------------------------------- programs: a feasible, worse answer

# Each prelude, put before the reference program, changes only what its solver optimises: the constraints are the
# program's own, so the answer stays feasible, and the objective the program reports is its own, read at that
# answer. Whether the answer is feasible and worse is still the checks' finding, never the prelude's.
PULP_PRELUDE = """
import random as _optimus_random
import pulp as _optimus_pulp

_optimus_solve = _optimus_pulp.LpProblem.solve


def _optimus_perturbed_solve(self, *args, **kwargs):
    # solve for seeded reweighted coefficients, then put the true objective back for the program to read
    true, rng = self.objective, _optimus_random.Random({seed})
    if true is not None:
        self.objective = _optimus_pulp.LpAffineExpression(
            {{v: c * {strength} ** rng.uniform(-1, 1) for v, c in true.items()}}, true.constant)
    try:
        return _optimus_solve(self, *args, **kwargs)
    finally:
        self.objective = true


_optimus_pulp.LpProblem.solve = _optimus_perturbed_solve
"""

PULP_PAST_PRELUDE = """
import pulp as _optimus_pulp

_optimus_solve = _optimus_pulp.LpProblem.solve


def _optimus_past_solve(self, *args, **kwargs):
    # the optimum first, then the best answer past it by a share of its objective; the added row goes again
    status = _optimus_solve(self, *args, **kwargs)
    best = _optimus_pulp.value(self.objective) if status == 1 and self.objective is not None else None
    if best is None:
        return status
    margin, sense = {strength} * max(abs(best), 1.0), self.sense  # sense: 1 minimise, -1 maximise
    self += sense * self.objective >= sense * best + margin, "_optimus_past_the_optimum"
    try:
        return _optimus_solve(self, *args, **kwargs)
    finally:
        del self.constraints["_optimus_past_the_optimum"]


_optimus_pulp.LpProblem.solve = _optimus_past_solve
"""

CVXPY_PRELUDE = """
import cvxpy as _optimus_cp
import numpy as _optimus_np

_optimus_Problem = _optimus_cp.Problem


class _OptimusTilted(_optimus_Problem):
    # solved again with a seeded linear tilt added to its objective; status and value are the tilted solve's,
    # the value being the program's own objective at the tilted answer
    _optimus_tilted = None

    def solve(self, *args, **kwargs):
        super().solve(*args, **kwargs)  # the optimum first: the tilt is sized against its objective
        if self.status not in ("optimal", "optimal_inaccurate"):
            return self.value
        rng = _optimus_np.random.default_rng({seed})
        tilts = [(v, rng.uniform(-1, 1, v.shape)) for v in self.variables()]
        at = sum(float(_optimus_np.sum(_optimus_np.abs(r * v.value))) for v, r in tilts) or 1.0
        size = {strength} * max(abs(float(self.value)), 1.0) / at
        tilt = sum(_optimus_cp.sum(_optimus_cp.multiply(size * r, v)) for v, r in tilts)
        self._optimus_tilted = _optimus_Problem(type(self.objective)(self.objective.args[0] + tilt),
                                                self.constraints)
        self._optimus_tilted.solve(*args, **kwargs)
        return self.value

    @property
    def status(self):
        return super().status if self._optimus_tilted is None else self._optimus_tilted.status

    @property
    def value(self):
        tilted = self._optimus_tilted
        if tilted is None:
            return super().value
        return None if tilted.value is None else self.objective.value


_optimus_cp.Problem = _OptimusTilted
"""

Z3_PRELUDE = """
from fractions import Fraction as _optimus_fraction

import z3 as _optimus_z3

_optimus_check = _optimus_z3.Optimize.check
_optimus_minimize, _optimus_maximize = _optimus_z3.Optimize.minimize, _optimus_z3.Optimize.maximize
_optimus_goals = {{}}


def _optimus_goal(self, expr, sense):
    _optimus_goals.setdefault(id(self), []).append((expr, sense))


_optimus_z3.Optimize.minimize = lambda self, e: (_optimus_goal(self, e, 1), _optimus_minimize(self, e))[1]
_optimus_z3.Optimize.maximize = lambda self, e: (_optimus_goal(self, e, -1), _optimus_maximize(self, e))[1]


def _optimus_worse(self, *args):
    # the optimum first, then the best answer past it on the first objective by a share of its value
    result = _optimus_check(self, *args)
    if result != _optimus_z3.sat or not _optimus_goals.get(id(self)):
        return result
    expr, sense = _optimus_goals[id(self)][0]
    best = self.model().eval(expr, model_completion=True)
    if _optimus_z3.is_int_value(best):
        value = _optimus_fraction(best.as_long())
    elif _optimus_z3.is_rational_value(best):
        value = best.as_fraction()
    else:  # not a number (an infinitesimal): no margin to give
        return result
    share = abs(value) * _optimus_fraction("{strength}")
    if _optimus_z3.is_int(expr):
        margin = _optimus_z3.IntVal(max(1, -(-share // 1)))
    else:
        margin = _optimus_z3.RealVal(share) if share else None
    self.add(sense * expr >= sense * best + margin if margin is not None else sense * expr > sense * best)
    return _optimus_check(self, *args)


_optimus_z3.Optimize.check = _optimus_worse
"""

# family → its attempts, mildest first (the nearest answer that is worse): a prelude, its strength, what it does.
# A PuLP objective of one variable (a makespan) or of equal weights (bins used) may not move when reweighted: the
# last attempt holds it past the optimum.
PERTURBED = {
    "pulp": [*((PULP_PRELUDE, k, f"objective coefficients each scaled by a seeded factor within {k}^±1")
               for k in (2, 4, 16)),
             (PULP_PAST_PRELUDE, 0.05, "the objective held 5% past the optimum")],
    "cvxpy": [(CVXPY_PRELUDE, k, f"a seeded linear tilt of {k:.0%} of the optimum added to the objective")
              for k in (0.05, 0.2, 1)],
    "z3": [(Z3_PRELUDE, k, f"the objective held {k:.0%} past the optimum, an integer one by at least 1")
           for k in (0, 0.05, 0.2)],
}


def perturbed_candidate(subject: Subject, source: str, outputs: list[dict], label: Callable[..., Candidate],
                        sandbox: SandboxBackend, limits: Limits, work: Path, seed: int) -> Candidate | None:
    """The reference program solving a perturbed problem, attempt by attempt: the first new answer the checks
    label feasible, not disputed and worse than the optimum (its objective known); None when none is."""
    if subject.expected.get("objective") is None:
        return None  # nothing to optimise: every feasible answer is optimal
    for n, (prelude, strength, how) in enumerate(PERTURBED.get(family_of(subject.problem).name, [])):
        rng_seed = random.Random(f"{seed}:{subject.key}:perturbed:{n}").randrange(2**31)
        text = with_prelude(source, prelude.format(seed=rng_seed, strength=strength))
        if text is None:
            return None
        ex = executed(run_program(subject, text, work / f"perturbed-{n}", sandbox, limits))
        if not found(ex) or any(ex.output == o for o in outputs):
            continue
        cand = label(f"reference program solving a perturbed problem ({how})", ex, ex.output, f"label-perturbed-{n}")
        if cand.feasible and not cand.disputed and not cand.optimal and worse(subject, cand.objective):
            return cand
    return None


def with_prelude(source: str, prelude: str) -> str | None:
    """The source with the prelude after its docstring and `from __future__` imports (which must come first);
    None when it does not parse."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    after = 0
    for i, node in enumerate(tree.body):
        docstring = (i == 0 and isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
                     and isinstance(node.value.value, str))
        if not docstring and not (isinstance(node, ast.ImportFrom) and node.module == "__future__"):
            break
        after = node.end_lineno or after
    lines = source.splitlines(keepends=True)
    return "".join(lines[:after]) + prelude + "\n" + "".join(lines[after:])


def worse(subject: Subject, objective: float | None) -> bool:
    """The objective is known and worse than expected.json's in the problem's sense (either way when no sense is
    given)."""
    want, sense = subject.expected.get("objective"), subject.expected.get("sense")
    if objective is None or want is None or _matches(subject, objective):
        return False
    return {"min": objective > want, "max": objective < want}.get(sense, True)


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
