"""Supervised tests for the household kind: the plan names only the SNOP's actions, places and items, every
step can be done when it is done (s3-s8), the goal holds after the last step (s10), and the plan fits the
limit (s12)."""

ACTIONS = {"goto": ("place", "place"), "open": ("place",), "close": ("place",), "take": ("item", "place"),
           "put": ("item", "place"), "wash": ("item", "place")}
HAND = "the hand"


def steps(output):
    plan = output.get("plan")
    assert isinstance(plan, list), f"output.json has no 'plan' list: {output!r:.200}"
    return plan


class Kitchen:
    """Our own simulation of the statements."""

    def __init__(self, data):
        self.robot = data["robot_start"]
        self.where = dict(zip(data["items"], data["item_start"]))
        self.clean = {i: bool(c) for i, c in zip(data["items"], data["start_clean"])}
        self.box = {p for p, c in zip(data["places"], data["container"]) if c}
        self.tap = {p for p, c in zip(data["places"], data["tap"]) if c}
        self.open = {p for p, o in zip(data["places"], data["start_open"]) if o and p in self.box}

    def held(self):
        return [i for i, w in self.where.items() if w == HAND]

    def reachable(self, p):
        return p not in self.box or p in self.open

    def why_not(self, name, args):
        """What keeps the action from being done now (empty when it can be)."""
        p = args[-1]
        why = [] if self.robot == (args[0] if name == "goto" else p) else [f"the robot is at {self.robot}"]
        if name == "goto":
            why += [] if args[0] != args[1] else ["from and to are the same place"]
        elif name in ("open", "close"):
            why += [] if p in self.box else [f"{p} is not a container"]
            why += [] if (p in self.open) == (name == "close") else [f"{p} is already {'open' if name == 'open' else 'closed'}"]
            why += [f"the hand holds {self.held()}"] if self.held() else []
        elif name == "take":
            why += [] if self.where[args[0]] == p else [f"{args[0]} is not at {p}"]
            why += ([] if self.reachable(p) else [f"{p} is closed"]) + ([f"the hand holds {self.held()}"]
                                                                       if self.held() else [])
        elif name == "put":
            why += [] if self.where[args[0]] == HAND else [f"the hand does not hold {args[0]}"]
            why += [] if self.reachable(p) else [f"{p} is closed"]
        else:
            why += [] if p in self.tap else [f"{p} has no tap"]
            why += [] if self.where[args[0]] == HAND else [f"the hand does not hold {args[0]}"]
            why += [] if not self.clean[args[0]] else [f"{args[0]} is already clean"]
        return why

    def do(self, name, args):
        if name == "goto":
            self.robot = args[1]
        elif name == "open":
            self.open.add(args[0])
        elif name == "close":
            self.open.discard(args[0])
        elif name in ("take", "put"):
            self.where[args[0]] = HAND if name == "take" else args[1]
        else:
            self.clean[args[0]] = True


def replay(data, plan):
    kitchen = Kitchen(data)
    for k, step in enumerate(plan, 1):
        why = kitchen.why_not(step["action"], step["args"])
        if why:
            return kitchen, f"step {k} {step['action']}{tuple(step['args'])}: {'; '.join(why)}"
        kitchen.do(step["action"], step["args"])
    return kitchen, None


def test_output_keys(output):
    assert set(output) == {"plan"}, f"output keys {sorted(output)} != ['plan']"


def known_steps(data, output):
    """The plan, after checking that it names only the SNOP's actions and declared objects."""
    known = {"place": set(data["places"]), "item": set(data["items"])}
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


def test_s3_to_s8_every_step_can_be_done(data, output):
    _, failure = replay(data, known_steps(data, output))
    assert failure is None, failure


def test_s10_goal_holds_after_the_last_step(data, output):
    kitchen, failure = replay(data, known_steps(data, output))
    assert failure is None, failure
    unmet = [f"{i} at {p}" for i, p in data["goal_at"] if kitchen.where[i] != p]
    unmet += [f"{i} clean" for i in data["goal_clean"] if not kitchen.clean[i]]
    unmet += [f"{p} closed" for p in data["goal_closed"] if p not in kitchen.box or p in kitchen.open]
    assert not unmet, f"after the plan these goal facts do not hold: {unmet}"


def test_s12_plan_within_the_limit(data, output, solution):
    n = len(steps(output))
    assert n <= data["max_horizon"], f"the plan has {n} actions, the limit is {data['max_horizon']}"
    if solution.get("objective") is not None:
        assert n == solution["objective"], f"the plan has {n} actions, solution.json says {solution['objective']}"
