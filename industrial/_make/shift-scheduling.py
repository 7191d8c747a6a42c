"""shift-scheduling: a roster of employees to shifts over the days of a horizon, with rest rules.

One binary per employee, day and shift (none on an employee's days off), at most one shift a day, every shift
staffed to its requirement or the shortfall paid for, a minimum rest between the end of one day's shift and
the start of the next day's, at most max_consecutive working days in a row and at most max_days in all.
Minimize wages plus shortfall penalties."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from common import ArrayModel, Instance, Table, read_data, read_table

NAME = "shift-scheduling"
# employees, days, shift types: variables ≈ employees * days * shifts (+ days * shifts shortfalls)
SIZES = {"1e3": {"employees": 12, "days": 14, "shifts": 5},
         "1e4": {"employees": 40, "days": 28, "shifts": 8},
         "1e5": {"employees": 150, "days": 84, "shifts": 8},
         "1e6": {"employees": 600, "days": 210, "shifts": 8}}
SHIFT_TYPES = [("early", 6, 8), ("day", 8, 8), ("mid", 10, 8), ("split", 12, 6), ("late", 14, 8),
               ("evening", 16, 8), ("night", 22, 8), ("twilight", 18, 6)]

SNOP = {
    "name": "A ward's staff roster with rest rules",
    "problem_type": "MILP",
    "problem_info": [
        "A care home rosters the employees of data/employees.csv onto the shifts of data/shifts.csv on days "
        "1, ..., "
        "\\param{days}: \\var{work_{e,d,s}} is 1 when employee e works shift s on day d, and "
        "\\var{short_{d,s}} "
        "is how many people shift s on day d lacks.",
        "An employee works at most one shift a day, and none on the days listed for them in "
        "data/days_off.csv.",
        "Every shift on every day has at least the staff of data/requirements.csv working, apart from its "
        "shortfall; each person short costs \\param{shortage_penalty} euros.",
        "Between the end of an employee's shift on one day and the start of their shift on the next day "
        "there are "
        "at least \\param{min_rest} hours; a shift starts at start_hour on its day and lasts its hours (it "
        "may end "
        "after midnight).",
        "Nobody works more than \\param{max_consecutive} days in a row, nor more days in all than their "
        "max_days.",
        "An employee is paid their wage per hour for the hours of each shift they work.",
        "The contract column is kept for payroll, and the canteen opens at \\param{canteen_opens} o'clock; "
        "neither "
        "changes the roster.",
    ],
    "input_format": (
        "{\"days\": days, \"min_rest\": min_rest, \"max_consecutive\": max_consecutive, "
        "\"shortage_penalty\": shortage_penalty, \"canteen_opens\": canteen_opens}\n"
        "data/employees.csv(employee, wage, max_days, contract)\n"
        "data/shifts.csv(shift, start_hour, hours)\n"
        "data/requirements.csv(day, shift, staff)\n"
        "data/days_off.csv(employee, day)"),
    "objective": "Minimize the wages paid plus the shortfall penalties.",
    "output_info": [
        "\\var{roster} lists every shift worked as {employee, day, shift}.",
        "\\var{short} lists every shift and day with a shortfall as {day, shift, people}.",
        "\\var{total_cost} is the wages plus the penalties, in euros.",
    ],
    "output_format": ("{\"roster\": [{\"employee\": employee, \"day\": day, \"shift\": shift} "
                      "for each shift worked], "
                      "\"short\": [{\"day\": day, \"shift\": shift, \"people\": people} for each shortfall > "
                      "0], "
                      "\"total_cost\": total_cost}"),
    "solver": "ANY",
}


def instance(size: str, seed: int = 0) -> Instance:
    p = SIZES[size]
    rng = np.random.default_rng([seed, 4])
    E, D, S = p["employees"], p["days"], p["shifts"]
    kinds = SHIFT_TYPES[:S]
    wage = rng.integers(15, 31, E)
    max_days = np.minimum(D, np.round(D * rng.choice([0.5, 0.6, 0.72], E))).astype(int)
    capacity = max_days.sum()
    staff = rng.integers(0, 3, (D, S)) + (rng.random((D, S)) < 0.5)
    staff = np.round(staff * 0.8 * capacity / staff.sum()).astype(int)
    off = rng.random((E, D)) < 0.12
    oe, od = np.nonzero(off)
    employees = [f"E{e + 1:04d}" for e in range(E)]
    dd, ss = np.divmod(np.arange(D * S), S)
    tables = [
        Table("employees.csv", {"employee": employees, "wage": wage, "max_days": max_days,
                                "contract": np.where(max_days > 0.65 * D, "full-time", "part-time")},
              "One row per employee who can be rostered.",
              {"employee": "the employee's identifier", "wage": "pay per hour worked, in euros",
               "max_days": "the most days the employee may work over the horizon",
               "contract": "the contract type, kept for payroll"}),
        Table("shifts.csv", {"shift": [k[0] for k in kinds], "start_hour": [k[1] for k in kinds],
                             "hours": [k[2] for k in kinds]},
              "One row per kind of shift, the same every day.",
              {"shift": "the shift's name", "start_hour": "the hour of the day it starts (0-23)",
               "hours": "how many hours it lasts"}),
        Table("requirements.csv", {"day": dd + 1, "shift": [kinds[s][0] for s in ss], "staff": staff.ravel()},
              "One row per day and shift: how many people it needs.",
              {"day": "the day, from 1", "shift": "the shift (of shifts.csv)", "staff": "people needed"}),
        Table("days_off.csv", {"employee": [employees[e] for e in oe], "day": od + 1},
              "One row per day an employee has off and cannot be rostered.",
              {"employee": "the employee (of employees.csv)", "day": "the day off, from 1"}),
    ]
    data = {"days": D, "min_rest": 11, "max_consecutive": 5, "shortage_penalty": 600, "canteen_opens": 7}
    return Instance(SNOP, data, tables, "min")


def direct(folder: Path, relax: bool = False, time_limit: float | None = None,
           mps: Path | None = None) -> dict:
    """The same model as reference/solver.py as arrays: work over the (employee, day, shift) triples that are
    not on a day off (employee-major, then day, then shift), then short (day-major)."""
    data = read_data(folder)
    emp, sh = read_table(folder, "employees.csv"), read_table(folder, "shifts.csv")
    req, off = read_table(folder, "requirements.csv"), read_table(folder, "days_off.csv")
    D, E, S = data["days"], len(emp["employee"]), len(sh["shift"])
    at_e = {x: i for i, x in enumerate(emp["employee"])}
    at_s = {x: i for i, x in enumerate(sh["shift"])}
    free = np.ones((E, D), bool)
    free[[at_e[x] for x in off["employee"]], off["day"].astype(int) - 1] = False
    exists = np.repeat(free[:, :, None], S, axis=2)
    col = np.full((E, D, S), -1)
    hours = sh["hours"].astype(float)
    model = ArrayModel("min")
    cost = (emp["wage"].astype(float)[:, None, None] * hours[None, None, :] * np.ones((E, D, S)))[exists]
    col[exists] = model.add_vars(int(exists.sum()), cost=cost, ub=1, integer=True)
    short = model.add_vars(D * S, cost=float(data["shortage_penalty"])).reshape(D, S)
    e_, d_, s_ = np.nonzero(exists)
    # s2 one shift a day, for each (employee, day) not off
    pair = np.full((E, D), -1)
    pair[free] = np.arange(int(free.sum()))
    model.add_rows(np.full(int(free.sum()), -np.inf), 1, pair[e_, d_], col[e_, d_, s_], 1)
    # s3 cover: sum_e work + short >= staff
    staff = np.zeros((D, S))
    staff[req["day"].astype(int) - 1, [at_s[x] for x in req["shift"]]] = req["staff"]
    model.add_rows(staff.ravel(), np.full(D * S, np.inf), np.r_[d_ * S + s_, np.arange(D * S)],
                   np.r_[col[e_, d_, s_], short.ravel()], 1)
    # s4 rest: work[e,d,s] + work[e,d+1,s2] <= 1 when 24 + start[s2] - (start[s] + hours[s]) < min_rest
    start = sh["start_hour"].astype(float)
    a, b = np.nonzero(24 + start[None, :] - (start + hours)[:, None] < data["min_rest"])
    both = free[:, :-1, None] & free[:, 1:, None] & np.ones(len(a), bool)  # (E, D-1, pairs)
    e2, d2, k2 = np.nonzero(both)
    rows = np.arange(len(e2))
    model.add_rows(np.full(len(e2), -np.inf), 1, np.r_[rows, rows],
                   np.r_[col[e2, d2, a[k2]], col[e2, d2 + 1, b[k2]]], 1)
    # s5 in a row: every window of max_consecutive + 1 days holding more free days than max_consecutive
    K = data["max_consecutive"]
    win = np.lib.stride_tricks.sliding_window_view(free, K + 1, axis=1)  # (E, D-K, K+1)
    we, wd = np.nonzero(win.sum(2) > K)
    r_, c_ = [], []
    for k, (e, d) in enumerate(zip(we, wd)):
        cells = col[e, d:d + K + 1].ravel()
        cells = cells[cells >= 0]
        r_.append(np.full(len(cells), k)), c_.append(cells)
    model.add_rows(np.full(len(we), -np.inf), K, np.concatenate(r_ or [[]]), np.concatenate(c_ or [[]]), 1)
    # s5 max days: sum_{d,s} work[e,d,s] <= max_days
    model.add_rows(np.full(E, -np.inf), emp["max_days"].astype(float), e_, col[e_, d_, s_], 1)
    return model.solve(relax=relax, time_limit=time_limit, mps=mps)
