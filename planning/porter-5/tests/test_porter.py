"""Supervised checks for planning/porter-5: the problem file and the plan."""

ROOMS = {'hall', 'lab', 'theatre', 'ward'}
PARCELS = {'blood1', 'blood2', 'plasma1', 'plasma2', 'swab1'}
INIT = {('empty', 'left'), ('empty', 'right'), ('lies-in', 'blood1', 'lab'), ('lies-in', 'blood2', 'lab'), ('lies-in', 'plasma1', 'lab'), ('lies-in', 'plasma2', 'lab'), ('lies-in', 'swab1', 'ward'), ('robot-in', 'lab')}
CORRIDORS = {('corridor', 'hall', 'lab'), ('corridor', 'hall', 'theatre'), ('corridor', 'hall', 'ward'), ('corridor', 'lab', 'hall'), ('corridor', 'theatre', 'hall'), ('corridor', 'ward', 'hall')}
GOAL = {('lies-in', 'blood1', 'ward'), ('lies-in', 'blood2', 'ward'), ('lies-in', 'plasma1', 'theatre'), ('lies-in', 'plasma2', 'theatre'), ('lies-in', 'swab1', 'lab')}

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
