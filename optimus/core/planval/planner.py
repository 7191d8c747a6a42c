"""Fast Downward's own driver on the files as its translator reads them (the build inside up-fast-downward's
wheel): lama-first for a plan, A* with LM-cut for a shortest one. Nothing in between rewrites the PDDL, so
"the translator reads it" is what the planner gets. Statuses normalised from the driver's exit codes
(fast-downward.org/ExitCodes). Imports nothing from optimus: it runs in the sandbox as part of planval.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ALIASES = {True: "seq-opt-lmcut", False: "lama-first"}
# LM-cut takes neither conditional effects nor derived predicates (exit 34): A* with the blind heuristic is
# still optimal, and takes both
UNSUPPORTED = 34
FALLBACK_OPTIMAL = ["--search", "astar(blind())"]
FOUND = (0, 1, 2, 3)  # a plan was written (perhaps with a limit reached after it)
STATUS = {10: "infeasible", 11: "infeasible", 12: "infeasible", 13: "infeasible", 21: "time_limit",
          23: "time_limit", 20: "memory_limit", 22: "memory_limit", 24: "memory_limit"}
TAIL = 1500


def driver() -> Path | None:
    spec = importlib.util.find_spec("up_fast_downward")
    if spec is None or not spec.submodule_search_locations:
        return None
    found = Path(spec.submodule_search_locations[0]) / "downward" / "fast-downward.py"
    return found if found.is_file() else None


def plan(domain: str | Path, problem: str | Path, optimal: bool, timeout: float) -> dict:
    """{"status": optimal|feasible|infeasible|time_limit|memory_limit|error, "plan": [{"action", "args"}] or
    None, "log": the driver's last lines when it failed}. `infeasible` from lama-first (12) is its incomplete
    search's word; A*'s (11) is a proof."""
    script = driver()
    if script is None:
        return {"status": "error", "plan": None, "log": "Fast Downward (up-fast-downward) is not installed"}
    deadline = time.monotonic() + timeout
    found = _run(script, domain, problem, ["--alias", ALIASES[bool(optimal)]], optimal, timeout)
    if optimal and found.get("exit_code") == UNSUPPORTED and deadline - time.monotonic() > 1:
        found = _run(script, domain, problem, FALLBACK_OPTIMAL, optimal, deadline - time.monotonic())
    return found


def _run(script: Path, domain, problem, config: list[str], optimal: bool, timeout: float) -> dict:
    with tempfile.TemporaryDirectory(prefix="fd-") as tmp:
        plan_file = Path(tmp) / "plan"
        cmd = [sys.executable, str(script), "--plan-file", str(plan_file), "--sas-file", str(Path(tmp) / "output.sas"),
               "--overall-time-limit", f"{max(1, int(timeout))}s"]
        if config[0] == "--alias":
            cmd += [*config, str(Path(domain).resolve()), str(Path(problem).resolve())]
        else:
            cmd += [str(Path(domain).resolve()), str(Path(problem).resolve()), "--search-options", *config]
        try:
            done = subprocess.run(cmd, cwd=tmp, capture_output=True, text=True, timeout=timeout + 10, check=False)
        except subprocess.TimeoutExpired:
            return {"status": "time_limit", "plan": None, "log": ""}
        log = (done.stdout + done.stderr)[-TAIL:]
        if done.returncode in FOUND and plan_file.is_file():
            return {"status": "optimal" if optimal else "feasible", "plan": read_plan_file(plan_file.read_text()),
                    "log": ""}
        return {"status": STATUS.get(done.returncode, "error"), "plan": None, "log": log,
                "exit_code": done.returncode}


def read_plan_file(text: str) -> list[dict]:
    """Fast Downward's plan file: one "(action arg …)" a line, ";" comments."""
    steps = []
    for line in text.splitlines():
        line = line.split(";", 1)[0].strip()
        if line:
            words = line.strip("()").split()
            steps.append({"action": words[0], "args": words[1:]})
    return steps
