"""Load a captured MPS model with HiGHS and solve it with HiGHS and CBC; statuses normalised to five words."""

from __future__ import annotations

import math
import re
import time
from collections import Counter
from dataclasses import dataclass

import highspy
import numpy as np

INF = math.inf
# Above this many rows the result carries each row family once (with its count) instead of every row's name:
# a million names would cost the harness seconds to read and sort into statements.
ROW_NAMES_MAX = 20_000
FAMILIES_MAX = 1000  # and at most this many families (row_families)
# A row's index parts, as optimus.core.diagnose.family strips them (`s3_capacity_k2` → `s3_capacity`).
_INDEX_PARTS = re.compile(r"(?:_[A-Za-z]*\d+)+$", re.MULTILINE)
# The re-solve's own MIP gap: tight, since its answer is what the generated code is judged against.
MIP_REL_GAP = 1e-6
_STATUS = {"kOptimal": "optimal", "kInfeasible": "infeasible", "kUnbounded": "unbounded",
           "kTimeLimit": "time_limit", "kIterationLimit": "time_limit", "kSolutionLimit": "time_limit",
           "kInterrupt": "time_limit", "kHighsInterrupt": "time_limit", "kModelEmpty": "optimal"}


@dataclass(frozen=True)
class SolveOptions:
    """The user's solver options, as the program got them: the re-solve stops where the program may stop."""

    time_limit: float | None = None
    mip_gap: float = MIP_REL_GAP
    threads: int | None = None

    @classmethod
    def of(cls, request: dict) -> SolveOptions:
        gap, threads, limit = request.get("mip_gap"), request.get("threads"), request.get("time_limit")
        return cls(float(limit) if limit else None, max(MIP_REL_GAP, float(gap)) if gap else MIP_REL_GAP,
                   int(threads) if threads else None)


@dataclass
class Model:
    lp: object  # highspy HighsLp, with the sense restored
    sense: str  # "min" | "max"
    sense_source: str  # where the sense came from: OBJSENSE section, PuLP's *SENSE comment, or the default
    rows: list[str]
    cols: list[str]
    entry_row: np.ndarray  # per nonzero of the column-wise matrix: its row
    entry_col: np.ndarray  # per nonzero: its column
    entry_val: np.ndarray
    integer: np.ndarray  # per column: must be integral (HiGHS leaves integrality_ empty for an LP)
    # The solver that read model.mps: the first re-solve runs on it, so a large model is held once, not copied.
    reader: highspy.Highs | None = None

    @property
    def is_mip(self) -> bool:
        return bool(self.integer.any())

    def summary(self) -> dict:
        ints = int(self.integer.sum())
        names = {"row_names": self.rows} if len(self.rows) <= ROW_NAMES_MAX else \
            {"row_families": row_families(self.rows)}
        return {"sense": self.sense, "sense_source": self.sense_source, "rows": len(self.rows), "cols": len(self.cols),
                "integers": ints, "nonzeros": int(self.entry_val.size), **names}

    def highs(self, time_limit: float, relax: bool = False, options: SolveOptions = SolveOptions(),
              reuse: bool = False) -> highspy.Highs:
        """A solver holding this model (integrality dropped when `relax`): a fresh one, or with `reuse` the one
        that read the file (once; later calls get fresh ones)."""
        h, self.reader = (self.reader, None) if reuse and self.reader is not None else (None, self.reader)
        if h is None:
            h = highspy.Highs()
            h.setOptionValue("output_flag", False)
            h.passModel(self.lp)
        h.setOptionValue("time_limit", max(0.05, float(time_limit)))
        h.setOptionValue("mip_rel_gap", options.mip_gap)
        if options.threads:
            h.setOptionValue("threads", options.threads)
        if relax and self.is_mip:
            n = len(self.cols)
            h.changeColsIntegrality(n, np.arange(n, dtype=np.int32), np.zeros(n, dtype=np.uint8))
        return h


def row_families(rows: list[str]) -> dict[str, list]:
    """Family → [how many rows, its first row's name], the index parts stripped in one pass over all names. Index
    parts that are words (`s4_rest_E0387_63_late_early`) leave a family per row: past FAMILIES_MAX families, a
    row's family is its statement's words (`s4_rest`), and past FAMILIES_MAX of those the rest are counted as one
    ("…"): the result stays small whatever the names."""
    stripped = _INDEX_PARTS.sub("", "\n".join(rows)).split("\n")
    families = [f or r for f, r in zip(stripped, rows)]  # a name of index parts only is its own family
    if len(set(families)) > FAMILIES_MAX:
        families = [_statement_words(f) for f in families]
    first: dict[str, str] = {}
    for family, row in zip(families, rows):
        first.setdefault(family, row)
    counts = Counter(families)
    found = {family: [counts[family], row] for family, row in first.items()}
    if len(found) <= FAMILIES_MAX:
        return found
    listed = list(found.items())
    return {**dict(listed[:FAMILIES_MAX]), "…": [sum(count for _, (count, _) in listed[FAMILIES_MAX:]), "…"]}


def _statement_words(name: str) -> str:
    """`s3_cover_1_early` → `s3_cover`: the first part, then the parts up to the first that holds a digit."""
    head, *rest = name.split("_")
    words = [head]
    for part in rest:
        if any(c.isdigit() for c in part):
            break
        words.append(part)
    return "_".join(words)


