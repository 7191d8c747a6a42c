"""inventory-routing: on which days to drive which candidate route, refilling customers' tanks to the brim.

A simplified inventory-routing MILP under an order-up-to policy: every visit fills the customer's tank, so a
plan is, per customer, the sequence of its visit days, and each visit day must be served by one candidate
route driven that day (data/routes.csv, stops in data/route_stops.csv). A tank never runs dry (daily usage in
data/usage.parquet); at most `vehicles` routes a day; the depot loads at most `bay_litres` a day. Minimize
route costs plus holding costs. Both models use the interval formulation: one variable per (customer, visit
day, next visit day) that keeps the tank from running dry, so the litres delivered and the stock held are
known per interval."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from common import ArrayModel, Instance, Table, read_data, read_table

NAME = "inventory-routing"
# customers, days: variables ≈ customers * days * (intervals per visit day + routes per customer) ≈ 7 * N * T
SIZES = {"1e3": {"customers": 12, "days": 12},
         "1e4": {"customers": 70, "days": 20},
         "1e5": {"customers": 250, "days": 70},
         "1e6": {"customers": 1000, "days": 180}}

SNOP = {
    "name": "Refilling customers' tanks over the coming days",
    "problem_type": "MILP",
    "problem_info": [
        "A heating-oil distributor plans days 1, ..., \\param{days}: \\var{drive_{r,t}} is 1 when candidate "
        "route r "
        "of data/routes.csv is driven on day t; a route driven visits every customer data/route_stops.csv "
        "lists "
        "for it.",
        "A customer is visited on a day by at most one route driven that day.",
        "Every visit fills the customer's tank to the brim (its tank litres), before that day's usage.",
        "A customer's stock at the end of a day is the stock at the end of the day before (its initial "
        "litres "
        "before day 1), refilled to the tank if visited, minus its usage that day in data/usage.parquet (no "
        "row "
        "means no usage); it is never negative.",
        "At most \\param{vehicles} routes are driven on a day, and the depot loads at most "
        "\\param{bay_litres} "
        "litres a day for all the visits of that day.",
        "Driving a route costs its cost, and each litre in a customer's tank at the end of a day costs the "
        "customer's holding_cost.",
        "Each vehicle holds \\param{vehicle_capacity} litres, and every candidate route's tanks fit in one "
        "vehicle.",
        "The depot opens at \\param{depot_opens} o'clock and the region column is only for the sales team; "
        "neither "
        "changes the plan.",
    ],
    "input_format": (
        "{\"days\": days, \"vehicles\": vehicles, \"bay_litres\": bay_litres, \"vehicle_capacity\": "
        "vehicle_capacity, \"depot_opens\": depot_opens}\n"
        "data/customers.csv(customer, tank, initial, holding_cost, region)\n"
        "data/usage.parquet(customer, day, litres)\n"
        "data/routes.csv(route, cost)\n"
        "data/route_stops.csv(route, customer)"),
    "objective": ("Minimize the cost of the routes driven plus the holding costs of the stock at the end of "
                  "each day."),
    "output_info": [
        "\\var{trips} lists every route driven as {day, route}.",
        "\\var{total_cost} is the plan's cost in euros.",
    ],
    "output_format": ("{\"trips\": [{\"day\": day, \"route\": route} for each route driven], "
                      "\"total_cost\": total_cost}"),
    "solver": "ANY",
}


def routes_near(rng, xy: np.ndarray) -> tuple[list[np.ndarray], np.ndarray]:
    """Customers grouped into clusters of 2 or 3 neighbours (in angular order around the depot); every non-
    empty subset of a cluster is a candidate route. Costs: depot (the centre) -> stops in angular order ->
    depot, 2 euros a kilometre plus 15 a stop."""
    from itertools import combinations

    order = np.argsort(np.arctan2(*(xy - 50.0).T[::-1]) + 0.01 * np.hypot(*(xy - 50.0).T))
    routes, start = [], 0
    while start < len(order):
        cluster = np.sort(order[start:start + int(rng.integers(2, 4))])
        start += len(cluster)
        routes += [np.array(c) for k in range(1, len(cluster) + 1) for c in combinations(cluster, k)]
    depot = np.array([50.0, 50.0])
    cost = []
    for r in routes:
        pts = xy[r][np.argsort(np.arctan2(*(xy[r] - depot).T[::-1]))]
        path = np.vstack([depot, pts, depot])
        cost.append(round(2 * float(np.sqrt((np.diff(path, axis=0) ** 2).sum(1)).sum()) + 15 * len(r), 2))
    return routes, np.array(cost)


def instance(size: str, seed: int = 0) -> Instance:
    p = SIZES[size]
    rng = np.random.default_rng([seed, 5])
    n, T = p["customers"], p["days"]
    xy = rng.random((n, 2)) * 100
    rate = rng.integers(80, 400, n)
    tank = np.round(rate * rng.uniform(2.5, 5, n), -1).astype(int)
    initial = np.round(tank * rng.uniform(0.4, 0.9, n)).astype(int)
    use = np.round(rate[:, None] * rng.uniform(0.6, 1.4, (n, T))).astype(int)
    use[:, 0] = np.minimum(use[:, 0], initial)  # nobody runs dry before the first delivery day can help
    use[rng.random((n, T)) < 0.1] = 0  # closed days
    holding = np.round(rng.uniform(0.002, 0.01, n), 3)
    routes, cost = routes_near(rng, xy)
    customers = [f"H{i + 1:05d}" for i in range(n)]
    names = [f"T{k + 1:05d}" for k in range(len(routes))]
    ui, ut = np.nonzero(use)
    rk = np.concatenate([np.full(len(r), k) for k, r in enumerate(routes)])
    rc = np.concatenate(routes)
    tables = [
        Table("customers.csv", {"customer": customers, "tank": tank, "initial": initial,
                                "holding_cost": holding,
                                "region": rng.choice(["north", "south", "east", "west"], n)},
              "One row per customer whose tank the distributor keeps filled.",
              {"customer": "the customer's identifier", "tank": "the tank's size, in litres",
               "initial": "litres in the tank before day 1",
               "holding_cost": "the cost of a litre in the tank at the end of a day, in euros",
               "region": "the sales region (not used in the plan)"}),
        Table("usage.parquet", {"customer": [customers[i] for i in ui], "day": ut + 1, "litres": use[ui, ut]},
              "One row per customer and day with usage; a customer-day not listed uses nothing.",
              {"customer": "the customer (of customers.csv)", "day": "the day, from 1",
               "litres": "litres the customer uses that day"}),
        Table("routes.csv", {"route": names, "cost": cost},
              "One row per candidate route from the depot.",
              {"route": "the route's identifier", "cost": "the cost of driving it once, in euros"}),
        Table("route_stops.csv", {"route": [names[k] for k in rk], "customer": [customers[i] for i in rc]},
              "One row per customer a candidate route visits.",
              {"route": "the route (of routes.csv)", "customer": "a customer it visits (of customers.csv)"}),
    ]
    data = {"days": T, "vehicles": int(np.ceil(0.4 * n)), "bay_litres": int(np.round(1.2 * tank.sum(), -2)),
            "vehicle_capacity": int(np.round(3 * tank.max(), -3)) + 1000, "depot_opens": 5}
    return Instance(SNOP, data, tables, "min")


def intervals(tank: float, initial: float, usage: np.ndarray, holding: float):
    """The customer's intervals (a, b): visits on day a and next on day b (a = 0: the start, no visit; b = T +
    1: no further visit), with the litres delivered at b and the holding cost of days a..b-1, for every
    interval in which the tank does not run dry. Visits fill the tank before the day's usage."""
    T = len(usage)
    cum = np.r_[0.0, np.cumsum(usage)]  # cum[t] = usage of days 1..t
    out = []
    for a in range(T + 1):
        level = initial if a == 0 else tank  # litres after day a's refill (or at the start)
        first = max(a, 1)
        for b in range(a + 1, T + 2):
            used = cum[b - 1] - cum[first - 1]  # usage of days first..b-1
            if used > level + 1e-9:
                break
            held = holding * (level * (b - first) - (np.cumsum(usage[first - 1:b - 1]).sum()))
            out.append((a, b, tank - (level - used) if b <= T else 0.0, held))
    return out


