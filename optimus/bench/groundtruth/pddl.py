"""Ground truth for planning folders: optimal plan lengths computed two independent ways.

    python -m optimus.bench.groundtruth.pddl DIR... [--write] [--json] [--bfs-states N] [--timeout S]

Each DIR is a planning folder (domain.pddl, reference/problem.pddl, reference/plan.json) or a folder of them.
Per folder: Fast Downward's optimal configuration through unified-planning gives the optimum (or proves
there is none); for problems small enough, a breadth-first search over states in this module (its own
PDDL reader, grounding and successor function — nothing shared with unified-planning) gives it again; the
reference plan is validated by unified-planning's PlanValidator and by our own simulation, and its length
must equal the optimum. With `--write` the agreed result goes to expected.json; without, the existing one
is compared. Exit 0 when everything agrees, 1 on any disagreement, 2 on bad input.

The BFS reads the STRIPS subset our domains use: :typing, :negative-preconditions, :equality, constants,
conjunctive preconditions and goals, add and delete effects. Anything else is refused, never guessed.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import asdict, dataclass, field
from itertools import product
from pathlib import Path

from optimus.bench.groundtruth import driver
from optimus.bench.groundtruth.pddl_reader import TypeTree, parse_sexpr, sections, typed_names
from optimus.bench.groundtruth.plansim import simulate as step_through
from optimus.core.errors import SpecError

BFS_STATES = 60_000  # states the CLI's BFS may visit before it reports "too large" (not a failure)
TIMEOUT = 60.0  # seconds for Fast Downward per problem

Atom = tuple[str, ...]
Literal = tuple[bool, Atom]  # (positive?, atom); atom[0] is the predicate or "="


class StateLimitError(RuntimeError):
    """The BFS visited `max_states` states without finishing: the problem is too large for it."""


# ---------------------------------------------------------------- reading PDDL (our own, for the BFS)

def _literals(formula, where: str) -> list[Literal]:
    """A conjunction of (possibly negated) atoms; anything richer is refused."""
    if not formula:
        return []
    if formula[0] == "and":
        return [lit for part in formula[1:] for lit in _literals(part, where)]
    if formula[0] == "not":
        (pos, atom), = _literals(formula[1], where)
        return [(not pos, atom)]
    if any(not isinstance(x, str) for x in formula) or formula[0] in ("or", "imply", "forall", "exists", "when"):
        raise SpecError(where, "", "only conjunctions of literals are supported, got "
                        f"({' '.join(map(str, formula))})")
    return [(True, tuple(formula))]


@dataclass
class Action:
    name: str
    params: list[tuple[str, str]]
    pre: list[Literal]
    effect: list[Literal]


@dataclass
class Domain(TypeTree):
    constants: dict[str, str] = field(default_factory=dict)
    actions: list[Action] = field(default_factory=list)


def read_domain(path: Path) -> Domain:
    root = parse_sexpr(path.read_text(), str(path))
    dom = Domain()
    for part in root[2:]:
        head = part[0]
        if head == ":types":
            dom.declare(typed_names(part[1:], str(path)))
        elif head == ":constants":
            dom.constants.update(typed_names(part[1:], str(path)))
        elif head == ":action":
            keys = dict(zip(part[2::2], part[3::2]))
            where = f"{path}: action {part[1]}"
            dom.actions.append(Action(part[1], typed_names(keys.get(":parameters", []), where),
                                      _literals(keys.get(":precondition", []), where),
                                      _literals(keys.get(":effect", []), where)))
        elif head not in (":requirements", ":predicates", "domain"):
            raise SpecError(path, "", f"section {head} is not supported by the BFS reader")
    return dom


@dataclass
class Task:
    objects: dict[str, str]
    init: frozenset[Atom]
    goal: list[Literal]


def read_problem(path: Path) -> Task:
    root = parse_sexpr(path.read_text(), str(path))
    sec = sections(root)
    init = frozenset(tuple(a) for a in sec.get(":init", []))
    goal = _literals(sec[":goal"][0], f"{path}: :goal") if sec.get(":goal") else []
    return Task(dict(typed_names(sec.get(":objects", []), str(path))), init, goal)


# ---------------------------------------------------------------- grounding and search

@dataclass(frozen=True)
class Ground:
    name: str
    args: tuple[str, ...]
    pre: frozenset[Atom]
    pre_not: frozenset[Atom]
    add: frozenset[Atom]
    delete: frozenset[Atom]


def ground(dom: Domain, task: Task) -> list[Ground]:
    """Every applicable-in-principle action instance: static preconditions (predicates no action changes)
    and equalities are decided here against the initial state, so the search only sees the rest."""
    objects = {**dom.constants, **task.objects}
    changed = {atom[0] for a in dom.actions for _, atom in a.effect}
    out = []
    for act in dom.actions:
        choices = [[o for o, k in objects.items() if dom.is_a(k, kind)] for _, kind in act.params]
        names = [v for v, _ in act.params]
        for combo in product(*choices):
            sub = dict(zip(names, combo))
            pre = [(pos, tuple(sub.get(x, x) for x in atom)) for pos, atom in act.pre]
            if not all(_static_holds(pos, atom, task.init) for pos, atom in pre if atom[0] not in changed):
                continue
            fluent = [(pos, atom) for pos, atom in pre if atom[0] != "=" and atom[0] in changed]
            eff = [(pos, tuple(sub.get(x, x) for x in atom)) for pos, atom in act.effect]
            out.append(Ground(act.name, combo, frozenset(a for p, a in fluent if p),
                              frozenset(a for p, a in fluent if not p),
                              frozenset(a for p, a in eff if p), frozenset(a for p, a in eff if not p)))
    return out


def _static_holds(pos: bool, atom: Atom, init: frozenset[Atom]) -> bool:
    truth = atom[1] == atom[2] if atom[0] == "=" else atom in init
    return truth == pos


def applicable(state: frozenset[Atom], act: Ground) -> bool:
    return act.pre <= state and not (act.pre_not & state)


def apply(state: frozenset[Atom], act: Ground) -> frozenset[Atom]:
    return (state - act.delete) | act.add


def satisfied(state: frozenset[Atom], goal: list[Literal]) -> bool:
    return all((atom[1] == atom[2] if atom[0] == "=" else atom in state) == pos for pos, atom in goal)


def shortest_plan_length(domain_path: Path | str, problem_path: Path | str,
                         max_states: int = BFS_STATES) -> int | None:
    """The length of a shortest plan by breadth-first search over states; None when every reachable state
    has been visited and none satisfies the goal (unsolvable). Raises StateLimitError after `max_states`."""
    plan = shortest_plan(domain_path, problem_path, max_states)
    return None if plan is None else len(plan)


def shortest_plan(domain_path: Path | str, problem_path: Path | str,
                  max_states: int = BFS_STATES) -> list[tuple[str, ...]] | None:
    """A shortest plan, [(action, arg, ...), ...], by breadth-first search; None when unsolvable.
    Raises StateLimitError after visiting `max_states` states."""
    dom, task = read_domain(Path(domain_path)), read_problem(Path(problem_path))
    actions = ground(dom, task)
    start = task.init
    parent: dict[frozenset[Atom], tuple[frozenset[Atom], Ground] | None] = {start: None}
    frontier, depth, found = [start], 0, start if satisfied(start, task.goal) else None
    while frontier and found is None:
        depth += 1
        nxt = []
        for state in frontier:
            for act in actions:
                if applicable(state, act):
                    succ = apply(state, act)
                    if succ in parent:
                        continue
                    parent[succ] = (state, act)
                    if satisfied(succ, task.goal):
                        found = succ
                        break
                    if len(parent) > max_states:
                        raise StateLimitError(f"{problem_path}: BFS passed {max_states} states at depth {depth}")
                    nxt.append(succ)
            if found is not None:
                break
        frontier = nxt
    if found is None:
        return None
    steps = []
    while parent[found] is not None:
        found, act = parent[found]
        steps.append((act.name, *act.args))
    return steps[::-1]


def simulate(domain_path: Path | str, problem_path: Path | str, plan: list[dict]) -> str | None:
    """Our own plan check (optimus.bench.groundtruth.plansim, ADL included): None when every step applies in turn and the goal
    holds after the last, else what went wrong."""
    return step_through(domain_path, problem_path, plan)


# ---------------------------------------------------------------- Fast Downward through unified-planning

def _up_problem(domain_path: Path, problem_path: Path):
    from pyparsing import ParseBaseException  # unified-planning's PDDL grammar is pyparsing's
    from unified_planning.exceptions import UPException

    from optimus.core.planval.reader import read_pddl

    try:
        return read_pddl(domain_path, problem_path)
    except (UPException, ParseBaseException) as exc:
        raise SpecError(problem_path, "", f"unified-planning cannot read it with {domain_path}: {exc}") from None


def fast_downward_optimal(domain_path: Path, problem_path: Path, timeout: float = TIMEOUT
                          ) -> tuple[str, int | None, float]:
    """("optimal", length, seconds) or ("unsolvable", None, s), or another status name with None: what
    `fast-downward-opt` reports, normalised. Only SOLVED_OPTIMALLY counts as an optimum."""
    import unified_planning.shortcuts as up
    from unified_planning.engines import PlanGenerationResultStatus as S
    from unified_planning.model.metrics import MinimizeSequentialPlanLength

    up.get_environment().credits_stream = None
    problem = _up_problem(domain_path, problem_path)
    # without a quality metric the engine reports SOLVED_SATISFICING even for its A*/LM-cut plan
    problem.add_quality_metric(MinimizeSequentialPlanLength())
    start = time.perf_counter()
    with up.OneshotPlanner(name="fast-downward-opt") as planner:
        result = planner.solve(problem, timeout=timeout)
    seconds = time.perf_counter() - start
    if result.status == S.SOLVED_OPTIMALLY:
        return "optimal", len(result.plan.actions), seconds
    if result.status in (S.UNSOLVABLE_PROVEN, S.UNSOLVABLE_INCOMPLETELY):
        return "unsolvable" if result.status == S.UNSOLVABLE_PROVEN else "unsolvable?", None, seconds
    return result.status.name.lower(), None, seconds


def up_validate(domain_path: Path, problem_path: Path, plan: list[dict]) -> str | None:
    """unified-planning's PlanValidator on the plan: None when valid, else its reason."""
    return up_validate_all(domain_path, problem_path, [plan])[0]


