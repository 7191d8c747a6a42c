"""p-median: open exactly p clinics among the towns and send every town to an open clinic, minimising the
population-weighted travel time. Variables: one open flag per town and one assignment flag per ordered pair of
towns (the travel times are a long table of every pair)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from common import ArrayModel, Instance, Table, read_data, read_table

NAME = "p-median"
# towns: variables = towns^2 + towns
SIZES = {"1e3": {"towns": 31, "p": 5},
         "1e4": {"towns": 100, "p": 12},
         "1e5": {"towns": 316, "p": 30},
         "1e6": {"towns": 1000, "p": 80}}

SNOP = {
    "name": "Rural clinics for a county health board",
    "problem_type": "MILP",
    "problem_info": [
        "A county health board opens clinics in exactly \\param{clinics} of the towns of data/towns.csv, "
        "\\var{open_{t}} being 1 when town t gets a clinic, and assigns every town to one clinic, "
        "\\var{serve_{s,t}} being 1 when the people of town s go to the clinic in town t.",
        "A town can be assigned only to a town that has a clinic.",
        "Every town is assigned to exactly one clinic, possibly its own.",
        "data/travel.parquet gives the driving minutes from every town to every town (a town to itself is 0).",
        "The board weighs each town's minutes by its population: the cost of assigning s to t is the population "
        "of s times the minutes from s to t.",
        "Each clinic will employ \\param{nurses_per_clinic} nurses, which does not affect where clinics go.",
        "The county and elevation_m columns of data/towns.csv are descriptive only.",
    ],
    "input_format": ("{\"clinics\": clinics, \"nurses_per_clinic\": nurses_per_clinic}\n"
                     "data/towns.csv(town, population, county, elevation_m)\n"
                     "data/travel.parquet(from_town, to_town, minutes)"),
    "objective": "Minimize the total population-weighted travel time from every town to its clinic.",
    "output_info": [
        "\\var{clinics} lists the towns that get a clinic.",
        "\\var{assigned} lists every town with the town whose clinic serves it.",
        "\\var{weighted_minutes} is the total population-weighted travel time.",
    ],
    "output_format": ("{\"clinics\": [town for each town with a clinic], \"assigned\": [{\"town\": town, \"clinic\": "
                      "clinic town} for each town in data/towns.csv order], \"weighted_minutes\": weighted_minutes}"),
    "solver": "ANY",
}


def instance(size: str, seed: int = 0) -> Instance:
    p = SIZES[size]
    rng = np.random.default_rng([seed, 6])
    n = p["towns"]
    xy = rng.random((n, 2))
    minutes = np.rint(np.sqrt(((xy[:, None] - xy[None]) ** 2).sum(-1)) * 90).astype(int)
    minutes += np.where(np.eye(n, dtype=bool), 0, rng.integers(1, 6, (n, n)))
    towns = [f"town{t + 1:04d}" for t in range(n)]
    names = np.array(towns)
    tables = [
        Table("towns.csv", {"town": towns, "population": rng.integers(2, 60, n) * 50,
                            "county": [f"county {c + 1}" for c in rng.integers(0, 4, n)],
                            "elevation_m": rng.integers(20, 900, n)},
              "One row per town: a place people live and a candidate clinic site.",
              {"town": "the town's name", "population": "the people living in the town",
               "county": "the county the town is in (descriptive only)",
               "elevation_m": "the town's elevation in metres (descriptive only)"}),
        Table("travel.parquet", {"from_town": np.repeat(names, n), "to_town": np.tile(names, n),
                                 "minutes": minutes.ravel()},
              "One row per ordered pair of towns, itself included: the driving time.",
              {"from_town": "the town people drive from", "to_town": "the town they drive to",
               "minutes": "the driving time from from_town to to_town, in minutes"}),
    ]
    return Instance(SNOP, {"clinics": p["p"], "nurses_per_clinic": 6}, tables, "min")


def direct(folder: Path, relax: bool = False, time_limit: float | None = None) -> dict:
    """Rows: per town s one clinic; per pair (s, t) serve <= open (in travel.parquet's order); exactly p open."""
    d = read_data(folder)
    towns, travel = read_table(folder, "towns.csv"), read_table(folder, "travel.parquet")
    ti = {t: i for i, t in enumerate(towns["town"])}
    n = len(ti)
    fs = np.array([ti[t] for t in travel["from_town"]])
    ts = np.array([ti[t] for t in travel["to_town"]])
    pop = towns["population"].astype(float)
    m = ArrayModel("min")
    y = m.add_vars(n, 0.0, 0, 1, integer=True)
    x = m.add_vars(len(fs), pop[fs] * travel["minutes"], 0, 1, integer=True)
    m.add_rows(1.0, 1.0, fs, x, 1.0)
    r = np.arange(len(fs))
    m.add_rows(-np.inf, np.zeros(len(fs)), np.concatenate([r, r]), np.concatenate([x, y[ts]]),
               np.concatenate([np.ones(len(fs)), -np.ones(len(fs))]))
    m.add_rows(float(d["clinics"]), float(d["clinics"]), np.zeros(n, int), y, 1.0)
    return m.solve(relax=relax, time_limit=time_limit)


def wrong(output: dict) -> dict:
    """An output the supervised tests must reject: one clinic fewer than the board opens, its towns stranded."""
    return {**output, "clinics": output["clinics"][:-1]}
