"""A gripper-style transport: a hospital courier robot with two baskets carries sample parcels between rooms."""

from __future__ import annotations

from .common import Instance, fact, formulation, problem_pddl, test_file, tuples

NAME = "porter"
WORDS = ("A courier robot in a hospital carries sample parcels between rooms. It has two baskets, left and "
         "right, each holding at most one parcel. It can drive from a room to another room only along a "
         "corridor that joins them (corridors can be used both ways), load a parcel lying in its current room "
         "into an empty basket, and unload a parcel from a basket into its current room.")
INPUT_FORMAT = "{}"  # everything about the instance is in the statements

DOMAIN = """\
; A courier robot with two baskets moves parcels between rooms joined by corridors.
(define (domain porter)
  (:requirements :strips :typing)
  (:types room parcel basket)
  (:predicates
    (robot-in ?r - room)
    (lies-in ?p - parcel ?r - room)  ; the parcel lies on the floor of ?r
    (carried ?p - parcel ?b - basket)
    (empty ?b - basket)
    (corridor ?from - room ?to - room))  ; listed once per direction

  (:action drive
    :parameters (?from - room ?to - room)
    :precondition (and (robot-in ?from) (corridor ?from ?to))
    :effect (and (robot-in ?to) (not (robot-in ?from))))

  (:action load
    :parameters (?p - parcel ?b - basket ?r - room)
    :precondition (and (robot-in ?r) (lies-in ?p ?r) (empty ?b))
    :effect (and (carried ?p ?b) (not (lies-in ?p ?r)) (not (empty ?b))))

  (:action unload
    :parameters (?p - parcel ?b - basket ?r - room)
    :precondition (and (robot-in ?r) (carried ?p ?b))
    :effect (and (lies-in ?p ?r) (empty ?b) (not (carried ?p ?b)))))
"""

BASKETS = ["left", "right"]

# rooms, corridors, robot start, parcels {name: (from, to)}, and the reference plan as trips:
# each trip is (room to load in, [parcels to load]) then the route to drive and where to unload them.
CASES = {
    "1": (["lab", "ward"], [("lab", "ward")], "lab", {"blood1": ("lab", "ward"), "blood2": ("lab", "ward")}),
    "2": (["lab", "ward"], [("lab", "ward")], "lab",
          {"blood1": ("lab", "ward"), "blood2": ("lab", "ward"), "urine1": ("lab", "ward")}),
    "3": (["lab", "ward"], [("lab", "ward")], "lab",
          {"blood1": ("lab", "ward"), "blood2": ("lab", "ward"), "blood3": ("lab", "ward"),
           "blood4": ("lab", "ward"), "swab1": ("ward", "lab")}),
    "4": (["lab", "hall", "ward"], [("lab", "hall"), ("hall", "ward")], "lab",
          {"blood1": ("lab", "ward"), "blood2": ("lab", "ward"), "blood3": ("lab", "ward"),
           "blood4": ("lab", "ward")}),
    "5": (["lab", "hall", "ward", "theatre"], [("lab", "hall"), ("hall", "ward"), ("hall", "theatre")], "lab",
          {"blood1": ("lab", "ward"), "blood2": ("lab", "ward"), "plasma1": ("lab", "theatre"),
           "plasma2": ("lab", "theatre"), "swab1": ("ward", "lab")}),
}
# the annex has no corridor: a parcel bound there can never arrive
UNSOLVABLE = (["lab", "ward", "annex"], [("lab", "ward")], "lab",
              {"blood1": ("lab", "ward"), "tissue1": ("lab", "annex")})

EXAMPLE = ("""\
A courier robot waits in the pharmacy, joined by a corridor to the clinic. One parcel, vial1, lies in the \
pharmacy and must be delivered to the clinic; both baskets are empty.""", """\
(define (problem porter-example)
  (:domain porter)
  (:objects pharmacy clinic - room vial1 - parcel left right - basket)
  (:init (robot-in pharmacy) (corridor pharmacy clinic) (corridor clinic pharmacy)
         (lies-in vial1 pharmacy) (empty left) (empty right))
  (:goal (and (lies-in vial1 clinic))))
""")


def _route(links: list[tuple[str, str]], a: str, b: str) -> list[str]:
    """The rooms from a to b along corridors (breadth-first, so shortest)."""
    prev, todo = {a: None}, [a]
    for room in todo:
        for x, y in links + [(y, x) for x, y in links]:
            if x == room and y not in prev:
                prev[y] = room
                todo.append(y)
    path, room = [], b
    while room is not None:
        path.append(room)
        room = prev[room]
    return path[::-1]


