"""Supervised tests of a packing (industrial/bin-packing-conflicts) against data.json and the tables in data/."""

import csv
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
    with open(DATA / "handling.csv", newline="") as f:
        names, rates = list(csv.reader(f))[:2]
    return {"items": table("items.csv"), "boxes": {r["container"]: r for r in table("containers.csv")},
            "conflicts": table("conflicts.csv"), "rate": {n: float(r) for n, r in zip(names, rates)}}


@pytest.fixture(scope="module")
def load(output, tables):
    """kilograms per container as the output packs them."""
    kg = defaultdict(float)
    for item, c in zip(tables["items"], output["container"]):
        kg[c] += item["weight"]
    return kg


def test_output_keys_and_shapes(output, tables):
    assert {"container", "used", "total_cost"} <= set(output), f"output keys {sorted(output)}"
    assert len(output["container"]) == len(tables["items"]), (
        f"{len(output['container'])} containers given for {len(tables['items'])} parcels")


def test_s2_known_container_of_the_parcels_town(output, tables):
    bad = [(i["item"], c) for i, c in zip(tables["items"], output["container"])
           if c not in tables["boxes"] or tables["boxes"][c]["destination"] != i["destination"]]
    assert not bad, f"{len(bad)} parcels in an unknown container or one bound elsewhere (parcel, container): {bad[:3]}"


def test_s2_only_used_containers(output):
    unused = sorted(set(output["container"]) - set(output["used"]))
    assert not unused, f"containers holding parcels but not listed as used: {unused[:5]}"


def test_s3_capacity(data, load, tables, eps):
    bad = [(c, kg, data["fill_limit"] * tables["boxes"][c]["capacity"]) for c, kg in load.items()
           if c in tables["boxes"] and kg > data["fill_limit"] * tables["boxes"][c]["capacity"] + eps * max(1, kg)]
    assert not bad, f"containers over fill_limit x capacity (container, kg, allowed): {bad[:3]}"


def test_s4_conflicting_parcels_apart(output, tables):
    where = {i["item"]: c for i, c in zip(tables["items"], output["container"])}
    bad = [(p["item_a"], p["item_b"], where[p["item_a"]]) for p in tables["conflicts"]
           if where[p["item_a"]] == where[p["item_b"]]]
    assert not bad, f"{len(bad)} conflicting pairs share a container (a, b, container): {bad[:3]}"


def test_s5_total_cost_matches_packing(output, tables, eps):
    fixed = sum(tables["boxes"][c]["cost"] for c in set(output["used"]))
    handling = sum(i["weight"] * tables["rate"][c] for i, c in zip(tables["items"], output["container"]))
    total = fixed + handling
    assert abs(total - output["total_cost"]) <= eps * max(1, abs(total)) * 10, (
        f"total_cost {output['total_cost']} != {total} (containers {fixed} + handling {handling})")
