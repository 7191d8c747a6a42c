"""Instances of the print shop's makespan: deterministic data (seeded), one unsat variant, and a plausible wrong
output."""

import random


def make(jobs: int, presses: int, seed: int, pairs: int) -> dict:
    rng = random.Random(seed)
    base = [rng.randint(15, 90) for _ in range(jobs)]
    speed = [rng.uniform(0.7, 1.4) for _ in range(presses)]
    minutes = [[round(b * v) + rng.randint(0, 10) for v in speed] for b in base]
    fits = [[int(rng.random() > 0.2) for _ in range(presses)] for _ in range(jobs)]
    for row in fits:  # every job fits at least two presses
        for m in rng.sample(range(presses), 2):
            row[m] = 1
    apart = []
    while len(apart) < pairs:
        a, b = sorted(rng.sample(range(jobs), 2))
        if [a, b] not in apart:
            apart.append([a, b])
    return {"minutes": minutes, "fits": fits, "apart": apart}


def unsat() -> dict:
    """Jobs 1, 4 and 6 share inks pairwise and fit only presses 0 and 1: s2, s4 and s5 conflict. Every other job
    fits every press, so a third press would do."""
    d = make(8, 3, seed=33, pairs=0)
    d["fits"] = [[1, 1, 0] if j in (1, 4, 6) else [1, 1, 1] for j in range(8)]
    d["apart"] = [[1, 4], [1, 6], [4, 6]]
    return d


INSTANCES = {
    "makespan-1": make(8, 3, seed=31, pairs=2),
    "makespan-2": make(11, 3, seed=32, pairs=3),
    "makespan-3": make(14, 4, seed=34, pairs=4),
    "makespan-1-unsat": unsat(),
}

CORES = {"makespan-1-unsat": [2, 4, 5]}


def wrong(name: str, data: dict, output: dict, solve) -> dict:
    """The optimum of a model that forgets the shared inks (s5) with the first pair made to clash: the pair's
    jobs must share a fitting press, a plausible plan that breaks s5."""
    a, b = data["apart"][0]
    common = [m for m, (x, y) in enumerate(zip(data["fits"][a], data["fits"][b])) if x and y]
    if not common:
        raise ValueError(f"{name}: jobs {a} and {b} fit no common press")
    out = dict(output, press_of=list(output["press_of"]))
    out["press_of"][b] = out["press_of"][a] if out["press_of"][a] in common else common[0]
    out["press_of"][a] = out["press_of"][b]
    times = [0] * len(data["minutes"][0])
    for j, m in enumerate(out["press_of"]):
        times[m] += data["minutes"][j][m]
    out["makespan"] = max(times)  # consistent, so only s5 fails
    return out
