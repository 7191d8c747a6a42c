"""Supervised checks for planning/blocks-5: the problem file and the plan."""

BLOCKS = {'black', 'blue', 'green', 'orange', 'red', 'white', 'yellow'}
INIT = {('arm-empty',), ('free', 'orange'), ('free', 'yellow'), ('on', 'black', 'white'), ('on', 'blue', 'red'), ('on', 'green', 'blue'), ('on', 'orange', 'black'), ('on', 'yellow', 'green'), ('on-table', 'red'), ('on-table', 'white')}
GOAL = {('on', 'black', 'white'), ('on', 'blue', 'black'), ('on', 'red', 'yellow'), ('on', 'white', 'green'), ('on', 'yellow', 'orange'), ('on-table', 'green'), ('on-table', 'orange')}

def test_blocks_declared(problem):
    assert problem.by_type.get("block", set()) == BLOCKS, f"blocks declared: {problem.by_type}"


def test_initial_state(problem):
    got = {f for f in problem.init if f[0] in ("on", "on-table", "free", "holding", "arm-empty")}
    assert got == INIT, f"missing {sorted(INIT - got)}, unexpected {sorted(got - INIT)}"


def test_goal_positions(problem):
    got = {f for f in problem.goal if f[0] in ("on", "on-table")}
    assert GOAL <= got, f"goal lacks {sorted(GOAL - got)}"
    assert {f for f in got if f[0] == "on"} == {f for f in GOAL if f[0] == "on"}, f"goal: {sorted(got)}"


def test_plan_moves_one_block_at_a_time(plan):
    for i in range(0, len(plan), 2):
        lift, place = plan[i], plan[i + 1] if i + 1 < len(plan) else None
        assert lift[0] in ("pick-up", "unstack"), f"step {i + 1} {lift} should lift a block"
        assert place and place[0] in ("put-down", "stack") and place[1] == lift[1], \
            f"step {i + 2} {place} should place {lift[1]}"


def test_length_reported(output, plan):
    assert output.get("length") == len(plan), f"length {output.get('length')} != {len(plan)} steps"
