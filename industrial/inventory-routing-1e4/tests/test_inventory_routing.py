"""Supervised tests of a refilling plan (industrial/inventory-routing) against data.json and the tables in
data/."""

import os
from collections import Counter, defaultdict
from pathlib import Path

import duckdb
import pytest

DATA = Path(os.environ.get("OPTIMUS_TEST_DIR", ".")) / "data"


def table(name):
    rel = duckdb.sql(f"SELECT * FROM '{DATA / name}'")
    return [dict(zip(rel.columns, r)) for r in rel.fetchall()]


@pytest.fixture(scope="module")
def tables():
    stops = defaultdict(list)
    for s in table("route_stops.csv"):
        stops[s["route"]].append(s["customer"])
    return {"customers": table("customers.csv"), "routes": {r["route"]: r["cost"] for r in table("routes.csv")},
            "stops": stops, "usage": {(u["customer"], u["day"]): u["litres"] for u in table("usage.parquet")}}


@pytest.fixture(scope="module")
def plan(data, output, tables):
    """Per customer: the visits (day -> routes) and the end-of-day stock, refilled to the brim on visit days;
    per day: the litres loaded."""
    visits = defaultdict(list)
    for trip in output["trips"]:
        for c in tables["stops"].get(trip["route"], []):
            visits[c, trip["day"]].append(trip["route"])
    stock, loaded = {}, Counter()
    for c in tables["customers"]:
        level = c["initial"]
        for t in range(1, data["days"] + 1):
            if visits.get((c["customer"], t)):
                loaded[t] += c["tank"] - level
                level = c["tank"]
            level -= tables["usage"].get((c["customer"], t), 0)
            stock[c["customer"], t] = level
    return {"visits": visits, "stock": stock, "loaded": loaded}


def test_output_keys_and_known_routes(data, output, tables):
    assert {"trips", "total_cost"} <= set(output), f"output keys {sorted(output)}"
    bad = [x for x in output["trips"] if x["route"] not in tables["routes"] or not 1 <= x["day"] <= data["days"]]
    assert not bad, f"{len(bad)} trips with an unknown route or day: {bad[:3]}"


def test_s2_one_route_a_customer_a_day(plan):
    twice = [(k, v) for k, v in plan["visits"].items() if len(v) > 1]
    assert not twice, f"{len(twice)} customer-days visited by several routes ((customer, day), routes): {twice[:3]}"


def test_s4_tanks_never_run_dry(plan, eps):
    dry = [(k, v) for k, v in plan["stock"].items() if v < -eps]
    assert not dry, f"{len(dry)} customer-days with negative stock ((customer, day), litres): {dry[:3]}"


def test_s5_vehicles_and_bay(data, output, plan, eps):
    per_day = Counter(x["day"] for x in output["trips"])
    over = [(t, k) for t, k in per_day.items() if k > data["vehicles"]]
    assert not over, f"days with more than {data['vehicles']} routes (day, routes): {over}"
    full = [(t, v) for t, v in plan["loaded"].items() if v > data["bay_litres"] + eps * max(1, v)]
    assert not full, f"days loading more than bay_litres {data['bay_litres']} (day, litres): {full[:3]}"


def test_s6_total_cost_matches(output, plan, tables):
    holding = {c["customer"]: c["holding_cost"] for c in tables["customers"]}
    total = sum(tables["routes"][x["route"]] for x in output["trips"] if x["route"] in tables["routes"])
    total += sum(holding[c] * v for (c, _), v in plan["stock"].items())
    assert abs(total - output["total_cost"]) <= 1e-6 * max(1, abs(total)), f"total_cost {output['total_cost']} != {total}"
