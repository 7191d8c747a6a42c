"""Capacitated facility location: open depots and ship every customer's demand from open depots within reach,
at the least fixed plus transport cost. Customers may be served only from the sites listed
for them in lanes.parquet (their nearest few), so the model grows with customers x lanes per customer."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from common import ArrayModel, Instance, Table, read_data, read_table

NAME = "facility-location"
# sites, customers, lanes per customer: variables = customers * lanes + sites
SIZES = {"1e3": {"sites": 20, "customers": 160, "lanes": 6},
         "1e4": {"sites": 40, "customers": 1600, "lanes": 6},
         "1e5": {"sites": 160, "customers": 12000, "lanes": 8},
         "1e6": {"sites": 500, "customers": 100000, "lanes": 10}}

SNOP = {
    "name": "Depot network for a building-materials wholesaler",
    "problem_type": "MILP",
    "problem_info": [
        "A building-materials wholesaler chooses which candidate depot sites of data/sites.csv to open, "
        "\\var{open_{i}} being 1 when site i opens and 0 otherwise, and how many tonnes per week \\var{ship_{i,j}} "
        "site i sends to customer j of data/customers.csv.",
        "An open site costs its fixed_cost in euros per week, whatever it ships.",
        "A customer can be served only along the lanes of data/lanes.parquet; a tonne sent along a lane costs "
        "the lane's cost_per_tonne in euros.",
        "Every customer receives exactly its weekly demand in tonnes, possibly split between several sites.",
        "A site ships at most its capacity in tonnes per week, and nothing unless it is open.",
        "Along any lane, a site sends a customer no more than the customer's demand, and only when the site is open.",
        "At most \\param{max_open} sites may be open at once.",
        "The region and surveyed_year columns of data/sites.csv and the segment column of data/customers.csv are "
        "kept for reporting; they change nothing in the plan.",
        "The wholesaler has run its own trucks since \\param{fleet_since}, which has no bearing on the costs here.",
        "Shipments cannot be negative.",
    ],
    "input_format": ("{\"max_open\": max_open, \"fleet_since\": fleet_since}\n"
                     "data/sites.csv(site, fixed_cost, capacity, region, surveyed_year)\n"
                     "data/customers.csv(customer, demand, segment)\n"
                     "data/lanes.parquet(site, customer, cost_per_tonne)"),
    "objective": "Minimize the weekly cost: the fixed costs of the open sites plus the cost of every tonne shipped.",
    "output_info": [
        "\\var{open} lists, for each site in the order of data/sites.csv, 1 when it is open and 0 otherwise.",
        "\\var{shipments} lists every lane that carries a positive amount, as {site, customer, tonnes}.",
        "\\var{total_cost} is the weekly cost in euros.",
    ],
    "output_format": ("{\"open\": [open_i for i in 1, ..., I], \"shipments\": [{\"site\": site, \"customer\": customer, "
                      "\"tonnes\": tonnes} for each lane with tonnes > 0], \"total_cost\": total_cost}"),
    "solver": "ANY",
}


def instance(size: str, seed: int = 0) -> Instance:
    p = SIZES[size]
    rng = np.random.default_rng([seed, 1])
    nf, nc, k = p["sites"], p["customers"], p["lanes"]
    site_xy, cust_xy = rng.random((nf, 2)), rng.random((nc, 2))
    demand = rng.integers(5, 36, nc)
    capacity = rng.integers(1, 3, nf) * int(np.ceil(3.0 * demand.sum() / nf / 2))
    fixed = rng.integers(100, 250, nf) * 10 * max(1, nc // nf // 8)
    near, gap = np.zeros((nc, k), int), np.zeros((nc, k))
    for lo in range(0, nc, 4096):  # in chunks: at 1e6 the full distance matrix would take gigabytes
        dist = np.sqrt(((cust_xy[lo:lo + 4096, None, :] - site_xy[None, :, :]) ** 2).sum(-1))
        near[lo:lo + 4096] = np.argsort(dist, axis=1)[:, :k]  # each customer's k nearest sites
        gap[lo:lo + 4096] = np.take_along_axis(dist, near[lo:lo + 4096], axis=1)
    lane_c = np.repeat(np.arange(nc), k)
    lane_s = near.ravel()
    cost = np.rint(gap.ravel() * 200).astype(int) + rng.integers(1, 6, nc * k)
    order = np.lexsort((lane_c, lane_s))  # lanes listed by site, then customer
    sites = [f"S{i + 1:04d}" for i in range(nf)]
    custs = [f"C{j + 1:06d}" for j in range(nc)]
    regions = np.array(["north", "south", "east", "west"])[rng.integers(0, 4, nf)]
    tables = [
        Table("sites.csv", {"site": sites, "fixed_cost": fixed, "capacity": capacity, "region": regions,
                            "surveyed_year": rng.integers(2015, 2025, nf)},
              "One row per candidate depot site.",
              {"site": "the site's identifier", "fixed_cost": "the weekly cost of keeping the site open, in euros",
               "capacity": "the most the site can ship per week, in tonnes",
               "region": "the sales region the site lies in (for reporting only)",
               "surveyed_year": "the year the site was surveyed (for reporting only)"}),
        Table("customers.csv", {"customer": custs, "demand": demand,
                                "segment": np.array(["trade", "retail", "public"])[rng.integers(0, 3, nc)]},
              "One row per customer.",
              {"customer": "the customer's identifier", "demand": "the tonnes the customer needs each week",
               "segment": "the customer's market segment (for reporting only)"}),
        Table("lanes.parquet", {"site": np.array(sites)[lane_s[order]], "customer": np.array(custs)[lane_c[order]],
                                "cost_per_tonne": cost[order]},
              "One row per lane: a site that may serve a customer. A pair not listed cannot be used.",
              {"site": "the serving site (a site of sites.csv)", "customer": "the customer served (of customers.csv)",
               "cost_per_tonne": "the cost of moving one tonne along the lane, in euros"}),
    ]
    return Instance(SNOP, {"max_open": int(np.ceil(nf * 0.6)), "fleet_since": 1987}, tables, "min")


def direct(folder: Path, relax: bool = False, time_limit: float | None = None) -> dict:
    """The same model as the reference program, built as arrays: rows in the reference's order."""
    d = read_data(folder)
    sites, custs, lanes = (read_table(folder, n) for n in ("sites.csv", "customers.csv", "lanes.parquet"))
    si = {s: i for i, s in enumerate(sites["site"])}
    ci = {c: j for j, c in enumerate(custs["customer"])}
    ls = np.array([si[s] for s in lanes["site"]])
    lc = np.array([ci[c] for c in lanes["customer"]])
    nf, nl = len(si), len(ls)
    dem, cap = custs["demand"].astype(float), sites["capacity"].astype(float)
    m = ArrayModel("min")
    y = m.add_vars(nf, sites["fixed_cost"], 0, 1, integer=True)
    x = m.add_vars(nl, lanes["cost_per_tonne"], 0, np.inf)
    m.add_rows(dem, dem, lc, x, 1.0)  # demand of each customer
    m.add_rows(-np.inf, np.zeros(nf), np.concatenate([ls, np.arange(nf)]), np.concatenate([x, y]),
               np.concatenate([np.ones(nl), -cap]))  # capacity of each site, only when open
    r = np.arange(nl)
    m.add_rows(-np.inf, np.zeros(nl), np.concatenate([r, r]), np.concatenate([x, y[ls]]),
               np.concatenate([np.ones(nl), -dem[lc]]))  # per lane: at most the demand, only when open
    m.add_rows(-np.inf, d["max_open"], np.zeros(nf, int), y, 1.0)
    return m.solve(relax=relax, time_limit=time_limit)


def wrong(output: dict) -> dict:
    """An output the supervised tests must reject: the first shipment left out (a customer short)."""
    return {**output, "shipments": output["shipments"][1:]}
