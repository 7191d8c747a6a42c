"""Supervised tests of a commitment schedule (industrial/unit-commitment) against the tables in data/."""

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


def transposed(name):
    with open(DATA / name, newline="") as f:
        names, values = list(csv.reader(f))[:2]
    return names, [float(v) for v in values]


@pytest.fixture(scope="module")
def grid():
    hours, load = transposed("load.csv")
    _, reserve = transposed("reserve.csv")
    return {"units": table("units.csv"), "hours": hours, "load": load, "reserve": reserve}


@pytest.fixture(scope="module")
def sched(output):
    return {r["unit"]: r for r in output["schedule"]}


def test_output_keys_and_shapes(output, grid, sched):
    assert {"schedule", "total_cost"} <= set(output), f"output keys {sorted(output)}"
    assert [u["unit"] for u in grid["units"]] == [r["unit"] for r in output["schedule"]], (
        "schedule does not list the units of data/units.csv in order")
    T = len(grid["hours"])
    bad = [g for g, r in sched.items() if not len(r["on"]) == len(r["start"]) == len(r["power"]) == T]
    assert not bad, f"units whose lists are not {T} hours long: {bad[:3]}"


def test_s1_binary(sched):
    bad = [(g, t) for g, r in sched.items() for t in range(len(r["on"]))
           if any(min(abs(x[t]), abs(x[t] - 1)) > 1e-6 for x in (r["on"], r["start"]))]
    assert not bad, f"(unit, hour) with on or start not 0 or 1: {bad[:3]}"


def test_s3_load_met(sched, grid, eps):
    bad = [(h, sum(r["power"][t] for r in sched.values()), grid["load"][t]) for t, h in enumerate(grid["hours"])
           if not near(sum(r["power"][t] for r in sched.values()), grid["load"][t], eps)]
    assert not bad, f"hours whose output is not the load (hour, output, load): {bad[:3]}"


def test_s4_reserve(sched, grid, eps):
    bad = []
    for t, h in enumerate(grid["hours"]):
        spare = sum(u["max_mw"] * round(sched[u["unit"]]["on"][t]) - sched[u["unit"]]["power"][t] for u in grid["units"])
        if spare < grid["reserve"][t] - eps * max(1, grid["reserve"][t]):
            bad.append((h, spare, grid["reserve"][t]))
    assert not bad, f"hours short of reserve (hour, spare, reserve): {bad[:3]}"


def test_s5_output_limits(sched, grid, eps):
    bad = []
    for u in grid["units"]:
        r = sched[u["unit"]]
        for t in range(len(grid["hours"])):
            lo, hi = (u["min_mw"], u["max_mw"]) if round(r["on"][t]) else (0, 0)
            if not lo - eps * max(1, lo) <= r["power"][t] <= hi + eps * max(1, hi):
                bad.append((u["unit"], t, r["on"][t], r["power"][t]))
    assert not bad, f"outputs outside the unit's limits (unit, hour index, on, MW): {bad[:3]}"


def test_s6_starts(sched, grid):
    bad = []
    for u in grid["units"]:
        r, before = sched[u["unit"]], u["was_on"]
        for t in range(len(grid["hours"])):
            if round(r["on"][t]) and not before and not round(r["start"][t]):
                bad.append((u["unit"], t))
            before = round(r["on"][t])
    assert not bad, f"units that came on without a start (unit, hour index): {bad[:3]}"


def test_s7_total_cost(sched, grid, output, eps):
    cost = sum(u["fuel_cost"] * sum(sched[u["unit"]]["power"])
               + u["start_cost"] * sum(map(round, sched[u["unit"]]["start"])) for u in grid["units"])
    assert near(cost, output["total_cost"], 10 * eps), f"total_cost {output['total_cost']} != {cost} from the schedule"
