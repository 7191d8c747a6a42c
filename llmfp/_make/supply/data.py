"""Instances of the bean roaster's supply chain: deterministic data (seeded), the what-if closures as data, one
unsat variant, and how to make a plausible wrong output."""

import random


def make(growers: int, roasteries: int, cafes: int, seed: int, closed: tuple[int, ...] = ()) -> dict:
    rng = random.Random(seed)
    demand = [rng.randint(8, 30) for _ in range(cafes)]
    total = sum(demand)
    harvest = [rng.randint(total // growers, total // 2 + 10) for _ in range(growers)]
    # roasting is tight: the roasteries together can just do the job, so capacity binds at the cheap ones
    roast_capacity = [rng.randint(total // roasteries, total // roasteries + total // 4) for _ in range(roasteries)]
    return {
        "bean_cost": [[rng.randint(40, 75) for _ in range(roasteries)] for _ in range(growers)],
        "roast_cost": [rng.randint(4, 12) for _ in range(roasteries)],
        "delivery_cost": [[rng.randint(2, 15) for _ in range(cafes)] for _ in range(roasteries)],
        "harvest": harvest,
        "roast_capacity": roast_capacity,
        "demand": demand,
        "closed": [int(s in closed) for s in range(growers)],
    }


def unsat() -> dict:
    """Café demand beyond what the roasteries can roast, with beans to spare: s5, s6 and s7 conflict."""
    d = make(3, 2, 4, seed=17)
    d["roast_capacity"] = [30, 25]
    d["demand"] = [20, 15, 14, 12]  # 61 bags > 55 roastable; harvests total far more
    d["harvest"] = [40, 35, 30]
    return d


INSTANCES = {
    "supply-1": make(3, 2, 4, seed=1),
    "supply-2": make(4, 3, 6, seed=2, closed=(1,)),  # what-if: grower 1 is closed
    "supply-3": make(5, 3, 8, seed=3, closed=(0, 3)),  # what-if: growers 0 and 3 are closed
    "supply-1-unsat": unsat(),
}

# The statements the unsat variant's minimal core holds (problem_info numbers, from 1).
CORES = {"supply-1-unsat": [5, 6, 7]}


def wrong(name: str, data: dict, output: dict, solve) -> dict:
    """The optimum of a model that forgets a statement: the what-if closure where there is one, else the
    roasting capacity. A plausible answer that breaks that statement."""
    forgetful = dict(data)
    if any(data["closed"]):
        forgetful["closed"] = [0] * len(data["closed"])
    else:
        forgetful["roast_capacity"] = [10 ** 6] * len(data["roast_capacity"])
    return solve(forgetful)