def constructive_plan(links, start: str, parcels: dict[str, tuple[str, str]]) -> list[tuple[str, ...]]:
    """Serve parcels in pairs with the same origin and destination (grouped in order); a lone parcel rides
    alone, and a parcel waiting at a trip's destination for its origin rides back on the return drive."""
    plan: list[tuple[str, ...]] = []
    here = start
    pending = dict(parcels)

    def drive(to: str) -> None:
        nonlocal here
        for a, b in zip(_route(links, here, to), _route(links, here, to)[1:]):
            plan.append(("drive", a, b))
        here = to

    while pending:
        origin, dest = next(iter(pending.values()))
        if here != origin:
            back = [p for p, (o, d) in pending.items() if o == here and d == origin][:2]
            for p, b in zip(back, BASKETS):
                plan.append(("load", p, b, here))
            drive(origin)
            for p, b in zip(back, BASKETS):
                plan.append(("unload", p, b, here))
                del pending[p]
        group = [p for p, od in pending.items() if od == (origin, dest)][:2]
        for p, b in zip(group, BASKETS):
            plan.append(("load", p, b, here))
        drive(dest)
        for p, b in zip(group, BASKETS):
            plan.append(("unload", p, b, here))
            del pending[p]
    return plan


TEST_BODY = '''
def test_objects(problem):
    kinds = problem.by_type
    assert kinds.get("room", set()) == ROOMS, f"rooms: {kinds.get('room')}"
    assert kinds.get("parcel", set()) == PARCELS, f"parcels: {kinds.get('parcel')}"
    assert kinds.get("basket", set()) == {"left", "right"}, f"baskets: {kinds.get('basket')}"


def test_initial_state(problem):
    got = {f for f in problem.init if f[0] in ("robot-in", "lies-in", "carried", "empty")}
    assert got == INIT, f"missing {sorted(INIT - got)}, unexpected {sorted(got - INIT)}"


def test_corridors_both_ways(problem):
    got = {f for f in problem.init if f[0] == "corridor"}
    assert got == CORRIDORS, f"missing {sorted(CORRIDORS - got)}, unexpected {sorted(got - CORRIDORS)}"


def test_goal(problem):
    got = {f for f in problem.goal if f[0] == "lies-in"}
    assert got == GOAL, f"goal lacks {sorted(GOAL - got)}, has extra {sorted(got - GOAL)}"
'''

PLAN_BODY = '''

def test_plan_delivers_each_parcel(plan):
    last = {}
    for step in plan:
        if step[0] == "unload":
            last[step[1]] = step[3]
    for _, parcel, room in GOAL:
        if any(f == ("lies-in", parcel, room) for f in INIT):
            continue
        assert last.get(parcel) == room, f"{parcel} is last unloaded in {last.get(parcel)}, not {room}"


def test_length_reported(output, plan):
    assert output.get("length") == len(plan), f"length {output.get('length')} != {len(plan)} steps"
'''


def _instance(name: str, case, solvable: bool) -> Instance:
    rooms, links, start, parcels = case
    corridors = [fact("corridor", a, b) for x, y in links for a, b in ((x, y), (y, x))]
    init = [fact("robot-in", start)] + [fact("lies-in", p, o) for p, (o, _) in parcels.items()]
    init += [fact("empty", b) for b in BASKETS]
    goal = [fact("lies-in", p, d) for p, (_, d) in parcels.items()]
    joined = "; ".join(f"{a} and {b}" for a, b in links)
    unlinked = [r for r in rooms if not any(r in link for link in links)]
    statements = [
        f"The rooms are {', '.join(rooms)}. Corridors join {joined}"
        + (f"; no corridor leads to {', '.join(unlinked)}." if unlinked else "; there are no other corridors."),
        f"The robot starts in the {start} with both baskets empty.",
        *(f"Parcel {p} lies in the {o} and must be delivered to the {d}." for p, (o, d) in parcels.items()),
    ]
    objects = {"room": rooms, "parcel": list(parcels), "basket": BASKETS}
    form = formulation(f"porter-{name}", objects,
                       [("statement 1, corridors in both directions", corridors),
                        ("statement 2", [init[0]] + [fact("empty", b) for b in BASKETS]),
                        ("statements 3 on, where each parcel lies", init[1:1 + len(parcels)])],
                       [("statements 3 on, where each parcel must be", goal)])
    consts = {"ROOMS": set(rooms), "PARCELS": set(parcels), "INIT": tuples(init), "CORRIDORS": tuples(corridors),
              "GOAL": tuples(goal)}
    tests = test_file(f"Supervised checks for planning/porter-{name}: the problem file and the plan.", consts,
                      TEST_BODY + (PLAN_BODY if solvable else ""))
    plan = constructive_plan(links, start, parcels) if solvable else None
    return Instance(name, statements, problem_pddl(f"porter-{name}", "porter", objects, corridors + init, goal),
                    form, tests, plan)


def instances() -> list[Instance]:
    return [_instance(n, c, True) for n, c in CASES.items()] + [_instance("unsolvable", UNSOLVABLE, False)]