def up_validate_all(domain_path: Path, problem_path: Path, plans: list[list[dict]]) -> list[str | None]:
    """up_validate for several plans of one problem, read and validated by one PlanValidator."""
    import unified_planning.shortcuts as up
    from unified_planning.exceptions import UPException
    from unified_planning.plans import ActionInstance, SequentialPlan

    up.get_environment().credits_stream = None
    problem = _up_problem(domain_path, problem_path)
    found: list[str | None] = []
    with up.PlanValidator(problem_kind=problem.kind) as validator:
        for plan in plans:
            try:
                steps = [ActionInstance(problem.action(s["action"]), [problem.object(a) for a in s.get("args", [])])
                         for s in plan]
            except UPException as exc:  # an unknown action or object name, a wrong arity: the plan does not fit
                found.append(f"the plan does not fit the problem: {exc}")
                continue
            result = validator.validate(problem, SequentialPlan(steps))
            found.append(None if result.status.name == "VALID" else f"invalid: {result.reason}")
    return found


# ---------------------------------------------------------------- the folder check

@dataclass
class Check:
    folder: str
    fd_status: str = ""
    fd_length: int | None = None
    fd_seconds: float = 0.0
    bfs_length: int | None = None
    bfs: str = "not run"  # "optimal", "unsolvable", "too large"
    plan_length: int | None = None
    plan_check: str = "no reference plan"
    expected: dict | None = None
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def line(self) -> str:
        length = self.fd_length if self.fd_length is not None else "-"
        bfs = self.bfs_length if self.bfs == "optimal" else self.bfs
        return (f"{'ok ' if self.ok else 'BAD'} {self.folder}: FD {self.fd_status} {length} ({self.fd_seconds:.1f}s), "
                f"BFS {bfs}, plan {self.plan_length}" + "".join(f"\n    {p}" for p in self.problems))

    def row(self) -> dict:
        return {**asdict(self), "ok": self.ok}


