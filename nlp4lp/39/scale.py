"""Write a data.json for nlp4lp/39 with about N numeric elements: python scale.py --elements N --out PATH."""

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
    n = max(a.elements, 7)
    H = max(2, round(n / 6))
    S = max(1, round((n - 1 - H) / 5))
    start, length, cost, cap, part = [], [], [], [], []
    cover = [0] * (H + 1)  # difference array of the hidden staffing's coverage
    for _ in range(S):
        st = rng.randint(1, H)
        ln = min(rng.choice([4, 6, 8, 8, 10]), H - st + 1)
        pt = 1 if ln <= 4 else 0
        hidden = 0 if pt else rng.randint(0, 6)
        start.append(st)
        length.append(ln)
        part.append(pt)
        cost.append(round(ln * rng.uniform(20, 27), 2))
        cap.append(hidden + rng.randint(0, 3))
        cover[st - 1] += hidden
        cover[st - 1 + ln] -= hidden
    required, on = [], 0
    for h in range(H):
        on += cover[h]
        required.append(int(on * rng.uniform(0.6, 1.0)))
    with open(a.out, "w") as f:
        f.write(f'{{"required": {row(required)},\n"shift_start": {row(start)},\n"shift_length": {row(length)},\n')
        f.write(f'"shift_cost": {row(cost)},\n"max_agents": {row(cap)},\n"part_time": {row(part)},\n')
        f.write(f'"max_part_time_share": {round(rng.uniform(0.1, 0.4), 2)}}}\n')


if __name__ == "__main__":
    main()
