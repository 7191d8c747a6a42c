"""Instances of the clinic nurse rota: deterministic data (seeded), one unsat variant, and a plausible wrong
output."""

import random


def make(nurses: int, days: int, shifts: int, seed: int, pairs: int) -> dict:
    rng = random.Random(seed)
    available = [[[int(rng.random() > 0.25) for _ in range(shifts)] for _ in range(days)] for _ in range(nurses)]
    need = [[rng.randint(1, max(1, nurses // (shifts + 1))) for _ in range(shifts)] for _ in range(days)]
    apart = []
    while len(apart) < pairs:
        a, b = sorted(rng.sample(range(nurses), 2))
        if [a, b] not in apart:
            apart.append([a, b])
    return {"need": need, "available": available, "max_shifts": [rng.randint(3, 5) for _ in range(nurses)],
            "min_shifts": 2, "apart": apart}


def unsat() -> dict:
    """Day 2's first shift needs two nurses; only nurses 0 and 3 are free then, and they must be apart:
    s2, s3 and s8 conflict. Everything else is loose."""
    nurses, days, shifts = 6, 4, 3
    available = [[[1] * shifts for _ in range(days)] for _ in range(nurses)]
    for n in range(nurses):
        if n not in (0, 3):
            available[n][2][0] = 0
    need = [[1] * shifts for _ in range(days)]
    need[2][0] = 2
    return {"need": need, "available": available, "max_shifts": [4] * nurses, "min_shifts": 1,
            "apart": [[0, 3], [1, 4]]}


INSTANCES = {
    "rota-1": make(6, 5, 3, seed=11, pairs=2),
    "rota-2": make(9, 7, 3, seed=12, pairs=4),
    "rota-3": make(12, 7, 3, seed=13, pairs=7),
    "rota-1-unsat": unsat(),
}

CORES = {"rota-1-unsat": [2, 3, 8]}


def wrong(name: str, data: dict, output: dict, solve) -> dict:
    """The rota with an apart pair put together: nurse b takes a shift of nurse a that b is free for, a
    plausible hand edit that breaks s8."""
    for pair in data["apart"]:
        for a, b in (pair, pair[::-1]):
            work = [[list(row) for row in plan] for plan in output["work"]]
            for t, row in enumerate(work[a]):
                for k, on in enumerate(row):
                    if on and data["available"][b][t][k]:
                        work[b][t] = [int(i == k) for i in range(len(row))]
                        return {"work": work}
    raise ValueError(f"{name}: no apart pair could share a shift")
