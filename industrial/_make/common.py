"""Shared pieces of the industrial/ generators: tables, the folder writer, and the direct highspy solve.

How a class plugs in: one module `industrial/_make/<class>.py` (the class name, kebab-case), loaded by file path, with

    NAME = "facility-location"
    SIZES = {"1e3": {...}, "1e4": {...}, "1e5": {...}, "1e6": {...}}   # generator parameters, ~that many variables
    def instance(size: str, seed: int) -> Instance                     # the tables, scalars and SNOP, seeded
    def direct(folder: Path, relax: bool = False, time_limit: float | None = None) -> dict
        # the second formulation: read the folder's files, build with ArrayModel (highspy arrays), return
        # ArrayModel.solve's dict: status, objective, bound, rows, cols, nnz, build_s, write_s, solve_s

Class modules start with `from common import ...` (build.py puts this directory on sys.path first),
and a folder `industrial/_make/<class>/` whose files (reference/formulation.md, reference/solver.py,
tests/test_<class>.py, ...) are copied unchanged into every size's folder. `write_folder` (build.py) writes
snop.json, data.json, data/* and data/README.md from the Instance, copies the class folder's files, and writes
expected.json from `direct` when HiGHS proves the optimum.

Tables: `Table(name, columns, about, docs)`; `columns` maps a column name to a list or numpy array (all the same
length). `name` ends in .csv or .parquet. `transposed=True` writes a one-row table as two CSV lines: the names,
then the values (what the issue calls "transposed format"); its `docs` still say what each name means.
"""

from __future__ import annotations

import csv
import json
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np


@dataclass
class Table:
    name: str  # the file name inside data/, e.g. "facilities.csv" or "arcs.parquet"
    columns: dict  # column name -> list or numpy array, all the same length (one value each when transposed)
    about: str  # what a row is (for a transposed table: what the one row of values is)
    docs: dict  # column name -> what it means, with its unit; a transposed table may document a range of names
    transposed: bool = False


@dataclass
class Instance:
    snop: dict  # the SNOP (snop.json), the same words at every size
    data: dict  # the scalars (data.json)
    tables: list[Table] = field(default_factory=list)
    sense: str = "min"


def _cell(v) -> str:
    """A CSV cell: integers without a decimal point, floats as Python writes them (shortest round trip)."""
    if isinstance(v, (bool, np.bool_)):
        return str(int(v))
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    if isinstance(v, (float, np.floating)):
        f = float(v)
        return str(int(f)) if f.is_integer() and abs(f) < 2**53 else repr(f)
    return str(v)


def write_csv(path: Path, columns: dict) -> None:
    names = list(columns)
    cols = [[_cell(v) for v in columns[n]] for n in names]
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(names)
        w.writerows(zip(*cols))


def write_transposed(path: Path, columns: dict) -> None:
    """One row of names, one row of values: `columns` maps each name to its single value."""
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(list(columns))
        w.writerow([_cell(v[0] if isinstance(v, (list, tuple, np.ndarray)) else v) for v in columns.values()])


def write_parquet(path: Path, columns: dict) -> None:
    """Through a temporary CSV and DuckDB's COPY (no pandas or pyarrow here); column types are DuckDB's reading."""
    import duckdb

    with tempfile.TemporaryDirectory(prefix="industrial-") as tmp:
        staged = Path(tmp) / "t.csv"
        write_csv(staged, columns)
        con = duckdb.connect(config={"threads": 1})
        src = str(staged).replace("'", "''")
        dst = str(path).replace("'", "''")
        con.execute(f"COPY (SELECT * FROM read_csv('{src}', header=true)) TO '{dst}' (FORMAT parquet)")
        con.close()


def write_table(directory: Path, table: Table) -> Path:
    path = directory / table.name
    if table.transposed:
        write_transposed(path, table.columns)
    elif table.name.endswith(".parquet"):
        write_parquet(path, table.columns)
    else:
        write_csv(path, table.columns)
    return path


