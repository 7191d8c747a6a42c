"""A grid domain: a robot paints floor tiles and may never step onto wet (painted) paint."""

from __future__ import annotations

from .common import Instance, fact, formulation, problem_pddl, test_file

NAME = "painting"
WORDS = ("A robot paints the tiles of a rectangular floor. Tiles are named t<row>-<col>, rows numbered from 1 at "
         "the far wall, columns from 1 at the left; two tiles are neighbours when they share a side. The robot "
         "stands on one tile and carries one tin of paint of one colour at a time. It can move to a neighbouring "
         "tile that is not painted, paint a neighbouring unpainted tile with the colour it carries (never the "
         "tile it stands on), and swap its tin for one of another colour. A painted tile cannot be painted again "
         "or stepped on.")
INPUT_FORMAT = ('{"rows": rows, "cols": cols, "start": start, "holding": holding, '
                '"colours": [colour_{j} for j in 1, ..., J], "paint_tile": [paint_tile_{k} for k in 1, ..., K], '
                '"paint_colour": [paint_colour_{k} for k in 1, ..., K]}')

DOMAIN = """\
; Floor painting on a grid: the robot paints neighbouring tiles and never steps on paint.
(define (domain painting)
  (:requirements :strips :typing)
  (:types tile colour)
  (:predicates
    (robot-on ?t - tile)
    (bare ?t - tile)                      ; not painted: the robot may stand on it or paint it
    (painted ?t - tile ?c - colour)
    (next-to ?a - tile ?b - tile)         ; share a side; listed in both directions
    (carrying ?c - colour))

  (:action move
    :parameters (?from - tile ?to - tile)
    :precondition (and (robot-on ?from) (next-to ?from ?to) (bare ?to))
    :effect (and (robot-on ?to) (not (robot-on ?from))))

  (:action paint
    :parameters (?from - tile ?target - tile ?c - colour)
    :precondition (and (robot-on ?from) (next-to ?from ?target) (bare ?target) (carrying ?c))
    :effect (and (painted ?target ?c) (not (bare ?target))))

  (:action swap-tin
    :parameters (?old - colour ?new - colour)
    :precondition (carrying ?old)
    :effect (and (carrying ?new) (not (carrying ?old)))))
"""

COLOURS = ["black", "white"]

# rows, and the colour of each column; every row but the nearest (the last) is painted, column by column.
# The robot starts on t2-1 carrying the first column's colour.
CASES = {
    "1": (2, ["black", "black"]),
    "2": (2, ["black", "black", "black"]),
    "3": (3, ["black", "black", "white"]),
    "4": (3, ["black", "black", "white", "white"]),
    "5": (3, ["black", "black", "black", "white", "white", "white"]),
}
# every tile painted: the robot always stands on a bare tile, so the last one can never be painted
UNSOLVABLE = (2, ["black", "black"])

EXAMPLE = ("""\
A floor of one row of three tiles, t1-1 t1-2 t1-3. The robot stands on t1-2 carrying white paint. The goal: \
t1-1 and t1-3 painted white.""", """\
(define (problem painting-example)
  (:domain painting)
  (:objects t1-1 t1-2 t1-3 - tile white - colour)
  (:init (robot-on t1-2) (carrying white)
         (bare t1-1) (bare t1-2) (bare t1-3)
         (next-to t1-1 t1-2) (next-to t1-2 t1-1) (next-to t1-2 t1-3) (next-to t1-3 t1-2))
  (:goal (and (painted t1-1 white) (painted t1-3 white))))
""")


def tile(r: int, c: int) -> str:
    return f"t{r}-{c}"


def constructive_plan(rows: int, columns: list[str]) -> list[tuple[str, ...]]:
    """Walk along row 2 from the left: at each column paint the tile above (row 1); with two painted rows,
    step right and paint the row-2 tile just left behind; at the last column step down and paint it from
    below. Swap tins only where the column colour changes."""
    plan: list[tuple[str, ...]] = []
    held, cols = columns[0], len(columns)
    for c, colour in enumerate(columns, 1):
        if colour != held:
            plan.append(("swap-tin", held, colour))
            held = colour
        plan.append(("paint", tile(2, c), tile(1, c), colour))
        if c < cols:
            plan.append(("move", tile(2, c), tile(2, c + 1)))
            if rows == 3:
                plan.append(("paint", tile(2, c + 1), tile(2, c), colour))
        elif rows == 3:
            plan += [("move", tile(2, c), tile(3, c)), ("paint", tile(3, c), tile(2, c), colour)]
    return plan


def _grid(rows: int, cols: int) -> tuple[list[str], list[str]]:
    tiles = [tile(r, c) for r in range(1, rows + 1) for c in range(1, cols + 1)]
    links = []
    for r in range(1, rows + 1):
        for c in range(1, cols + 1):
            for dr, dc in ((0, 1), (1, 0)):
                if r + dr <= rows and c + dc <= cols:
                    links += [fact("next-to", tile(r, c), tile(r + dr, c + dc)),
                              fact("next-to", tile(r + dr, c + dc), tile(r, c))]
    return tiles, links


