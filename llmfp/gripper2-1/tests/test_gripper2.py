"""Supervised tests for the gripper2 kind: the plan names only the SNOP's actions, robots, wards, trays and arms,
every step can be done when it is done (s3-s5), the goal holds after the last step (s7), and the plan fits
the limit (s9)."""

ACTIONS = {"walk": ("robot", "ward", "ward"), "pick": ("robot", "tray", "ward", "arm"),
           "drop": ("robot", "tray", "ward", "arm")}


def steps(output):
    plan = output.get("plan")
    assert isinstance(plan, list), f"output.json has no 'plan' list: {output!r:.200}"
    return plan


def why_not(name, args, where_robot, where_tray, corridors):
    """Why the step cannot be done in this state (empty when it can)."""
    if name == "walk":
        robot, a, b = args
        why = [] if where_robot[robot] == a else [f"{robot} is in {where_robot[robot]}, not {a}"]
        return why + ([] if frozenset((a, b)) in corridors and a != b else [f"no corridor {a}-{b}"])
    robot, tray, ward, arm = args
    why = [] if where_robot[robot] == ward else [f"{robot} is in {where_robot[robot]}, not {ward}"]
    if name == "pick":
        why += [] if where_tray[tray] == ward else [f"{tray} does not lie in {ward}"]
        return why + [f"{robot}'s {arm} arm already carries {x}" for x, w in where_tray.items() if w == (robot, arm)]
    return why + ([] if where_tray[tray] == (robot, arm) else [f"{robot}'s {arm} arm does not carry {tray}"])


def replay(data, plan):
    """Our own simulation: each robot's ward and where each tray is (a ward, or (robot, arm)); the first step
    that cannot be done, with why, or None."""
    where_robot = dict(zip(data["robots"], data["robot_start"]))
    where_tray = dict(zip(data["trays"], data["tray_start"]))
    corridors = {frozenset(c) for c in data["corridors"]}
    for k, step in enumerate(plan, 1):
        name, args = step["action"], step["args"]
        why = why_not(name, args, where_robot, where_tray, corridors)
        if why:
            return where_robot, where_tray, f"step {k} {name}{tuple(args)}: {'; '.join(why)}"
        if name == "walk":
            where_robot[args[0]] = args[2]
        else:
            robot, tray, ward, arm = args
            where_tray[tray] = (robot, arm) if name == "pick" else ward
    return where_robot, where_tray, None


def test_output_keys(output):
    assert set(output) == {"plan"}, f"output keys {sorted(output)} != ['plan']"


def known_steps(data, output):
    """The plan, after checking that it names only the SNOP's actions and declared objects."""
    known = {"robot": set(data["robots"]), "ward": set(data["wards"]), "tray": set(data["trays"]),
             "arm": set(data["arms"])}
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
    unmet = [(x, w) for x, w in data["goal_in"] if where[x] != w]
    assert not unmet, f"after the plan these trays are not where the goal wants them: {unmet} (state {where})"


def test_s9_plan_within_the_limit(data, output, solution):
    n = len(steps(output))
    assert n <= data["max_horizon"], f"the plan has {n} actions, the limit is {data['max_horizon']}"
    if solution.get("objective") is not None:
        assert n == solution["objective"], f"the plan has {n} actions, solution.json says {solution['objective']}"
