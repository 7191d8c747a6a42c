"""Instances of the warehouse picking route: deterministic data (seeded) on an aisle grid, and a plausible wrong
output."""

import random
from itertools import pairwise


def make(shelves: int, seed: int, pairs: int, chilled: int) -> dict:
    rng = random.Random(seed)
    # the desk at the front; shelves in 6 aisles 4 m apart, up to 30 m deep; cross aisles front and back
    spots = [(0, 0)] + [(4 * rng.randint(1, 6), rng.randint(2, 30)) for _ in range(shelves)]

    def walk(p, q):
        (x1, y1), (x2, y2) = p, q
        if x1 == x2:
            return abs(y1 - y2)
        return abs(x1 - x2) + min(y1 + y2, 64 - y1 - y2)  # round by the front (y=0) or back (y=32) cross aisle

    dist = [[walk(p, q) for q in spots] for p in spots]
    before = []
    while len(before) < pairs:
        a, b = rng.sample(range(1, shelves + 1), 2)
        if [a, b] not in before and [b, a] not in before:
            before.append([a, b])
    cold = set(rng.sample(range(1, shelves + 1), chilled))
    before = [[a, b] for a, b in before if not (a in cold and b not in cold)]  # keep every instance feasible
    return {"dist": dist, "before": before, "chilled": [int(i in cold) for i in range(1, shelves + 1)]}


INSTANCES = {
    "picking-1": make(6, seed=41, pairs=2, chilled=1),
    "picking-2": make(7, seed=42, pairs=3, chilled=2),
    "picking-3": make(8, seed=43, pairs=3, chilled=2),
}

CORES: dict = {}


def wrong(name: str, data: dict, output: dict, solve) -> dict:
    """The shortest walk that forgets the heavy-first and chilled-last rules (s4, s5), if it breaks one of them;
    else the right route with the first precedence pair swapped."""
    free = solve(dict(data, before=[], chilled=[0] * len(data["chilled"])))
    place = {s: k for k, s in enumerate(free["route"])}
    if any(place[a] > place[b] for a, b in data["before"]):
        return free
    route = list(output["route"])
    a, b = data["before"][0]
    i, j = route.index(a), route.index(b)
    route[i], route[j] = b, a
    walk = [0, *route, 0]
    return {"route": route, "metres": sum(data["dist"][p][q] for p, q in pairwise(walk))}
