"""The multi-constraint llmfp/ benchmark (Z3): every folder's Z3 reference and its independent second way (PuLP,
or enumeration) agree with each other and with expected.json, every folder's supervised tests accept the Z3
output and reject reference/wrong_output.json, each unsat variant's named statements are a minimal conflict,
the data is what llmfp/_make rebuilds, and the benchmark has the promised mix. Each reference runs once per
session. Multi-step (PLANNING) folders are tested elsewhere (tests/test_llmfp_plans.py)."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from optimus.bench.groundtruth import z3 as groundtruth_z3
from optimus.core.families.z3.z3_sandbox.recheck import minimal_core
from optimus.core.families.z3.z3_sandbox.smt import read
from optimus.core.validate import validate

ROOT = Path(__file__).resolve().parents[1] / "llmfp"
CONFTEST = Path(__file__).resolve().parents[1] / "optimus" / "core" / "testing" / "conftest.py"
KINDS = ("supply", "rota", "depots", "makespan", "picking")
FOLDERS = [f for f in groundtruth_z3.discover(ROOT)] if ROOT.is_dir() else []
IDS = [f.name for f in FOLDERS]
UNSAT = [f for f in FOLDERS if (f / "reference" / "core.json").exists()]
WORKERS = max(2, os.cpu_count() or 2)


@pytest.fixture(scope="session")
def checks() -> dict[Path, groundtruth_z3.Check]:
    """Both references of every folder, run once, several folders at once (subprocesses, so threads do)."""
    with ThreadPoolExecutor(WORKERS) as pool:
        return dict(zip(FOLDERS, pool.map(groundtruth_z3.check, FOLDERS)))


@pytest.fixture(scope="session")
def verdicts(checks) -> dict[tuple[str, str], dict[str, int]]:
    """Outcome counts of every folder's supervised tests on the Z3 output ("accept") and on wrong_output.json
    ("reject"), laid out as the harness lays them out, all in one pytest process."""
    with tempfile.TemporaryDirectory(prefix="optimus-llmfp-") as tmp:
        dirs = []
        for folder, check in checks.items():
            outputs = {"accept": check.z3["output"] or {}}
            if (folder / "reference" / "wrong_output.json").exists():
                outputs["reject"] = json.loads((folder / "reference" / "wrong_output.json").read_text())
            for kind, output in outputs.items():
                work = Path(tmp) / f"{kind}__{folder.name.replace('-', '_')}"
                work.mkdir()
                for path in [CONFTEST, folder / "data.json", *(folder / "tests").glob("test_*.py")]:
                    shutil.copy(path, work)
                (work / "output.json").write_text(json.dumps(output))
                (work / "solution.json").write_text(json.dumps(check.z3["solution"]))
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
        bucket = counts.setdefault((kind, name.replace("_", "-")), {"passed": 0, "failure": 0, "error": 0,
                                                                    "skipped": 0})
        bucket[outcome] += 1
    return counts


@pytest.mark.parametrize("folder", FOLDERS, ids=IDS)
def test_multi_constraint_two_ways_agree(folder: Path, checks):
    check = checks[folder]
    assert check.agree, f"{folder.name}: " + "; ".join(check.problems)
    assert check.z3["status"] == check.expected["status"] != "error"


@pytest.mark.parametrize("folder", FOLDERS, ids=IDS)
def test_multi_constraint_supervised_tests_accept_the_z3_output(folder: Path, verdicts):
    outcome = verdicts.get(("accept", folder.name))
    assert outcome, f"{folder.name}: its tests did not run"
    assert outcome["failure"] == outcome["error"] == 0, f"{folder.name}: tests on the Z3 output: {outcome}"
    if json.loads((folder / "expected.json").read_text())["status"] != "infeasible":
        assert outcome["passed"] >= 4, f"{folder.name}: too few checks ran: {outcome}"


@pytest.mark.parametrize("folder", [f for f in FOLDERS if f not in UNSAT], ids=[f.name for f in FOLDERS
                                                                                   if f not in UNSAT])
def test_multi_constraint_supervised_tests_reject_wrong_output(folder: Path, verdicts):
    outcome = verdicts.get(("reject", folder.name))
    assert outcome, f"{folder.name}: no wrong_output.json, or its tests did not run"
    # a real test failure, not a collection or fixture error, which would prove nothing
    assert outcome["failure"] > 0 and outcome["error"] == 0, f"{folder.name}: wrong_output.json passes: {outcome}"


@pytest.mark.parametrize("folder", UNSAT, ids=[f.name for f in UNSAT])
def test_multi_constraint_unsat_core_is_minimal_and_quoted(folder: Path, checks):
    core = json.loads((folder / "reference" / "core.json").read_text())
    statements = json.loads((folder / "snop.json").read_text())["problem_info"]
    assert 2 <= len(core["statements"]) <= 3, f"{folder.name}: core {core['statements']} is not small and clear"
    assert core["quoted"] == [statements[k - 1] for k in core["statements"]], f"{folder.name}: quotes drifted"
    smt2 = checks[folder].z3["smt2"]
    assert groundtruth_z3.core_problems(smt2, core["statements"]) == []
    # the checker itself can fail: one statement more is not minimal, one fewer is no conflict
    for extra in [k for k in groundtruth_z3.tracked_assertions(smt2) if k not in core["statements"]][:1]:
        assert any("not minimal" in p for p in groundtruth_z3.core_problems(smt2, [*core["statements"], extra]))
    assert any("not unsat" in p for p in groundtruth_z3.core_problems(smt2, core["statements"][1:]))


@pytest.mark.parametrize("folder", UNSAT, ids=[f.name for f in UNSAT])
def test_multi_constraint_family_diagnosis_names_exactly_the_core(folder: Path, checks):
    """The Z3 family's own explanation of "no solution" (run here in-process on the reference's model.smt2; the
    harness runs the same code sandboxed) names exactly the statements of core.json."""
    core = json.loads((folder / "reference" / "core.json").read_text())["statements"]
    found = minimal_core(read(checks[folder].z3["smt2"]), time.monotonic() + 30)
    assert found["irreducible"], f"{folder.name}: the deletion filter stopped early: {found}"
    assert sorted(found["statements"]) == sorted(f"s{k}" for k in core), (
        f"{folder.name}: the family names {found['statements']}, core.json says {core}")


def test_multi_constraint_contract_checker_rejects_untracked_assertions():
    untracked = "(declare-fun x () Int)\n(assert (>= x 3))\n"
    wrong_name = "(declare-fun x () Int)\n(declare-fun s9_low () Bool)\n(assert (=> s9_low (>= x 3)))\n"
    run = {"error": None, "status": "infeasible", "solution": {}}
    assert groundtruth_z3.contract_problems({**run, "smt2": untracked}, 5)[0].startswith("assertion not tracked")
    assert "names no statement" in groundtruth_z3.contract_problems({**run, "smt2": wrong_name}, 5)[0]
    assert groundtruth_z3.contract_problems({**run, "smt2": None}, 5) == ["model.smt2 was not written"]


def _kind_module(kind: str):
    spec = importlib.util.spec_from_file_location(f"llmfp_{kind}_data_test", ROOT / "_make" / kind / "data.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("kind", KINDS)
def test_multi_constraint_folders_are_what_make_builds(kind: str):
    """data.json is the deterministic generator's, and the files copied from <kind>-1 have not drifted from it."""
    module, first = _kind_module(kind), ROOT / f"{kind}-1"
    shared = [rel for rel in ("snop.json", f"tests/test_{kind}.py", "reference/formulation.md", "reference/solver.py",
                              *(f"reference/{f}" for f in groundtruth_z3.SECOND_WAYS)) if (first / rel).exists()]
    assert len(shared) == 5, f"{first.name}: {shared}"
    for name, data in module.INSTANCES.items():
        folder = ROOT / name
        assert json.loads((folder / "data.json").read_text()) == data, f"{name}: data.json differs from data.py"
        for rel in shared:
            assert (folder / rel).read_text() == (first / rel).read_text(), (
                f"{folder / rel} differs from {first / rel}: run llmfp/_make/build.py")
        assert validate(folder) == [], f"{name}: optimus validate finds {validate(folder)}"


