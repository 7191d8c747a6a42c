"""Ground truth for problem folders: run the reference solver with two solvers and compare.

    python -m optimus.bench.groundtruth.lp DIR... [--write] [--json] [--jobs N] [--timeout S]

Each DIR is a problem folder with `reference/solver.py` (or a folder of such folders). The reference runs
in a subprocess in a temp dir holding a copy of data.json, once with the primary solver (PuLP: CBC, cvxpy:
CLARABEL) and once with a secondary one (HIGHS; cvxpy: OSQP or SCS). With `--write` the agreed result is
written to expected.json; without, the existing expected.json is checked. Exit 0 when everything agrees,
1 on any disagreement, 2 on bad input. The reference code is our own, so it runs unsandboxed.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path

from optimus.bench.groundtruth import driver
from optimus.core.errors import OptimusError, SpecError
from optimus.core.problem import load_problem, short_name
from optimus.core.snop import objective_sense

TOL = 1e-6  # relative, and absolute near 0
LOOSE_TOL = 1e-4  # first-order conic/QP solvers (SCS, OSQP) stop at a looser accuracy
LOOSE_SOLVERS = {"SCS", "OSQP"}
TIMEOUT = 120.0
# Digits an objective is written with: the two solvers agree to TOL (6 digits), so 10 keep every digit that
# means something and drop binary float noise (17711.200000000004 is written 17711.2).
WRITTEN_DIGITS = 10


def solvers(folder: Path) -> tuple[str, str]:
    """(primary, secondary) values of OPTIMUS_SOLVER: PuLP's unless the reference imports cvxpy."""
    if not re.search(r"^\s*(import|from) cvxpy", _solver_py(folder).read_text(), re.MULTILINE):
        return "CBC", "HIGHS"
    second = next((s for s in ("OSQP", "SCS") if importlib.util.find_spec(s.lower())), None)
    if second is None:
        raise OptimusError("neither OSQP nor SCS is installed: cannot cross-check cvxpy references")
    return "CLARABEL", second


def tolerance(solver: str) -> float:
    return LOOSE_TOL if solver in LOOSE_SOLVERS else TOL


def close(a: float | None, b: float | None, tol: float = TOL) -> bool:
    """Both None, or equal within `tol` relative (absolute for values below 1)."""
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= tol * max(1.0, abs(a), abs(b))


def sense(folder: Path) -> str:
    """'min' or 'max': from expected.json if present, else from the SNOP's objective wording."""
    expected = load_problem(folder).expected or {}
    return expected["sense"] if expected.get("sense") in ("min", "max") else snop_sense(folder)


def snop_sense(folder: Path) -> str:
    """'min' or 'max' from the word minimize/maximize in the SNOP's objective."""
    problem = load_problem(folder)
    found = objective_sense(problem.snop.objective)
    if found is None:
        raise SpecError(problem.snop_path, "objective", "cannot tell the sense: say either 'minimize' or 'maximize'")
    return found


def run_reference(folder: Path | str, solver: str, timeout: float = TIMEOUT) -> dict:
    """Run reference/solver.py on a copy of data.json with OPTIMUS_SOLVER=solver.

    Returns {"solver", "status", "objective", "seconds", "solution", "output", "error"}; a crash or timeout
    gives status "error" with the reason in "error"."""
    folder = Path(folder)
    script, data = _solver_py(folder).resolve(), folder / "data.json"
    if not data.exists():
        raise SpecError(data, "", "missing: the reference solver reads data.json")
    result = {"solver": solver, "status": "error", "objective": None, "solution": {}, "output": None, "error": None}
    with tempfile.TemporaryDirectory(prefix="optimus-gt-") as tmp:
        shutil.copy(data, tmp)
        start = time.perf_counter()
        try:
            proc = subprocess.run([sys.executable, str(script)], check=False, cwd=tmp, capture_output=True, text=True,
                                  timeout=timeout, env={**os.environ, "OPTIMUS_SOLVER": solver})
            if proc.returncode != 0:
                result["error"] = f"exit {proc.returncode}: " + (proc.stderr.strip().splitlines() or [""])[-1]
            for key in ("solution", "output"):
                path = Path(tmp) / f"{key}.json"
                if path.exists() and result["error"] is None:
                    result[key] = json.loads(path.read_text())
        except subprocess.TimeoutExpired:
            result["error"] = f"timed out after {timeout:g} s"
        except json.JSONDecodeError as exc:
            result["error"] = f"{key}.json is not valid JSON: {exc}"
        result["seconds"] = round(time.perf_counter() - start, 3)
    if result["error"] is None and not result["solution"]:
        result["error"] = "solution.json was not written"
    elif result["error"] is None:
        result["status"] = result["solution"].get("status", "error")
        objective = result["solution"].get("objective")
        result["objective"] = float(objective) if objective is not None else None
    return result


