"""route-partitioning: choose, among candidate delivery routes, a set that visits every customer exactly once.

A set-partitioning MILP: one binary per candidate route (data/routes.csv, its stops in
data/route_stops.parquet), every customer on exactly one chosen route, at most the vehicles of each depot (a
transposed table), and the chosen routes' hours within the drivers' hours. The candidates are generated around
a hidden partition (so the problem is always feasible): each customer's neighbours, in the depot's angular
order."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from common import ArrayModel, Instance, Table, read_data, read_table, read_transposed

NAME = "route-partitioning"
# customers, candidate routes (= variables), depots
SIZES = {"1e3": {"customers": 100, "routes": 1000, "depots": 3},
         "1e4": {"customers": 1000, "routes": 10000, "depots": 6},
         "1e5": {"customers": 10000, "routes": 100000, "depots": 20},
         "1e6": {"customers": 100000, "routes": 1000000, "depots": 60}}

SNOP = {
    "name": "Tomorrow's delivery routes from candidate routes",
    "problem_type": "MILP",
    "problem_info": [
        "A parcel carrier's planning desk has drawn up the candidate routes of data/routes.csv, each "
        "visiting the "
        "customers listed for it in data/route_stops.parquet; \\var{use_{r}} is 1 when route r is driven "
        "tomorrow and 0 otherwise.",
        "Every customer of data/customers.csv is visited by exactly one route driven tomorrow.",
        "Each route leaves from its depot, and a depot sends out at most as many routes as it has vehicles, "
        "read from data/vehicles.csv.",
        "The routes driven take at most \\param{driver_hours} hours together.",
        "A route driven costs its cost plus a dispatch fee of \\param{dispatch_fee} euros.",
        "The order of the stops on a route and the customers' parcel counts were settled when the routes "
        "were "
        "drawn up and change nothing here.",
        "Diesel cost \\param{diesel_price} euros per litre when the costs were computed.",
    ],
    "input_format": (
        "{\"driver_hours\": driver_hours, \"dispatch_fee\": dispatch_fee, \"diesel_price\": diesel_price}\n"
        "data/customers.csv(customer, parcels, zone)\n"
        "data/routes.csv(route, depot, cost, hours)\n"
        "data/route_stops.parquet(route, stop, customer)\n"
        "data/vehicles.csv, a transposed table: a first row naming every depot, a second row with its "
        "vehicles"),
    "objective": "Minimize the cost of the routes driven, dispatch fees included.",
    "output_info": [
        "\\var{routes} lists the routes driven tomorrow, in the order of data/routes.csv.",
        "\\var{total_cost} is their cost in euros, dispatch fees included.",
    ],
    "output_format": "{\"routes\": [route_k for k in 1, ..., K], \"total_cost\": total_cost}",
    "solver": "ANY",
}


def candidates(rng, xy: np.ndarray, depot_xy: np.ndarray, count: int) -> list[np.ndarray]:
    """At most `count` routes: a hidden partition (runs of 2 to 5 consecutive customers in angular order
    around their nearest depot: a sweep), the other runs of 1 to 8 consecutive customers, then runs skipping
    every other customer."""
    near = np.argmin(((xy[:, None, :] - depot_xy[None, :, :]) ** 2).sum(-1), axis=1)
    angle = np.arctan2(*(xy - depot_xy[near]).T[::-1])
    order = np.lexsort((angle, near))
    routes, start = [], 0
    while start < len(order):
        k = int(rng.integers(2, 6))
        chunk = order[start:start + k]
        chunk = chunk[near[chunk] == near[chunk[0]]]
        routes.append(np.sort(chunk))
        start += len(chunk)
    seen = {tuple(r) for r in routes}
    for k in range(1, 9):
        for s in range(len(order) - k + 1):
            run = order[s:s + k]
            r = np.sort(run)
            if near[run[0]] == near[run[-1]] and tuple(r) not in seen and len(routes) < count:
                seen.add(tuple(r))
                routes.append(r)
    for k in range(2, 6):  # then runs of the sweep that skip every other customer, while routes are wanted
        for s in range(len(order) - 2 * k + 2):
            r = np.sort(order[s:s + 2 * k - 1:2])
            if near[r].min() == near[r].max() and tuple(r) not in seen and len(routes) < count:
                seen.add(tuple(r))
                routes.append(r)
    return routes


def tour(xy: np.ndarray, depot: np.ndarray) -> tuple[np.ndarray, float]:
    """The stops in angular order around the depot, and the length of depot -> stops -> depot."""
    order = np.argsort(np.arctan2(*(xy - depot).T[::-1]))
    path = np.vstack([depot, xy[order], depot])
    return order, float(np.sqrt((np.diff(path, axis=0) ** 2).sum(1)).sum())


def instance(size: str, seed: int = 0) -> Instance:
    p = SIZES[size]
    rng = np.random.default_rng([seed, 2])
    n, nd = p["customers"], p["depots"]
    xy = rng.random((n, 2)) * 100  # km
    depot_xy = rng.random((nd, 2)) * 100
    routes = candidates(rng, xy, depot_xy, p["routes"])
    rows, cost, hours, depot_of = [], [], [], []
    for k, r in enumerate(routes):
        d = int(np.argmin(((depot_xy - xy[r].mean(0)) ** 2).sum(1)))
        order, km = tour(xy[r], depot_xy[d])
        rows += [(k, s + 1, int(r[o])) for s, o in enumerate(order)]
        cost.append(round(1.1 * km + 4.0 * len(r), 2))
        hours.append(round(km / 40 + 0.25 * len(r), 2))
        depot_of.append(d)
    cost, hours, depot_of = np.array(cost), np.array(hours), np.array(depot_of)
    # the first `hidden` routes partition the customers: vehicles and hours are set to let them run
    hidden = hidden_count(routes, n)
    vehicles = np.maximum(2, np.ceil(1.6 * np.bincount(depot_of[:hidden], minlength=nd)))
    customers = [f"K{i + 1:06d}" for i in range(n)]
    names = [f"R{k + 1:07d}" for k in range(len(routes))]
    depots = [f"D{d + 1:03d}" for d in range(nd)]
    stops = np.array(rows)
    tables = [
        Table("customers.csv", {"customer": customers, "parcels": rng.integers(1, 9, n),
                                "zone": [f"Z{int(a // 25)}{int(b // 25)}" for a, b in xy]},
              "One row per customer with a delivery tomorrow.",
              {"customer": "the customer's identifier", "parcels": "how many parcels the customer gets",
               "zone": "the postal zone of the customer's address"}),
        Table("routes.csv",
              {"route": names, "depot": [depots[d] for d in depot_of], "cost": cost, "hours": hours},
              "One row per candidate route the planning desk drew up.",
              {"route": "the route's identifier",
               "depot": "the depot (a name of vehicles.csv) the route leaves from",
               "cost": "the cost of driving the route, in euros, without the dispatch fee",
               "hours": "how long the route takes a driver, in hours"}),
        Table("route_stops.parquet", {"route": [names[k] for k in stops[:, 0]], "stop": stops[:, 1],
                                      "customer": [customers[i] for i in stops[:, 2]]},
              "One row per stop of a candidate route: the route visits that customer.",
              {"route": "the route (a route of routes.csv)",
               "stop": "the stop's position along the route, from 1",
               "customer": "the customer visited (a customer of customers.csv)"}),
        Table("vehicles.csv", dict(zip(depots, vehicles.astype(int))),
              "A transposed table: the first row names every depot (one column each), the second row gives "
              "how "
              "many vehicles that depot has tomorrow.", {}, transposed=True),
    ]
    data = {"driver_hours": round(float(1.3 * hours[:hidden].sum()), 1), "dispatch_fee": 35,
            "diesel_price": 1.62}
    return Instance(SNOP, data, tables, "min")


def hidden_count(routes: list[np.ndarray], n: int) -> int:
    """How many routes, from the first, make the hidden partition (they cover the n customers once)."""
    covered, k = 0, 0
    while covered < n:
        covered += len(routes[k])
        k += 1
    return k


def direct(folder: Path, relax: bool = False, time_limit: float | None = None,
           mps: Path | None = None) -> dict:
    """The same model as reference/solver.py as arrays: one binary per route (table order)."""
    data = read_data(folder)
    customers, routes = read_table(folder, "customers.csv"), read_table(folder, "routes.csv")
    stops = read_table(folder, "route_stops.parquet")
    vehicles = read_transposed(folder, "vehicles.csv")
    at_route = {r: k for k, r in enumerate(routes["route"])}
    at_customer = {c: i for i, c in enumerate(customers["customer"])}
    depots = list(vehicles)
    at_depot = {d: j for j, d in enumerate(depots)}
    nr, n = len(at_route), len(at_customer)
    model = ArrayModel("min")
    use = model.add_vars(nr, cost=routes["cost"].astype(float) + data["dispatch_fee"], ub=1, integer=True)
    k = np.array([at_route[r] for r in stops["route"]], np.int64)
    i = np.array([at_customer[c] for c in stops["customer"]], np.int64)
    model.add_rows(np.ones(n), np.ones(n), i, use[k], 1)  # s2 every customer exactly once
    d = np.array([at_depot[x] for x in routes["depot"]], np.int64)
    model.add_rows(np.full(len(depots), -np.inf), np.array([vehicles[x] for x in depots]), d, use, 1)  # s3
    model.add_rows([-np.inf], [data["driver_hours"]], np.zeros(nr, np.int64), use, routes["hours"])  # s4
    return model.solve(relax=relax, time_limit=time_limit, mps=mps)
