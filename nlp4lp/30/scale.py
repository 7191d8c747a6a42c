"""Write a data.json for nlp4lp/30 with about N numeric elements: python scale.py --elements N --out PATH."""

import argparse
import math
import random


def row(vals):
    return "[" + ", ".join(map(str, vals)) + "]"


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--elements", type=int, required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    n = max(a.elements, 7)
    N = max(1, int(math.sqrt(n) / 2))
    I = max(1, round((n - 1 - 2 * N) / (N + 3)))
    batch = 1000
    weight = [rng.uniform(0.2, 1.0) for _ in range(I)]
    total = sum(weight)
    share = [w / total for w in weight]  # hidden feasible blend
    content = [[round(rng.uniform(0, 400), 1) if rng.random() < 0.7 else 0.0 for _ in range(N)] for _ in range(I)]
    level = [0.0] * N
    for i in range(I):
        cont, s = content[i], share[i]
        for k in range(N):
            level[k] += cont[k] * s
    min_level = [math.floor(v * 0.95 * 1000) / 1000 for v in level]
    max_level = [math.ceil(v * 1.05 * 1000 + 1) / 1000 for v in level]
    max_share = [min(1.0, math.ceil((s * 1.5 + 0.01) * 10000) / 10000) for s in share]
    stock = [math.ceil(s * batch * 1.2) + 1 for s in share]
    cost = [round(rng.uniform(0.05, 1.5), 3) for _ in range(I)]
    with open(a.out, "w") as f:
        f.write(f'{{"batch_kg": {batch},\n"cost": {row(cost)},\n"stock": {row(stock)},\n')
        f.write(f'"max_share": {row(max_share)},\n"content": [\n' + ",\n".join(row(c) for c in content) + "],\n")
        f.write(f'"min_level": {row(min_level)},\n"max_level": {row(max_level)}}}\n')

if __name__ == "__main__":
    main()
