"""Generalized assignment: give every job to exactly one crew, within each crew's hours, at the least cost.
A job takes different hours and costs different amounts depending on the crew. Variables: one flag per crew and job
pair that data/options.parquet lists."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from common import ArrayModel, Instance, Table, read_data, read_table

NAME = "generalized-assignment"
# crews, jobs, crews listed per job: variables = jobs * options
SIZES = {"1e3": {"crews": 10, "jobs": 125, "options": 8},
         "1e4": {"crews": 25, "jobs": 800, "options": 12},
         "1e5": {"crews": 80, "jobs": 5000, "options": 20},
         "1e6": {"crews": 250, "jobs": 40000, "options": 25}}

SNOP = {
    "name": "Maintenance jobs for field crews",
    "problem_type": "MILP",
    "problem_info": [
        "A utility assigns every maintenance job of data/jobs.csv to one field crew of data/crews.csv, "
        "\\var{assign_{c,j}} being 1 when crew c does job j and 0 otherwise.",
        "A job can go only to a crew listed with it in data/options.parquet; that row gives the hours the job "
        "takes that crew and what it costs, in euros.",
        "Every job is done by exactly one crew.",
        "The hours of the jobs a crew does stay within the crew's available_hours for the month.",
        "The utility pays a flat travel allowance of \\param{allowance} euros per crew whatever the crew does; "
        "it is not part of the cost to minimise.",
        "The depot and vehicle columns of data/crews.csv and the district column of data/jobs.csv are "
        "record-keeping only.",
    ],
    "input_format": ("{\"allowance\": allowance}\n"
                     "data/crews.csv(crew, available_hours, depot, vehicle)\n"
                     "data/jobs.csv(job, district)\n"
                     "data/options.parquet(crew, job, hours, cost)"),
    "objective": "Minimize the total cost of the assigned jobs.",
    "output_info": [
        "\\var{assignment} lists every job with the crew that does it.",
        "\\var{total_cost} is the total cost in euros.",
    ],
    "output_format": ("{\"assignment\": [{\"job\": job, \"crew\": crew} for each job in data/jobs.csv order], "
                      "\"total_cost\": total_cost}"),
    "solver": "ANY",
}


def instance(size: str, seed: int = 0) -> Instance:
    p = SIZES[size]
    rng = np.random.default_rng([seed, 5])
    nc, nj, k = p["crews"], p["jobs"], p["options"]
    crews = [f"CR{c + 1:04d}" for c in range(nc)]
    jobs = [f"J{j + 1:06d}" for j in range(nj)]
    pick = np.argsort(rng.random((nj, nc)), axis=1)[:, :k]  # the crews listed for each job
    oj, oc = np.repeat(np.arange(nj), k), pick.ravel()
    hours = rng.integers(5, 26, nj * k)
    cost = rng.integers(10, 51, nj * k) * 10
    avail = np.full(nc, int(np.ceil(hours.mean() * nj / nc * 1.1)))
    avail += rng.integers(0, 20, nc)
    order = np.lexsort((oj, oc))  # options by crew, then job
    tables = [
        Table("crews.csv", {"crew": crews, "available_hours": avail,
                            "depot": [f"depot {d + 1}" for d in rng.integers(0, 6, nc)],
                            "vehicle": np.array(["van", "truck", "pickup"])[rng.integers(0, 3, nc)]},
              "One row per field crew.",
              {"crew": "the crew's identifier", "available_hours": "the hours the crew can work this month",
               "depot": "the depot the crew starts from (record-keeping only)",
               "vehicle": "the crew's vehicle type (record-keeping only)"}),
        Table("jobs.csv", {"job": jobs, "district": [f"D{d + 1:02d}" for d in rng.integers(0, 30, nj)]},
              "One row per maintenance job to do this month.",
              {"job": "the job's identifier", "district": "the district the job is in (record-keeping only)"}),
        Table("options.parquet", {"crew": np.array(crews)[oc[order]], "job": np.array(jobs)[oj[order]],
                                  "hours": hours[order], "cost": cost[order]},
              "One row per crew that may do a job; a pair not listed is not allowed.",
              {"crew": "the crew (of crews.csv)", "job": "the job (of jobs.csv)",
               "hours": "the hours the job takes this crew", "cost": "the cost of this crew doing the job, in euros"}),
    ]
    return Instance(SNOP, {"allowance": 450}, tables, "min")


def direct(folder: Path, relax: bool = False, time_limit: float | None = None) -> dict:
    """Rows: per job (in jobs.csv order) exactly one crew, then per crew the hours — the reference's order."""
    read_data(folder)
    crews, jobs, opts = (read_table(folder, n) for n in ("crews.csv", "jobs.csv", "options.parquet"))
    ci = {c: i for i, c in enumerate(crews["crew"])}
    ji = {j: i for i, j in enumerate(jobs["job"])}
    oc = np.array([ci[c] for c in opts["crew"]])
    oj = np.array([ji[j] for j in opts["job"]])
    m = ArrayModel("min")
    x = m.add_vars(len(oc), opts["cost"], 0, 1, integer=True)
    m.add_rows(1.0, 1.0, oj, x, 1.0)
    m.add_rows(-np.inf, crews["available_hours"].astype(float), oc, x, opts["hours"].astype(float))
    return m.solve(relax=relax, time_limit=time_limit)


def wrong(output: dict) -> dict:
    """An output the supervised tests must reject: the first job has no crew."""
    return {**output, "assignment": output["assignment"][1:]}
