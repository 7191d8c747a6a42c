"""Supervised tests for the mystery kind: the plan names only the SNOP's actions and motes, every step can be
done when it is done (s3-s6), the goal holds after the last step (s8), and the plan fits the limit (s10)."""

ACTIONS = {"yonk": 1, "plorf": 1, "quibble": 2, "dazzle": 2}  # name -> number of arguments (output_info)


def steps(output):
    plan = output.get("plan")
    assert isinstance(plan, list), f"output.json has no 'plan' list: {output!r:.200}"
    return plan


def replay(data, plan):
    """Our own simulation: what each mote skels ('floon', a mote, or 'grox' when harboured); the first step that cannot
    be done, with why, or None."""
    where = dict(zip(data["motes"], data["init_skels"]))

    def clear(b):
        return where[b] != "grox" and all(w != b for w in where.values())

    def held():
        return [b for b, w in where.items() if w == "grox"]

    for k, step in enumerate(plan, 1):
        name, args = step["action"], step["args"]
        x = args[0]
        if name == "yonk":
            why = [] if where[x] == "floon" else [f"{x} does not skel the floon"]
            why += ([] if clear(x) else [f"{x} is not brindled"]) + ([f"the grox harbours {held()}"] if held() else [])
        elif name == "dazzle":
            why = [] if where[x] == args[1] else [f"{x} does not skel {args[1]}"]
            why += ([] if clear(x) else [f"{x} is not brindled"]) + ([f"the grox harbours {held()}"] if held() else [])
        elif name == "plorf":
            why = [] if where[x] == "grox" else [f"the grox does not harbour {x}"]
        else:
            why = [] if where[x] == "grox" else [f"the grox does not harbour {x}"]
            why += [] if args[1] != x and clear(args[1]) else [f"{args[1]} is not brindled"]
        if why:
            return where, f"step {k} {name}{tuple(args)}: {'; '.join(why)}"
        where[x] = {"yonk": "grox", "dazzle": "grox", "plorf": "floon", "quibble": args[-1]}[name]
    return where, None


def test_output_keys(output):
    assert set(output) == {"plan"}, f"output keys {sorted(output)} != ['plan']"


def known_steps(data, output):
    """The plan, after checking that it names only the SNOP's actions and declared objects."""
    motes = set(data["motes"])
    for k, step in enumerate(steps(output), 1):
        assert isinstance(step, dict) and set(step) == {"action", "args"}, f"step {k} is {step!r}"
        assert step["action"] in ACTIONS, f"step {k}: unknown action {step['action']!r}"
        assert len(step["args"]) == ACTIONS[step["action"]], f"step {k}: {step['action']} takes " \
            f"{ACTIONS[step['action']]} argument(s), given {step['args']}"
        unknown = [a for a in step["args"] if a not in motes]
        assert not unknown, f"step {k}: {unknown} are not motes"
    return steps(output)


def test_steps_name_known_actions_and_motes(data, output):
    known_steps(data, output)


def test_s3_to_s6_every_step_can_be_done(data, output):
    _, failure = replay(data, known_steps(data, output))
    assert failure is None, failure


def test_s8_goal_holds_after_the_last_step(data, output):
    where, failure = replay(data, known_steps(data, output))
    assert failure is None, failure
    unmet = [(u, l) for u, l in data["goal_skels"] if where[u] != l]
    assert not unmet, f"after the plan these goal pairs do not hold: {unmet} (state {where})"


def test_s10_plan_within_the_limit(data, output, solution):
    n = len(steps(output))
    assert n <= data["max_horizon"], f"the plan has {n} actions, the limit is {data['max_horizon']}"
    if solution.get("objective") is not None:
        assert n == solution["objective"], f"the plan has {n} actions, solution.json says {solution['objective']}"
