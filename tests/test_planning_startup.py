"""The sandboxed planning processes start cheaply and still judge: they read PDDL with Fast Downward's translator
and plan with its driver, never starting unified-planning (nor ConfigSpace's scipy.stats; planval.up_start keeps
that true where UP is started), the pddl run validates in its own process, and the z3
re-check's faster core search and value substitution give what plain z3 calls give.

Each sandbox-side process runs here as the harness runs it (`python -m …` in a dir holding copies of the
packages), with a sitecustomize on PYTHONPATH that makes every Python process it starts (the planval, Fast
Downward driver and translator children included) write, as it exits, whether it had unified-planning and
scipy.stats loaded.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
import z3

import optimus

PACKAGES = Path(optimus.__file__).parent / "core"
PLANVAL, PDDL_RUNNER, Z3_RUNNER = PACKAGES / "planval", PACKAGES / "families" / "pddl" / "pddl_sandbox", \
    PACKAGES / "families" / "z3" / "z3_sandbox"
COURIER = Path(__file__).parent / "fixtures" / "z3" / "courier"
LOAD, DRIVE, UNLOAD = ({"action": "load", "args": ["box", "north"]}, {"action": "drive", "args": ["north", "south"]},
                       {"action": "unload", "args": ["box", "south"]})


def stage(work: Path, *packages: Path) -> None:
    for package in packages:
        shutil.copytree(package, work / package.name, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(COURIER / "validate" / "domain.pddl", work / "domain.pddl")
    shutil.copy(COURIER / "validate" / "problem.pddl", work / "problem.pddl")


PROBE = """import atexit, json, os, sys


def _record():
    with open(os.environ["PLANNING_STARTUP_LOG"], "a") as fh:
        fh.write(json.dumps({"argv": sys.argv[:3], "up": "unified_planning" in sys.modules,
                             "scipy": "scipy.stats" in sys.modules}) + "\\n")