def load_plan(folder: Path) -> list[dict] | None:
    path = folder / "reference" / "plan.json"
    if not path.is_file():
        return None
    try:
        plan = json.loads(path.read_text())["plan"]
        if not all(isinstance(s, dict) and isinstance(s.get("action"), str) for s in plan):
            raise ValueError("each step needs an 'action' string")
    except (ValueError, KeyError, TypeError) as exc:
        raise SpecError(path, "plan", f"expected a list of {{action, args}}: {exc}") from None
    return plan


def check_folder(folder: Path, max_states: int = BFS_STATES, timeout: float = TIMEOUT) -> Check:
    domain, problem = folder / "domain.pddl", folder / "reference" / "problem.pddl"
    for path in (domain, problem):
        if not path.is_file():
            raise SpecError(path, "", "missing (a planning folder needs domain.pddl and reference/problem.pddl)")
    read_domain(domain), read_problem(problem)  # our reader first: malformed files fail here, named
    chk = Check(str(folder))
    chk.fd_status, chk.fd_length, chk.fd_seconds = fast_downward_optimal(domain, problem, timeout)
    try:
        chk.bfs_length = shortest_plan_length(domain, problem, max_states)
        chk.bfs = "unsolvable" if chk.bfs_length is None else "optimal"
    except StateLimitError:
        chk.bfs = "too large"
    if chk.fd_status not in ("optimal", "unsolvable"):
        chk.problems.append(f"fast-downward-opt reported {chk.fd_status}")
    if chk.bfs != "too large" and (chk.bfs == "unsolvable") != (chk.fd_status == "unsolvable"):
        chk.problems.append(f"BFS says {chk.bfs}, fast-downward-opt says {chk.fd_status}")
    elif chk.bfs == "optimal" and chk.bfs_length != chk.fd_length:
        chk.problems.append(f"BFS length {chk.bfs_length} != fast-downward-opt length {chk.fd_length}")
    plan = load_plan(folder)
    if plan is not None:
        chk.plan_length = len(plan)
        reasons = [r for r in (simulate(domain, problem, plan), up_validate(domain, problem, plan)) if r]
        chk.plan_check = "; ".join(reasons) or "valid (our simulation and PlanValidator)"
        if reasons:
            chk.problems.append(f"reference plan: {chk.plan_check}")
        elif chk.fd_length is not None and len(plan) != chk.fd_length:
            chk.problems.append(f"reference plan has {len(plan)} steps, the optimum is {chk.fd_length}")
        if chk.fd_status == "unsolvable":
            chk.problems.append("a reference plan exists for a problem the planner proved unsolvable")
    elif chk.fd_status == "optimal":
        chk.problems.append("no reference/plan.json")
    if not chk.problems:
        chk.expected = ({"status": "optimal", "objective": chk.fd_length, "sense": "min"}
                        if chk.fd_status == "optimal" else {"status": "infeasible"})
    return chk


