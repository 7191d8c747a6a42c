"""Blocksworld: a one-armed robot restacks coloured blocks on a table."""

from __future__ import annotations

import itertools

from .common import Instance, fact, formulation, problem_pddl, test_file, tuples

NAME = "blocks"
WORDS = ("A robot with one arm rearranges coloured blocks on a large table. A block stands either on the table "
         "or on exactly one other block, and at most one block can stand on any block. The arm holds at most one "
         "block at a time; it can lift a block only when nothing stands on that block, and it can put a block "
         "down on the table or onto a block that has nothing on it.")
INPUT_FORMAT = "{}"  # everything about the instance is in the statements

DOMAIN = """\
; Blocksworld, our own wording: one arm, blocks on a table or on one another.
; (free ?b): nothing stands on ?b and the arm does not hold it.
(define (domain blocks)
  (:requirements :strips :typing)
  (:types block)
  (:predicates
    (on ?b - block ?under - block)  ; ?b stands directly on ?under
    (on-table ?b - block)
    (free ?b - block)
    (holding ?b - block)
    (arm-empty))

  ; lift a free block off the table
  (:action pick-up
    :parameters (?b - block)
    :precondition (and (free ?b) (on-table ?b) (arm-empty))
    :effect (and (holding ?b) (not (free ?b)) (not (on-table ?b)) (not (arm-empty))))

  ; set the held block on the table
  (:action put-down
    :parameters (?b - block)
    :precondition (holding ?b)
    :effect (and (on-table ?b) (free ?b) (arm-empty) (not (holding ?b))))

  ; set the held block on a free block
  (:action stack
    :parameters (?b - block ?under - block)
    :precondition (and (holding ?b) (free ?under))
    :effect (and (on ?b ?under) (free ?b) (arm-empty) (not (holding ?b)) (not (free ?under))))

  ; lift a free block off the block it stands on
  (:action unstack
    :parameters (?b - block ?under - block)
    :precondition (and (on ?b ?under) (free ?b) (arm-empty))
    :effect (and (holding ?b) (free ?under) (not (on ?b ?under)) (not (free ?b)) (not (arm-empty)))))
"""

# (initial towers, goal towers), each tower listed bottom to top
CASES = {
    "1": ([["red", "blue", "green"]], [["green", "blue", "red"]]),
    "2": ([["red", "blue"], ["green", "yellow"]], [["yellow", "green", "blue", "red"]]),
    "3": ([["white", "red", "blue"], ["green", "yellow"]], [["blue", "green"], ["red", "yellow", "white"]]),
    "4": ([["red", "blue", "green"], ["yellow", "white", "black"]],
          [["black", "green", "red"], ["blue", "yellow", "white"]]),
    "5": ([["red", "blue", "green", "yellow"], ["white", "black", "orange"]],
          [["orange", "yellow", "red"], ["green", "white", "black", "blue"]]),
}
UNSOLVABLE = ([["red"], ["blue"], ["green"]], [("red", "blue"), ("blue", "green"), ("green", "red")])

EXAMPLE = ("""\
Two blocks, grey and pink, stand on a table; pink stands on grey and the arm is empty. The goal is that grey \
stands on pink.""", """\
(define (problem blocks-example)
  (:domain blocks)
  (:objects grey pink - block)
  (:init (on-table grey) (on pink grey) (free pink) (arm-empty))
  (:goal (and (on grey pink) (on-table pink))))
""")


def _towers_text(towers: list[list[str]]) -> str:
    parts = []
    for t in towers:
        if len(t) == 1:
            parts.append(f"{t[0]} stands alone on the table")
        else:
            parts.append(f"{t[0]} is on the table" + "".join(f", {up} is on {down}" for down, up in itertools.pairwise(t)))
    return "; ".join(parts)


def _init_facts(towers: list[list[str]]) -> list[str]:
    facts = []
    for t in towers:
        facts.append(fact("on-table", t[0]))
        facts += [fact("on", up, down) for down, up in itertools.pairwise(t)]
        facts.append(fact("free", t[-1]))
    return facts + ["(arm-empty)"]


def _goal_facts(towers: list[list[str]]) -> list[str]:
    facts = []
    for t in towers:
        facts.append(fact("on-table", t[0]))
        facts += [fact("on", up, down) for down, up in itertools.pairwise(t)]
    return facts


