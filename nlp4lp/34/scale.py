"""Write a data.json for nlp4lp/34 with about N numeric elements: python scale.py --elements N --out PATH."""

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
    T = 3
    J = max(1, round((max(a.elements, 10) - T) / (T + 4)))
    prereq, group, mandatory = [0] * J, [0] * J, [0] * J
    for j in range(1, J):
        if rng.random() < 0.3:
            prereq[j] = rng.randint(max(1, j - 50), j)  # an earlier project, 1-based
    g, j = 0, 0
    while j < J:
        if rng.random() < 0.08 and j + 1 < J:
            g += 1
            size = min(rng.choice([2, 3]), J - j)
            for i in range(j, j + size):
                group[i] = g
            j += size
        else:
            j += 1
    for j in range(J):
        if prereq[j] == 0 and group[j] == 0 and rng.random() < 0.02:
            mandatory[j] = 1
    spend = [[rng.choice([0, rng.randint(5, 200)]) if rng.random() < 0.3 else rng.randint(5, 200) for _ in range(T)]
             for _ in range(J)]
    value = [rng.randint(10, 600) for _ in spend]
    budget = []
    for t in range(T):
        must = sum(spend[j][t] for j in range(J) if mandatory[j])
        rest = sum(spend[j][t] for j in range(J) if not mandatory[j])
        budget.append(must + int(0.3 * rest))
    with open(a.out, "w") as f:
        f.write(f'{{"value": {row(value)},\n"spend": [\n')
        f.write(",\n".join(row(s) for s in spend))
        f.write(f'],\n"budget": {row(budget)},\n"prerequisite": {row(prereq)},\n')
        f.write(f'"group": {row(group)},\n"mandatory": {row(mandatory)}}}\n')


if __name__ == "__main__":
    main()
