"""Multi-commodity fixed-charge network design: lease links (a fixed charge each) and route every shipment over
leased links within their capacity, at the least charge plus routing cost. Variables: one lease flag per link and one flow per link and shipment."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from common import ArrayModel, Instance, Table, read_data, read_table

NAME = "network-design"
# terminals, links, shipments: variables = links * (shipments + 1)
SIZES = {"1e3": {"nodes": 12, "links": 48, "shipments": 20},
         "1e4": {"nodes": 30, "links": 150, "shipments": 66},
         "1e5": {"nodes": 80, "links": 500, "shipments": 200},
         "1e6": {"nodes": 200, "links": 1600, "shipments": 625}}

SNOP = {
    "name": "Leased freight links for a parcel carrier",
    "problem_type": "MILP",
    "problem_info": [
        "A parcel carrier decides which links of data/links.parquet to lease for the coming season, "
        "\\var{lease_{a}} being 1 when link a is leased, and how many crates per day \\var{flow_{a,k}} of "
        "shipment k of data/shipments.csv travel along link a.",
        "A leased link costs its lease_cost in euros per day; a link that is not leased carries nothing.",
        "A crate moving along a link costs the link's cost_per_crate in euros, whichever shipment it belongs to.",
        "Each shipment's crates leave its origin terminal, enter its destination terminal, and at every other "
        "terminal of data/terminals.csv as many of its crates leave as arrive; links are one-way, from tail to head.",
        "The crates of all shipments on a link together stay within the link's capacity in crates per day.",
        "On a leased link, a shipment's flow is at most the shipment's crates per day.",
        "Every link must be leased for at least \\param{min_lease_days} days if leased at all, which the season "
        "always covers; it does not change the choice.",
        "The hub column of data/terminals.csv marks the carrier's historic hubs; it plays no part in the plan.",
        "Flows cannot be negative.",
    ],
    "input_format": ("{\"min_lease_days\": min_lease_days}\n"
                     "data/terminals.csv(terminal, city, hub)\n"
                     "data/links.parquet(link, tail, head, lease_cost, cost_per_crate, capacity)\n"
                     "data/shipments.csv(shipment, origin, destination, crates)"),
    "objective": "Minimize the daily cost: the lease costs of the leased links plus the routing cost of all crates.",
    "output_info": [
        "\\var{leased} lists the links leased, by their link identifier.",
        "\\var{flows} lists every positive flow as {link, shipment, crates}.",
        "\\var{total_cost} is the daily cost in euros.",
    ],
    "output_format": ("{\"leased\": [link for each leased link], \"flows\": [{\"link\": link, \"shipment\": shipment, "
                      "\"crates\": crates} for each positive flow], \"total_cost\": total_cost}"),
    "solver": "ANY",
}


def _links(rng, n: int, m: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """m one-way links on n terminals placed at random: a ring both ways (so every route exists), then the
    shortest remaining pairs; returns tail, head and the length of each."""
    xy = rng.random((n, 2))
    dist = np.sqrt(((xy[:, None] - xy[None]) ** 2).sum(-1))
    ring = np.argsort(np.arctan2(xy[:, 1] - 0.5, xy[:, 0] - 0.5))
    pairs = {(int(ring[i]), int(ring[(i + 1) % n])) for i in range(n)}
    pairs |= {(b, a) for a, b in pairs}
    for flat in np.argsort(dist, axis=None):
        if len(pairs) >= m:
            break
        a, b = divmod(int(flat), n)
        if a != b and (a, b) not in pairs:
            pairs |= {(a, b), (b, a)} if len(pairs) + 2 <= m else {(a, b)}
    tail, head = np.array(sorted(pairs)).T
    return tail, head, dist[tail, head]


def instance(size: str, seed: int = 0) -> Instance:
    p = SIZES[size]
    rng = np.random.default_rng([seed, 2])
    n, m, k = p["nodes"], p["links"], p["shipments"]
    tail, head, length = _links(rng, n, m)
    m = len(tail)
    orig = rng.integers(0, n, k)
    dest = (orig + rng.integers(1, n, k)) % n
    crates = rng.integers(5, 41, k)
    cap = np.rint(rng.uniform(0.2, 0.4, m) * crates.sum()).astype(int)
    unit = np.rint(length * 40).astype(int) + 1
    lease = rng.integers(3, 9, m) * int(np.ceil(crates.sum() / n))
    terminals = [f"T{i + 1:03d}" for i in range(n)]
    links = [f"L{a + 1:04d}" for a in range(m)]
    names = np.array(terminals)
    tables = [
        Table("terminals.csv", {"terminal": terminals, "city": [f"city {i + 1}" for i in range(n)],
                                "hub": rng.integers(0, 2, n)},
              "One row per terminal (a node of the network).",
              {"terminal": "the terminal's identifier", "city": "the city it serves (for reporting only)",
               "hub": "1 for a historic hub of the carrier, else 0 (for reporting only)"}),
        Table("links.parquet", {"link": links, "tail": names[tail], "head": names[head], "lease_cost": lease,
                                "cost_per_crate": unit, "capacity": cap},
              "One row per one-way link that may be leased.",
              {"link": "the link's identifier", "tail": "the terminal the link leaves",
               "head": "the terminal the link enters", "lease_cost": "the daily cost of leasing the link, in euros",
               "cost_per_crate": "the cost of moving one crate along the link, in euros",
               "capacity": "the most crates per day the link carries, all shipments together"}),
        Table("shipments.csv", {"shipment": [f"K{j + 1:04d}" for j in range(k)], "origin": names[orig],
                                "destination": names[dest], "crates": crates},
              "One row per shipment (a commodity): crates per day from one terminal to another.",
              {"shipment": "the shipment's identifier", "origin": "the terminal its crates start from",
               "destination": "the terminal its crates must reach", "crates": "how many crates per day"}),
    ]
    return Instance(SNOP, {"min_lease_days": 90}, tables, "min")


def direct(folder: Path, relax: bool = False, time_limit: float | None = None) -> dict:
    """Rows: per shipment, per terminal the flow balance; per link the capacity; per link and shipment the
    linking row — the reference program's order."""
    read_data(folder)
    term, links, ship = (read_table(folder, n) for n in ("terminals.csv", "links.parquet", "shipments.csv"))
    ti = {t: i for i, t in enumerate(term["terminal"])}
    tail = np.array([ti[t] for t in links["tail"]])
    head = np.array([ti[t] for t in links["head"]])
    orig = np.array([ti[t] for t in ship["origin"]])
    dest = np.array([ti[t] for t in ship["destination"]])
    n, m, k = len(ti), len(tail), len(orig)
    crates = ship["crates"].astype(float)
    model = ArrayModel("min")
    y = model.add_vars(m, links["lease_cost"], 0, 1, integer=True)
    x = model.add_vars(m * k, np.repeat(links["cost_per_crate"].astype(float), k), 0, np.inf).reshape(m, k)
    # balance of shipment j at terminal v: out - in = crates (origin), -crates (destination), 0 elsewhere
    rhs = np.zeros((k, n))
    rhs[np.arange(k), orig] += crates
    rhs[np.arange(k), dest] -= crates
    j = np.tile(np.arange(k), m)
    a = np.repeat(np.arange(m), k)
    rows = np.concatenate([j * n + tail[a], j * n + head[a]])
    cols = np.concatenate([x[a, j], x[a, j]])
    vals = np.concatenate([np.ones(m * k), -np.ones(m * k)])
    model.add_rows(rhs.ravel(), rhs.ravel(), rows, cols, vals)
    model.add_rows(-np.inf, np.zeros(m), np.concatenate([a, np.arange(m)]), np.concatenate([x[a, j], y]),
                   np.concatenate([np.ones(m * k), -links["capacity"].astype(float)]))
    r = np.arange(m * k)
    model.add_rows(-np.inf, np.zeros(m * k), np.concatenate([r, r]), np.concatenate([x[a, j], y[a]]),
                   np.concatenate([np.ones(m * k), -crates[j]]))
    return model.solve(relax=relax, time_limit=time_limit)


def wrong(output: dict) -> dict:
    """An output the supervised tests must reject: a link that carries crates is no longer leased."""
    used = output["flows"][0]["link"]
    return {**output, "leased": [a for a in output["leased"] if a != used]}