def test_multi_constraint_benchmark_mix():
    kinds = {f.name.split("-")[0] for f in FOLDERS}
    base = [f for f in FOLDERS if f not in UNSAT]
    per_kind = {k: sum(f.name.split("-")[0] == k for f in base) for k in KINDS}
    assert kinds == set(KINDS), f"kinds {sorted(kinds)} != {sorted(KINDS)}"
    assert min(per_kind.values()) >= 3, f"instances per kind {per_kind}: want at least 3 each"
    unsat_kinds = {f.name.split("-")[0] for f in UNSAT}
    assert len(unsat_kinds) >= 3, f"unsat variants of {sorted(unsat_kinds)}: want at least 3 kinds"
    statuses = {json.loads((f / "expected.json").read_text())["status"] for f in FOLDERS}
    assert {"optimal", "feasible", "infeasible"} <= statuses, f"expected statuses {statuses}"


def test_multi_constraint_readme_lists_every_folder():
    table = (ROOT / "README.md").read_text().split("<!-- problem-table:start -->")[1]
    missing = [f.name for f in FOLDERS if f"| {f.name} |" not in table]
    assert not missing, f"llmfp/README.md's table lacks {missing}: run llmfp/_make/build.py --table"


def test_multi_constraint_groundtruth_cli_names_bad_input(capsys, tmp_path):
    nlp4lp = ROOT.parent / "nlp4lp" / "12"  # a PuLP folder: a reference solver but no second way, not CSP
    assert groundtruth_z3.main([str(tmp_path / "missing")]) == 2
    assert "not a directory" in capsys.readouterr().err
    assert groundtruth_z3.main([str(nlp4lp)]) == 2
    err = capsys.readouterr().err
    assert "nlp4lp/12/reference" in err and "solver_pulp.py" in err, err


def test_the_ground_truth_checks_are_safe_in_threads():
    """z3's shared main context is not thread-safe (test_llmfp's fixture checks folders in a pool): each parse
    takes a context of its own. On the shared one this crashed (rc 139) or hung at exit."""
    smt2 = "(declare-const x Int)(declare-const y Int)" + "".join(
        f"(declare-const s{k}_a Bool)(assert (=> s{k}_a (> (+ x {k}) y)))" for k in range(1, 150))
    code = ("import sys; from concurrent.futures import ThreadPoolExecutor; from optimus.bench.groundtruth import z3 as g\n"
            f"smt2 = {smt2!r}\n"
            "def work(_):\n"
            "    for _ in range(10):\n"
            "        assert g.core_problems(smt2, [1]) and len(g.tracked_assertions(smt2)) == 149\n"
            "with ThreadPoolExecutor(4) as pool:\n"
            "    list(pool.map(work, range(8)))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
