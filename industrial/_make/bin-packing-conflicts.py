"""bin-packing-conflicts: parcels into containers of several sizes, some parcels never together in one
container.

Every container has a capacity, a cost for using it and a handling rate per kilogram (a transposed table); a
parcel goes into exactly one used container, a container is filled up to a share of its capacity, and two
parcels of a conflicting pair never share a container. Minimize the containers' costs plus the handling
costs."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from common import ArrayModel, Instance, Table, read_data, read_table, read_transposed

NAME = "bin-packing-conflicts"
# items × containers binaries (+ one per container) ≈ the size's variables
# destinations × (items × containers of that destination) binaries ≈ the size's variables
SIZES = {"1e3": {"destinations": 20}, "1e4": {"destinations": 200}, "1e5": {"destinations": 2000},
         "1e6": {"destinations": 20000}}

SNOP = {
    "name": "Parcels into containers, some parcels kept apart",
    "problem_type": "MILP",
    "problem_info": [
        "A forwarder packs the parcels of data/items.csv into the containers of data/containers.csv for "
        "tonight's "
        "departure: \\var{x_{i,c}} is 1 when parcel i goes into container c, and \\var{y_{c}} is 1 when "
        "container c "
        "is used.",
        "Every parcel goes into exactly one container, that container must be bound for the parcel's "
        "destination, "
        "and a parcel only goes into a container that is used.",
        "The parcels in a container weigh together at most \\param{fill_limit} times the container's "
        "capacity (the "
        "rest is kept free for dunnage).",
        "The two parcels of a pair in data/conflicts.csv never travel in the same container.",
        "Using a container costs its cost; putting a parcel into a container costs the parcel's weight times "
        "that "
        "container's handling rate per kilogram, read from data/handling.csv.",
        "All containers leave from dock \\param{dock}; who sent a parcel (the sender column) does not matter "
        "for "
        "the packing.",
        "Last month the forwarder shipped about \\param{last_month_parcels} parcels.",
    ],
    "input_format": (
        "{\"fill_limit\": fill_limit, \"dock\": dock, \"last_month_parcels\": last_month_parcels}\n"
        "data/items.csv(item, weight, destination, sender)\n"
        "data/containers.csv(container, destination, capacity, cost)\n"
        "data/conflicts.csv(item_a, item_b)\n"
        "data/handling.csv, a transposed table: a first row naming every container, a second row with its "
        "handling rate"),
    "objective": ("Minimize the total cost: the costs of the containers used plus the handling costs of all "
                  "parcels."),
    "output_info": [
        "\\var{container} gives, for every parcel in the order of data/items.csv, the container it goes "
        "into.",
        "\\var{used} lists the containers used, in the order of data/containers.csv.",
        "\\var{total_cost} is the total cost in euros.",
    ],
    "output_format": ("{\"container\": [container_i for i in 1, ..., I], "
                      "\"used\": [container_u for u in 1, ..., U], "
               "\"total_cost\": total_cost}"),
    "solver": "ANY",
}

CAPACITY = np.array([200, 300, 500])
FILL = 0.9
SENDERS = ("Alder & Co", "Brightwell", "Corvid Foods", "Dunmore Chemicals", "Elm Street Books")


def instance(size: str, seed: int = 0):
    rng = np.random.default_rng([seed, 1])
    g = SIZES[size]["destinations"]
    weights, kinds, pairs, per_item, per_box = [], [], [], [], []
    for _ in range(g):
        w, kind, hidden = parcels(rng)
        first = sum(per_item)
        k = len(w)  # conflicts only between parcels the hidden packing keeps apart: always feasible
        a, b = rng.integers(0, len(w), k), rng.integers(0, len(w), k)
        pairs += sorted({(first + min(i, j), first + max(i, j))
                         for i, j in zip(a, b) if hidden[i] != hidden[j]})
        weights.append(w), kinds.append(kind), per_item.append(len(w)), per_box.append(len(kind))
    weight, kind = np.concatenate(weights), np.concatenate(kinds)
    item_dest, box_dest = np.repeat(np.arange(g), per_item), np.repeat(np.arange(g), per_box)
    n, m = len(item_dest), len(box_dest)
    capacity = CAPACITY[kind]
    cost = np.round(np.array([12, 16, 24])[kind] * rng.uniform(0.85, 1.15, m)).astype(int)
    rate = np.round(rng.uniform(0.5, 3.0, m), 2)
    items = [f"P{i + 1:06d}" for i in range(n)]
    boxes = [f"C{b + 1:05d}" for b in range(m)]
    towns = [f"T{d + 1:04d}" for d in range(g)]
    tables = [
        Table("items.csv", {"item": items, "weight": weight, "destination": [towns[d] for d in item_dest],
                     "sender": rng.choice(SENDERS, n)},
              "One row per parcel to ship tonight.",
              {"item": "the parcel's identifier", "weight": "the parcel's weight, in kilograms",
               "destination": "the town the parcel is addressed to",
               "sender": "the customer who sent the parcel (not used for packing)"}),
        Table("containers.csv", {"container": boxes, "destination": [towns[d] for d in box_dest],
                          "capacity": capacity, "cost": cost},
              "One row per container that may be used tonight; each is bound for one town.",
              {"container": "the container's identifier", "destination": "the town the container goes to",
               "capacity": "the most it may carry, in kilograms",
               "cost": "the cost of using the container, in euros"}),
        Table("conflicts.csv",
              {"item_a": [items[a] for a, _ in pairs], "item_b": [items[b] for _, b in pairs]},
              "One row per pair of parcels that must not share a container (e.g. food and chemicals).",
              {"item_a": "one parcel of the pair (an item of items.csv)",
               "item_b": "the other parcel of the pair (an item of items.csv)"}),
        Table("handling.csv", dict(zip(boxes, rate)),
              "A transposed table: the first row names every container of containers.csv (one column each), "
              "the second row gives that container's handling rate, in euros per kilogram loaded.", {},
              transposed=True),
    ]
    data = {"fill_limit": FILL, "dock": 4, "last_month_parcels": int(n * 27)}
    return Instance(SNOP, data, tables, "min")


def parcels(rng) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One destination's parcel weights, container kinds and a packing that fits (a random container that
    fits, opening more as needed, then two spares)."""
    w = rng.integers(5, 31, rng.integers(7, 11))
    kind, load, hidden = list(rng.integers(0, 3, 3)), [], np.zeros(len(w), int)
    load = [0.0] * len(kind)
    for i, wi in enumerate(w):
        fit = [b for b in range(len(kind)) if load[b] + wi <= FILL * CAPACITY[kind[b]]]
        if not fit:
            kind.append(int(rng.integers(0, 3))), load.append(0.0)
            fit = [len(kind) - 1]
        hidden[i] = fit[int(rng.integers(0, len(fit)))]
        load[hidden[i]] += wi
    kind += rng.integers(0, 3, 2).tolist()
    return w, np.array(kind), hidden


