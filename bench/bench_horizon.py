"""Z3 plan search against Fast Downward: today's loop and the incremental one, per plan length.

    .venv/bin/python bench/bench_horizon.py [--kinds gripper blocks] [--lengths 4 24] [--budget 60]

Our own gripper-like and blocks-like instances of growing size (generated here, in llmfp's data layout, so
llmfp's reference programs read them): for each, Fast Downward's optimal search (A*/LM-cut, through
unified-planning) on the PDDL gives the shortest length and its seconds; then the harness's horizon driver
(optimus/core/families/z3/z3_sandbox, run as the sandbox runs it, without the sandbox) searches T = 0, 1, … with
  today: llmfp/<kind>-1/reference/solver.py, `python solver.py T` afresh per T (the per-horizon contract);
  new:   llmfp/<kind>-1/reference/solver_incremental.py, one solver for every T (the incremental contract);
and the re-check (`z3_sandbox recheck`) proves the new loop's T-1 unsat from its SMT-LIB dump. Prints seconds
and the ratio Z3 seconds ÷ Fast Downward seconds, measured in this run, and the machine's load. Not a test.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from optimus.bench.groundtruth.pddl import fast_downward_optimal

ROOT = Path(__file__).resolve().parents[1]
LLMFP = ROOT / "llmfp"
RUNNER = ROOT / "optimus" / "core" / "families" / "z3" / "z3_sandbox"
PLANVAL = ROOT / "optimus" / "core" / "planval"
HALLS = ["east", "west"]
HANDS = ["left", "right"]


def gripper(k: int) -> dict:
    """k exhibits from the east hall to the west, the porter starting in the west: a shortest plan of
    4, 6, 10, 12, 16, 18, 22, 24 actions for k = 1..8."""
    exhibits = [f"item{i}" for i in range(k)]
    return {"halls": HALLS, "passages": [HALLS], "hands": HANDS, "exhibits": exhibits, "robot_start": "west",
            "exhibit_start": ["east"] * k, "goal_in": [[e, "west"] for e in exhibits], "max_horizon": 40}


def blocks(n: int, seed: int) -> dict:
    """n blocks in random towers, to be rebuilt as other random towers (seeded)."""
    rng = random.Random(seed)
    names = [f"b{i}" for i in range(n)]

    def towers() -> dict[str, str]:
        order, below, cut = rng.sample(names, n), {}, 0
        for k, b in enumerate(order):
            cut = k if k == 0 or rng.random() < 0.35 else cut
            below[b] = "table" if k == cut else order[k - 1]
        return below

    start, goal = towers(), towers()
    return {"blocks": names, "init_on": [start[b] for b in names],
            "goal_on": [[b, goal[b]] for b in names], "max_horizon": 40}


# (kind, size, seed): blocks seeds picked (by Fast Downward's lengths) so that the plans spread over 6..22 actions
INSTANCES = [("gripper", k, 0) for k in range(1, 9)] + [
    ("blocks", 3, 0), ("blocks", 4, 0), ("blocks", 5, 1), ("blocks", 5, 2), ("blocks", 8, 1), ("blocks", 6, 3),
    ("blocks", 6, 0), ("blocks", 7, 3), ("blocks", 9, 2)]


def build_module():
    spec = importlib.util.spec_from_file_location("llmfp_plans_build_bench", LLMFP / "_plans" / "build.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def cpu_seconds() -> float:
    """CPU seconds of this process and of its waited-for children (and theirs): on a shared machine the wall
    clock measures the other users too."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def measured(fn, *args) -> dict:
    wall, cpu = time.monotonic(), cpu_seconds()
    out = fn(*args)
    return {**out, "wall": time.monotonic() - wall, "cpu": cpu_seconds() - cpu}


def sandbox_run(work: Path, *args: str, timeout: float) -> None:
    """python -m z3_sandbox ARGS in `work` (a copy of the package beside), as the harness runs it, unsandboxed."""
    shutil.copytree(RUNNER, work / RUNNER.name, ignore=shutil.ignore_patterns("__pycache__"))
    subprocess.run([sys.executable, "-m", RUNNER.name, *args], cwd=work, capture_output=True, timeout=timeout,
                   check=False)


def horizon(work: Path, program: Path, data: dict, budget: float) -> dict:
    """The harness's horizon driver on the program, in a fresh dir: how its search ended."""
    work.mkdir()
    (work / "data.json").write_text(json.dumps(data))
    shutil.copy(program, work / "solver.py")
    request = {"program": "solver.py", "max_horizon": data["max_horizon"], "budget_s": budget}
    (work / "request.json").write_text(json.dumps(request))
    sandbox_run(work, "horizon", "request.json", timeout=budget + 60)
    record = json.loads((work / "horizon.json").read_text())
    return {"outcome": record["outcome"], "length": record.get("shortest")}