TEST_BODY = '''
def _cell(name):
    row, col = name[1:].split("-")
    return int(row), int(col)


def test_tiles(problem, data):
    want = {f"t{r}-{c}" for r in range(1, data["rows"] + 1) for c in range(1, data["cols"] + 1)}
    assert problem.by_type.get("tile", set()) == want, f"tiles: {sorted(problem.by_type.get('tile', set()))}"


def test_neighbours(problem, data):
    got = {f[1:] for f in problem.init if f[0] == "next-to"}
    for a, b in got:
        (ra, ca), (rb, cb) = _cell(a), _cell(b)
        assert abs(ra - rb) + abs(ca - cb) == 1, f"(next-to {a} {b}): not sharing a side"
    pairs = 2 * (data["rows"] * (data["cols"] - 1) + data["cols"] * (data["rows"] - 1))
    assert len(got) == pairs, f"{len(got)} next-to facts, a {data['rows']}x{data['cols']} grid has {pairs}"


def test_start(problem, data):
    assert {f for f in problem.init if f[0] in ("robot-on", "carrying")} == \\
        {("robot-on", data["start"]), ("carrying", data["holding"])}
    assert {f[1] for f in problem.init if f[0] == "bare"} == problem.by_type.get("tile", set()), \\
        "every tile starts bare"


def test_goal(problem, data):
    got = {f for f in problem.goal if f[0] == "painted"}
    want = {("painted", t, c) for t, c in zip(data["paint_tile"], data["paint_colour"], strict=True)}
    assert got == want, f"goal lacks {sorted(want - got)}, has extra {sorted(got - want)}"
'''

PLAN_BODY = '''

def test_plan_paints_each_goal_tile_once(plan, data):
    painted = [s[2] for s in plan if s[0] == "paint"]
    wrong = [t for t in data["paint_tile"] if painted.count(t) != 1]
    assert not wrong, f"goal tiles not painted exactly once: {wrong} (painted {painted})"


def test_length_reported(output, plan):
    assert output.get("length") == len(plan), f"length {output.get('length')} != {len(plan)} steps"
'''


def _instance(name: str, rows: int, columns: list[str], solvable: bool) -> Instance:
    cols = len(columns)
    tiles, links = _grid(rows, cols)
    start, holding = tile(2, 1), columns[0]
    painted_rows = rows - 1 if solvable else rows
    paint = {tile(r, c): columns[c - 1] for r in range(1, painted_rows + 1) for c in range(1, cols + 1)}
    init = [fact("robot-on", start), fact("carrying", holding)] + [fact("bare", t) for t in tiles] + links
    goal = [fact("painted", t, c) for t, c in paint.items()]
    cols_words = ", ".join(f"column {c} {colour}" for c, colour in enumerate(columns, 1))
    which = "row 1" if painted_rows == 1 else f"rows 1 to {painted_rows}"
    statements = [
        (f"The floor has {rows} rows and {cols} columns of tiles, all bare; the colours available are "
        f"{' and '.join(COLOURS)}."),
        f"The robot starts on tile {start} carrying {holding} paint.",
        f"The goal: every tile of {which} painted with its column's colour ({cols_words})"
        + ("; the tiles of the last row need no paint (painting them too is allowed)." if solvable else "; that is every tile of the floor."),
        ("data.json lists the same facts: the grid size, the start, the colour carried and the colour of each "
        "tile to paint."),
    ]
    data = {"rows": rows, "cols": cols, "start": start, "holding": holding, "colours": COLOURS,
            "paint_tile": list(paint), "paint_colour": list(paint.values())}
    objects = {"tile": tiles, "colour": COLOURS}
    form = formulation(f"painting-{name}", objects,
                       [("statement 2", init[:2]), ("statement 1, all tiles bare", init[2:2 + len(tiles)]),
                        ("the grid's sides (both directions)", links)],
                       [("statement 3 (data.json paint_tile, paint_colour)", goal)],
                       note="" if solvable else "The robot always stands on a bare tile, so painting every "
                       "tile is impossible: the problem has no plan.")
    tests = test_file(f"Supervised checks for planning/painting-{name}: the problem file and the plan.",
                      {}, TEST_BODY + (PLAN_BODY if solvable else ""))
    plan = constructive_plan(rows, columns) if solvable else None
    return Instance(name, statements, problem_pddl(f"painting-{name}", "painting", objects, init, goal),
                    form, tests, plan, data)


def instances() -> list[Instance]:
    out = [_instance(n, *c, True) for n, c in CASES.items()]
    return out + [_instance("unsolvable", *UNSOLVABLE, False)]