def pairs_of(items: dict, boxes: dict) -> tuple[np.ndarray, np.ndarray]:
    """The (parcel, container) pairs with the same destination, parcel-major, containers in table order."""
    item_d, box_d = items["destination"], boxes["destination"]
    order = np.argsort(box_d, kind="stable")
    lo = np.searchsorted(box_d[order], item_d, "left")
    hi = np.searchsorted(box_d[order], item_d, "right")
    i = np.repeat(np.arange(len(item_d)), hi - lo)
    b = order[np.concatenate([np.arange(s, e) for s, e in zip(lo, hi)])] if len(i) else np.zeros(0, np.int64)
    sub = np.lexsort((b, i))
    return i[sub], b[sub]


def direct(folder: Path, relax: bool = False, time_limit: float | None = None,
           mps: Path | None = None) -> dict:
    """The same model as reference/solver.py, built as arrays: x over the (parcel, container) pairs of one
    destination (parcel-major), then y per container."""
    data = read_data(folder)
    items, boxes = read_table(folder, "items.csv"), read_table(folder, "containers.csv")
    conf = read_table(folder, "conflicts.csv")
    rate = read_transposed(folder, "handling.csv")
    n, m = len(items["item"]), len(boxes["container"])
    pi, pb = pairs_of(items, boxes)
    k = len(pi)
    w = items["weight"].astype(float)
    r = np.array([rate[b] for b in boxes["container"]])
    model = ArrayModel("min")
    x = model.add_vars(k, cost=w[pi] * r[pb], ub=1, integer=True)
    y = model.add_vars(m, cost=boxes["cost"].astype(float), ub=1, integer=True)
    model.add_rows(np.ones(n), np.ones(n), pi, x, 1)  # s2 one container per parcel
    model.add_rows(np.full(k, -np.inf), 0, np.r_[np.arange(k), np.arange(k)], np.r_[x, y[pb]],
                   np.r_[np.ones(k), -np.ones(k)])  # s2 only into a used container
    cap = data["fill_limit"] * boxes["capacity"].astype(float)
    model.add_rows(np.full(m, -np.inf), 0, np.r_[pb, np.arange(m)], np.r_[x, y],
                   np.r_[w[pi], -cap])  # s3 capacity
    # s4 conflicts: x_a,b + x_b',b - y_b <= 0 for every pair and every container of their destination
    at = {name: i for i, name in enumerate(items["item"])}
    a = np.array([at[v] for v in conf["item_a"]], np.int64)
    b = np.array([at[v] for v in conf["item_b"]], np.int64)
    first = np.searchsorted(pi, np.arange(n))  # pairs of parcel i are x[first[i]: first[i] + count[i]]
    count = np.bincount(pi, minlength=n)
    rep = count[a]
    offs = np.arange(rep.sum()) - np.repeat(np.cumsum(rep) - rep, rep)
    xa, xb = first[np.repeat(a, rep)] + offs, first[np.repeat(b, rep)] + offs
    rows = np.arange(len(xa))
    model.add_rows(np.full(len(xa), -np.inf), 0, np.r_[rows, rows, rows], np.r_[x[xa], x[xb], y[pb[xa]]],
                   np.r_[np.ones(2 * len(xa)), -np.ones(len(xa))])
    return model.solve(relax=relax, time_limit=time_limit, mps=mps)
