"""Write a data.json for nlp4lp/32 with about N numeric elements: python scale.py --elements N --out PATH."""

import argparse
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
    n = max(a.elements, 10)
    K = max(1, int(n ** 0.25))
    A = max(2, round((n - 1 - 3 * K) / (K + 3)))
    V = max(2, A // 4)
    origin = [rng.randint(1, V) for _ in range(K)]
    dest = [rng.choice([v for v in (rng.randint(1, V), o % V + 1) if v != o]) for o in origin]
    volume = [rng.randint(5, 60) for _ in range(K)]
    total = sum(volume)
    tail = list(range(1, V + 1))  # backbone cycle 1 -> 2 -> ... -> V -> 1, can carry everything
    head = [v % V + 1 for v in range(1, V + 1)]
    cap = [total] * V
    base = [round(rng.uniform(8, 15), 1) for _ in range(V)]
    while len(tail) < A:
        u, w = rng.randint(1, V), rng.randint(1, V)
        if u != w:
            tail.append(u)
            head.append(w)
            cap.append(rng.randint(5, 80))
            base.append(round(rng.uniform(1, 8), 1))
    with open(a.out, "w") as f:
        f.write(f'{{"num_nodes": {V},\n"arc_from": {row(tail)},\n"arc_to": {row(head)},\n')
        f.write(f'"arc_capacity": {row(cap)},\n"origin": {row(origin)},\n"destination": {row(dest)},\n')
        f.write(f'"volume": {row(volume)},\n"unit_cost": [\n')
        for k in range(K):
            factor = rng.uniform(0.7, 1.5)
            f.write(("" if k == 0 else ",\n") + row([round(b * factor, 2) for b in base]))
        f.write("]}\n")


if __name__ == "__main__":
    main()