def recheck(work: Path) -> dict:
    """The re-check of the run in `work`: does it prove the model of T-1 steps unsat itself?"""
    job = work / "recheck"
    job.mkdir()
    for name in ("model.smt2", "solution.json", "shorter.smt2"):
        if (work / name).exists():
            shutil.copy(work / name, job / name)
    request = {"model": "model.smt2", "solution": "solution.json", "budget_s": 120,
               "shorter": "shorter.smt2" if (job / "shorter.smt2").exists() else None}
    (job / "request.json").write_text(json.dumps(request))
    sandbox_run(job, "recheck", "request.json", "result.json", timeout=300)
    result = json.loads((job / "result.json").read_text())
    return {"shorter": (result.get("shorter") or {}).get("status", "none"), "model": result["resolve"]["status"],
            "false": len((result.get("values_check") or {}).get("false", [None]))}


def fast_downward(domain: Path, problem: Path) -> dict:
    status, length, _ = fast_downward_optimal(domain, problem)
    return {"status": status, "length": length}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kinds", nargs="+", default=["gripper", "blocks"])
    ap.add_argument("--lengths", nargs=2, type=int, default=[4, 24], metavar=("MIN", "MAX"))
    ap.add_argument("--budget", type=float, default=60.0, help="seconds for one horizon search (default 60)")
    ap.add_argument("--no-today", action="store_true", help="leave today's loop out")
    args = ap.parse_args()
    build = build_module()
    os.chdir(tempfile.mkdtemp(prefix="bench-horizon-"))  # Fast Downward leaves its files in the working directory
    pddl = {"gripper": build.pddl_gripper, "blocks": build.pddl_blocks}
    print(f"load average before: {os.getloadavg()[0]:.2f} (2 cores, shared); seconds are CPU seconds "
          "(this process and its children), wall seconds in brackets")
    domain = {kind: LLMFP / f"{kind}-1" / "validate" / "domain.pddl" for kind in pddl}
    with tempfile.TemporaryDirectory(prefix="bench-horizon-") as tmp:  # unified-planning's start-up, not timed
        (Path(tmp) / "p.pddl").write_text(pddl["gripper"](gripper(1), "warm-up"))
        fast_downward(domain["gripper"], Path(tmp) / "p.pddl")
    print(f"{'kind':>8} {'size':>4} {'steps':>5} {'FD s':>12} {'today s':>14} {'today/FD':>8} {'new s':>13} "
          f"{'new/FD':>6} {'re-check of T-1':>24} {'load':>5}")
    today_out = set()  # kinds where today's loop already ran out of budget at a shorter plan
    for kind, size, seed in INSTANCES:
        if kind not in args.kinds:
            continue
        data = gripper(size) if kind == "gripper" else blocks(size, seed)
        with tempfile.TemporaryDirectory(prefix="bench-horizon-") as tmp:
            tmp = Path(tmp)
            (tmp / "problem.pddl").write_text(pddl[kind](data, f"{kind}-{size}"))
            fd = measured(fast_downward, domain[kind], tmp / "problem.pddl")
            if fd["status"] != "optimal" or not args.lengths[0] <= fd["length"] <= args.lengths[1]:
                continue
            ref = LLMFP / f"{kind}-1" / "reference"
            new = measured(horizon, tmp / "new", ref / "solver_incremental.py", data, args.budget)
            proof = measured(recheck, tmp / "new") if new["outcome"] == "optimal" else None
            today = None
            if not args.no_today and kind not in today_out:
                today = measured(horizon, tmp / "today", ref / "solver.py", data, args.budget)
                if today["outcome"] != "optimal":
                    today_out.add(kind)
            length = fd["length"]
            checked = f"T-1 {proof['shorter']}, {proof['cpu']:.1f}s" if proof else "-"
            print(f"{kind:>8} {size:>4} {length:>5} {_cell(fd, length):>12} {_cell(today, length):>14} "
                  f"{_ratio(today, fd):>8} {_cell(new, length):>13} {_ratio(new, fd):>6} {checked:>24} "
                  f"{os.getloadavg()[0]:>5.2f}", flush=True)
    return 0


def _cell(run: dict | None, length: int) -> str:
    if run is None:
        return "skipped"
    if run.get("outcome", "optimal") != "optimal":
        return f">{run['cpu']:.0f} [{run['wall']:.0f}]" if run["outcome"] == "time_limit" else run["outcome"]
    wrong = "" if run["length"] == length else f" ({run['length']} steps!)"
    return f"{run['cpu']:.2f} [{run['wall']:.1f}]{wrong}"


def _ratio(run: dict | None, fd: dict) -> str:
    if run is None or run["outcome"] != "optimal":
        return "-"
    return f"{run['cpu'] / fd['cpu']:.1f}"


if __name__ == "__main__":
    sys.exit(main())
