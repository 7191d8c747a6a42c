"""CBC on an MPS file, the cbc binary reading the file itself (no PuLP model in between).

PuLP's MPS reader refuses the LI/UI bounds HiGHS writes for general integers; the cbc binary reads them, and
reads the objective constant HiGHS writes as the objective row's RHS. It ignores an OBJSENSE section, so the
sense is passed as `-max`. Imports nothing from optimus: the resolve package runs inside the sandbox.
"""

from __future__ import annotations

import math
import os
import re
import shutil
import subprocess
import tempfile
import time

# The first words of cbc's solution file, and the status each means; "Stopped on iterations" is also its node limit.
_FIRST_WORDS = [("Optimal", "optimal"), ("Integer infeasible", "infeasible"), ("Infeasible", "infeasible"),
                ("Unbounded", "unbounded"), ("Stopped on time", "time_limit"), ("Stopped on iterations", "time_limit"),
                ("Stopped on solutions", "time_limit"), ("Stopped on ctrl-c", "time_limit")]
NO_SOLUTION = 1e49  # cbc reports "objective value 1e+50" when it holds no incumbent
GRACE_S = 30.0  # past its own time limit, cbc is stopped (a hang, not a search)


def cbc_path() -> str | None:
    """The cbc binary: $OPTIMUS_CBC, the one PuLP ships (read without building PuLP's deprecated solver class),
    else a cbc on PATH (PuLP 4's `pulp[cbc]`)."""
    chosen = os.environ.get("OPTIMUS_CBC")
    if chosen:
        return chosen
    try:
        from pulp.apis import coin_api

        bundled = os.path.abspath(coin_api.pulp_cbc_path)
        if os.path.isfile(bundled) and os.access(bundled, os.X_OK):
            return bundled
    except (ImportError, AttributeError):
        pass
    return shutil.which("cbc")


def command(binary: str, mps: str, sense: str, time_limit: float, mip_gap: float | None, threads: int | None,
            solution: str) -> list[str]:
    """cbc's command line: options are read in order, so every setting comes before -solve."""
    args = [binary, os.path.abspath(mps)]
    if sense == "max":
        args.append("-max")
    args += ["-timeMode", "elapsed", "-sec", f"{max(0.05, float(time_limit)):g}"]  # wall clock, not CPU
    if mip_gap is not None:
        args += ["-ratio", f"{float(mip_gap):g}"]
    if threads:
        args += ["-threads", str(int(threads))]
    return args + ["-solve", "-solution", solution]


def read_status(first_line: str) -> str:
    for words, status in _FIRST_WORDS:
        if first_line.startswith(words):
            return status
    return "error"  # "Stopped on difficulties", "Status unknown", an empty file


def _number(pattern: str, text: str) -> float | None:
    found = re.search(pattern, text, flags=re.MULTILINE)
    if not found:
        return None
    try:
        return float(found.group(1))
    except ValueError:
        return None


def read_result(first_line: str, log: str) -> dict:
    """Status, objective and bound from the solution file's first line and cbc's log. An objective only when cbc
    holds a solution: the first line may say "objective value 0" after a time limit with none found."""
    status = read_status(first_line)
    objective = _number(r"objective value\s+(\S+)", first_line)
    logged = _number(r"^Objective value:\s+(\S+)", log)
    has_point = status in ("optimal", "time_limit") and "no integer solution" not in first_line \
        and "No feasible solution found" not in log and not (logged is not None and abs(logged) >= NO_SOLUTION)
    if not has_point or objective is None or not math.isfinite(objective):
        return {"status": status, "objective": None, "bound": None}
    bound = objective if status == "optimal" else _number(r"^(?:Lower|Upper) bound:\s+(\S+)", log)
    return {"status": status, "objective": objective, "bound": bound}


def solve_mps(path: str, sense: str = "min", time_limit: float = 60.0, mip_gap: float | None = None,
              threads: int | None = None) -> dict:
    """Solve the MPS file at `path` with cbc: {"solver": "CBC", "status": optimal | infeasible | unbounded |
    time_limit | error, "objective" (with the file's objective constant), "bound", "seconds"}; "error" adds why."""
    started = time.monotonic()
    out = {"solver": "CBC", "status": "error", "objective": None, "bound": None}
    binary = cbc_path()
    if binary is None:
        return {**out, "seconds": 0.0, "error": "no cbc binary (PuLP's bundled one or cbc on PATH)"}
    with tempfile.TemporaryDirectory(prefix="cbc-") as tmp:
        solution = os.path.join(tmp, "solution.txt")
        args = command(binary, path, sense, time_limit, mip_gap, threads, solution)
        try:
            run = subprocess.run(args, capture_output=True, text=True, errors="replace", stdin=subprocess.DEVNULL,
                                 check=False, timeout=max(0.05, float(time_limit)) + GRACE_S)
        except (OSError, subprocess.TimeoutExpired) as exc:
            return {**out, "seconds": round(time.monotonic() - started, 4), "error": f"{type(exc).__name__}: {exc}"}
        first_line = ""
        if os.path.exists(solution):
            with open(solution, errors="replace") as fh:
                first_line = fh.readline().strip()
    seconds = round(time.monotonic() - started, 4)
    if not first_line:
        tail = " | ".join(run.stdout.strip().splitlines()[-3:] + run.stderr.strip().splitlines()[-2:])
        return {**out, "seconds": seconds, "error": f"cbc wrote no solution (exit {run.returncode}): {tail}"}
    result = {**out, **read_result(first_line, run.stdout), "seconds": seconds}
    if result["status"] == "error":
        result["error"] = f"cbc says: {first_line}"
    return result
