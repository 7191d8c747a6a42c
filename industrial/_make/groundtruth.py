"""Ground truth two ways for an industrial/ folder: the reference program against the class's `direct` arrays.

At the sizes HiGHS proves (1e3, 1e4) both must reach the same optimum. Beyond, the reference program runs only
long enough to write model.mps (OPTIMUS_TIME_LIMIT), and the two models must agree on their row, column and
nonzero counts and on the value of the LP relaxation. Used by `build.py --check` and tests/test_industrial.py.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PROVED = ("1e3", "1e4")
REL = 1e-6


def run_reference(folder: Path, time_limit: float | None = None, timeout: float = 3600,
                  program: Path | None = None) -> tuple[dict, Path]:
    """Run reference/solver.py (or `program`) on a copy of the folder's inputs; (solution.json, the work dir) —
    caller cleans up."""
    work = Path(tempfile.mkdtemp(prefix="industrial-ref-"))
    shutil.copy(folder / "data.json", work / "data.json")
    shutil.copytree(folder / "data", work / "data")
    env = {**os.environ, "OPTIMUS_THREADS": "1"}
    env.pop("OPTIMUS_SOLVER", None)
    env["OPTIMUS_MIP_GAP"] = "1e-9"  # the ground truth is the proved optimum, not within HiGHS's default 1e-4
    if time_limit:
        env["OPTIMUS_TIME_LIMIT"] = str(time_limit)
    subprocess.run([sys.executable, str(program or folder / "reference" / "solver.py")], cwd=work, env=env, check=True,
                   timeout=timeout, stdout=subprocess.DEVNULL)
    return json.loads((work / "solution.json").read_text()), work


def mps_relaxation(path: Path, constant: float = 0.0) -> dict:
    """Rows, columns, nonzeros and LP relaxation value of a model file, read and solved by HiGHS."""
    import highspy

    highspy.Highs.resetGlobalScheduler(True)  # one thread, whatever HiGHS ran before in this process (common.py)
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("threads", 1)
    h.readModel(str(path))
    lp = h.getLp()
    h.setOptionValue("solve_relaxation", True)
    h.setOptionValue("solver", "ipm")  # as common.interior_point: the simplex takes many minutes at 1e5
    h.setOptionValue("run_crossover", "off")
    t0 = time.perf_counter()
    h.run()
    status = h.modelStatusToString(h.getModelStatus())
    value = h.getInfo().objective_function_value + constant if status == "Optimal" else None
    return {"rows": lp.num_row_, "cols": lp.num_col_, "nnz": len(lp.a_matrix_.value_), "lp": value,
            "lp_status": status, "solve_s": time.perf_counter() - t0}


def close(a, b, rel: float = REL) -> bool:
    return a is not None and b is not None and math.isclose(a, b, rel_tol=rel, abs_tol=1e-6)


def check(module, folder: Path, size: str) -> tuple[str, bool]:
    """One line saying what agreed, and whether everything did."""
    folder = Path(folder)
    proved = size in PROVED
    solution, work = run_reference(folder, time_limit=None if proved else 5.0)
    try:
        ref = mps_relaxation(work / "model.mps", solution.get("objective_constant") or 0.0)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    counts = module.direct(folder, relax=True)
    same_counts = all(ref[k] == counts[k] for k in ("rows", "cols", "nnz"))
    same_lp = close(ref["lp"], counts["objective"])
    line = (f"{folder.name}: rows/cols/nnz reference {ref['rows']}/{ref['cols']}/{ref['nnz']} direct "
            f"{counts['rows']}/{counts['cols']}/{counts['nnz']} ({'same' if same_counts else 'DIFFER'}); LP relaxation "
            f"{ref['lp']!r} vs {counts['objective']!r} ({'same' if same_lp else 'DIFFER'})")
    ok = same_counts and same_lp
    if proved:
        exact = module.direct(folder)
        same_opt = solution.get("status") == exact["status"] == "optimal" and close(solution["objective"],
                                                                                    exact["objective"])
        line += (f"; optimum reference {solution.get('status')} {solution.get('objective')!r} vs direct "
                 f"{exact['status']} {exact['objective']!r} in {exact['solve_s']:.2f} s "
                 f"({'same' if same_opt else 'DIFFER'})")
        ok = ok and same_opt
    return line, ok
