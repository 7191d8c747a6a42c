"""Supervised checks for planning/porter-unsolvable: the problem file and the plan."""

ROOMS = {'annex', 'lab', 'ward'}
PARCELS = {'blood1', 'tissue1'}
INIT = {('empty', 'left'), ('empty', 'right'), ('lies-in', 'blood1', 'lab'), ('lies-in', 'tissue1', 'lab'), ('robot-in', 'lab')}
CORRIDORS = {('corridor', 'lab', 'ward'), ('corridor', 'ward', 'lab')}
GOAL = {('lies-in', 'blood1', 'ward'), ('lies-in', 'tissue1', 'annex')}

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
