"""Supervised tests of tomorrow's routes (industrial/route-partitioning) against data.json and the tables in
data/."""

import csv
import os
from collections import Counter
from pathlib import Path

import duckdb
import pytest

DATA = Path(os.environ.get("OPTIMUS_TEST_DIR", ".")) / "data"


def table(name):
    rel = duckdb.sql(f"SELECT * FROM '{DATA / name}'")
    return [dict(zip(rel.columns, r)) for r in rel.fetchall()]


@pytest.fixture(scope="module")
def tables():
    with open(DATA / "vehicles.csv", newline="") as f:
        names, counts = list(csv.reader(f))[:2]
    stops = {}
    for s in table("route_stops.parquet"):
        stops.setdefault(s["route"], []).append(s["customer"])
    return {"customers": [c["customer"] for c in table("customers.csv")],
            "routes": {r["route"]: r for r in table("routes.csv")}, "stops": stops,
            "vehicles": {n: float(v) for n, v in zip(names, counts)}}


def test_output_keys_and_known_routes(output, tables):
    assert {"routes", "total_cost"} <= set(output), f"output keys {sorted(output)}"
    unknown = [r for r in output["routes"] if r not in tables["routes"]]
    assert not unknown, f"{len(unknown)} routes not in data/routes.csv, e.g. {unknown[:3]}"
    twice = [r for r, k in Counter(output["routes"]).items() if k > 1]
    assert not twice, f"routes listed more than once: {twice[:3]}"


def test_s2_every_customer_exactly_once(output, tables):
    visits = Counter(c for r in output["routes"] for c in tables["stops"].get(r, []))
    missed = [c for c in tables["customers"] if visits[c] == 0]
    again = [(c, k) for c, k in visits.items() if k > 1]
    assert not missed, f"{len(missed)} customers on no route driven, e.g. {missed[:3]}"
    assert not again, f"{len(again)} customers on several routes driven (customer, routes): {again[:3]}"


def test_s3_vehicles_per_depot(output, tables):
    sent = Counter(tables["routes"][r]["depot"] for r in output["routes"] if r in tables["routes"])
    bad = [(d, k, tables["vehicles"].get(d, 0)) for d, k in sent.items() if k > tables["vehicles"].get(d, 0)]
    assert not bad, f"depots sending more routes than vehicles (depot, routes, vehicles): {bad}"


def test_s4_driver_hours(data, output, tables, eps):
    hours = sum(tables["routes"][r]["hours"] for r in output["routes"] if r in tables["routes"])
    assert hours <= data["driver_hours"] + eps * max(1, hours), f"{hours} hours > driver_hours {data['driver_hours']}"


def test_s5_total_cost_matches_routes(data, output, tables, eps):
    total = sum(tables["routes"][r]["cost"] + data["dispatch_fee"] for r in output["routes"] if r in tables["routes"])
    assert abs(total - output["total_cost"]) <= eps * max(1, abs(total)) * 10, (
        f"total_cost {output['total_cost']} != {total} (route costs plus dispatch fees)")
