"""The multi-step llmfp/ benchmark (Z3 planning): for every folder the BFS over validate/*.pddl and the Z3
program agree on the shortest plan (Z3 feasible at the optimum L, unsat at L-1: the harness's proof), the
Z3 plan passes the harness's validator (optimus.core.planval) and our simulation, the folder's supervised tests
accept it and reject reference/wrong_output.json, and the benchmark has the promised mix. The full Z3
horizon search from T = 0 and Fast Downward run in `python -m optimus.bench.groundtruth.plans llmfp` (too slow for
every session on two shared cores)."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from optimus.bench.groundtruth import pddl as groundtruth_pddl
from optimus.bench.groundtruth import plans as groundtruth_plans
from optimus.core.planval import validate as planval
from optimus.core.validate import validate

ROOT = Path(__file__).resolve().parents[1] / "llmfp"
CONFTEST = Path(__file__).resolve().parents[1] / "optimus" / "core" / "testing" / "conftest.py"
KINDS = ("blocks", "mystery", "gripper", "gripper2", "household")
# gripper2-3's proof (T = 14 unsat) alone takes about a minute and its BFS 100 000 states: tests/test_gripper2.py
# checks it against the BFS, and `python -m optimus.bench.groundtruth.plans` runs it in full
SLOW = ("gripper2-3",)
ALL = [f for f in groundtruth_plans.folders([ROOT]) if f.name.split("-")[0] in KINDS] if ROOT.is_dir() else []
FOLDERS = [f for f in ALL if f.name not in SLOW]
IDS = [f.name for f in FOLDERS]
SOLVABLE = [f for f in FOLDERS if not f.name.endswith("-unsat")]


@pytest.fixture(scope="session")
def checks() -> dict[Path, groundtruth_plans.Check]:
    """BFS and the Z3 proof horizons of every folder, run once, two folders at once (subprocesses)."""
    def check(folder: Path) -> groundtruth_plans.Check:
        # PlanValidator runs below, in the test that uses the harness's validator (unified-planning is not thread-safe)
        return groundtruth_plans.check_folder(folder, fd=False, full=False, up=False)

    with ThreadPoolExecutor(2) as pool:
        return dict(zip(FOLDERS, pool.map(check, FOLDERS)))


@pytest.fixture(scope="session")
def verdicts(checks) -> dict[tuple[str, str], dict[str, int]]:
    """Outcome counts of every folder's supervised tests on the Z3 plan ("accept"), on wrong_output.json
    ("reject") and on the Z3 plan less its last step ("short"), laid out as the harness lays them out (the final solution.json: optimal, objective = length),
    all in one pytest process."""
    with tempfile.TemporaryDirectory(prefix="optimus-plans-") as tmp:
        dirs = []
        for folder, chk in checks.items():
            found = chk.plan is not None
            solution = ({"status": "optimal", "objective": chk.z3_length} if found
                        else {"status": "infeasible", "objective": None})
            outputs = {"accept": {"plan": chk.plan} if found else {}}
            if (folder / "reference" / "wrong_output.json").exists():
                outputs["reject"] = json.loads((folder / "reference" / "wrong_output.json").read_text())
            if found and chk.plan:  # every step can be done, but a shortest plan less its last step misses the goal
                outputs["short"] = {"plan": chk.plan[:-1]}  # as one horizon's run reports it: no objective
            for kind, output in outputs.items():
                work = Path(tmp) / f"{kind}__{folder.name.replace('-', '_')}"
                work.mkdir()
                for path in [CONFTEST, folder / "data.json", *(folder / "tests").glob("test_*.py")]:
                    shutil.copy(path, work)
                (work / "output.json").write_text(json.dumps(output))
                one_run = {"status": "feasible", "objective": None}
                (work / "solution.json").write_text(json.dumps(one_run if kind == "short" else solution))
                dirs.append(work.name)
        env = {k: v for k, v in os.environ.items() if k != "OPTIMUS_TEST_DIR"}
        subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--import-mode=importlib",
                        "--continue-on-collection-errors", "--junitxml=report.xml", *dirs],
                       cwd=tmp, capture_output=True, text=True, timeout=300, env=env, check=False)
        report = Path(tmp) / "report.xml"
        root = ET.parse(report).getroot() if report.exists() else ET.Element("none")
    counts: dict[tuple[str, str], dict[str, int]] = {}
    for case in root.iter("testcase"):
        kind, name = (case.get("classname") or "").split(".")[0].split("__")
        outcome = next((c.tag for c in case if c.tag in ("failure", "error", "skipped")), "passed")
        bucket = counts.setdefault((kind, name.replace("_", "-")), dict.fromkeys(("passed", "failure", "error",
                                                                                "skipped"), 0))
        bucket[outcome] += 1
    return counts


@pytest.mark.parametrize("folder", FOLDERS, ids=IDS)
def test_plan_bfs_and_z3_agree_with_expected(folder: Path, checks):
    chk = checks[folder]
    assert chk.ok, f"{folder.name}: " + "; ".join(chk.problems)
    assert json.loads((folder / "expected.json").read_text()) == chk.expected, f"{folder.name}: expected.json"
    if chk.expected["status"] == "optimal":  # the proof: unsat one step below the optimum
        assert chk.z3_horizons == [chk.z3_length - 1, chk.z3_length] or chk.z3_length == 0


@pytest.mark.parametrize("folder", SOLVABLE, ids=[f.name for f in SOLVABLE])
def test_plan_harness_validator_accepts_the_z3_plan_and_rejects_the_wrong_one(folder: Path, checks):
    # the harness's validator (optimus.core.planval), the PDDL read once for both plans
    task = planval.read_pddl(str(folder / "validate" / "domain.pddl"), str(folder / "validate" / "problem.pddl"))
    verdict = planval.validate(task, planval.read_plan(json.dumps({"plan": checks[folder].plan})))
    assert verdict["valid"] and verdict["length"] == checks[folder].z3_length, f"{folder.name}: {verdict}"
    wrong = planval.validate(task, planval.read_plan((folder / "reference" / "wrong_output.json").read_text()))
    assert not wrong["valid"] and wrong["failing_step"], f"{folder.name}: wrong_output.json: {wrong}"


@pytest.mark.parametrize("folder", FOLDERS, ids=IDS)
def test_plan_supervised_tests_accept_the_z3_plan(folder: Path, verdicts):
    outcome = verdicts.get(("accept", folder.name))
    assert outcome, f"{folder.name}: its tests did not run"
    assert outcome["failure"] == outcome["error"] == 0, f"{folder.name}: tests on the Z3 plan: {outcome}"
    if folder in SOLVABLE:
        assert outcome["passed"] >= 5, f"{folder.name}: too few checks ran: {outcome}"


@pytest.mark.parametrize("folder", SOLVABLE, ids=[f.name for f in SOLVABLE])
def test_plan_supervised_tests_reject_wrong_output(folder: Path, verdicts):
    outcome = verdicts.get(("reject", folder.name))
    assert outcome, f"{folder.name}: no wrong_output.json, or its tests did not run"
    # a real test failure, not a collection or fixture error, which would prove nothing
    assert outcome["failure"] > 0 and outcome["error"] == 0, f"{folder.name}: wrong_output.json passes: {outcome}"


@pytest.mark.parametrize("folder", SOLVABLE, ids=[f.name for f in SOLVABLE])
def test_plan_supervised_tests_reject_a_plan_that_stops_short(folder: Path, verdicts):
    outcome = verdicts.get(("short", folder.name))
    assert outcome, f"{folder.name}: its tests did not run on the short plan"
    assert outcome["failure"] == 1 and outcome["error"] == 0, (
        f"{folder.name}: the plan less its last step should fail only the goal test: {outcome}")


@pytest.mark.parametrize("folder", ALL, ids=[f.name for f in ALL])
def test_plan_folder_is_valid_and_planning(folder: Path):
    assert validate(folder) == [], f"{folder.name}: optimus validate finds {validate(folder)}"
    snop = json.loads((folder / "snop.json").read_text())
    assert (snop["problem_type"], snop["solver"]) == ("PLANNING", "z3")


def test_plan_checker_catches_a_wrong_expected_and_a_bad_plan(tmp_path):
    """The ground-truth check can fail: a tampered expected.json and a plan with a step dropped are caught."""
    folder = tmp_path / "blocks-1"
    shutil.copytree(ROOT / "blocks-1", folder, ignore=shutil.ignore_patterns("runs"))
    chk = groundtruth_plans.check_folder(folder, fd=False, full=False)
    (folder / "expected.json").write_text(json.dumps({**chk.expected, "objective": chk.expected["objective"] + 1}))
    groundtruth_pddl.compare(chk, folder, write=False)
    assert any("expected.json is" in p for p in chk.problems)
    domain, problem = folder / "validate" / "domain.pddl", folder / "validate" / "problem.pddl"
    assert groundtruth_plans.plan_faults(domain, problem, chk.plan) == []
    assert groundtruth_plans.plan_faults(domain, problem, chk.plan[1:])  # the first step dropped


def _build_module():
    spec = importlib.util.spec_from_file_location("llmfp_plans_build_test", ROOT / "_plans" / "build.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("kind", KINDS)
def test_plan_folders_are_what_build_writes(kind: str):
    """data.json and problem.pddl are llmfp/_plans's, and the files copied from <kind>-1 have not drifted from it."""
    build = _build_module()
    instances, pddl = build.load_instances()[kind]
    first = ROOT / f"{kind}-1"
    for name, data in instances.items():
        folder = ROOT / name
        assert json.loads((folder / "data.json").read_text()) == data, f"{name}: data.json differs from instances.py"
        assert (folder / "validate" / "problem.pddl").read_text() == pddl(data, name), f"{name}: problem.pddl"
        for rel in ("snop.json", "reference/formulation.md", "reference/solver.py", f"tests/test_{kind}.py",
                    "validate/domain.pddl", *[build.INCREMENTAL] * (first / build.INCREMENTAL).is_file()):
            assert (folder / rel).read_text() == (first / rel).read_text(), (
                f"{folder / rel} differs from {first / rel}: run llmfp/_plans/build.py")