@dataclass
class Check:
    """The outcome of cross-checking one folder; `agree` is the verdict."""

    name: str
    sense: str
    primary: dict
    secondary: dict
    expected: dict | None
    agree: bool = False
    problems: list[str] = field(default_factory=list)

    def line(self) -> str:
        def fmt(r: dict) -> str:
            return f"{r['solver']}=" + (f"{r['objective']:.10g}" if r["objective"] is not None else "-")

        verdict = "agree" if self.agree else "DISAGREE: " + "; ".join(self.problems)
        return f"{self.name:<22} {self.primary['status']:<10} {fmt(self.primary):<24} {fmt(self.secondary):<24} {verdict}"

    def row(self) -> dict:
        row = asdict(self)
        for run in (row["primary"], row["secondary"]):  # outputs can be large (scaled instances); the statuses
            run.pop("output", None)  # and objectives are the point
        return row


def check(folder: Path | str, write: bool = False, timeout: float = TIMEOUT) -> Check:
    """Run both solvers on `folder`; compare them with each other and with expected.json (or write it)."""
    folder = Path(folder)
    first, second = solvers(folder)
    the_sense = sense(folder)
    with ThreadPoolExecutor(2) as pool:
        primary, secondary = pool.map(lambda s: run_reference(folder, s, timeout), (first, second))
    expected = load_problem(folder).expected
    result = Check(short_name(folder), the_sense, primary, secondary, expected)
    for run in (primary, secondary):
        if run["error"]:
            result.problems.append(f"{run['solver']} failed: {run['error']}")
    if primary["status"] != secondary["status"]:
        result.problems.append(f"status {primary['status']} vs {secondary['status']}")
    elif not close(primary["objective"], secondary["objective"], tolerance(second)):
        result.problems.append(f"objective {primary['objective']} vs {secondary['objective']}")
    if primary["status"] not in ("optimal", "infeasible", "unbounded"):
        result.problems.append(f"status {primary['status']} cannot be ground truth")
    if write and not result.problems:
        objective = primary["objective"]
        written = float(f"{objective:.{WRITTEN_DIGITS}g}") if objective is not None else None
        result.expected = {"objective": written, "sense": the_sense, "status": primary["status"]}
        driver.write_expected(folder, result.expected)
    elif not write:
        result.problems += compare_expected(expected, primary, secondary)
    result.agree = not result.problems
    return result


def compare_expected(expected: dict | None, *runs: dict) -> list[str]:
    """Differences between expected.json and reference runs (empty when they all match)."""
    return driver.expected_differences(expected, runs, "solver",
                                       lambda run, want: close(run["objective"], want, tolerance(run["solver"])))


def discover(root: Path | str) -> list[Path]:
    """Problem folders with a reference solver: `root` itself, or its subfolders in natural order."""
    return driver.discover(root, KIND)


def _solver_py(folder: Path) -> Path:
    path = Path(folder) / "reference" / "solver.py"
    if not path.exists():
        raise SpecError(path, "", "missing: ground truth needs a reference solver")
    return path


def _check_from_args(folder: Path, args: argparse.Namespace) -> Check:
    return check(folder, args.write, args.timeout)


def _read_solvers_and_sense(folder: Path) -> None:
    """Bad input (no cvxpy cross-check solver, a SNOP without a sense) fails here, before any folder runs."""
    solvers(folder), sense(folder)


KIND = driver.Kind(
    prog="python -m optimus.bench.groundtruth.lp", doc=__doc__, marker="reference/solver.py", check=_check_from_args,
    write_help="write expected.json when the solvers agree", not_found="not a directory",
    none_inside="no reference/solver.py here or in its subfolders", precheck=_read_solvers_and_sense,
    timeout=TIMEOUT, timeout_help="seconds per reference run", parallel=True)


def main(argv: list[str] | None = None) -> int:
    return driver.main(KIND, argv)


if __name__ == "__main__":
    sys.exit(main())
