"""An ordered procedure (tyre-change style): a mechanic replaces punctured inner tubes of bicycle wheels."""

from __future__ import annotations

from .common import Instance, fact, formulation, problem_pddl, test_file, tuples

NAME = "bike"
WORDS = ("A bicycle mechanic replaces punctured inner tubes. For a wheel on a bike: open its rim brake, loosen "
         "its axle nut with the spanner, take the wheel off, prise the tyre off the rim with the tyre levers, "
         "pull the holed tube out, fit a spare tube that has no hole, seat the tyre back with the levers, pump the "
         "tyre up with the pump, put the wheel back on, tighten the axle nut with the spanner and close the "
         "brake. A wheel whose tube has no hole but whose tyre is soft only needs pumping up (on the bike). "
         "Tools must be taken out of the toolbox before use; the mechanic can hold any number of them, and every "
         "tool must be back in the toolbox at the end. A spare tube can be fitted to one wheel only.")
INPUT_FORMAT = "{}"  # everything about the instance is in the statements

DOMAIN = """\
; Replacing bicycle inner tubes: each wheel goes through a fixed procedure, with tools from a toolbox.
(define (domain bike)
  (:requirements :strips :typing)
  (:types wheel tube tool - object
          spanner levers pump - tool)
  (:predicates
    (in-box ?t - tool) (holding ?t - tool)
    (brake-closed ?w - wheel) (brake-open ?w - wheel)
    (axle-tight ?w - wheel) (axle-loose ?w - wheel)
    (on-bike ?w - wheel) (off-bike ?w - wheel)
    (tyre-seated ?w - wheel) (tyre-off ?w - wheel)
    (has-tube ?w - wheel) (no-tube ?w - wheel)  ; whether a tube is inside the tyre
    (tube-holed ?w - wheel)        ; the tube inside has a hole
    (tube-sound ?w - wheel)        ; the tube inside has no hole
    (soft ?w - wheel) (pumped ?w - wheel)
    (spare ?t - tube)              ; a loose tube in the parts bag
    (holeless ?t - tube))          ; this tube has no hole

  (:action fetch
    :parameters (?t - tool)
    :precondition (in-box ?t)
    :effect (and (holding ?t) (not (in-box ?t))))
  (:action stow
    :parameters (?t - tool)
    :precondition (holding ?t)
    :effect (and (in-box ?t) (not (holding ?t))))

  (:action open-brake
    :parameters (?w - wheel)
    :precondition (and (on-bike ?w) (brake-closed ?w))
    :effect (and (brake-open ?w) (not (brake-closed ?w))))
  (:action loosen-axle
    :parameters (?w - wheel ?s - spanner)
    :precondition (and (on-bike ?w) (axle-tight ?w) (holding ?s))
    :effect (and (axle-loose ?w) (not (axle-tight ?w))))
  (:action remove-wheel
    :parameters (?w - wheel)
    :precondition (and (on-bike ?w) (brake-open ?w) (axle-loose ?w))
    :effect (and (off-bike ?w) (not (on-bike ?w))))
  (:action lever-off-tyre
    :parameters (?w - wheel ?l - levers)
    :precondition (and (off-bike ?w) (tyre-seated ?w) (soft ?w) (holding ?l))
    :effect (and (tyre-off ?w) (not (tyre-seated ?w))))
  (:action pull-tube
    :parameters (?w - wheel)
    :precondition (and (tyre-off ?w) (has-tube ?w) (tube-holed ?w))
    :effect (and (no-tube ?w) (not (has-tube ?w)) (not (tube-holed ?w))))
  (:action fit-tube
    :parameters (?w - wheel ?t - tube)
    :precondition (and (tyre-off ?w) (no-tube ?w) (spare ?t) (holeless ?t))
    :effect (and (has-tube ?w) (tube-sound ?w) (not (no-tube ?w)) (not (spare ?t))))
  (:action seat-tyre
    :parameters (?w - wheel ?l - levers)
    :precondition (and (tyre-off ?w) (has-tube ?w) (holding ?l))
    :effect (and (tyre-seated ?w) (not (tyre-off ?w))))
  (:action pump-up
    :parameters (?w - wheel ?p - pump)
    :precondition (and (tyre-seated ?w) (tube-sound ?w) (soft ?w) (holding ?p))
    :effect (and (pumped ?w) (not (soft ?w))))
  (:action refit-wheel
    :parameters (?w - wheel)
    :precondition (and (off-bike ?w) (tyre-seated ?w))
    :effect (and (on-bike ?w) (not (off-bike ?w))))
  (:action tighten-axle
    :parameters (?w - wheel ?s - spanner)
    :precondition (and (on-bike ?w) (axle-loose ?w) (holding ?s))
    :effect (and (axle-tight ?w) (not (axle-loose ?w))))
  (:action close-brake
    :parameters (?w - wheel)
    :precondition (and (on-bike ?w) (brake-open ?w))
    :effect (and (brake-closed ?w) (not (brake-open ?w)))))
"""

