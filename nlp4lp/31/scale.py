"""Write a data.json for nlp4lp/31 with about N numeric elements: python scale.py --elements N --out PATH."""

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
    n = max(a.elements, 6)
    J = max(1, round(math.sqrt(n) / 4))
    I = J
    K = max(1, round((n - I - 2 * J - I * J) / (1 + J)))
    demand = [rng.randint(10, 200) for _ in range(K)]
    home = [rng.randrange(J) for _ in range(K)]
    load = [0] * J
    for k in range(K):
        load[home[k]] += demand[k]
    throughput = [math.ceil(v * 1.1) + rng.randint(0, 100) for v in load]
    total = sum(demand)
    supply = [rng.uniform(0.5, 1.5) for _ in range(I)]
    scale = total * 1.2 / sum(supply)
    supply = [math.ceil(s * scale) + 1 for s in supply]
    handling = [round(rng.uniform(2, 6), 2) for _ in range(J)]
    with open(a.out, "w") as f:
        f.write(f'{{"supply": {row(supply)},\n"demand": {row(demand)},\n')
        f.write(f'"throughput": {row(throughput)},\n"handling": {row(handling)},\n"cost_in": [\n')
        f.write(",\n".join(row([round(rng.uniform(5, 30), 1) for _ in range(J)]) for _ in range(I)))
        f.write('],\n"cost_out": [\n')
        for j in range(J):
            vals = [round(rng.uniform(3, 30), 1) if rng.random() > 0.15 else -1 for _ in range(K)]
            for k in range(K):
                if home[k] == j and vals[k] == -1:
                    vals[k] = round(rng.uniform(3, 30), 1)
            f.write(("" if j == 0 else ",\n") + row(vals))
        f.write("]}\n")


if __name__ == "__main__":
    main()
