"""Supervised tests for the gripper kind: the plan names only the SNOP's actions, halls, exhibits and hands,
every step can be done when it is done (s3-s5), the goal holds after the last step (s7), and the plan fits
the limit (s9)."""

ACTIONS = {"walk": ("hall", "hall"), "grasp": ("exhibit", "hall", "hand"), "release": ("exhibit", "hall", "hand")}


def steps(output):
    plan = output.get("plan")
    assert isinstance(plan, list), f"output.json has no 'plan' list: {output!r:.200}"
    return plan


def replay(data, plan):
    """Our own simulation: the robot's hall and where each exhibit is (a hall, or ('hand', name)); the
    first step that cannot be done, with why, or None."""
    robot = data["robot_start"]
    where = dict(zip(data["exhibits"], data["exhibit_start"]))
    passages = {frozenset(p) for p in data["passages"]}
    for k, step in enumerate(plan, 1):
        name, args = step["action"], step["args"]
        if name == "walk":
            why = [] if robot == args[0] else [f"the robot is in {robot}, not {args[0]}"]
            why += [] if frozenset(args) in passages and args[0] != args[1] else [f"no passage {args[0]}-{args[1]}"]
        else:
            e, hall, hand = args
            why = [] if robot == hall else [f"the robot is in {robot}, not {hall}"]
            if name == "grasp":
                why += [] if where[e] == hall else [f"{e} is not in {hall}"]
                why += [f"{hand} already holds {x}" for x, w in where.items() if w == ("hand", hand)]
            else:
                why += [] if where[e] == ("hand", hand) else [f"{hand} does not hold {e}"]
        if why:
            return robot, where, f"step {k} {name}{tuple(args)}: {'; '.join(why)}"
        if name == "walk":
            robot = args[1]
        else:
            where[args[0]] = ("hand", args[2]) if name == "grasp" else args[1]
    return robot, where, None


def test_output_keys(output):
    assert set(output) == {"plan"}, f"output keys {sorted(output)} != ['plan']"


def known_steps(data, output):
    """The plan, after checking that it names only the SNOP's actions and declared objects."""
    known = {"hall": set(data["halls"]), "exhibit": set(data["exhibits"]), "hand": set(data["hands"])}
    for k, step in enumerate(steps(output), 1):
        assert isinstance(step, dict) and set(step) == {"action", "args"}, f"step {k} is {step!r}"
        assert step["action"] in ACTIONS, f"step {k}: unknown action {step['action']!r}"
        kinds = ACTIONS[step["action"]]
        assert len(step["args"]) == len(kinds), f"step {k}: {step['action']} takes {kinds}, given {step['args']}"
        wrong = [(a, kind) for a, kind in zip(step["args"], kinds) if a not in known[kind]]
        assert not wrong, f"step {k}: {wrong} (argument, expected kind) are not declared"
    return steps(output)


def test_steps_name_known_actions_and_objects(data, output):
    known_steps(data, output)


def test_s3_to_s5_every_step_can_be_done(data, output):
    *_, failure = replay(data, known_steps(data, output))
    assert failure is None, failure


def test_s7_goal_holds_after_the_last_step(data, output):
    _, where, failure = replay(data, known_steps(data, output))
    assert failure is None, failure
    unmet = [(e, h) for e, h in data["goal_in"] if where[e] != h]
    assert not unmet, f"after the plan these exhibits are not where the goal wants them: {unmet} (state {where})"


def test_s9_plan_within_the_limit(data, output, solution):
    n = len(steps(output))
    assert n <= data["max_horizon"], f"the plan has {n} actions, the limit is {data['max_horizon']}"
    if solution.get("objective") is not None:
        assert n == solution["objective"], f"the plan has {n} actions, solution.json says {solution['objective']}"
