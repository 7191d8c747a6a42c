"""Write a data.json for nlp4lp/29 with about N numeric elements: python scale.py --elements N --out PATH."""

import argparse
import math
import random


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
        f.write('{"margin": [' + ", ".join(map(str, margin)) + '],\n"hours": [\n')
        for p in range(P):
            f.write(("[" if p == 0 else ",\n[") + ", ".join(map(str, hours[p])) + "]")
        f.write("],\n")
        for key, vals in (("regular_hours", regular), ("overtime_cost", overtime_cost),
                          ("overtime_max", overtime_max), ("demand_max", demand_max)):
            f.write(f'"{key}": [' + ", ".join(map(str, vals)) + "],\n")
        f.write('"demand_min": [' + ", ".join(map(str, demand_min)) + "]}\n")


if __name__ == "__main__":
    main()
