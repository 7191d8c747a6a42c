"""Supervised checks for planning/bike-2: the problem file and the plan."""

WHEELS = {'front', 'rear'}
SOUND = {'rear'}
TUBES = {'tube-a'}
HOLELESS = {'tube-a'}
INIT = {('axle-tight', 'front'), ('axle-tight', 'rear'), ('brake-closed', 'front'), ('brake-closed', 'rear'), ('has-tube', 'front'), ('has-tube', 'rear'), ('holeless', 'tube-a'), ('in-box', 'floor-pump'), ('in-box', 'spanner15'), ('in-box', 'tyre-levers'), ('on-bike', 'front'), ('on-bike', 'rear'), ('soft', 'front'), ('soft', 'rear'), ('spare', 'tube-a'), ('tube-holed', 'front'), ('tube-sound', 'rear'), ('tyre-seated', 'front'), ('tyre-seated', 'rear')}

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