def constructive_plan(start: list[list[str]], goal: list[list[str]]) -> list[tuple[str, ...]]:
    """Gupta and Nau's procedure: move a block straight to its goal place whenever that place is ready (its
    support finished and free); otherwise some free unfinished block standing on another goes to the table.
    Which one is the only choice that matters, so every choice is tried and the shortest plan kept."""
    want = {up: down for t in goal for down, up in zip(["table", *t], t, strict=False)}
    order = [b for t in start for b in t]

    def solve(below: dict[str, str]) -> list[tuple[str, ...]]:
        def done(b: str) -> bool:
            return below[b] == want[b] and (below[b] == "table" or done(below[b]))

        def free(b: str) -> bool:
            return b not in below.values()

        def move(b: str, to: str) -> list[tuple[str, ...]]:
            lift = ("pick-up", b) if below[b] == "table" else ("unstack", b, below[b])
            return [lift, ("put-down", b) if to == "table" else ("stack", b, to)]

        if all(done(b) for b in order):
            return []
        ready = [b for b in order if free(b) and not done(b)
                 and (want[b] == "table" or (done(want[b]) and free(want[b])))]
        if ready:
            b = ready[0]
            return move(b, want[b]) + solve({**below, b: want[b]})
        stuck = [b for b in order if free(b) and not done(b) and below[b] != "table"]
        return min((move(b, "table") + solve({**below, b: "table"}) for b in stuck), key=len)

    return solve({up: down for t in start for down, up in zip(["table", *t], t, strict=False)})


TEST_BODY = '''
def test_blocks_declared(problem):
    assert problem.by_type.get("block", set()) == BLOCKS, f"blocks declared: {problem.by_type}"


def test_initial_state(problem):
    got = {f for f in problem.init if f[0] in ("on", "on-table", "free", "holding", "arm-empty")}
    assert got == INIT, f"missing {sorted(INIT - got)}, unexpected {sorted(got - INIT)}"


def test_goal_positions(problem):
    got = {f for f in problem.goal if f[0] in ("on", "on-table")}
    assert GOAL <= got, f"goal lacks {sorted(GOAL - got)}"
    assert {f for f in got if f[0] == "on"} == {f for f in GOAL if f[0] == "on"}, f"goal: {sorted(got)}"
'''

PLAN_BODY = '''

def test_plan_moves_one_block_at_a_time(plan):
    for i in range(0, len(plan), 2):
        lift, place = plan[i], plan[i + 1] if i + 1 < len(plan) else None
        assert lift[0] in ("pick-up", "unstack"), f"step {i + 1} {lift} should lift a block"
        assert place and place[0] in ("put-down", "stack") and place[1] == lift[1], \\
            f"step {i + 2} {place} should place {lift[1]}"


def test_length_reported(output, plan):
    assert output.get("length") == len(plan), f"length {output.get('length')} != {len(plan)} steps"
'''


def _instance(name: str, start: list[list[str]], goal_facts: list[str], goal_words: str,
              plan: list[tuple[str, ...]] | None) -> Instance:
    blocks = [b for t in start for b in t]
    init = _init_facts(start)
    statements = [f"There are {len(blocks)} blocks: {', '.join(blocks)}.",
                  f"Initially {_towers_text(start)}. Nothing else stands on any block and the arm is empty.",
                  f"The goal: {goal_words}."]
    objects = {"block": blocks}
    form = formulation(f"blocks-{name}", objects,
                       [("statement 2, the towers", [f for f in init if f != "(arm-empty)"]),
                        ("statement 2, the arm is empty", ["(arm-empty)"])],
                       [("statement 3", goal_facts)])
    consts = {"BLOCKS": set(blocks), "INIT": tuples(init), "GOAL": tuples(goal_facts)}
    tests = test_file(f"Supervised checks for planning/blocks-{name}: the problem file and the plan.", consts,
                      TEST_BODY + (PLAN_BODY if plan is not None else ""))
    return Instance(name, statements, problem_pddl(f"blocks-{name}", "blocks", objects, init, goal_facts),
                    form, tests, plan)


def instances() -> list[Instance]:
    out = []
    for name, (start, goal) in CASES.items():
        words = _towers_text(goal).replace(" is on the table", " stands on the table")
        out.append(_instance(name, start, _goal_facts(goal), words, constructive_plan(start, goal)))
    start, cycle = UNSOLVABLE
    words = ", ".join(f"{a} stands on {b}" for a, b in cycle)
    out.append(_instance("unsolvable", start, [fact("on", a, b) for a, b in cycle], words, None))
    return out
