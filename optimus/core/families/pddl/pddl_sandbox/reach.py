"""Why a problem has no plan: a delete-relaxed reachability fixpoint over the grounded actions.

Ignoring every delete effect (and treating negated, quantified and implied conditions as satisfiable) can only
make more facts reachable, so a goal fact this finds unreachable is unreachable in truth. For each such goal,
backward chaining through the actions that could add it names the facts nothing can add — facts only the
initial state can provide: LLM+P's commonest failure is one of them missing from :init.
"""

from __future__ import annotations

from itertools import product

from .sexpr import Domain, Node, Problem, goal_facts, typed

MAX_GROUNDED = 200_000  # beyond this the check is skipped (said so), not run half-way
MAX_LISTED = 8

Fact = tuple[str, ...]


def unreachable(domain: Domain, problem: Problem, theirs: list[str] | None = None) -> dict:
    """{"checked", "unreachable_goals", "missing" (facts nothing adds, per goal), "message"}. `theirs`: the goal
    atoms Fast Downward's relaxed exploration never reaches, "(pred a b)"; when given, they are the unreachable
    goals (its grounding is the planner's), and this check only explains them."""
    objects = {**domain.constants, **problem.objects}
    actions = _ground(domain, objects)
    if actions is None:
        return {"checked": False, "unreachable_goals": [], "missing": {},
                "message": f"the reachability check was skipped: more than {MAX_GROUNDED} grounded actions"}
    reached: set[Fact] = {fact for fact, _ in problem.init}
    grew = True
    while grew:
        grew = False
        for pre, adds in actions:
            if _holds(pre, reached) and not adds <= reached:
                reached |= adds
                grew = True
    goals = sorted(goal_facts(problem.goal) - reached)
    if theirs is not None:
        goals = sorted(tuple(g.strip("()").split()) for g in theirs)
    achievers: dict[Fact, list[list[Fact]]] = {}
    for pre, adds in actions:
        for fact in adds - reached:
            achievers.setdefault(fact, []).append(_needed(pre, reached))
    in_init = {fact[0] for fact, _ in problem.init}
    missing = {_text(g): [_text(f) for f in sorted(_sources(g, achievers, in_init))][:MAX_LISTED] for g in goals}
    return {"checked": True, "unreachable_goals": [_text(g) for g in goals], "missing": missing,
            "message": _message(goals, missing)}


def _message(goals: list[Fact], missing: dict[str, list[str]]) -> str:
    if not goals:
        return ("every goal fact is reachable when delete effects are ignored: the relaxed check cannot tell "
                "which goal fails (look for goals that need each other undone, or a wrong negated fact)")
    lines = [f"These goal facts can never become true from the initial state: {', '.join(map(_text, goals))}."]
    for goal, facts in missing.items():
        predicates = ", ".join(sorted({f.strip("()").split()[0] for f in facts}))
        if facts:
            lines.append(f"- {goal} depends on {', '.join(facts)}: no action can make them true from the initial "
                         f"state, and :init does not contain them (predicates: {predicates}).")
        else:
            lines.append(f"- {goal}: no action can make it true, and :init does not contain it.")
    lines.append("Re-check the initial facts these goals depend on: a fact the statements give may be missing "
                 "from :init, or written with the wrong objects.")
    return "\n".join(lines)


def _sources(goal: Fact, achievers: dict[Fact, list[list[Fact]]], in_init: set[str]) -> set[Fact]:
    """Unreachable facts behind `goal` that no action adds (only :init could hold them). When every one has an
    adder, they need each other (holding x needs ontable x needs holding x): one of them must be in :init, and
    those of predicates :init uses elsewhere are named."""
    out: set[Fact] = set()
    seen, todo = {goal}, [goal]
    while todo:
        fact = todo.pop()
        if fact not in achievers:
            out.add(fact)
            continue
        for needed in achievers[fact]:
            for f in needed:
                if f not in seen:
                    seen.add(f)
                    todo.append(f)
    if out:
        return out
    cycle = seen - {goal}
    return {f for f in cycle if f[0] in in_init} or cycle


def _ground(domain: Domain, objects: dict[str, str]) -> list[tuple[Node, set[Fact]]] | None:
    actions = []
    for action in domain.actions.values():
        parts = dict(zip(action[2::2], action[3::2]))
        params = typed(parts.get(":parameters", []))
        choices = [_of_type(k, objects, domain) for _, k in params]
        count = 1
        for c in choices:
            count *= len(c)
        if len(actions) + count > MAX_GROUNDED:
            return None
        for values in product(*choices):
            binding = dict(zip((v for v, _ in params), values))
            pre = _bind(parts.get(":precondition", Node()), binding)
            actions.append((pre, set(_adds(_bind(parts.get(":effect", Node()), binding), objects, domain))))
    return actions


def _of_type(kind: str, objects: dict[str, str], domain: Domain) -> list[str]:
    kinds = domain.subtypes(kind)  # once, not once per object
    return [o for o, t in objects.items() if t in kinds]


def _bind(formula, binding: dict[str, str]):
    if isinstance(formula, list):
        node = Node(_bind(f, binding) for f in formula)
        node.line = getattr(formula, "line", 0)
        return node
    return binding.get(formula, formula)


def _holds(formula, reached: set[Fact]) -> bool:
    """Relaxed truth: negation, quantifiers and implication count as satisfiable."""
    if not isinstance(formula, list) or not formula:
        return True
    head = formula[0]
    if head == "and":
        return all(_holds(f, reached) for f in formula[1:])
    if head == "or":
        return any(_holds(f, reached) for f in formula[1:])
    if head == "=":
        return len(formula) == 3 and formula[1] == formula[2]
    if head in ("not", "imply", "exists", "forall") or not all(isinstance(a, str) for a in formula):
        return True
    return tuple(formula) in reached


def _needed(formula, reached: set[Fact]) -> list[Fact]:
    """The unreached atoms a (relaxed) precondition asks for."""
    if not isinstance(formula, list) or not formula:
        return []
    if formula[0] in ("and", "or"):
        return [f for sub in formula[1:] for f in _needed(sub, reached)]
    if formula[0] in ("not", "imply", "exists", "forall", "=") or not all(isinstance(a, str) for a in formula):
        return []
    return [] if tuple(formula) in reached else [tuple(formula)]


def _adds(effect, objects: dict[str, str], domain: Domain) -> list[Fact]:
    if not isinstance(effect, list) or not effect:
        return []
    head = effect[0]
    if head == "and":
        return [f for sub in effect[1:] for f in _adds(sub, objects, domain)]
    if head == "when" and len(effect) > 2:  # relaxed: the condition may hold
        return _adds(effect[2], objects, domain)
    if head == "forall" and len(effect) > 2:
        params = typed(list(effect[1]))
        choices = [_of_type(k, objects, domain) for _, k in params]
        return [f for values in product(*choices)
                for f in _adds(_bind(effect[2], dict(zip((v for v, _ in params), values))), objects, domain)]
    if head in ("not", "increase", "decrease", "assign", "scale-up", "scale-down"):
        return []
    return [tuple(effect)] if all(isinstance(a, str) for a in effect) else []


def _text(fact: Fact) -> str:
    return f"({' '.join(fact)})"
