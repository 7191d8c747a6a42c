"""Supervised tests of a staff roster (industrial/shift-scheduling) against data.json and the tables in data/."""

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
    return {"employees": {e["employee"]: e for e in table("employees.csv")},
            "shifts": {s["shift"]: s for s in table("shifts.csv")},
            "staff": {(r["day"], r["shift"]): r["staff"] for r in table("requirements.csv")},
            "off": {(o["employee"], o["day"]) for o in table("days_off.csv")}}


@pytest.fixture(scope="module")
def worked(output):
    """employee -> {day: shift} as the roster says (a second shift on a day is caught by its own test)."""
    by = defaultdict(dict)
    for r in output["roster"]:
        by[r["employee"]][r["day"]] = r["shift"]
    return by


def test_output_keys_and_known_names(data, output, tables):
    assert {"roster", "short", "total_cost"} <= set(output), f"output keys {sorted(output)}"
    bad = [r for r in output["roster"] if r["employee"] not in tables["employees"]
           or r["shift"] not in tables["shifts"] or not 1 <= r["day"] <= data["days"]]
    assert not bad, f"{len(bad)} roster entries with an unknown employee, shift or day: {bad[:3]}"


def test_s2_one_shift_a_day_and_no_day_off(output, tables):
    twice = [k for k, n in Counter((r["employee"], r["day"]) for r in output["roster"]).items() if n > 1]
    assert not twice, f"{len(twice)} employee-days with more than one shift: {twice[:3]}"
    off = [(r["employee"], r["day"]) for r in output["roster"] if (r["employee"], r["day"]) in tables["off"]]
    assert not off, f"{len(off)} shifts on a day off (employee, day): {off[:3]}"


def test_s3_cover_with_shortfalls(data, output, tables, eps):
    got = Counter((r["day"], r["shift"]) for r in output["roster"])
    short = defaultdict(float)
    for s in output["short"]:
        assert s["people"] >= -eps, f"negative shortfall {s}"
        short[s["day"], s["shift"]] += s["people"]
    bad = [(k, got[k], short[k], need) for k, need in tables["staff"].items() if got[k] + short[k] < need - eps]
    assert not bad, f"{len(bad)} shifts under their staff (day/shift, worked, short, needed): {bad[:3]}"


def test_s4_rest_between_days(data, worked, tables):
    bad = []
    for e, by_day in worked.items():
        for d, a in by_day.items():
            b = by_day.get(d + 1)
            if b is not None:
                sa, sb = tables["shifts"][a], tables["shifts"][b]
                rest = 24 + sb["start_hour"] - (sa["start_hour"] + sa["hours"])
                if rest < data["min_rest"]:
                    bad.append((e, d, a, b, rest))
    assert not bad, f"{len(bad)} rests shorter than {data['min_rest']} h (employee, day, shift, next, hours): {bad[:3]}"


def test_s5_days_in_a_row_and_in_all(data, worked, tables):
    K = data["max_consecutive"]
    long_runs = [(e, d) for e, by_day in worked.items() for d in by_day if all(d + k in by_day for k in range(K + 1))]
    assert not long_runs, f"{len(long_runs)} runs of more than {K} days (employee, first day): {long_runs[:3]}"
    over = [(e, len(by_day), tables["employees"][e]["max_days"]) for e, by_day in worked.items()
            if len(by_day) > tables["employees"][e]["max_days"]]
    assert not over, f"employees over their max_days (employee, days, max): {over[:3]}"


def test_s6_total_cost_matches(data, output, tables, eps):
    wages = sum(tables["employees"][r["employee"]]["wage"] * tables["shifts"][r["shift"]]["hours"]
                for r in output["roster"])
    total = wages + data["shortage_penalty"] * sum(s["people"] for s in output["short"])
    assert abs(total - output["total_cost"]) <= 1e-6 * max(1, abs(total)), (
        f"total_cost {output['total_cost']} != {total} (wages {wages} plus penalties)")