def readme(tables: list[Table], title: str) -> str:
    """data/README.md per contract C2: a section per table, what a row is, a line per column."""
    lines = [f"# {title}", ""]
    for t in tables:
        lines += [f"## {t.name}", t.about]
        lines += [f"- {col}: {text}" for col, text in t.docs.items()]
        lines.append("")
    return "\n".join(lines)


def write_json(path: Path, obj, indent: int | None = 2) -> None:
    path.write_text(json.dumps(obj, indent=indent, ensure_ascii=False) + "\n")


def expected(objective: float | None, sense: str, status: str = "optimal") -> dict:
    """expected.json; objectives are rounded to 6 decimals (the generators use integer data, so this is exact)."""
    return {"objective": None if objective is None else round(float(objective), 6), "sense": sense, "status": status}


# ---------------------------------------------------------------------------------------------- direct solve

STATUS = {"Optimal": "optimal", "Infeasible": "infeasible", "Unbounded": "unbounded",
          "Time limit reached": "time_limit", "Primal infeasible or unbounded": "infeasible"}


def interior_point(h) -> None:
    """LP relaxations by interior point without crossover: at 1e5 the simplex took many minutes; the value is
    accurate to ~1e-8 relative, well within the 1e-6 the ground-truth check asks."""
    h.setOptionValue("solver", "ipm")
    h.setOptionValue("run_crossover", "off")


