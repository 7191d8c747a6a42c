"""Supervised checks for planning/painting-1: the problem file and the plan."""


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
    assert {f for f in problem.init if f[0] in ("robot-on", "carrying")} == \
        {("robot-on", data["start"]), ("carrying", data["holding"])}
    assert {f[1] for f in problem.init if f[0] == "bare"} == problem.by_type.get("tile", set()), \
        "every tile starts bare"


def test_goal(problem, data):
    got = {f for f in problem.goal if f[0] == "painted"}
    want = {("painted", t, c) for t, c in zip(data["paint_tile"], data["paint_colour"], strict=True)}
    assert got == want, f"goal lacks {sorted(want - got)}, has extra {sorted(got - want)}"


def test_plan_paints_each_goal_tile_once(plan, data):
    painted = [s[2] for s in plan if s[0] == "paint"]
    wrong = [t for t in data["paint_tile"] if painted.count(t) != 1]
    assert not wrong, f"goal tiles not painted exactly once: {wrong} (painted {painted})"


def test_length_reported(output, plan):
    assert output.get("length") == len(plan), f"length {output.get('length')} != {len(plan)} steps"