atexit.register(_record)
"""


def run(work: Path, *argv: str) -> tuple[subprocess.CompletedProcess, list[dict]]:
    """The process, and one record per Python process it and its children ran."""
    probe, log = work.parent / f"{work.name}-probe", work.parent / f"{work.name}-processes.jsonl"
    probe.mkdir()
    (probe / "sitecustomize.py").write_text(PROBE)
    env = {**os.environ, "PYTHONPATH": str(probe), "PLANNING_STARTUP_LOG": str(log)}
    done = subprocess.run([sys.executable, *argv], cwd=work, env=env, capture_output=True, text=True, timeout=120,
                          check=False)
    return done, [json.loads(line) for line in log.read_text().splitlines()]


def starts(processes: list[dict], what: str) -> int:
    return sum(p[what] for p in processes)


def test_planval_judges_without_scipy_and_leaves_the_real_configspace_importable(tmp_path):
    stage(tmp_path, PLANVAL)
    code = """if True:
        import json, sys
        from planval.up_start import ConfigurationSpace, start_unified_planning
        from planval import validate_files
        start_unified_planning()
        good, bad = validate_files("domain.pddl", "problem.pddl", "good.json"), \\
            validate_files("domain.pddl", "problem.pddl", "bad.json")
        scipy = "scipy.stats" in sys.modules
        import ConfigSpace
        print(json.dumps({"good": good, "bad": bad, "scipy": scipy,
                          "real": ConfigSpace.ConfigurationSpace is not ConfigurationSpace}))
    """
    (tmp_path / "good.json").write_text(json.dumps({"plan": [LOAD, DRIVE, UNLOAD]}))
    (tmp_path / "bad.json").write_text(json.dumps({"plan": [DRIVE, LOAD]}))
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120,
                          check=True)
    seen = json.loads(done.stdout)
    assert seen["good"]["valid"] and seen["good"]["length"] == 3
    assert not seen["bad"]["valid"] and seen["bad"]["failing_step"] == 2 and "at(north)" in seen["bad"]["reason"]
    assert not seen["scipy"] and seen["real"]


def test_planval_cli_judges_without_unified_planning_or_scipy(tmp_path):
    work = tmp_path / "job"
    stage(work, PLANVAL)
    (work / "plan.json").write_text(json.dumps({"plan": [LOAD, DRIVE, UNLOAD]}))
    done, processes = run(work, "-m", "planval", "domain.pddl", "problem.pddl", "plan.json", "result.json")
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads((work / "result.json").read_text())["valid"]
    # Fast Downward's translator reads the PDDL; the plan is stepped on its task: no unified-planning to start
    assert starts(processes, "up") == 0 and starts(processes, "scipy") == 0, processes


def test_a_pddl_run_plans_and_validates_without_unified_planning(tmp_path):
    work = tmp_path / "job"
    stage(work, PDDL_RUNNER, PLANVAL)
    (work / "request.json").write_text(json.dumps({"mode": "plan", "optimal": True, "timeout": 60}))
    done, processes = run(work, "-m", "pddl_sandbox", "request.json")
    assert done.returncode == 0, done.stderr[-2000:]
    solution = json.loads((work / "solution.json").read_text())
    output = json.loads((work / "output.json").read_text())
    validation = json.loads((work / "validation.json").read_text())
    # load, drive, unload: the only plan of 3 steps, and none is shorter (the parcel must be carried)
    assert solution == {"status": "optimal", "objective": 3, "validated": True}
    assert [s["action"] for s in output["plan"]] == ["load", "drive", "unload"]
    assert validation["valid"] and validation["length"] == 3
    # Fast Downward's driver and translator are Python processes too; none imports unified-planning
    assert len(processes) >= 2 and starts(processes, "up") == 0 and starts(processes, "scipy") == 0, processes


def test_a_pddl_run_still_rejects_a_direct_plan_that_breaks_a_precondition(tmp_path):
    work = tmp_path / "job"
    stage(work, PDDL_RUNNER, PLANVAL)
    (work / "request.json").write_text(json.dumps({"mode": "direct"}))
    (work / "plan.json").write_text(json.dumps([DRIVE, LOAD, UNLOAD]))
    done, processes = run(work, "-m", "pddl_sandbox", "request.json")
    assert done.returncode == 1
    assert "step 2 (load(box, north))" in done.stderr and "at(north)" in done.stderr
    assert json.loads((work / "solution.json").read_text())["status"] == "error"
    assert len(processes) == 1  # no planner in direct mode, and planval runs in this process


def test_the_z3_planning_recheck_runs_without_unified_planning_or_scipy(tmp_path):
    run_dir, job = tmp_path / "run", tmp_path / "run" / "recheck"
    run_dir.mkdir()
    shutil.copy(COURIER / "reference" / "solver.py", run_dir / "solver.py")
    shutil.copy(COURIER / "data.json", run_dir / "data.json")
    shutil.copytree(Z3_RUNNER, run_dir / Z3_RUNNER.name, ignore=shutil.ignore_patterns("__pycache__"))
    (run_dir / "horizon_request.json").write_text(json.dumps({"program": "solver.py", "max_horizon": 6}))
    horizon = subprocess.run([sys.executable, "-m", "z3_sandbox", "horizon", "horizon_request.json"], cwd=run_dir,
                             capture_output=True, text=True, timeout=120, check=False)
    assert horizon.returncode == 0, horizon.stderr[-2000:]
    job.mkdir()
    stage(job, Z3_RUNNER, PLANVAL)
    for name in ("model.smt2", "shorter.smt2", "solution.json", "output.json"):
        shutil.copy(run_dir / name, job / name)
    (job / "request.json").write_text(json.dumps({
        "model": "model.smt2", "solution": "solution.json", "budget_s": 60, "shorter": "shorter.smt2",
        "plan": {"domain": "domain.pddl", "problem": "problem.pddl", "plan": "output.json", "validate": True},
        "planner": True}))
    done, processes = run(job, "-m", "z3_sandbox", "recheck", "request.json", "result.json")
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads((job / "result.json").read_text())
    assert "error" not in result, result
    assert result["plan"]["valid"] and result["plan"]["length"] == 3
    assert result["planner"]["status"] == "optimal" and result["planner"]["length"] == 3
    assert result["shorter"]["status"] == "infeasible" and result["resolve"]["status"] == "feasible"
    assert starts(processes, "up") == 0 and starts(processes, "scipy") == 0, processes


def test_check_values_finds_exactly_the_assertions_python_arithmetic_breaks():
    """Hundreds of tracked pair limits and one value per constant: the false ones, as z3 substitution finds them
    (optimus's substituter), against the same sums done in Python."""
    from optimus.core.families.z3.z3_sandbox import recheck, smt

    rng = random.Random(7)
    xs = [z3.Int(f"x{i}") for i in range(40)]
    s, limits = z3.Solver(), {}
    for i in range(40):
        for j in range(i + 1, min(40, i + 8)):
            limits[f"s1_pair_{i}_{j}"] = (i, j, rng.randint(0, 20))
            s.assert_and_track(xs[i] + xs[j] <= limits[f"s1_pair_{i}_{j}"][2], f"s1_pair_{i}_{j}")
    values = {f"x{i}": rng.randint(0, 10) for i in range(40)}
    found = recheck.check_values(smt.read(s.sexpr()), values)
    broken = sorted(name for name, (i, j, cap) in limits.items() if values[f"x{i}"] + values[f"x{j}"] > cap)
    assert broken and sorted(f["name"] for f in found["false"]) == broken
    assert found["checked"] == len(limits) and not found["undecided"] and not found["missing"]


def test_the_minimal_core_is_irreducible_by_plain_z3_checks():
    """Many redundant assertions and two statements that each clash with s2: whichever core the search returns,
    it is unsat, and dropping any one of its assertions (or statements) leaves a satisfiable rest."""
    from optimus.core.families.z3.z3_sandbox import recheck, smt

    x, y = z3.Int("x"), z3.Int("y")
    s = z3.Solver()
    s.assert_and_track(x >= 10, "s1_floor")
    s.assert_and_track(x <= 3, "s2_cap")
    for k in range(30):
        s.assert_and_track(x >= k % 8, f"s3_at_least_{k}")  # k % 8 > 3 clashes with s2_cap too
        s.assert_and_track(y >= k, f"s4_y_{k}")  # never part of a conflict
    cap = smt.read(s.sexpr())
    core = recheck.minimal_core(cap, time.monotonic() + 60)
    assert core["irreducible"] and "s2" in core["statements"] and "s4" not in core["statements"]

    def sat(names) -> bool:
        check = z3.Solver()
        check.add(*(cap.tracked[n] for n in names))
        return check.check() == z3.sat

    names = core["names"]
    assert not sat(names) and all(sat([m for m in names if m != n]) for n in names)
    kept = [n for n in cap.tracked if n.split("_")[0] in core["statements"]]
    assert not sat(kept)
    assert all(sat([n for n in kept if not n.startswith(g + "_")]) for g in core["statements"])


PROGRAM = """import sys
T = int(sys.argv[1])
print("T", T, __name__, sys.argv[0], __file__ == sys.path[0] + "/prog.py")
if T == 1:
    import z3
    if z3.Int("x") > T:  # a symbolic comparison used as a Python bool: z3 raises, from a library frame
        pass
if T == 2:
    sys.exit(3)
if T == 3:
    sys.exit("no plan of that length")
if T == 4:
    compile("x = (", "inner.py", "exec")
"""


def test_a_forked_horizon_run_behaves_as_python_running_the_program(tmp_path):
    """The horizon loop's fork (z3_sandbox.forked) against `python prog.py T` itself: same exit code, output and
    traceback, whether the program ends, exits with a code or a message, or raises (in its frames or below)."""
    from optimus.core.families.z3.z3_sandbox.forked import Timeout, run_python

    (tmp_path / "prog.py").write_text(PROGRAM)
    (tmp_path / "slow.py").write_text("import time\ntime.sleep(600)\n")
    here = os.getcwd()
    os.chdir(tmp_path)
    try:
        for t in range(5):
            want = subprocess.run([sys.executable, "prog.py", str(t)], capture_output=True, text=True, timeout=60,
                                  check=False)
            got = run_python("prog.py", [str(t)], timeout=60)
            assert (got.returncode, got.stdout, got.stderr) == (want.returncode, want.stdout, want.stderr), t
        assert "T 4 __main__ prog.py True" in got.stdout and "SyntaxError" in got.stderr
        started = time.monotonic()
        with pytest.raises(Timeout):
            run_python("slow.py", [], timeout=0.5)
        assert time.monotonic() - started < 120  # not waited out (600 s), with room for a busy machine
    finally:
        os.chdir(here)