def load(path: str) -> Model:
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    if h.readModel(path) == highspy.HighsStatus.kError:
        raise ValueError(f"HiGHS cannot read {path}")
    lp = h.getLp()
    sense, source = ("max" if lp.sense_ == highspy.ObjSense.kMaximize else "min"), "default"
    with open(path, errors="replace") as fh:
        head = [fh.readline() for _ in range(5)]
    if any(line.strip().upper().startswith("OBJSENSE") for line in head):
        source = "OBJSENSE section"
    elif any(line.startswith("*SENSE:Maximize") for line in head):
        # PuLP's default writeMPS keeps the sense only in a comment, which MPS readers skip.
        sense, source = "max", "PuLP *SENSE comment"
        lp.sense_ = highspy.ObjSense.kMaximize
        h.changeObjectiveSense(highspy.ObjSense.kMaximize)
    elif any(line.startswith("*SENSE:Minimize") for line in head):
        source = "PuLP *SENSE comment"
    a = lp.a_matrix_
    start = np.asarray(a.start_, dtype=np.int64)
    cols = list(lp.col_names_) or [f"c{j}" for j in range(lp.num_col_)]
    rows = list(lp.row_names_) or [f"r{i}" for i in range(lp.num_row_)]
    if int(a.format_) != 1 and lp.num_row_:  # HiGHS reads MPS column-wise; anything else we do not expect
        raise ValueError("unexpected matrix format after reading the MPS file")
    entry_col = np.repeat(np.arange(lp.num_col_), np.diff(start)) if lp.num_col_ else np.zeros(0, int)
    kinds = lp.integrality_  # HiGHS leaves it empty for an LP; 1 integer, 3 semi-integer
    kinds = np.fromiter(map(int, kinds), dtype=np.uint8, count=len(kinds)) if len(kinds) else None
    integer = (kinds == 1) | (kinds == 3) if kinds is not None else np.zeros(lp.num_col_, dtype=bool)
    return Model(lp, sense, source, rows, cols, np.asarray(a.index_, dtype=np.int64), entry_col,
                 np.asarray(a.value_, dtype=float), integer, reader=h)


def run_highs(h: highspy.Highs) -> str:
    """Run and return the normalised status; 'unbounded or infeasible' is settled with a zero objective."""
    h.run()
    status = _STATUS.get(h.getModelStatus().name, "error")
    if h.getModelStatus().name == "kUnboundedOrInfeasible":
        lp = h.getLp()
        costs = np.asarray(lp.col_cost_, dtype=float).copy()
        n = lp.num_col_
        h.changeColsCost(n, np.arange(n, dtype=np.int32), np.zeros(n))
        h.run()
        feasible = h.getModelStatus().name == "kOptimal"
        h.changeColsCost(n, np.arange(n, dtype=np.int32), costs)
        status = "unbounded" if feasible else "infeasible"
    return status


def solve_highs(model: Model, time_limit: float, options: SolveOptions = SolveOptions(),
                start: np.ndarray | None = None) -> dict:
    """HiGHS on the model as read. `start`: a feasible point (the program's values, checked), a MILP's first
    incumbent (the re-solve spends its time on the bound) and an LP's starting point (simplex from a basis near it:
    half the iterations measured at 10^4); the optimum or bound HiGHS proves is its own either way."""
    h = model.highs(time_limit, options=options, reuse=True)
    if start is not None:
        h.setSolution(len(start), np.arange(len(start), dtype=np.int32), np.asarray(start, dtype=float))
    started = time.monotonic()
    status = run_highs(h)
    info = h.getInfo()
    has_point = int(info.primal_solution_status) == 2
    objective = float(info.objective_function_value) if has_point and status != "unbounded" else None
    if start is not None and objective is not None and not _costs(model, h, objective):
        # Measured (HiGHS 1.16, a start with presolve on): an objective and bound its own point does not cost.
        # The start only saves time; without it HiGHS's word is its own again.
        return solve_highs(model, max(0.05, time_limit - (time.monotonic() - started)), options)
    bound = objective if status == "optimal" and not model.is_mip else None
    if model.is_mip and status in ("optimal", "time_limit") and math.isfinite(info.mip_dual_bound):
        bound = float(info.mip_dual_bound)
    return {"solver": "HiGHS", "status": status, "objective": objective, "bound": bound,
            "seconds": round(time.monotonic() - started, 4)}


def _costs(model: Model, h, objective: float) -> bool:
    """Whether HiGHS's point costs the objective it reports (cost · x + offset), within a relative 1e-6. The costs
    are the model's as read (h.getLp() would copy the whole matrix: hundreds of MB at 10^6 rows)."""
    lp = model.lp
    at_point = float(np.dot(np.asarray(lp.col_cost_), np.asarray(h.getSolution().col_value))) + float(lp.offset_)
    return abs(at_point - objective) <= 1e-6 * max(1.0, abs(at_point), abs(objective))


def solve_cbc(path: str, sense: str, time_limit: float, options: SolveOptions = SolveOptions()) -> dict:
    """CBC, the cbc binary reading model.mps itself: a second, unrelated code base, so that one solver's bug cannot
    confirm itself (and no PuLP model is built from the file in between)."""
    from .cbc import solve_mps

    return solve_mps(path, sense, max(1.0, time_limit), options.mip_gap, options.threads)
