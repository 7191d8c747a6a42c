"""Our own plan simulator: a plan stepped through PDDL's semantics on explicit states, nothing shared with
unified-planning (its own reading, from optimus.bench.groundtruth.pddl_reader's s-expressions).

STRIPS and ADL with types, as Fast Downward's translator reads them: `either` types, a type declared under two
parents, types used as predicates, constants (and names the problem declares for the domain), negative and
disjunctive preconditions, equality, implication, quantifiers, conditional and universal effects, derived
predicates (computed to their fixpoint in every state). Numeric fluents are read only as far as a plan's
validity goes: `(= (f) n)` facts and increase/decrease effects (a plan's cost) are skipped. Anything else is
refused by name, never guessed. `shortest_plan_length` is a breadth-first search over these semantics.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import product
from pathlib import Path

from optimus.bench.groundtruth.pddl_reader import TypeTree, parse_sexpr, sections, typed_names
from optimus.core.errors import SpecError

Atom = tuple[str, ...]
NUMERIC = ("increase", "decrease", "assign", "scale-up", "scale-down")
KNOWN_SECTIONS = (":requirements", ":types", ":constants", ":predicates", ":functions", ":action", ":derived",
                  "domain")


@dataclass
class Action:
    params: list[tuple[str, object]]
    pre: list
    effect: list


@dataclass
class World(TypeTree):
    """The domain's types (and `is_a`, `either` included) as pddl_reader reads them; objects and steps."""

    objects: dict[str, str] = field(default_factory=dict)  # constants and objects → type
    steps: dict[str, Action] = field(default_factory=dict)  # action name → its parameters, precondition, effect
    predicates: set[str] = field(default_factory=set)
    derived: list[tuple[str, list, list]] = field(default_factory=list)  # (predicate, typed params, condition)

    def of_type(self, wanted) -> list[str]:
        return [o for o, k in self.objects.items() if self.is_a(k, wanted)]


def read_world(domain_path: Path, problem_path: Path) -> tuple[World, frozenset[Atom], list]:
    """The domain's types, objects and actions; the initial state; the goal formula."""
    root, world = parse_sexpr(domain_path.read_text(), str(domain_path)), World()
    for part in root[2:]:
        head = part[0] if part else None
        if head not in KNOWN_SECTIONS:
            raise SpecError(domain_path, "", f"section {head} is not supported by our plan simulator")
        if head == ":types":
            world.declare(typed_names(part[1:], str(domain_path)))
        elif head == ":constants":
            world.objects.update(typed_names(part[1:], str(domain_path)))
        elif head == ":predicates":
            world.predicates |= {p[0] for p in part[1:] if p}
        elif head == ":derived":
            world.derived.append((part[1][0], typed_names(part[1][1:], str(domain_path)), part[2]))
        elif head == ":action":
            keys = dict(zip(part[2::2], part[3::2]))
            world.steps[part[1]] = Action(typed_names(keys.get(":parameters", []), str(domain_path)),
                                            keys.get(":precondition", []), keys.get(":effect", []))
    sec = sections(parse_sexpr(problem_path.read_text(), str(problem_path)))
    world.objects.update(typed_names(sec.get(":objects", []), str(problem_path)))
    init = frozenset(tuple(a) for a in sec.get(":init", []) if a and a[0] != "=" and _flat(a))
    return world, init, sec[":goal"][0] if sec.get(":goal") else []


def _flat(formula) -> bool:
    return all(isinstance(x, str) for x in formula)


def holds(world: World, formula, state: frozenset[Atom] | set[Atom], bind: dict[str, str]) -> bool:
    if not formula:
        return True
    head, rest = formula[0], formula[1:]
    if head == "and":
        return all(holds(world, f, state, bind) for f in rest)
    if head == "or":
        return any(holds(world, f, state, bind) for f in rest)
    if head == "not":
        return not holds(world, rest[0], state, bind)
    if head == "imply":
        return not holds(world, rest[0], state, bind) or holds(world, rest[1], state, bind)
    if head in ("exists", "forall"):
        found = (holds(world, rest[1], state, {**bind, **b}) for b in _bindings(world, rest[0]))
        return any(found) if head == "exists" else all(found)
    if not _flat(formula):
        raise SpecError("", "", f"our plan simulator cannot evaluate ({head} …)")
    args = tuple(bind.get(a, a) for a in rest)
    if head == "=":
        return args[0] == args[1]
    if head not in world.predicates and (head in world.types or head == "object") and len(args) == 1:
        return args[0] in world.objects and world.is_a(world.objects[args[0]], head)  # a type as a predicate
    return (head, *args) in state