def test_plan_benchmark_mix():
    solvable = [f for f in ALL if not f.name.endswith("-unsat")]
    base = {k: [f for f in solvable if f.name.split("-")[0] == k] for k in KINDS}
    assert all(len(v) >= 3 for v in base.values()), {k: len(v) for k, v in base.items()}
    unsat = {f.name.split("-")[0] for f in ALL if f not in solvable}
    assert unsat == set(KINDS), f"unsat variants of {sorted(unsat)}"
    lengths = [json.loads((f / "expected.json").read_text())["objective"] for f in solvable]
    assert min(lengths) <= 4 and max(lengths) >= 10, f"shortest plan lengths {sorted(lengths)}"


def test_plan_ground_truth_cli_names_bad_input(tmp_path, capsys):
    """Bad input: exit 2 and one line naming the file and field, never a traceback."""
    assert groundtruth_plans.main([str(tmp_path / "nowhere")]) == 2
    folder = tmp_path / "gripper-1"
    shutil.copytree(ROOT / "gripper-1", folder, ignore=shutil.ignore_patterns("runs"))
    (folder / "data.json").write_text(json.dumps({"max_horizon": "ten"}))
    assert groundtruth_plans.main([str(folder)]) == 2
    err = capsys.readouterr().err
    assert "nowhere: not a multi-step folder" in err and "data.json: max_horizon: expected a non-negative" in err
