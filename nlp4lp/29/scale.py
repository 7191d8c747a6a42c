"""Write a data.json for nlp4lp/29 with about N numeric elements: python scale.py --elements N --out PATH."""

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
    n = max(a.elements, 8)
    M = max(1, int(math.sqrt(n / 4)))
    P = max(1, round((n - 3 * M) / (M + 3)))
    hours = [[round(rng.uniform(0.05, 1.0), 2) if rng.random() < 0.8 else 0.0 for _ in range(M)] for _ in range(P)]
    demand_min = [rng.choice([0, 0, rng.randint(1, 20)]) for _ in range(P)]
    demand_max = [lo + rng.randint(20, 400) for lo in demand_min]
    margin = [round(rng.uniform(10, 90), 2) for _ in range(P)]
    need = [sum(hours[p][m] * demand_min[p] for p in range(P)) for m in range(M)]
    regular = [math.ceil(need[m] * 1.1 + rng.uniform(20, 200)) for m in range(M)]
    overtime_cost = [round(rng.uniform(20, 60), 2) for _ in range(M)]
    overtime_max = [rng.randint(0, 80) for _ in range(M)]
    with open(a.out, "w") as f:
        f.write(f'{{"margin": {row(margin)},\n"hours": [\n' + ",\n".join(row(h) for h in hours) + "],\n")
        f.write(f'"regular_hours": {row(regular)},\n"overtime_cost": {row(overtime_cost)},\n')
        f.write(f'"overtime_max": {row(overtime_max)},\n"demand_max": {row(demand_max)},\n')
        f.write(f'"demand_min": {row(demand_min)}}}\n')


if __name__ == "__main__":
    main()
