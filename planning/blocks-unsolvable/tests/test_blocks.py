"""Supervised checks for planning/blocks-unsolvable: the problem file and the plan."""

BLOCKS = {'blue', 'green', 'red'}
INIT = {('arm-empty',), ('free', 'blue'), ('free', 'green'), ('free', 'red'), ('on-table', 'blue'), ('on-table', 'green'), ('on-table', 'red')}
GOAL = {('on', 'blue', 'green'), ('on', 'green', 'red'), ('on', 'red', 'blue')}

def test_blocks_declared(problem):
    assert problem.by_type.get("block", set()) == BLOCKS, f"blocks declared: {problem.by_type}"


def test_initial_state(problem):
    got = {f for f in problem.init if f[0] in ("on", "on-table", "free", "holding", "arm-empty")}
    assert got == INIT, f"missing {sorted(INIT - got)}, unexpected {sorted(got - INIT)}"


def test_goal_positions(problem):
    got = {f for f in problem.goal if f[0] in ("on", "on-table")}
    assert GOAL <= got, f"goal lacks {sorted(GOAL - got)}"
    assert {f for f in got if f[0] == "on"} == {f for f in GOAL if f[0] == "on"}, f"goal: {sorted(got)}"