def closed(world: World, state: frozenset[Atom]) -> frozenset[Atom]:
    """The state with every derived atom its :derived rules give, to the fixpoint (none stored in a state)."""
    if not world.derived:
        return state
    names = {name for name, _, _ in world.derived}
    out = {a for a in state if a[0] not in names}
    choices = [[world.of_type(k) for _, k in params] for _, params, _ in world.derived]  # once, not per round
    grew = True
    while grew:
        grew = False
        for (name, params, body), kinds in zip(world.derived, choices):
            for values in product(*kinds):
                atom = (name, *values)
                if atom not in out and holds(world, body, out, dict(zip((v for v, _ in params), values))):
                    out.add(atom)
                    grew = True
    return frozenset(out)


def _bindings(world: World, typed_vars: list) -> list[dict[str, str]]:
    params = typed_names(typed_vars, "quantifier")
    return [dict(zip((v for v, _ in params), values)) for values in product(*(world.of_type(k) for _, k in params))]


def effects(world: World, effect, state: frozenset[Atom], bind: dict[str, str]) -> tuple[set[Atom], set[Atom]]:
    """(adds, deletes) of an effect in `state` (conditions of `when` are read in the state before the step)."""
    adds: set[Atom] = set()
    dels: set[Atom] = set()
    if not effect or effect[0] in NUMERIC:
        return adds, dels
    head, rest = effect[0], effect[1:]
    parts: list[tuple[list, dict[str, str]]] = []
    if head == "and":
        parts = [(e, bind) for e in rest]
    elif head == "forall":
        parts = [(rest[1], {**bind, **b}) for b in _bindings(world, rest[0])]
    elif head == "when":
        parts = [(rest[1], bind)] if holds(world, rest[0], state, bind) else []
    elif head == "not":
        dels.add(tuple(bind.get(a, a) for a in rest[0]))
    elif _flat(effect):
        adds.add(tuple(bind.get(a, a) for a in effect))
    else:
        raise SpecError("", "", f"our plan simulator cannot apply ({head} …)")
    for sub, b in parts:
        more_adds, more_dels = effects(world, sub, state, b)
        adds |= more_adds
        dels |= more_dels
    return adds, dels


def simulate(domain_path: Path | str, problem_path: Path | str, plan: list[dict]) -> str | None:
    """None when every step applies in turn and the goal holds after the last, else what went wrong."""
    world, state, goal = read_world(Path(domain_path), Path(problem_path))
    state = closed(world, state)
    for i, step in enumerate(plan, 1):
        name, args = str(step["action"]).lower(), [str(a).lower() for a in step.get("args", [])]
        shown = f"step {i} ({' '.join([name, *args])})"
        action = world.steps.get(name)
        if action is None or len(args) != len(action.params):
            return f"{shown} is not an action of the domain with {len(args)} argument(s)"
        if not all(a in world.objects and world.is_a(world.objects[a], k) for a, (_, k) in zip(args, action.params)):
            return f"{shown}: an argument is not an object of the parameter's type"
        bind = dict(zip((v for v, _ in action.params), args))
        if not holds(world, action.pre, state, bind):
            return f"{shown} is not applicable"
        adds, dels = effects(world, action.effect, state, bind)
        state = closed(world, (state - dels) | adds)  # PDDL: deletes first, then adds
    return None if holds(world, goal, state, {}) else "the goal does not hold after the last step"


def shortest_plan_length(domain_path: Path | str, problem_path: Path | str, max_states: int = 60_000) -> int | None:
    """Breadth-first search over these semantics (every binding of every action tried in every state): the
    shortest plan's length, None when no plan exists; RuntimeError beyond `max_states` states."""
    world, start, goal = read_world(Path(domain_path), Path(problem_path))
    start = closed(world, start)
    moves = [(action, dict(zip((v for v, _ in action.params), values))) for action in world.steps.values()
             for values in product(*(world.of_type(k) for _, k in action.params))]
    seen, frontier, depth = {start}, [start], 0
    while frontier:
        if any(holds(world, goal, s, {}) for s in frontier):
            return depth
        nxt = []
        for state in frontier:
            for action, bind in moves:
                if holds(world, action.pre, state, bind):
                    adds, dels = effects(world, action.effect, state, bind)
                    new = closed(world, (state - dels) | adds)
                    if new not in seen:
                        seen.add(new)
                        nxt.append(new)
            if len(seen) > max_states:
                raise RuntimeError(f"more than {max_states} states")
        frontier, depth = nxt, depth + 1
    return None
