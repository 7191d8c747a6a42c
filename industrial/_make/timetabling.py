"""timetabling: a week's lessons into periods and rooms, without clashes of rooms, teachers or student groups.

One binary per course, period and room of the kind the course needs with enough seats (none in a period its
teacher is unavailable): every course gets its weekly lessons, at most one a day; a room, a teacher and a
group hold at most one lesson a period. Minimize empty seats (at a cost per seat) plus a penalty for late
lessons. The data are drawn around a hidden timetable, so a timetable always exists."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from common import ArrayModel, Instance, Table, read_data, read_table

NAME = "timetabling"
# courses, days, slots a day, rooms per kind: variables ≈ courses * days * slots * rooms of the kind that fit
SIZES = {"1e3": {"courses": 14, "days": 5, "slots": 6, "rooms": 3},
         "1e4": {"courses": 60, "days": 5, "slots": 8, "rooms": 6},
         "1e5": {"courses": 300, "days": 5, "slots": 8, "rooms": 14},
         "1e6": {"courses": 1500, "days": 6, "slots": 9, "rooms": 21}}
KINDS = ("classroom", "lab", "hall")

SNOP = {
    "name": "A school's weekly timetable",
    "problem_type": "MILP",
    "problem_info": [
        "A school places the weekly lessons of the courses of data/courses.csv into the periods of "
        "data/periods.csv and the rooms of data/rooms.csv: \\var{x_{c,p,r}} is 1 when course c has a lesson "
        "in "
        "period p in room r.",
        "Every course has exactly its number of lessons a week, at most one on any day.",
        "A lesson needs a room of the kind the course asks for with at least as many seats as the course has "
        "students.",
        "A room holds at most one lesson in a period; a teacher teaches and a student group attends at most "
        "one "
        "lesson in a period.",
        "No teacher teaches in a period listed for them in data/unavailable.csv.",
        "Every empty seat in a lesson's room costs \\param{seat_cost}, and every lesson in a slot numbered "
        "\\param{late_slot} or later costs \\param{late_penalty}.",
        "The building column of data/rooms.csv is for the caretakers, and a bell rings every "
        "\\param{bell_minutes} "
        "minutes; neither changes the timetable.",
    ],
    "input_format": (
        "{\"seat_cost\": seat_cost, \"late_slot\": late_slot, \"late_penalty\": late_penalty, "
        "\"bell_minutes\": bell_minutes}\n"
        "data/courses.csv(course, teacher, group, lessons, students, room_kind)\n"
        "data/rooms.csv(room, kind, seats, building)\n"
        "data/periods.csv(period, day, slot)\n"
        "data/unavailable.csv(teacher, period)"),
    "objective": "Minimize the cost of empty seats plus the late-lesson penalties.",
    "output_info": [
        "\\var{lessons} lists every lesson as {course, period, room}.",
        "\\var{total_cost} is the timetable's cost.",
    ],
    "output_format": ("{\"lessons\": [{\"course\": course, \"period\": period, \"room\": room} "
                      "for each lesson], "
                      "\"total_cost\": total_cost}"),
    "solver": "ANY",
}


def hidden(rng, lessons, teacher, group, kind, room_kind, days: int, slots: int) -> np.ndarray:
    """(course, period, room) rows of a timetable that respects every rule, placing courses greedily at
    random."""
    busy_room, busy_t, busy_g, rows = set(), set(), set(), []
    for c in rng.permutation(len(lessons)):
        placed = 0
        for d in rng.permutation(days):
            for s in rng.permutation(slots):
                p = d * slots + s
                if (teacher[c], p) in busy_t or (group[c], p) in busy_g:
                    continue
                free = [r for r in np.flatnonzero(room_kind == kind[c]) if (r, p) not in busy_room]
                if free:
                    r = free[int(rng.integers(len(free)))]
                    busy_room.add((r, p)), busy_t.add((teacher[c], p)), busy_g.add((group[c], p))
                    rows.append((c, p, r))
                    placed += 1
                    break
            if placed == lessons[c]:
                break
        lessons[c] = placed  # a course the greedy cannot fully place gets the lessons it placed
    return np.array(rows)


def instance(size: str, seed: int = 0) -> Instance:
    p = SIZES[size]
    rng = np.random.default_rng([seed, 6])
    n, D, S, per_kind = p["courses"], p["days"], p["slots"], p["rooms"]
    P = D * S
    room_kind = np.repeat(np.arange(len(KINDS)), per_kind)
    seats = rng.choice([24, 30, 36, 48, 60, 90], len(room_kind))
    kind = rng.choice(len(KINDS), n, p=[0.6, 0.25, 0.15])
    biggest = np.array([seats[room_kind == k].max() for k in range(len(KINDS))])
    students = np.minimum(rng.integers(10, 60, n), biggest[kind])
    lessons = rng.integers(2, 5, n)
    teacher = rng.integers(0, max(2, n // 2), n)
    group = rng.integers(0, max(2, n // 5), n)
    lessons = lessons.copy()
    used = hidden(rng, lessons, teacher, group, kind, room_kind, D, S)
    taken = {(teacher[c], p) for c, p, _ in used}
    drawn = zip(rng.integers(0, teacher.max() + 1, n * 3), rng.integers(0, P, n * 3))
    unavailable = sorted({(int(t), int(q)) for t, q in drawn if (t, q) not in taken})
    courses = [f"CO{c + 1:04d}" for c in range(n)]
    rooms = [f"RM{r + 1:03d}" for r in range(len(room_kind))]
    periods = [f"{day}-{slot + 1}" for day in ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat")[:D]
               for slot in range(S)]
    teachers = [f"TE{t + 1:04d}" for t in range(teacher.max() + 1)]
    tables = [
        Table("courses.csv", {"course": courses, "teacher": [teachers[t] for t in teacher],
                              "group": [f"G{g + 1:03d}" for g in group], "lessons": lessons,
                              "students": students,
                              "room_kind": [KINDS[k] for k in kind]},
              "One row per course taught this term.",
              {"course": "the course's identifier", "teacher": "who teaches it",
               "group": "the student group that takes it", "lessons": "lessons it has a week",
               "students": "students in the group", "room_kind": "the kind of room its lessons need"}),
        Table("rooms.csv", {"room": rooms, "kind": [KINDS[k] for k in room_kind], "seats": seats,
                            "building": rng.choice(["Old Hall", "North Wing", "Annex"], len(rooms))},
              "One row per teaching room.",
              {"room": "the room's identifier", "kind": "what kind of room it is",
               "seats": "how many seats it has",
               "building": "the building it is in (for the caretakers)"}),
        Table("periods.csv", {"period": periods, "day": [q.split("-")[0] for q in periods],
                              "slot": [int(q.split("-")[1]) for q in periods]},
              "One row per teaching period of the week.",
              {"period": "the period's name", "day": "the day of the week",
               "slot": "its place in the day, from 1 (the first lesson of the morning)"}),
        Table("unavailable.csv", {"teacher": [teachers[t] for t, _ in unavailable],
                                  "period": [periods[q] for _, q in unavailable]},
              "One row per period in which a teacher cannot teach.",
              {"teacher": "the teacher (as in courses.csv)", "period": "the period (of periods.csv)"}),
    ]
    data = {"seat_cost": 1, "late_slot": S - 1, "late_penalty": 25, "bell_minutes": 45}
    return Instance(SNOP, data, tables, "min")


def direct(folder: Path, relax: bool = False, time_limit: float | None = None,
           mps: Path | None = None) -> dict:
    """The same model as reference/solver.py as arrays: x over (course, period, room) with a room of the
    course's kind and enough seats and the teacher available, course-major, then period, then room (table
    orders)."""
    data = read_data(folder)
    co, rm = read_table(folder, "courses.csv"), read_table(folder, "rooms.csv")
    pe, un = read_table(folder, "periods.csv"), read_table(folder, "unavailable.csv")
    P = len(pe["period"])
    teachers = {t: k for k, t in enumerate(dict.fromkeys(co["teacher"]))}
    at_p = {x: i for i, x in enumerate(pe["period"])}
    tc = np.array([teachers[t] for t in co["teacher"]])
    away = np.zeros((len(teachers), P), bool)
    keep = [t in teachers for t in un["teacher"]]
    away[[teachers[t] for t, k in zip(un["teacher"], keep) if k],
         [at_p[q] for q, k in zip(un["period"], keep) if k]] = True
    fits = ((co["room_kind"][:, None] == rm["kind"][None, :])
            & (co["students"][:, None] <= rm["seats"][None, :]))
    exists = fits[:, None, :] & ~away[tc][:, :, None]  # (course, period, room)
    c_, p_, r_ = np.nonzero(exists)
    late = (pe["slot"] >= data["late_slot"]).astype(float)
    cost = data["seat_cost"] * (rm["seats"][r_] - co["students"][c_]) + data["late_penalty"] * late[p_]
    model = ArrayModel("min")
    x = model.add_vars(len(c_), cost=cost, ub=1, integer=True)
    model.add_rows(co["lessons"].astype(float), co["lessons"].astype(float), c_, x, 1)  # s2 lessons
    day = {d: k for k, d in enumerate(dict.fromkeys(pe["day"]))}
    pd = np.array([day[d] for d in pe["day"]])
    at_most_one(model, c_ * len(day) + pd[p_], x)  # s2 one a day, per (course, day) with a variable
    at_most_one(model, r_ * P + p_, x)  # s4 room
    at_most_one(model, tc[c_] * P + p_, x)  # s4 teacher
    groups = {g: k for k, g in enumerate(dict.fromkeys(co["group"]))}
    gc = np.array([groups[g] for g in co["group"]])
    at_most_one(model, gc[c_] * P + p_, x)  # s4 group
    return model.solve(relax=relax, time_limit=time_limit, mps=mps)


def at_most_one(model: ArrayModel, key: np.ndarray, x: np.ndarray) -> None:
    """One row `sum x <= 1` per distinct key, in increasing key order."""
    keys, row = np.unique(key, return_inverse=True)
    model.add_rows(np.full(len(keys), -np.inf), 1, row, x, 1)
