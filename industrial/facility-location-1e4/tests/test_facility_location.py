"""Supervised tests of a depot plan (industrial/facility-location) against data.json and the tables in data/."""

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
    return {"sites": table("sites.csv"), "customers": table("customers.csv"),
            "lanes": {(r["site"], r["customer"]): r["cost_per_tonne"] for r in table("lanes.parquet")}}


@pytest.fixture(scope="module")
def sent(output):
    """tonnes per (site, customer) as the output states them; repeated lanes are summed."""
    flows = defaultdict(float)
    for s in output["shipments"]:
        flows[(s["site"], s["customer"])] += s["tonnes"]
    return flows


def test_output_keys_and_shapes(output, tables):
    assert {"open", "shipments", "total_cost"} <= set(output), f"output keys {sorted(output)}"
    assert len(output["open"]) == len(tables["sites"]), (
        f"{len(output['open'])} open flags for {len(tables['sites'])} sites")


def test_s1_open_is_binary(output):
    bad = [(i, v) for i, v in enumerate(output["open"]) if min(abs(v), abs(v - 1)) > 1e-6]
    assert not bad, f"open flags not 0 or 1 (index, value): {bad[:5]}"


def test_s3_shipments_only_along_lanes(sent, tables):
    off = [k for k in sent if k not in tables["lanes"]]
    assert not off, f"{len(off)} shipments along pairs that are not lanes, e.g. {off[:3]}"


def test_s10_shipments_not_negative(sent, eps):
    neg = [(k, v) for k, v in sent.items() if v < -eps]
    assert not neg, f"negative shipments: {neg[:3]}"


def test_s4_every_demand_met_exactly(sent, tables, eps):
    got = defaultdict(float)
    for (_, c), t in sent.items():
        got[c] += t
    bad = [(c["customer"], got[c["customer"]], c["demand"]) for c in tables["customers"]
           if abs(got[c["customer"]] - c["demand"]) > eps * max(1, c["demand"])]
    assert not bad, f"{len(bad)} customers not served exactly (customer, received, demand): {bad[:3]}"


def test_s5_capacity_and_closed_sites(sent, tables, output, eps):
    out = defaultdict(float)
    for (s, _), t in sent.items():
        out[s] += t
    bad = [(r["site"], out[r["site"]], r["capacity"] * round(o)) for r, o in zip(tables["sites"], output["open"])
           if out[r["site"]] > r["capacity"] * round(o) + eps * max(1, r["capacity"])]
    assert not bad, f"sites shipping over capacity or while closed (site, shipped, allowed): {bad[:3]}"


def test_s6_lane_at_most_demand(sent, tables, eps):
    demand = {c["customer"]: c["demand"] for c in tables["customers"]}
    bad = [(k, t) for k, t in sent.items() if t > demand[k[1]] + eps * max(1, demand[k[1]])]
    assert not bad, f"lanes carrying more than the customer's demand: {bad[:3]}"


def test_s7_open_count(output, data):
    assert sum(round(v) for v in output["open"]) <= data["max_open"], (
        f"{sum(round(v) for v in output['open'])} sites open > max_open {data['max_open']}")


def test_total_cost_matches_plan(sent, tables, output, eps):
    fixed = sum(r["fixed_cost"] * round(o) for r, o in zip(tables["sites"], output["open"]))
    moving = sum(tables["lanes"][k] * t for k, t in sent.items() if k in tables["lanes"])
    assert abs(fixed + moving - output["total_cost"]) <= eps * max(1, abs(fixed + moving)) * 10, (
        f"total_cost {output['total_cost']} != {fixed + moving} (fixed {fixed} + transport {moving})")
