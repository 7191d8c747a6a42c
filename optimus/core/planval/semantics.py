"""A plan stepped through the task exactly as Fast Downward's translator read it: its objects, types, actions
(preconditions, conditional and universal effects, add-after-delete), derived predicates and goal, on explicit
states. The structures are the translator's (fast_downward.translate.pddl); the stepping is ours, a few lines:
a condition holds or not, an effect's condition is read in the state before the step.
Imports nothing from optimus: it runs in the sandbox as part of planval.
"""

from __future__ import annotations

from itertools import product

Atom = tuple[str, ...]
MAX_BINDINGS = 2_000_000  # a quantifier or derived predicate beyond this is refused by name, never guessed


class TooLarge(Exception):
    pass


class World:
    """The task's objects and types; the truth of a condition in a state (derived predicates included)."""

    def __init__(self, task) -> None:
        self.task = task
        above = {t.name: {t.name, *t.supertype_names, "object"} for t in task.types}
        self.objects = {o.name: o.type_name for o in task.objects}
        self.kinds = {o: above.get(k, {k, "object"}) for o, k in self.objects.items()}
        self.derived = {a.name for a in task.axioms}
        self.strata = _strata(task.axioms)
        self._of: dict[str, list[str]] = {}  # objects by type: fixed once read, asked at every step and binding

    def is_a(self, obj: str, kind) -> bool:
        wanted = kind[1:] if isinstance(kind, list) and kind and kind[0] == "either" else [kind]
        return any(k in self.kinds.get(obj, ()) for k in wanted)

    def of_type(self, kind) -> list[str]:
        key = str(kind)
        if key not in self._of:
            self._of[key] = [o for o in self.objects if self.is_a(o, kind)]
        return self._of[key]

    def bindings(self, params, binding: dict) -> list[dict]:
        choices = [self.of_type(p.type_name) for p in params]
        count = 1
        for c in choices:
            count *= len(c)
        if count > MAX_BINDINGS:
            raise TooLarge(f"{count} bindings of {', '.join(p.name for p in params)}")
        return [{**binding, **dict(zip((p.name for p in params), values))} for values in product(*choices)]

    def holds(self, cond, binding: dict, state: set[Atom]) -> bool:
        kind = type(cond).__name__
        if kind in ("Truth", "Falsity"):
            return kind == "Truth"
        if kind == "Conjunction":
            return all(self.holds(p, binding, state) for p in cond.parts)
        if kind == "Disjunction":
            return any(self.holds(p, binding, state) for p in cond.parts)
        if kind in ("UniversalCondition", "ExistentialCondition"):
            test = all if kind == "UniversalCondition" else any
            return test(self.holds(cond.parts[0], b, state) for b in self.bindings(cond.parameters, binding))
        truth = self.atom_true(ground(cond, binding), state)
        return truth if kind == "Atom" else not truth

    def atom_true(self, atom: Atom, state: set[Atom]) -> bool:
        if atom[0] == "=":
            return atom[1] == atom[2]
        if atom[0].startswith("type@"):
            return self.is_a(atom[1], atom[0][len("type@"):])
        return atom in state

    def closed(self, state: set[Atom]) -> set[Atom]:
        """The state with every derived atom its axioms give (stratum by stratum, to the fixpoint)."""
        if not self.derived:
            return state
        out = {a for a in state if a[0] not in self.derived}
        for layer in self.strata:
            grew = True
            while grew:
                grew = False
                for axiom in layer:
                    params = axiom.parameters[:axiom.num_external_parameters]
                    for b in self.bindings(params, {}):
                        atom = (axiom.name, *(b[p.name] for p in params))
                        if atom not in out and self.holds(_inner(axiom), b, out):
                            out.add(atom)
                            grew = True
        return out


def _inner(axiom):
    """An axiom's condition with its non-argument variables quantified (they are existential)."""
    extra = axiom.parameters[axiom.num_external_parameters:]
    if not extra:
        return axiom.condition
    from fast_downward.translate.pddl import ExistentialCondition

    return ExistentialCondition(extra, [axiom.condition])


def _strata(axioms) -> list[list]:
    """Axioms in layers: a predicate read negated by an axiom is complete in an earlier layer."""
    level = {a.name: 0 for a in axioms}
    for _ in range(len(level) + 1):
        changed = False
        for a in axioms:
            for lit, negated in _literals(a.condition):
                if lit.predicate in level:
                    need = level[lit.predicate] + (1 if negated else 0)
                    if level[a.name] < need:
                        level[a.name], changed = need, True
        if not changed:
            break
    top = max(level.values(), default=-1)
    return [[a for a in axioms if level[a.name] == k] for k in range(top + 1)]


def _literals(cond):
    kind = type(cond).__name__
    if kind in ("Atom", "NegatedAtom"):
        return [(cond, kind == "NegatedAtom")]
    return [x for p in getattr(cond, "parts", ()) for x in _literals(p)]


def ground(literal, binding: dict) -> Atom:
    return (literal.predicate, *(binding.get(a, a) for a in literal.args))


def shown(atom: Atom) -> str:
    """An atom as the verdicts write it: pred(a, b)."""
    return f"{atom[0]}({', '.join(atom[1:])})"


def initial_state(task) -> set[Atom]:
    return {(f.predicate, *f.args) for f in task.init
            if type(f).__name__ == "Atom" and f.predicate != "="}


def step(world: World, action, binding: dict, state: set[Atom]) -> set[Atom]:
    """The state after the action (its effects' conditions read before it; adds win over deletes)."""
    adds, dels = set(), set()
    for effect in action.effects:
        for b in world.bindings(effect.parameters, binding):
            if world.holds(effect.condition, b, state):
                (dels if type(effect.literal).__name__ == "NegatedAtom" else adds).add(ground(effect.literal, b))
    return world.closed((state - dels) | adds)


def unmet(world: World, cond, binding: dict, state: set[Atom]) -> list[str]:
    """The parts of a condition that fail (a conjunction's failing conjuncts; else the condition as a whole)."""
    kind = type(cond).__name__
    if kind == "Conjunction":
        return [x for p in cond.parts if not world.holds(p, binding, state) for x in unmet(world, p, binding, state)]
    if kind in ("Atom", "NegatedAtom"):
        text = shown(ground(cond, binding))
        return [text if kind == "Atom" else f"not {text}"]
    return [] if world.holds(cond, binding, state) else [f"a {kind.replace('Condition', '').lower()} condition"]
