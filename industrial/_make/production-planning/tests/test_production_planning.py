"""Supervised tests of a production plan (industrial/production-planning) against data.json and data/."""

import os
from collections import defaultdict
from pathlib import Path

import duckdb
import pytest

DATA = Path(os.environ.get("OPTIMUS_TEST_DIR", ".")) / "data"


def table(name):
    rel = duckdb.sql(f"SELECT * FROM '{DATA / name}'")
    return [dict(zip(rel.columns, r)) for r in rel.fetchall()]


@pytest.fixture(scope="module")
def tables():
    return {"products": table("products.csv"), "resources": table("resources.csv"), "usage": table("usage.csv"),
            "demand": {(d["product"], d["period"]): d["demand"] for d in table("demand.parquet")}}


def tol(eps, x):
    return eps * max(1.0, abs(x)) * 10


def test_output_keys_and_shapes(data, output, tables):
    assert {"make", "sell", "stock", "crews", "margin"} <= set(output), f"output keys {sorted(output)}"
    for name in ("make", "sell", "stock"):
        assert len(output[name]) == len(tables["products"]), f"{name}: {len(output[name])} rows for the products"
        bad = [i for i, row in enumerate(output[name]) if len(row) != data["periods"]]
        assert not bad, f"{name}: rows {bad[:3]} do not hold {data['periods']} periods"
    assert len(output["crews"]) == len(tables["resources"]), f"{len(output['crews'])} crews for the resources"


def test_s8_nothing_negative(output, eps):
    bad = [(name, i, t, v) for name in ("make", "sell", "stock") for i, row in enumerate(output[name])
           for t, v in enumerate(row, 1) if v < -eps]
    assert not bad, f"negative quantities (name, product index, period, value): {bad[:3]}"


def test_s2_stock_balance(output, tables, eps):
    bad = []
    for i, p in enumerate(tables["products"]):
        before = p["initial_stock"]
        for t, (made, sold, kept) in enumerate(zip(output["make"][i], output["sell"][i], output["stock"][i]), 1):
            if abs(before + made - sold - kept) > tol(eps, before + made):
                bad.append((p["product"], t, before + made - sold, kept))
            before = kept
    assert not bad, f"{len(bad)} stock balances broken (product, period, should be, stock): {bad[:3]}"


def test_s3_sales_within_demand(output, tables, eps):
    bad = [(p["product"], t, v, tables["demand"].get((p["product"], t), 0))
           for i, p in enumerate(tables["products"]) for t, v in enumerate(output["sell"][i], 1)
           if v > tables["demand"].get((p["product"], t), 0) + tol(eps, v)]
    assert not bad, f"{len(bad)} sales above demand (product, period, sold, demand): {bad[:3]}"


def test_s5_crews_whole_and_capped(data, output):
    bad = [(r, c) for r, c in enumerate(output["crews"]) if abs(c - round(c)) > 1e-6 or not 0 <= round(c) <= data["max_crews"]]
    assert not bad, f"crews not whole or beyond 0..{data['max_crews']} (resource index, crews): {bad}"


def test_s4_resource_hours(data, output, tables, eps):
    row = {p["product"]: i for i, p in enumerate(tables["products"])}
    used = defaultdict(float)
    for u in tables["usage"]:
        for t in range(data["periods"]):
            used[u["resource"], t + 1] += u["hours_per_unit"] * output["make"][row[u["product"]]][t]
    bad = []
    for r, res in enumerate(tables["resources"]):
        allowed = res["hours"] + res["crew_hours"] * round(output["crews"][r])
        bad += [(res["resource"], t, used[res["resource"], t], allowed) for t in range(1, data["periods"] + 1)
                if used[res["resource"], t] > allowed + tol(eps, allowed)]
    assert not bad, f"{len(bad)} resource-periods over their hours (resource, period, used, allowed): {bad[:3]}"


def test_s6_warehouse_space(data, output, tables, eps):
    for t in range(data["periods"]):
        taken = sum(p["space"] * output["stock"][i][t] for i, p in enumerate(tables["products"]))
        assert taken <= data["warehouse_space"] + tol(eps, taken), (
            f"period {t + 1}: stock takes {taken} m3 > warehouse_space {data['warehouse_space']}")


def test_s7_end_stock(output, tables, eps):
    bad = [(p["product"], output["stock"][i][-1], p["initial_stock"]) for i, p in enumerate(tables["products"])
           if output["stock"][i][-1] < p["initial_stock"] - tol(eps, p["initial_stock"])]
    assert not bad, f"{len(bad)} products end below their initial stock (product, end, initial): {bad[:3]}"


def test_margin_matches_plan(data, output, tables, eps):
    margin = sum(p["price"] * s - p["material_cost"] * mk - p["holding_cost"] * st
                 for i, p in enumerate(tables["products"])
                 for mk, s, st in zip(output["make"][i], output["sell"][i], output["stock"][i]))
    margin -= sum(data["periods"] * r["crew_cost"] * round(c) for r, c in zip(tables["resources"], output["crews"]))
    assert abs(margin - output["margin"]) <= 1e-6 * max(1, abs(margin)), f"margin {output['margin']} != {margin}"