class ArrayModel:
    """A model as numpy arrays, handed to highspy with addCols/addRows on CSR arrays (no modelling layer).

    Variables come in blocks (`add_vars` returns their column indices); rows come in blocks of triplets
    (`add_rows(lo, hi, r, c, v)`: the block's row r (0-based within the block) holds v at column c)."""

    def __init__(self, sense: str = "min", offset: float = 0.0):
        self.sense, self.offset, self.t0 = sense, offset, time.perf_counter()
        self.cost, self.lb, self.ub, self.integer = [], [], [], []
        self.row_lo, self.row_hi, self.tri = [], [], []
        self.ncols = self.nrows = 0

    def add_vars(self, n: int, cost=0.0, lb=0.0, ub=np.inf, integer: bool = False) -> np.ndarray:
        self.cost.append(np.broadcast_to(np.asarray(cost, float), (n,)))
        self.lb.append(np.broadcast_to(np.asarray(lb, float), (n,)))
        self.ub.append(np.broadcast_to(np.asarray(ub, float), (n,)))
        self.integer.append(np.full(n, integer))
        first, self.ncols = self.ncols, self.ncols + n
        return np.arange(first, self.ncols)

    def add_rows(self, lo, hi, r, c, v) -> None:
        lo, hi = np.atleast_1d(np.asarray(lo, float)), np.atleast_1d(np.asarray(hi, float))
        r, c = np.asarray(r, np.int64), np.asarray(c, np.int64)
        m = max(len(lo), len(hi), int(r.max()) + 1 if r.size else 0)  # scalar bounds: rows as the triplets say
        self.row_lo.append(np.broadcast_to(lo, (m,)))
        self.row_hi.append(np.broadcast_to(hi, (m,)))
        self.tri.append((r + self.nrows, c, np.broadcast_to(np.asarray(v, float), r.shape)))
        self.nrows += m

    def csr(self):
        r = np.concatenate([t[0] for t in self.tri]) if self.tri else np.zeros(0, np.int64)
        c = np.concatenate([t[1] for t in self.tri]) if self.tri else np.zeros(0, np.int64)
        v = np.concatenate([t[2] for t in self.tri]) if self.tri else np.zeros(0)
        keep = v != 0
        r, c, v = r[keep], c[keep], v[keep]
        order = np.lexsort((c, r))
        starts = np.searchsorted(r[order], np.arange(self.nrows))
        return starts.astype(np.int32), c[order].astype(np.int32), v[order]

    def solve(self, relax: bool = False, time_limit: float | None = None, threads: int = 1,
              mps: Path | None = None, names: tuple[list, list] | None = None) -> dict:
        """Build in highspy, optionally name the columns and rows (`names`: two lists, in the model's order) and
        write `mps`, solve; times in seconds since the model's creation."""
        import highspy

        # HiGHS keeps one scheduler per process: a run asking another thread count than an earlier HiGHS of this
        # process (a test suite, a bench) fails unless the scheduler is reset first.
        highspy.Highs.resetGlobalScheduler(True)
        h = highspy.Highs()
        h.setOptionValue("output_flag", False)
        h.setOptionValue("threads", threads)
        h.setOptionValue("mip_rel_gap", 1e-9)
        if time_limit:
            h.setOptionValue("time_limit", float(time_limit))
        if relax:
            interior_point(h)
        cost, lb, ub = (np.concatenate(x) if x else np.zeros(0) for x in (self.cost, self.lb, self.ub))
        h.addCols(self.ncols, cost, lb, ub, 0, np.zeros(0, np.int32), np.zeros(0, np.int32), np.zeros(0))
        starts, index, value = self.csr()
        lo = np.concatenate(self.row_lo) if self.row_lo else np.zeros(0)
        hi = np.concatenate(self.row_hi) if self.row_hi else np.zeros(0)
        h.addRows(self.nrows, lo, hi, len(value), starts, index, value)
        if self.sense == "max":
            h.changeObjectiveSense(highspy.ObjSense.kMaximize)
        h.changeObjectiveOffset(self.offset)
        integer = np.concatenate(self.integer) if self.integer else np.zeros(0, bool)
        if integer.any() and not relax:
            cols = np.flatnonzero(integer).astype(np.int32)
            h.changeColsIntegrality(len(cols), cols, np.full(len(cols), highspy.HighsVarType.kInteger))
        if names:
            lp = h.getLp()
            lp.col_names_, lp.row_names_ = names
            h.passModel(lp)
        built = time.perf_counter()
        if mps:
            h.writeModel(str(mps))
        written = time.perf_counter()
        h.run()
        done = time.perf_counter()
        return self._result(h, len(value), built, written, done)

    def _result(self, h, nnz: int, built: float, written: float, done: float) -> dict:
        status = STATUS.get(h.modelStatusToString(h.getModelStatus()), "error")
        info = h.getInfo()
        has_value = status == "optimal" or (status == "time_limit" and info.primal_solution_status == 2)
        mip = info.mip_node_count >= 0 and any(x.any() for x in self.integer)
        bound = info.mip_dual_bound if mip else (info.objective_function_value if status == "optimal" else None)
        return {"status": status, "objective": info.objective_function_value if has_value else None,
                "bound": bound, "rows": self.nrows, "cols": self.ncols, "nnz": nnz,
                "build_s": built - self.t0, "write_s": written - built, "solve_s": done - written}


# ------------------------------------------------------------------------------------------ reading a folder

def read_table(folder: Path, name: str) -> dict:
    """A table of the folder's data/ as {column: numpy array} (DuckDB reads CSV and parquet alike)."""
    import duckdb

    path = str(Path(folder) / "data" / name).replace("'", "''")
    reader = "read_parquet" if name.endswith(".parquet") else "read_csv"
    con = duckdb.connect(config={"threads": 1})
    rel = con.execute(f"SELECT * FROM {reader}('{path}')")
    names = [d[0] for d in rel.description]
    rows = rel.fetchnumpy()
    con.close()
    return {n: np.asarray(rows[n]) for n in names}


def read_transposed(folder: Path, name: str) -> dict:
    """A transposed table (one row of names, one of values) as {name: float}."""
    with open(Path(folder) / "data" / name, newline="") as f:
        names, values = list(csv.reader(f))[:2]
    return {n: float(v) for n, v in zip(names, values)}


def read_data(folder: Path) -> dict:
    return json.loads((Path(folder) / "data.json").read_text())
