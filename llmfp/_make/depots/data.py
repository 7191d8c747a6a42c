"""Instances of the drinks wholesaler's depots: deterministic data (seeded), one unsat variant, and a plausible
wrong output."""

import random


def make(depots: int, shops: int, seed: int, max_open: int) -> dict:
    rng = random.Random(seed)
    spots = [(rng.uniform(0, 60), rng.uniform(0, 60)) for _ in range(depots + shops)]
    where_d, where_s = spots[:depots], spots[depots:]
    drive = [[round(abs(a - c) + abs(b - e)) for (c, e) in where_s] for (a, b) in where_d]
    crates = [rng.randint(20, 90) for _ in range(shops)]
    # capacities so that max_open depots suffice, but not any single one
    share = sum(crates) // max_open
    return {
        "lease": [rng.randint(150, 400) for _ in range(depots)],
        "serve_cost": [[3 + m // 4 for m in row] for row in drive],
        "capacity": [rng.randint(share, share + share // 2) for _ in range(depots)],
        "crates": crates,
        "drive": drive,
        "max_drive": sorted(m for row in drive for m in row)[len(drive) * shops * 3 // 4],
        "max_open": max_open,
    }


def unsat() -> dict:
    """The board allows two depots, and no two depots together can handle the week's crates: s4, s5 and s7
    conflict. Every depot is within reach of every shop."""
    d = make(4, 8, seed=23, max_open=2)
    d["crates"] = [40] * 8  # 320 crates a week
    d["capacity"] = [150, 140, 130, 120]  # any two handle at most 290
    d["max_drive"] = max(m for row in d["drive"] for m in row)
    return d


INSTANCES = {
    "depots-1": make(4, 8, seed=21, max_open=2),
    "depots-2": make(5, 12, seed=22, max_open=3),
    "depots-3": make(6, 16, seed=24, max_open=3),
    "depots-1-unsat": unsat(),
}

CORES = {"depots-1-unsat": [4, 5, 7]}


def wrong(name: str, data: dict, output: dict, solve) -> dict:
    """The optimum of a model that forgets the depots' capacities (s5): it overloads a cheap depot."""
    forgetful = dict(data, capacity=[10 ** 6] * len(data["capacity"]))
    return solve(forgetful)