TOOLS = {"spanner": "spanner15", "levers": "tyre-levers", "pump": "floor-pump"}

# punctured wheels, wheels that are only soft, spare tubes (all holeless)
CASES = {
    "1": (["front"], [], ["tube-a"]),
    "2": (["front"], ["rear"], ["tube-a"]),
    "3": (["front", "rear"], [], ["tube-a", "tube-b"]),
    "4": (["front", "rear"], ["trailer"], ["tube-a", "tube-b", "tube-c"]),
    "5": (["front", "rear", "trailer"], [], ["tube-a", "tube-b", "tube-c"]),
}
# the only spare tube has a hole too: the wheel can never be pumped up
UNSOLVABLE = (["front"], [], ["tube-a"])

EXAMPLE = ("""\
The front wheel of a bicycle is only soft: its tube has no hole, the tyre is seated, the wheel is on the bike \
with its brake closed and its axle tight. The pump lies in the toolbox. The goal: the front wheel pumped up and \
the pump back in the toolbox.""", """\
(define (problem bike-example)
  (:domain bike)
  (:objects front - wheel floor-pump - pump)
  (:init (in-box floor-pump) (on-bike front) (brake-closed front) (axle-tight front)
         (tyre-seated front) (has-tube front) (tube-sound front) (soft front))
  (:goal (and (pumped front) (on-bike front) (brake-closed front) (axle-tight front) (in-box floor-pump))))
""")

REPAIR = ["open-brake", "loosen-axle", "remove-wheel", "lever-off-tyre", "pull-tube", "fit-tube", "seat-tyre",
          "pump-up", "refit-wheel", "tighten-axle", "close-brake"]


def constructive_plan(punctured: list[str], soft: list[str], spares: list[str]) -> list[tuple[str, ...]]:
    """Fetch the tools, run the fixed procedure on each wheel in turn, pump the soft ones, stow the tools."""
    tool_of = {"loosen-axle": TOOLS["spanner"], "tighten-axle": TOOLS["spanner"], "lever-off-tyre": TOOLS["levers"],
               "seat-tyre": TOOLS["levers"], "pump-up": TOOLS["pump"]}
    plan: list[tuple[str, ...]] = [("fetch", t) for t in TOOLS.values()]
    for wheel, tube in zip(punctured, spares):
        for step in REPAIR:
            if step == "fit-tube":
                plan.append((step, wheel, tube))
            else:
                plan.append((step, wheel, tool_of[step]) if step in tool_of else (step, wheel))
    plan += [("pump-up", w, TOOLS["pump"]) for w in soft]
    return plan + [("stow", t) for t in TOOLS.values()]


def _facts(punctured: list[str], soft: list[str], spares: list[str], spare_ok: bool) -> tuple[list, list]:
    init = [fact("in-box", t) for t in TOOLS.values()]
    for w in punctured + soft:
        init += [fact("on-bike", w), fact("brake-closed", w), fact("axle-tight", w), fact("tyre-seated", w),
                 fact("has-tube", w), fact("soft", w)]
    init += [fact("tube-holed", w) for w in punctured] + [fact("tube-sound", w) for w in soft]
    init += [fact("spare", t) for t in spares]
    init += [fact("holeless", t) for t in spares if spare_ok]
    goal = []
    for w in punctured + soft:
        goal += [fact("pumped", w), fact("on-bike", w), fact("axle-tight", w), fact("brake-closed", w)]
    goal += [fact("in-box", t) for t in TOOLS.values()]
    return init, goal