def folders(paths: list[Path]) -> list[Path]:
    """The planning folders among `paths` and their children (a folder with domain.pddl), in natural order."""
    return [f for path in paths for f in driver.discover(path, KIND)]


def compare(chk, folder: Path, write: bool) -> None:
    """Write expected.json (when asked and `chk` is ok) or compare the existing one with `chk.expected`; `chk` is
    this module's Check or plans.py's."""
    path = folder / "expected.json"
    if chk.ok and write:
        driver.write_expected(folder, chk.expected)
    elif chk.ok:
        current = json.loads(path.read_text()) if path.is_file() else None
        if current != chk.expected:
            chk.problems.append(f"expected.json is {current}, computed {chk.expected}")


def _check_from_args(folder: Path, args: argparse.Namespace) -> Check:
    chk = check_folder(folder, args.bfs_states, args.timeout)
    compare(chk, folder, args.write)
    return chk


def _add_options(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("--bfs-states", type=int, default=BFS_STATES)


KIND = driver.Kind(
    prog="python -m optimus.bench.groundtruth.pddl", doc=__doc__, marker="domain.pddl", check=_check_from_args,
    write_help="write expected.json where both ways agree",
    not_found="not a planning folder (no domain.pddl) nor a folder of them", options=_add_options,
    timeout=TIMEOUT, timeout_help="seconds for Fast Downward per problem", json_lines=True)


def main(argv: list[str] | None = None) -> int:
    return driver.main(KIND, argv)


if __name__ == "__main__":
    sys.exit(main())
