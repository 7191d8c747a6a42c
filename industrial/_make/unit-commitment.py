"""Unit commitment: which generating units run in each hour and at what output, so that every hour's load is met
and a spinning reserve is held, at the least fuel and start-up cost. Variables: on, start and output per
unit and hour (no cost for running as such: a no-load cost made the 1e4 size unprovable in minutes). The hourly load and reserve are transposed tables (one row of hour names, one of values)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from common import ArrayModel, Instance, Table, read_data, read_table, read_transposed

NAME = "unit-commitment"
# units, hours: variables = 3 * units * hours
SIZES = {"1e3": {"units": 14, "hours": 24},
         "1e4": {"units": 140, "hours": 24},
         "1e5": {"units": 700, "hours": 48},
         "1e6": {"units": 7000, "hours": 48}}

SNOP = {
    "name": "Day-ahead unit commitment for a regional grid",
    "problem_type": "MILP",
    "problem_info": [
        "A grid operator decides, for every generating unit g of data/units.csv and every hour h, whether the unit "
        "runs \\var{on_{g,h}} (1 or 0), whether it is started that hour \\var{start_{g,h}} (1 or 0), and its "
        "output \\var{power_{g,h}} in MW.",
        "The hours are the columns of the one-row tables data/load.csv and data/reserve.csv, in order.",
        "In every hour the outputs of all units add up exactly to that hour's load in data/load.csv, in MW.",
        "In every hour the units that run can together raise their output by at least that hour's reserve in "
        "data/reserve.csv: the sum over running units of max_mw minus output is at least the reserve.",
        "A running unit produces between its min_mw and its max_mw; a unit that is off produces nothing.",
        "A unit is started in an hour when it runs that hour and did not run the hour before; before the first "
        "hour each unit runs exactly when its was_on column is 1.",
        "A unit costs its fuel_cost per MWh produced and its start_cost for every start, in euros.",
        "The reserve must also be covered at \\param{reserve_margin_pct} percent of load, which the figures of "
        "data/reserve.csv already include; it adds nothing.",
        "The fuel column of data/units.csv and the grid's \\param{voltage_kv} kV rating are given for "
        "information only.",
    ],
    "input_format": ("{\"reserve_margin_pct\": reserve_margin_pct, \"voltage_kv\": voltage_kv}\n"
                     "data/units.csv(unit, min_mw, max_mw, fuel_cost, start_cost, was_on, fuel)\n"
                     "data/load.csv — transposed: one row of hour names (h01, h02, ...), one row of MW\n"
                     "data/reserve.csv — transposed: the same hour names, one row of MW"),
    "objective": "Minimize the total fuel and start-up cost over the day.",
    "output_info": [
        "\\var{schedule} lists, for every unit in the order of data/units.csv, a record with the unit, on, start and "
        "power (lists over the hours, in order).",
        "\\var{total_cost} is the total cost in euros.",
    ],
    "output_format": ("{\"schedule\": [{\"unit\": unit, \"on\": [on_h for h in hours], \"start\": [start_h for h in "
                      "hours], \"power\": [power_h for h in hours]} for each unit], \"total_cost\": total_cost}"),
    "solver": "ANY",
}


def instance(size: str, seed: int = 0) -> Instance:
    p = SIZES[size]
    rng = np.random.default_rng([seed, 4])
    n, T = p["units"], p["hours"]
    cap = rng.integers(5, 41, n) * 10
    pmin = np.rint(cap * rng.uniform(0.1, 0.3, n)).astype(int)
    fuel = rng.integers(18, 60, n)
    shape = 0.65 + 0.3 * np.sin((np.arange(T) % 24 - 7) / 24 * 2 * np.pi) ** 2
    load = np.rint(cap.sum() * shape * rng.uniform(0.55, 0.65)).astype(int)
    reserve = np.rint(load * 0.08).astype(int)
    hours = [f"h{t + 1:02d}" for t in range(T)]
    units = [f"G{i + 1:05d}" for i in range(n)]
    tables = [
        Table("units.csv", {"unit": units, "min_mw": pmin, "max_mw": cap, "fuel_cost": fuel,
                            "start_cost": rng.integers(1, 10, n) * 20,
                            "was_on": (rng.random(n) < 0.5).astype(int),
                            "fuel": np.array(["gas", "coal", "oil", "biomass"])[rng.integers(0, 4, n)]},
              "One row per generating unit.",
              {"unit": "the unit's identifier", "min_mw": "the least output of the unit when it runs, in MW",
               "max_mw": "the most output of the unit, in MW", "fuel_cost": "the cost of one MWh, in euros",
               "start_cost": "the cost of starting the unit, in euros",
               "was_on": "1 when the unit ran in the hour before the day starts, else 0",
               "fuel": "the unit's fuel (for information only)"}),
        Table("load.csv", {h: [v] for h, v in zip(hours, load)},
              "Transposed: one row of names (the hours, in order), one row of values: the load to meet, in MW.",
              {h: f"the load in hour {t + 1}, in MW" for t, h in enumerate(hours)}, transposed=True),
        Table("reserve.csv", {h: [v] for h, v in zip(hours, reserve)},
              "Transposed: one row of names (the hours, in order), one row of values: the spinning reserve "
              "to hold, in MW.",
              {h: f"the spinning reserve in hour {t + 1}, in MW" for t, h in enumerate(hours)}, transposed=True),
    ]
    return Instance(SNOP, {"reserve_margin_pct": 8, "voltage_kv": 220}, tables, "min")


def direct(folder: Path, relax: bool = False, time_limit: float | None = None) -> dict:
    """Rows: per hour load, per hour reserve; per unit and hour the min and max output rows and the start row —
    the reference program's order."""
    read_data(folder)
    units = read_table(folder, "units.csv")
    load, reserve = read_transposed(folder, "load.csv"), read_transposed(folder, "reserve.csv")
    hours = list(load)
    n, T = len(units["unit"]), len(hours)
    pmin, pmax = units["min_mw"].astype(float), units["max_mw"].astype(float)
    m = ArrayModel("min")
    on = m.add_vars(n * T, 0.0, 0, 1, integer=True).reshape(n, T)
    start = m.add_vars(n * T, np.repeat(units["start_cost"].astype(float), T), 0, 1, integer=True).reshape(n, T)
    power = m.add_vars(n * T, np.repeat(units["fuel_cost"].astype(float), T), 0, np.inf).reshape(n, T)
    t = np.tile(np.arange(T), n)
    lv = np.array([load[h] for h in hours])
    m.add_rows(lv, lv, t, power.ravel(), 1.0)
    rv = np.array([reserve[h] for h in hours])
    m.add_rows(rv, np.inf, np.concatenate([t, t]), np.concatenate([on.ravel(), power.ravel()]),
               np.concatenate([np.repeat(pmax, T), -np.ones(n * T)]))
    r = np.arange(n * T)
    both = np.concatenate([r, r])
    m.add_rows(0.0, np.inf, both, np.concatenate([power.ravel(), on.ravel()]),
               np.concatenate([np.ones(n * T), -np.repeat(pmin, T)]))
    m.add_rows(-np.inf, 0.0, both, np.concatenate([power.ravel(), on.ravel()]),
               np.concatenate([np.ones(n * T), -np.repeat(pmax, T)]))
    # start >= on[h] - on[h-1]; for the first hour on[h-1] is was_on (a constant, moved to the right side)
    was = units["was_on"].astype(float)
    lo = np.zeros((n, T))
    lo[:, 0] = -was
    r2 = r.reshape(n, T)
    m.add_rows(lo.ravel(), np.inf, np.concatenate([r, r, r2[:, 1:].ravel()]),
               np.concatenate([start.ravel(), on.ravel(), on[:, :-1].ravel()]),
               np.concatenate([np.ones(n * T), -np.ones(n * T), np.ones(n * (T - 1))]))
    return m.solve(relax=relax, time_limit=time_limit)


def wrong(output: dict) -> dict:
    """An output the supervised tests must reject: every unit off in the first hour, the load unmet."""
    off = [dict(r, on=[0, *r["on"][1:]], power=[0, *r["power"][1:]]) for r in output["schedule"]]
    return {**output, "schedule": off}