def direct(folder: Path, relax: bool = False, time_limit: float | None = None,
           mps: Path | None = None) -> dict:
    """The same model as reference/solver.py as arrays: drive (route-major, then day), then the intervals
    (customer-major, by start day, then next day)."""
    data = read_data(folder)
    cust, use = read_table(folder, "customers.csv"), read_table(folder, "usage.parquet")
    routes, stops = read_table(folder, "routes.csv"), read_table(folder, "route_stops.csv")
    T, n, R = data["days"], len(cust["customer"]), len(routes["route"])
    at_c = {x: i for i, x in enumerate(cust["customer"])}
    at_r = {x: k for k, x in enumerate(routes["route"])}
    usage = np.zeros((n, T))
    usage[[at_c[x] for x in use["customer"]], use["day"].astype(int) - 1] = use["litres"]
    arcs = [(i, *arc) for i in range(n)
            for arc in intervals(float(cust["tank"][i]), float(cust["initial"][i]),
                                                              usage[i], float(cust["holding_cost"][i]))]
    ci, a, b, litres, held = (np.array(col) for col in zip(*arcs))
    ci, a, b = ci.astype(np.int64), a.astype(np.int64), b.astype(np.int64)
    model = ArrayModel("min")
    drive = model.add_vars(R * T, cost=np.repeat(routes["cost"].astype(float), T), ub=1, integer=True)
    drive = drive.reshape(R, T)
    y = model.add_vars(len(ci), cost=held, ub=1)
    # s4 flow: one interval out of the start; on each day, intervals in = intervals out (a visit day)
    start = a == 0
    model.add_rows(np.ones(n), np.ones(n), ci[start], y[start], 1)
    into, out = b <= T, a >= 1
    model.add_rows(np.zeros(n * T), np.zeros(n * T),
                   np.r_[ci[into] * T + b[into] - 1, ci[out] * T + a[out] - 1],
                   np.r_[y[into], y[out]], np.r_[np.ones(into.sum()), -np.ones(out.sum())])
    # s2 a visit is one route driven: sum of intervals into (i, t) - sum of routes with i driven on t = 0
    si = np.array([at_c[x] for x in stops["customer"]], np.int64)
    sk = np.array([at_r[x] for x in stops["route"]], np.int64)
    t = np.arange(T)
    model.add_rows(np.zeros(n * T), np.zeros(n * T),
                   np.r_[ci[into] * T + b[into] - 1, (si[:, None] * T + t).ravel()],
                   np.r_[y[into], drive[sk].ravel()], np.r_[np.ones(into.sum()), -np.ones(len(si) * T)])
    # s5 vehicles and the depot's litres a day
    model.add_rows(np.full(T, -np.inf), float(data["vehicles"]), np.tile(t, R), drive.ravel(), 1)
    model.add_rows(np.full(T, -np.inf), float(data["bay_litres"]), b[into] - 1, y[into], litres[into])
    return model.solve(relax=relax, time_limit=time_limit, mps=mps)
