"""Supervised tests of a clinic plan (industrial/p-median) against data.json and the tables in data/."""

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
def towns():
    return {r["town"]: r for r in table("towns.csv")}


def test_output_keys(output):
    assert {"clinics", "assigned", "weighted_minutes"} <= set(output), f"output keys {sorted(output)}"


def test_s1_exactly_p_clinics(output, data, towns):
    clinics = set(output["clinics"])
    assert len(clinics) == len(output["clinics"]) == data["clinics"], (
        f"{len(output['clinics'])} clinics listed ({len(clinics)} distinct), want {data['clinics']}")
    assert clinics <= set(towns), f"clinics in unknown towns: {sorted(clinics - set(towns))[:3]}"


@pytest.fixture(scope="module")
def clinic_of(output):
    return {r["town"]: r["clinic"] for r in output["assigned"]}


def test_s3_every_town_assigned_once(output, towns, clinic_of):
    missing = [t for t in towns if t not in clinic_of]
    assert not missing, f"towns without a clinic: {missing[:3]}"
    assert len(output["assigned"]) == len(clinic_of), "a town is assigned twice"


def test_s2_only_to_open_clinics(output, clinic_of):
    clinics = set(output["clinics"])
    bad = [(s, t) for s, t in clinic_of.items() if t not in clinics]
    assert not bad, f"towns assigned to a town without a clinic: {bad[:3]}"


def test_s5_weighted_minutes(output, towns, clinic_of, eps):
    minutes = {(r["from_town"], r["to_town"]): r["minutes"] for r in table("travel.parquet")}
    total = sum(towns[s]["population"] * minutes[s, t] for s, t in clinic_of.items())
    assert near(total, output["weighted_minutes"], 10 * eps), f"weighted_minutes {output['weighted_minutes']} != {total}"
