"""Second reference for the picking route, independent of any solver: every order of the shelves, keeping
those that respect the precedences and the chilled-last rule, and the shortest walk among them."""

import json
from itertools import pairwise, permutations
from pathlib import Path

d = json.loads(Path("data.json").read_text())
dist, N = d["dist"], len(d["chilled"])
chilled = {i + 1 for i, c in enumerate(d["chilled"]) if c}
best, best_route = None, None
for route in permutations(range(1, N + 1)):
    place = {shelf: k for k, shelf in enumerate(route)}
    if any(place[a] > place[b] for a, b in d["before"]):
        continue
    if chilled and min(place[c] for c in chilled) < max((place[g] for g in place if g not in chilled), default=-1):
        continue
    walk = [0, *route, 0]
    length = sum(dist[a][b] for a, b in pairwise(walk))
    if best is None or length < best:
        best, best_route = length, list(route)
status = "optimal" if best is not None else "infeasible"
output = {"route": best_route, "metres": best} if best is not None else {}
Path("output.json").write_text(json.dumps(output))
Path("solution.json").write_text(json.dumps({"status": status, "objective": best}))
