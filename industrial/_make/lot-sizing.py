"""Multi-item capacitated lot sizing with setup costs and times: when to set the line up for each product and how
much to make, meeting demand from production and stock within each week's line hours. Variables:
production, end stock and a setup flag per product and period. The period capacities are a transposed table."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from common import ArrayModel, Instance, Table, read_data, read_table, read_transposed

NAME = "lot-sizing"
WINDOW = 2  # the tightening rows look this many weeks ahead
# products, periods: variables = 3 * products * periods
SIZES = {"1e3": {"products": 14, "periods": 24},
         "1e4": {"products": 140, "periods": 24},
         "1e5": {"products": 1400, "periods": 24},
         "1e6": {"products": 7000, "periods": 48}}

SNOP = {
    "name": "Weekly lot sizes on a shared packaging line",
    "problem_type": "MILP",
    "problem_info": [
        "A beverage plant plans, for every product p of data/products.csv and every week t of the horizon, "
        "how many cases to fill \\var{make_{p,t}}, how many to hold in stock at the end of the week "
        "\\var{stock_{p,t}}, and whether the line is set up for p that week \\var{setup_{p,t}} (1 or 0).",
        "The weeks are the columns of the one-row table data/line_hours.csv, in order; each column holds the "
        "line hours available that week.",
        "data/demand.parquet gives the cases of each product ordered for each week; orders must be met on time, "
        "from that week's filling and the stock carried in.",
        "Stock at the end of a week is the stock carried in plus the cases filled minus the cases ordered; "
        "each product starts the horizon with its opening_stock.",
        "A product can be filled in a week only if the line is set up for it that week.",
        "Filling a case of p takes hours_per_case hours of the line, and a setup for p takes setup_hours; "
        "together they stay within the week's line hours.",
        "A setup for p costs its setup_cost and every case held at the end of a week costs its holding_cost, "
        "both in euros.",
        "In any week at most \\param{max_batch} cases of a single product are filled.",
        "The plant was certified to ISO 22000 in \\param{certified_year}; the certificate places no limit on "
        "the plan.",
        "The flavour column of data/products.csv is for the sales team and changes nothing.",
        "Fillings and stocks cannot be negative.",
    ],
    "input_format": ("{\"max_batch\": max_batch, \"certified_year\": certified_year}\n"
                     "data/products.csv(product, setup_cost, holding_cost, hours_per_case, setup_hours, "
                     "opening_stock, flavour)\n"
                     "data/demand.parquet(product, week, cases)\n"
                     "data/line_hours.csv — transposed: one row of week names (w01, w02, ...), one row of line hours"),
    "objective": "Minimize the total setup and holding cost over the horizon.",
    "output_info": [
        "\\var{plan} lists, for every product in the order of data/products.csv, a record with the product, its "
        "weekly fillings make, end stocks stock and setups setup (lists over the weeks, in order).",
        "\\var{total_cost} is the total setup and holding cost in euros.",
    ],
    "output_format": ("{\"plan\": [{\"product\": product, \"make\": [make_t for t in weeks], \"stock\": [stock_t for "
                      "t in weeks], \"setup\": [setup_t for t in weeks]} for each product], \"total_cost\": total_cost}"),
    "solver": "ANY",
}


def instance(size: str, seed: int = 0) -> Instance:
    p = SIZES[size]
    rng = np.random.default_rng([seed, 3])
    n, T = p["products"], p["periods"]
    base = rng.integers(20, 120, n)
    season = 1 + 0.3 * np.sin(np.arange(T) / T * 2 * np.pi + rng.random(n)[:, None] * 6)
    demand = np.rint(base[:, None] * season * rng.uniform(0.5, 1.5, (n, T))).astype(int)
    demand[rng.random((n, T)) < 0.1] = 0
    per_case = rng.integers(1, 4, n) / 100  # hours
    setup_h = rng.integers(1, 5, n) / 10
    load = (demand * per_case[:, None]).sum(0) + setup_h.sum() * 0.5
    hours = np.rint(load.mean() * rng.uniform(1.4, 1.8, T)).astype(int)
    opening = np.where(rng.random(n) < 0.3, demand[:, 0], 0)
    weeks = [f"w{t + 1:02d}" for t in range(T)]
    products = [f"P{i + 1:05d}" for i in range(n)]
    prod_col, week_col = np.repeat(products, T), np.tile(weeks, n)
    tables = [
        Table("products.csv", {"product": products, "setup_cost": rng.integers(10, 90, n),
                               "holding_cost": rng.integers(1, 6, n), "hours_per_case": per_case,
                               "setup_hours": setup_h, "opening_stock": opening,
                               "flavour": np.array(["citrus", "cola", "berry", "plain"])[rng.integers(0, 4, n)]},
              "One row per product filled on the line.",
              {"product": "the product's identifier", "setup_cost": "the cost of one setup of the line, in euros",
               "holding_cost": "the cost of holding one case through the end of a week, in euros",
               "hours_per_case": "the line hours one case takes", "setup_hours": "the line hours one setup takes",
               "opening_stock": "cases in stock when the horizon starts",
               "flavour": "the flavour family (for the sales team only)"}),
        Table("demand.parquet", {"product": prod_col, "week": week_col, "cases": demand.ravel()},
              "One row per product and week: the cases ordered for that week (0 when none).",
              {"product": "the product (of products.csv)", "week": "the week (a column name of line_hours.csv)",
               "cases": "the cases ordered for delivery that week"}),
        Table("line_hours.csv", {w: [h] for w, h in zip(weeks, hours)},
              "Transposed: one row of names (the weeks, in order), one row of values: the line hours available.",
              {w: f"the line hours available in week {t + 1}" for t, w in enumerate(weeks)}, transposed=True),
    ]
    return Instance(SNOP, {"max_batch": int(demand.max() * 3), "certified_year": 2019}, tables, "min")


def direct(folder: Path, relax: bool = False, time_limit: float | None = None) -> dict:
    """Rows per product and week: balance, setup link (make <= min(max_batch, (hours - setup_hours) / hours_per_case) * setup);
    then per week the line hours — the reference program's order."""
    d = read_data(folder)
    prod, dem = read_table(folder, "products.csv"), read_table(folder, "demand.parquet")
    hours = read_transposed(folder, "line_hours.csv")
    weeks = list(hours)
    pi, wi = {p: i for i, p in enumerate(prod["product"])}, {w: t for t, w in enumerate(weeks)}
    n, T = len(pi), len(weeks)
    demand = np.zeros((n, T))
    demand[[pi[p] for p in dem["product"]], [wi[w] for w in dem["week"]]] = dem["cases"]
    per_case, setup_h = prod["hours_per_case"].astype(float), prod["setup_hours"].astype(float)
    cap = np.array([hours[w] for w in weeks])
    m = ArrayModel("min")
    make = m.add_vars(n * T, 0.0, 0, np.inf).reshape(n, T)
    stock = m.add_vars(n * T, np.repeat(prod["holding_cost"].astype(float), T), 0, np.inf).reshape(n, T)
    setup = m.add_vars(n * T, np.repeat(prod["setup_cost"].astype(float), T), 0, 1, integer=True).reshape(n, T)
    rhs = demand.copy()
    rhs[:, 0] -= prod["opening_stock"]
    r = np.arange(n * T).reshape(n, T)
    prev = r[:, 1:]  # stock[p, t-1] enters the balance of week t
    m.add_rows(rhs.ravel(), rhs.ravel(), np.concatenate([r.ravel(), r.ravel(), prev.ravel()]),
               np.concatenate([make.ravel(), stock.ravel(), stock[:, :-1].ravel()]),
               np.concatenate([np.ones(n * T), -np.ones(n * T), np.ones(n * (T - 1))]))
    big = np.minimum(float(d["max_batch"]), (cap[None, :] - setup_h[:, None]) / per_case[:, None])
    m.add_rows(-np.inf, np.zeros(n * T), np.concatenate([r.ravel(), r.ravel()]),
               np.concatenate([make.ravel(), setup.ravel()]), np.concatenate([np.ones(n * T), -big.ravel()]))
    # valid tightening for windows of 1..WINDOW weeks: what is made in week t serves the orders of weeks t..l
    # or is still in stock at the end of week l
    for w in range(WINDOW):
        rows = np.arange(n * (T - w))
        served = np.stack([demand[:, k:T - w + k] for k in range(w + 1)]).sum(0)
        m.add_rows(-np.inf, np.zeros(n * (T - w)), np.concatenate([rows, rows, rows]),
                   np.concatenate([make[:, :T - w].ravel(), stock[:, w:].ravel(), setup[:, :T - w].ravel()]),
                   np.concatenate([np.ones(n * (T - w)), -np.ones(n * (T - w)), -served.ravel()]))
    t = np.tile(np.arange(T), n)
    m.add_rows(-np.inf, cap, np.concatenate([t, t]), np.concatenate([make.ravel(), setup.ravel()]),
               np.concatenate([np.repeat(per_case, T), np.repeat(setup_h, T)]))
    return m.solve(relax=relax, time_limit=time_limit)


def wrong(output: dict) -> dict:
    """An output the supervised tests must reject: one more case filled than the stock balance allows."""
    first = dict(output["plan"][0], make=[output["plan"][0]["make"][0] + 1, *output["plan"][0]["make"][1:]])
    return {**output, "plan": [first, *output["plan"][1:]]}
