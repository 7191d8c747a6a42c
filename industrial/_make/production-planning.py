"""production-planning: what to make, sell and keep in stock, product by product and period by period.

Multi-period, multi-product: products use hours of several resources (data/usage.csv); each resource has
regular hours per period and may be given whole extra crews for the horizon (integer, at a cost per period);
stock carries over at a holding cost and takes warehouse space; sales are capped by demand
(data/demand.parquet); every product ends with at least its initial stock. Maximize the margin."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from common import ArrayModel, Instance, Table, read_data, read_table

NAME = "production-planning"
# products, periods, resources: variables = 3 * products * periods + resources
SIZES = {"1e3": {"products": 25, "periods": 12, "resources": 6},
         "1e4": {"products": 200, "periods": 16, "resources": 8},
         "1e5": {"products": 800, "periods": 40, "resources": 50},
         "1e6": {"products": 4000, "periods": 80, "resources": 100}}

SNOP = {
    "name": "A plant's production plan over the coming periods",
    "problem_type": "MILP",
    "problem_info": [
        "A plant plans, for each product p of data/products.csv and each period t = 1, ..., "
        "\\param{periods}, how "
        "many units to make \\var{make_{p,t}}, to sell \\var{sell_{p,t}} and to hold in stock at the end of "
        "the "
        "period \\var{stock_{p,t}}, and for each resource r of data/resources.csv how many extra crews "
        "\\var{crews_{r}} to hire for all the periods.",
        "A product's stock at the end of a period is its stock at the end of the period before (its "
        "initial_stock "
        "before period 1) plus what is made minus what is sold in the period.",
        "In a period a product sells at most its demand of data/demand.parquet (no demand listed means "
        "none).",
        "Making a unit of a product takes the hours_per_unit of data/usage.csv on each resource it uses; in "
        "a "
        "period a resource works at most its regular hours plus crew_hours for each extra crew hired.",
        "Extra crews come whole, at most \\param{max_crews} per resource, each costing its crew_cost in "
        "every "
        "period.",
        "The stock at the end of a period takes each unit's space, in total at most \\param{warehouse_space} "
        "cubic metres.",
        "At the end of the last period every product has at least its initial_stock again.",
        "Making, selling and stock are never negative; a unit sells at its price, costs its material_cost to "
        "make and its holding_cost for each period it ends in stock.",
        "The family column groups products for the sales reports, and the plant opened in \\param{opened}; "
        "neither matters for the plan.",
    ],
    "input_format": (
        "{\"periods\": periods, \"max_crews\": max_crews, \"warehouse_space\": warehouse_space, "
        "\"opened\": opened}\n"
        "data/products.csv(product, family, price, material_cost, holding_cost, space, initial_stock)\n"
        "data/resources.csv(resource, hours, crew_hours, crew_cost)\n"
        "data/usage.csv(product, resource, hours_per_unit)\n"
        "data/demand.parquet(product, period, demand)"),
    "objective": "Maximize the margin: sales revenue minus material, holding and extra crew costs.",
    "output_info": [
        "\\var{make}, \\var{sell} and \\var{stock} list, for each product in the order of data/products.csv, "
        "its "
        "quantities for periods 1 to periods.",
        "\\var{crews} lists, for each resource in the order of data/resources.csv, its extra crews.",
        "\\var{margin} is the plan's margin in euros.",
    ],
    "output_format": ("{\"make\": [[make_p_t for t in 1, ..., T] for p in 1, ..., P], "
                      "\"sell\": [[sell_p_t for t in 1, "
                      "..., T] for p in 1, ..., P], \"stock\": [[stock_p_t for t in 1, ..., T] for p in 1, "
                      "..., P], "
                      "\"crews\": [crews_r for r in 1, ..., R], \"margin\": margin}"),
    "solver": "ANY",
}

FAMILIES = ("frames", "panels", "fittings", "seals", "kits")


def instance(size: str, seed: int = 0) -> Instance:
    p = SIZES[size]
    rng = np.random.default_rng([seed, 3])
    n, T, R = p["products"], p["periods"], p["resources"]
    material = rng.integers(4, 40, n)
    price = np.round(material * rng.uniform(1.4, 2.6, n), 2)
    holding = np.round(material * rng.uniform(0.01, 0.04, n), 2)
    space = np.round(rng.uniform(0.02, 0.5, n), 2)
    initial = rng.integers(0, 60, n)
    uses = [np.sort(rng.choice(R, int(rng.integers(2, 4)), replace=False)) for _ in range(n)]
    pu = np.concatenate([np.full(len(u), i) for i, u in enumerate(uses)])
    ru = np.concatenate(uses)
    hpu = np.round(rng.uniform(0.05, 0.5, len(pu)), 2)
    season = 1 + 0.4 * np.sin(2 * np.pi * (np.arange(T) / 12.0 + rng.random(n)[:, None]))
    demand = np.round(rng.uniform(20, 200, n)[:, None] * season * rng.uniform(0.8, 1.2, (n, T)))
    listed = rng.random((n, T)) < 0.9  # some product-periods have no demand row
    need = np.bincount(ru, weights=hpu * demand.mean(1)[pu], minlength=R)
    hours = np.round(need * rng.uniform(0.75, 0.95, R))
    crew_hours = np.round(hours * rng.uniform(0.1, 0.3, R))
    # a crew is clearly cheap or clearly dear per hour: few decisions hang on a cent
    per_hour = np.where(rng.random(R) < 0.5, rng.uniform(2, 5, R), rng.uniform(25, 40, R))
    crew_cost = np.round(crew_hours * per_hour)
    products = [f"PR{i + 1:05d}" for i in range(n)]
    resources = [f"RS{r + 1:03d}" for r in range(R)]
    pi, ti = np.nonzero(listed)
    tables = [
        Table("products.csv", {"product": products, "family": rng.choice(FAMILIES, n), "price": price,
                               "material_cost": material, "holding_cost": holding, "space": space,
                               "initial_stock": initial},
              "One row per product the plant makes.",
              {"product": "the product's identifier", "family": "the product family, for the sales reports",
               "price": "the selling price of a unit, in euros",
               "material_cost": "the cost of making a unit, in euros",
               "holding_cost": "the cost of a unit in stock at the end of a period, in euros",
               "space": "the warehouse space a unit takes, in cubic metres",
               "initial_stock": "units in stock before period 1"}),
        Table("resources.csv", {"resource": resources, "hours": hours, "crew_hours": crew_hours,
                                "crew_cost": crew_cost},
              "One row per resource (a line, a machine group or a crew).",
              {"resource": "the resource's identifier", "hours": "its regular hours in every period",
               "crew_hours": "the hours one extra crew adds in every period",
               "crew_cost": "the cost of one extra crew in every period, in euros"}),
        Table("usage.csv", {"product": [products[i] for i in pu], "resource": [resources[r] for r in ru],
                            "hours_per_unit": hpu},
              "One row per product and resource it needs; a product needs no other resource.",
              {"product": "the product (of products.csv)", "resource": "the resource (of resources.csv)",
               "hours_per_unit": "hours of the resource to make one unit"}),
        Table("demand.parquet", {"product": [products[i] for i in pi], "period": ti + 1,
                                 "demand": demand[pi, ti].astype(int)},
              "One row per product and period with demand; a product-period not listed has no demand.",
              {"product": "the product (of products.csv)", "period": "the period, from 1",
               "demand": "the most units that can be sold in that period"}),
    ]
    space_need = float((space * demand.mean(1)).sum())
    data = {"periods": T, "max_crews": 3, "warehouse_space": round(0.6 * space_need, 1), "opened": 1987}
    return Instance(SNOP, data, tables, "max")


def direct(folder: Path, relax: bool = False, time_limit: float | None = None,
           mps: Path | None = None) -> dict:
    """The same model as reference/solver.py as arrays: make, sell, stock (product-major, then period),
    crews."""
    data = read_data(folder)
    prod, res = read_table(folder, "products.csv"), read_table(folder, "resources.csv")
    usage, dem = read_table(folder, "usage.csv"), read_table(folder, "demand.parquet")
    T, n, R = data["periods"], len(prod["product"]), len(res["resource"])
    at_p = {x: i for i, x in enumerate(prod["product"])}
    at_r = {x: i for i, x in enumerate(res["resource"])}
    cap = np.zeros((n, T))
    cap[[at_p[x] for x in dem["product"]], dem["period"].astype(int) - 1] = dem["demand"]
    model = ArrayModel("max")
    make = model.add_vars(n * T, cost=-np.repeat(prod["material_cost"].astype(float), T)).reshape(n, T)
    sell = model.add_vars(n * T, cost=np.repeat(prod["price"].astype(float), T), ub=cap.ravel()).reshape(n, T)
    stock = model.add_vars(n * T, cost=-np.repeat(prod["holding_cost"].astype(float), T)).reshape(n, T)
    crews = model.add_vars(R, cost=-T * res["crew_cost"].astype(float), ub=data["max_crews"], integer=True)
    # s2 balance: stock[t] - stock[t-1] - make[t] + sell[t] = (initial_stock at t = 1, else 0)
    rhs = np.zeros((n, T))
    rhs[:, 0] = prod["initial_stock"]
    row = np.arange(n * T).reshape(n, T)
    model.add_rows(rhs.ravel(), rhs.ravel(), np.r_[row.ravel(), row[:, 1:].ravel(), row.ravel(), row.ravel()],
                   np.r_[stock.ravel(), stock[:, :-1].ravel(), make.ravel(), sell.ravel()],
                   np.r_[np.ones(n * T), -np.ones(n * (T - 1)), -np.ones(n * T), np.ones(n * T)])
    # s4 hours: sum_p hpu * make[p,t] - crew_hours * crews[r] <= hours
    up, ur = np.array([at_p[x] for x in usage["product"]]), np.array([at_r[x] for x in usage["resource"]])
    t = np.arange(T)
    model.add_rows(np.full(R * T, -np.inf), np.repeat(res["hours"].astype(float), T),
                   np.r_[(ur[:, None] * T + t).ravel(), np.arange(R * T)],
                   np.r_[make[up].ravel(), np.repeat(crews, T)],
                   np.r_[np.repeat(usage["hours_per_unit"].astype(float), T),
                         -np.repeat(res["crew_hours"].astype(float), T)])
    # s6 warehouse: sum_p space * stock[p,t] <= warehouse_space
    model.add_rows(np.full(T, -np.inf), np.full(T, data["warehouse_space"]), np.tile(t, n), stock.ravel(),
                   np.repeat(prod["space"].astype(float), T))
    # s7 end stock: stock[p,T] >= initial_stock
    model.add_rows(prod["initial_stock"].astype(float), np.full(n, np.inf), np.arange(n), stock[:, -1], 1)
    return model.solve(relax=relax, time_limit=time_limit, mps=mps)
