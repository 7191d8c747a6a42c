"""Supervised tests of a crew assignment (industrial/generalized-assignment) against the tables in data/."""

import os
from collections import defaultdict
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
def options():
    return {(r["crew"], r["job"]): r for r in table("options.parquet")}


def test_output_keys(output):
    assert {"assignment", "total_cost"} <= set(output), f"output keys {sorted(output)}"


@pytest.fixture(scope="module")
def crew_of(output):
    return {r["job"]: r["crew"] for r in output["assignment"]}


def test_s3_every_job_exactly_once(output, crew_of):
    jobs = [r["job"] for r in table("jobs.csv")]
    missing = [j for j in jobs if j not in crew_of]
    extra = [j for j in crew_of if j not in set(jobs)]
    assert not missing and not extra, f"jobs without a crew: {missing[:3]}; unknown jobs: {extra[:3]}"
    assert len(output["assignment"]) == len(crew_of), "a job is listed twice in assignment"


def test_s2_only_listed_pairs(crew_of, options):
    bad = [(j, c) for j, c in crew_of.items() if (c, j) not in options]
    assert not bad, f"(job, crew) pairs not in data/options.parquet: {bad[:3]}"


def test_s4_crew_hours(crew_of, options, eps):
    used = defaultdict(float)
    for j, c in crew_of.items():
        used[c] += options[c, j]["hours"] if (c, j) in options else 0
    bad = [(c["crew"], used[c["crew"]], c["available_hours"]) for c in table("crews.csv")
           if used[c["crew"]] > c["available_hours"] + eps]
    assert not bad, f"crews over their hours (crew, hours, available): {bad[:3]}"


def test_total_cost(output, crew_of, options, eps):
    cost = sum(options[c, j]["cost"] for j, c in crew_of.items() if (c, j) in options)
    assert near(cost, output["total_cost"], 10 * eps), f"total_cost {output['total_cost']} != {cost}"
