"""Supervised tests of a lot-sizing plan (industrial/lot-sizing) against data.json and the tables in data/."""

import csv
import os
from pathlib import Path

import duckdb
import pytest

DATA = Path(os.environ.get("OPTIMUS_TEST_DIR", ".")) / "data"


def table(name):
    rel = duckdb.sql(f"SELECT * FROM '{DATA / name}'")
    return [dict(zip(rel.columns, r)) for r in rel.fetchall()]


def near(a, b, eps):
    return abs(a - b) <= eps * max(1.0, abs(a), abs(b))


@pytest.fixture(scope="module")
def plant():
    with open(DATA / "line_hours.csv", newline="") as f:
        weeks, hours = list(csv.reader(f))[:2]
    orders = {(r["product"], r["week"]): r["cases"] for r in table("demand.parquet")}
    return {"products": table("products.csv"), "weeks": weeks, "hours": [float(h) for h in hours], "orders": orders}


@pytest.fixture(scope="module")
def plan(output):
    return {r["product"]: r for r in output["plan"]}


def test_output_keys_and_shapes(output, plant, plan):
    assert {"plan", "total_cost"} <= set(output), f"output keys {sorted(output)}"
    assert [p["product"] for p in plant["products"]] == [r["product"] for r in output["plan"]], (
        "plan does not list the products of data/products.csv in order")
    T = len(plant["weeks"])
    bad = [p for p, r in plan.items() if not len(r["make"]) == len(r["stock"]) == len(r["setup"]) == T]
    assert not bad, f"products whose lists are not {T} weeks long: {bad[:3]}"


def test_s1_setups_binary_s11_not_negative(plan, eps):
    bad = [(p, t) for p, r in plan.items() for t in range(len(r["setup"]))
           if min(abs(r["setup"][t]), abs(r["setup"][t] - 1)) > 1e-6 or r["make"][t] < -eps or r["stock"][t] < -eps]
    assert not bad, f"(product, week) with a non-binary setup or a negative amount: {bad[:3]}"


def test_s3_s4_stock_balance(plan, plant, eps):
    bad = []
    for p in plant["products"]:
        r, carried = plan[p["product"]], p["opening_stock"]
        for t, w in enumerate(plant["weeks"]):
            want = carried + r["make"][t] - plant["orders"].get((p["product"], w), 0)
            if not near(r["stock"][t], want, eps):
                bad.append((p["product"], w, r["stock"][t], want))
            carried = r["stock"][t]
    assert not bad, f"{len(bad)} stock balances broken (product, week, stock, carried + made - ordered): {bad[:3]}"


def test_s5_fill_only_when_set_up_s8_batch(plan, data, eps):
    bad = [(p, t, r["make"][t]) for p, r in plan.items() for t in range(len(r["make"]))
           if r["make"][t] > (data["max_batch"] if round(r["setup"][t]) else 0) + eps * data["max_batch"]]
    assert not bad, f"fillings without a setup or above max_batch {data['max_batch']}: {bad[:3]}"


def test_s6_line_hours(plan, plant, eps):
    bad = []
    for t, w in enumerate(plant["weeks"]):
        used = sum(p["hours_per_case"] * plan[p["product"]]["make"][t]
                   + p["setup_hours"] * round(plan[p["product"]]["setup"][t]) for p in plant["products"])
        if used > plant["hours"][t] * (1 + eps) + eps:
            bad.append((w, used, plant["hours"][t]))
    assert not bad, f"weeks over their line hours (week, used, available): {bad[:3]}"


def test_s7_total_cost(plan, plant, output, eps):
    cost = sum(p["setup_cost"] * sum(round(s) for s in plan[p["product"]]["setup"])
               + p["holding_cost"] * sum(plan[p["product"]]["stock"]) for p in plant["products"])
    assert near(cost, output["total_cost"], 10 * eps), f"total_cost {output['total_cost']} != {cost} from the plan"
