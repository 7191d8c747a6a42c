"""Load a captured MPS model with HiGHS and solve it with HiGHS and CBC; statuses normalised to five words."""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import highspy
import numpy as np

INF = math.inf
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

    @property
    def is_mip(self) -> bool:
        return bool(self.integer.any())

    def summary(self) -> dict:
        ints = int(self.integer.sum())
        return {"sense": self.sense, "sense_source": self.sense_source, "rows": len(self.rows), "cols": len(self.cols),
                "integers": ints, "nonzeros": int(self.entry_val.size), "row_names": self.rows}

    def highs(self, time_limit: float, relax: bool = False, options: SolveOptions = SolveOptions()) -> highspy.Highs:
        """A fresh solver holding this model (integrality dropped when `relax`)."""
        h = highspy.Highs()
        h.setOptionValue("output_flag", False)
        h.setOptionValue("time_limit", max(0.05, float(time_limit)))
        h.setOptionValue("mip_rel_gap", options.mip_gap)
        if options.threads:
            h.setOptionValue("threads", options.threads)
        h.passModel(self.lp)
        if relax and self.is_mip:
            n = len(self.cols)
            h.changeColsIntegrality(n, np.arange(n, dtype=np.int32), np.zeros(n, dtype=np.uint8))
        return h


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
    elif any(line.startswith("*SENSE:Minimize") for line in head):
        source = "PuLP *SENSE comment"
    a = lp.a_matrix_
    start = np.asarray(a.start_, dtype=np.int64)
    cols = list(lp.col_names_) or [f"c{j}" for j in range(lp.num_col_)]
    rows = list(lp.row_names_) or [f"r{i}" for i in range(lp.num_row_)]
    if int(a.format_) != 1 and lp.num_row_:  # HiGHS reads MPS column-wise; anything else we do not expect
        raise ValueError("unexpected matrix format after reading the MPS file")
    entry_col = np.repeat(np.arange(lp.num_col_), np.diff(start)) if lp.num_col_ else np.zeros(0, int)
    kinds = [int(t) for t in lp.integrality_]
    integer = np.array([t in (1, 3) for t in kinds], dtype=bool) if kinds else np.zeros(lp.num_col_, dtype=bool)
    return Model(lp, sense, source, rows, cols, np.asarray(a.index_, dtype=np.int64), entry_col,
                 np.asarray(a.value_, dtype=float), integer)


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


def solve_highs(model: Model, time_limit: float, options: SolveOptions = SolveOptions()) -> dict:
    h = model.highs(time_limit, options=options)
    started = time.monotonic()
    status = run_highs(h)
    info = h.getInfo()
    has_point = int(info.primal_solution_status) == 2
    objective = float(info.objective_function_value) if has_point and status != "unbounded" else None
    bound = objective if status == "optimal" and not model.is_mip else None
    if model.is_mip and status in ("optimal", "time_limit") and math.isfinite(info.mip_dual_bound):
        bound = float(info.mip_dual_bound)
    return {"solver": "HiGHS", "status": status, "objective": objective, "bound": bound,
            "seconds": round(time.monotonic() - started, 4)}


def solve_cbc(path: str, sense: str, time_limit: float, options: SolveOptions = SolveOptions()) -> dict:
    """CBC through PuLP: a second, unrelated code base, so that one solver's bug cannot confirm itself."""
    import pulp

    started = time.monotonic()
    _, prob = pulp.LpProblem.fromMPS(path, sense=pulp.LpMaximize if sense == "max" else pulp.LpMinimize)
    prob.solve(pulp.PULP_CBC_CMD(msg=False, timeLimit=max(1, int(time_limit)), gapRel=options.mip_gap,
                                 threads=options.threads))
    if prob.status == pulp.LpStatusOptimal:
        status = "optimal" if prob.sol_status == pulp.LpSolutionOptimal else "time_limit"
    else:
        status = {pulp.LpStatusInfeasible: "infeasible", pulp.LpStatusUnbounded: "unbounded"}.get(prob.status, "error")
    if status == "infeasible" and time.monotonic() - started >= 0.9 * max(1, int(time_limit)):
        status = "time_limit"  # PuLP reads CBC's "stopped on time, no solution yet" as infeasible
    value = pulp.value(prob.objective) if status in ("optimal", "time_limit") else None
    objective = float(value) if isinstance(value, (int, float)) else None
    return {"solver": "CBC", "status": status, "objective": objective,
            "bound": objective if status == "optimal" else None, "seconds": round(time.monotonic() - started, 4)}
