"""Supervised checks for planning/bike-unsolvable: the problem file and the plan."""

WHEELS = {'front'}
SOUND = set()
TUBES = {'tube-a'}
HOLELESS = set()
INIT = {('axle-tight', 'front'), ('brake-closed', 'front'), ('has-tube', 'front'), ('in-box', 'floor-pump'), ('in-box', 'spanner15'), ('in-box', 'tyre-levers'), ('on-bike', 'front'), ('soft', 'front'), ('spare', 'tube-a'), ('tube-holed', 'front'), ('tyre-seated', 'front')}

def test_objects(problem):
    assert {n for n, k in problem.objects.items() if k == "wheel"} == WHEELS, f"wheels: {problem.objects}"
    assert {n for n, k in problem.objects.items() if k == "tube"} == TUBES, f"tubes: {problem.objects}"
    assert {k for n, k in problem.objects.items() if k in ("spanner", "levers", "pump")} == \
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