TEST_BODY = '''
def test_objects(problem):
    assert {n for n, k in problem.objects.items() if k == "wheel"} == WHEELS, f"wheels: {problem.objects}"
    assert {n for n, k in problem.objects.items() if k == "tube"} == TUBES, f"tubes: {problem.objects}"
    assert {k for n, k in problem.objects.items() if k in ("spanner", "levers", "pump")} == \\
        {"spanner", "levers", "pump"}, f"tools: {problem.objects}"


def test_wheels_start_assembled(problem):
    for w in WHEELS:
        for p in ("on-bike", "brake-closed", "axle-tight", "tyre-seated", "has-tube", "soft"):
            assert (p, w) in problem.init, f"initial state lacks ({p} {w})"


def test_which_tubes_are_sound(problem):
    got = {f[1] for f in problem.init if f[0] == "tube-sound"}
    assert got == SOUND, f"tube-sound in init for {sorted(got)}, expected {sorted(SOUND)}"
    holed = {f[1] for f in problem.init if f[0] == "tube-holed"}
    assert holed == WHEELS - SOUND, f"tube-holed in init for {sorted(holed)}, expected {sorted(WHEELS - SOUND)}"
    assert {f[1] for f in problem.init if f[0] == "holeless"} == HOLELESS
    assert {f[1] for f in problem.init if f[0] == "spare"} == TUBES


def test_tools_in_box(problem):
    assert len([f for f in problem.init if f[0] == "in-box"]) == 3, "all three tools start in the toolbox"


def test_goal(problem):
    for w in WHEELS:
        for p in ("pumped", "on-bike", "axle-tight", "brake-closed"):
            assert (p, w) in problem.goal, f"goal lacks ({p} {w})"
    assert len([f for f in problem.goal if f[0] == "in-box"]) == 3, "goal: every tool back in the toolbox"
'''

PLAN_BODY = '''

def test_plan_repairs_each_punctured_wheel_once_in_order(plan):
    procedure = ["open-brake", "loosen-axle", "remove-wheel", "lever-off-tyre", "pull-tube", "fit-tube",
                 "seat-tyre", "pump-up", "refit-wheel", "tighten-axle", "close-brake"]
    for w in WHEELS - SOUND:
        steps = [s[0] for s in plan if len(s) > 1 and s[1] == w]
        assert sorted(steps) == sorted(procedure), f"wheel {w}: steps {steps}"
        at = {name: steps.index(name) for name in procedure}
        for before, after in (("open-brake", "remove-wheel"), ("loosen-axle", "remove-wheel"),
                              ("remove-wheel", "lever-off-tyre"), ("lever-off-tyre", "pull-tube"),
                              ("pull-tube", "fit-tube"), ("fit-tube", "seat-tyre"), ("seat-tyre", "pump-up"),
                              ("seat-tyre", "refit-wheel"), ("refit-wheel", "tighten-axle"),
                              ("refit-wheel", "close-brake")):
            assert at[before] < at[after], f"wheel {w}: {after} comes before {before}: {steps}"


def test_length_reported(output, plan):
    assert output.get("length") == len(plan), f"length {output.get('length')} != {len(plan)} steps"
'''


def _instance(name: str, punctured: list[str], soft: list[str], spares: list[str], solvable: bool) -> Instance:
    init, goal = _facts(punctured, soft, spares, solvable)
    statements = [
        ("The toolbox holds a 15 mm spanner (spanner15), a pair of tyre levers (tyre-levers) and a floor pump "
        "(floor-pump); the mechanic holds nothing."),
        *(f"The {w} wheel is on the bike with its brake closed and its axle tight; its tube has a hole and the "
          "tyre is soft." for w in punctured),
        *(f"The {w} wheel is on the bike with its brake closed and its axle tight; its tube has no hole but "
          "the tyre is soft." for w in soft),
        f"The parts bag holds the spare tube(s) {', '.join(spares)}, "
        + ("each without a hole." if solvable else "which has a hole as well."),
        ("The goal: every wheel pumped up, on the bike, axle tight, brake closed, and every tool back in the "
        "toolbox."),
    ]
    objects = {"wheel": punctured + soft, "tube": spares, "spanner": [TOOLS["spanner"]],
               "levers": [TOOLS["levers"]], "pump": [TOOLS["pump"]]}
    form = formulation(f"bike-{name}", objects,
                       [("statement 1, tools in the box", [f for f in init if f.startswith("(in-box")]),
                        ("wheel statements", [f for f in init if not f.startswith(("(in-box", "(spare",
                                                                                     "(holeless"))]),
                        ("the spare tubes", [f for f in init if f.startswith(("(spare", "(holeless"))])],
                       [("last statement", goal)],
                       note="" if solvable else "No spare tube is holeless, so no tube can be fitted and the "
                       "punctured wheel can never be pumped up: the problem has no plan.")
    consts = {"WHEELS": set(punctured + soft), "SOUND": set(soft), "TUBES": set(spares),
              "HOLELESS": set(spares) if solvable else set(), "INIT": tuples(init)}
    tests = test_file(f"Supervised checks for planning/bike-{name}: the problem file and the plan.", consts,
                      TEST_BODY + (PLAN_BODY if solvable else ""))
    plan = constructive_plan(punctured, soft, spares) if solvable else None
    return Instance(name, statements, problem_pddl(f"bike-{name}", "bike", objects, init, goal), form, tests, plan)


def instances() -> list[Instance]:
    out = [_instance(n, *c, True) for n, c in CASES.items()]
    return out + [_instance("unsolvable", *UNSOLVABLE, False)]
