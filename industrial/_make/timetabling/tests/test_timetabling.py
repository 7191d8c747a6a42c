"""Supervised tests of a weekly timetable (industrial/timetabling) against data.json and the tables in data/."""

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
    return {"courses": {c["course"]: c for c in table("courses.csv")},
            "rooms": {r["room"]: r for r in table("rooms.csv")},
            "periods": {p["period"]: p for p in table("periods.csv")},
            "away": {(u["teacher"], u["period"]) for u in table("unavailable.csv")}}


@pytest.fixture(scope="module")
def lessons(output, tables):
    """The lessons whose course, period and room exist (the others fail test_known_names)."""
    return [x for x in output["lessons"] if x["course"] in tables["courses"] and x["period"] in tables["periods"]
            and x["room"] in tables["rooms"]]


def test_output_keys_and_known_names(output, lessons):
    assert {"lessons", "total_cost"} <= set(output), f"output keys {sorted(output)}"
    unknown = [x for x in output["lessons"] if x not in lessons]
    assert not unknown, f"{len(unknown)} lessons with an unknown course, period or room: {unknown[:3]}"


def test_s2_lessons_a_week_and_one_a_day(lessons, tables):
    count = Counter(x["course"] for x in lessons)
    bad = [(c, count[c], row["lessons"]) for c, row in tables["courses"].items() if count[c] != row["lessons"]]
    assert not bad, f"{len(bad)} courses with the wrong number of lessons (course, got, wanted): {bad[:3]}"
    days = Counter((x["course"], tables["periods"][x["period"]]["day"]) for x in lessons)
    twice = [k for k, n in days.items() if n > 1]
    assert not twice, f"{len(twice)} courses with two lessons on a day (course, day): {twice[:3]}"


def test_s3_room_kind_and_seats(lessons, tables):
    bad = [(x["course"], x["room"]) for x in lessons
           if tables["rooms"][x["room"]]["kind"] != tables["courses"][x["course"]]["room_kind"]
           or tables["rooms"][x["room"]]["seats"] < tables["courses"][x["course"]]["students"]]
    assert not bad, f"{len(bad)} lessons in a room of the wrong kind or too small (course, room): {bad[:3]}"


def test_s4_no_clashes(lessons, tables):
    for name, who in (("room", lambda x: x["room"]), ("teacher", lambda x: tables["courses"][x["course"]]["teacher"]),
                      ("group", lambda x: tables["courses"][x["course"]]["group"])):
        clash = [k for k, n in Counter((who(x), x["period"]) for x in lessons).items() if n > 1]
        assert not clash, f"{len(clash)} {name} clashes ({name}, period): {clash[:3]}"


def test_s5_teachers_available(lessons, tables):
    bad = [(tables["courses"][x["course"]]["teacher"], x["period"]) for x in lessons
           if (tables["courses"][x["course"]]["teacher"], x["period"]) in tables["away"]]
    assert not bad, f"{len(bad)} lessons while the teacher is unavailable (teacher, period): {bad[:3]}"


def test_s6_total_cost_matches(data, output, lessons, tables):
    total = sum(data["seat_cost"] * (tables["rooms"][x["room"]]["seats"] - tables["courses"][x["course"]]["students"])
                + data["late_penalty"] * (tables["periods"][x["period"]]["slot"] >= data["late_slot"]) for x in lessons)
    assert abs(total - output["total_cost"]) <= 1e-6 * max(1, abs(total)), f"total_cost {output['total_cost']} != {total}"
