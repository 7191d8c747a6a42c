"""The nlp4lp/ benchmark: every reference solver reproduces expected.json with two solvers, every folder's
supervised tests accept the reference output and reject reference/wrong_output.json, and the benchmark as a
whole has the promised mix of problems. Each reference runs once per solver per session (cached)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from optimus import groundtruth

ROOT = Path(__file__).resolve().parents[1] / "nlp4lp"
CONFTEST = Path(__file__).resolve().parents[1] / "optimus" / "testing" / "conftest.py"
FOLDERS = groundtruth.discover(ROOT) if any(ROOT.glob("*/reference/solver.py")) else []
IDS = [f.name for f in FOLDERS]
_RUNS: dict[Path, tuple[dict, dict]] = {}


def runs(folder: Path) -> tuple[dict, dict]:
    """(primary, secondary) reference runs of `folder`, computed once per session."""
    if folder not in _RUNS:
        with ThreadPoolExecutor(2) as pool:
            primary, secondary = pool.map(lambda s: groundtruth.run_reference(folder, s), groundtruth.solvers(folder))
        _RUNS[folder] = (primary, secondary)
    return _RUNS[folder]


def supervised(folder: Path, output: dict, solution: dict, tmp: Path) -> subprocess.CompletedProcess:
    """Run the folder's tests/ the way the harness does: a work dir with conftest, data, output, solution."""
    for path in [CONFTEST, folder / "data.json", *sorted((folder / "tests").glob("test_*.py"))]:
        shutil.copy(path, tmp)
    (tmp / "output.json").write_text(json.dumps(output))
    (tmp / "solution.json").write_text(json.dumps(solution))
    env = {k: v for k, v in os.environ.items() if k != "OPTIMUS_TEST_DIR"}
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tmp)], cwd=tmp,
                          capture_output=True, text=True, timeout=120, env=env, check=False)


def problem_type(folder: Path) -> str:
    """The SNOP's problem type (LP, MILP, QP, ...) from snop.json or description.txt."""
    if (folder / "snop.json").exists():
        return json.loads((folder / "snop.json").read_text())["problem_type"].upper()
    match = re.search(r"^PROBLEM TYPE:\s*(\S+)", (folder / "description.txt").read_text(), re.MULTILINE)
    assert match, f"{folder}/description.txt: no PROBLEM TYPE header"
    return match.group(1).upper()


def _has_tests(folder: Path) -> bool:
    return any((folder / "tests").glob("test_*.py"))


@pytest.mark.parametrize("folder", FOLDERS, ids=IDS)
def test_reference_reproduces_expected(folder: Path):
    primary, secondary = runs(folder)
    assert (folder / "expected.json").exists(), f"{folder.name}: no expected.json (python -m optimus.groundtruth)"
    expected = json.loads((folder / "expected.json").read_text())
    assert expected.get("sense") == groundtruth.sense(folder), f"{folder.name}: sense in expected.json"
    for run in (primary, secondary):
        assert run["error"] is None, f"{folder.name}: {run['solver']} failed: {run['error']}"
    assert primary["status"] == secondary["status"], (
        f"{folder.name}: {primary['solver']} says {primary['status']}, {secondary['solver']} {secondary['status']}")
    problems = groundtruth.compare_expected(expected, primary, secondary)
    assert not problems, f"{folder.name}: " + "; ".join(problems)


@pytest.mark.parametrize("folder", FOLDERS, ids=IDS)
def test_supervised_tests_accept_reference(folder: Path, tmp_path: Path):
    if not _has_tests(folder):
        pytest.skip("no supervised tests")
    primary, _ = runs(folder)
    proc = supervised(folder, primary["output"] or {}, primary["solution"], tmp_path)
    assert proc.returncode == 0, f"{folder.name}: tests fail on the reference output:\n{proc.stdout[-3000:]}"


@pytest.mark.parametrize("folder", FOLDERS, ids=IDS)
def test_supervised_tests_reject_wrong_output(folder: Path, tmp_path: Path):
    wrong = folder / "reference" / "wrong_output.json"
    if not wrong.exists():
        pytest.skip("status-only variant: no reference/wrong_output.json")
    assert _has_tests(folder), f"{folder.name}: wrong_output.json but no tests to reject it"
    primary, _ = runs(folder)
    proc = supervised(folder, json.loads(wrong.read_text()), primary["solution"], tmp_path)
    # exit 1 = some tests failed; 2+ would be a collection or usage error, which proves nothing
    assert proc.returncode == 1, f"{folder.name}: tests do not reject wrong_output.json:\n{proc.stdout[-3000:]}"


def test_benchmark_mix():
    base = [f for f in FOLDERS if f.name.isdigit()]
    types = [problem_type(f) for f in base]
    statuses = [json.loads((f / "expected.json").read_text()).get("status")
                for f in FOLDERS if (f / "expected.json").exists()]
    counts = {
        "base problems": (len(base), 40),
        "MILP": (types.count("MILP"), 10),
        "QP/NLP": (sum(t in ("QP", "NLP", "QCQP", "SOCP") for t in types), 2),
        "infeasible": (statuses.count("infeasible"), 3),
        "unbounded": (statuses.count("unbounded"), 2),
        "with scale.py": (sum((f / "scale.py").exists() for f in FOLDERS), 5),
    }
    short = {name: f"{have} < {want}" for name, (have, want) in counts.items() if have < want}
    assert not short, f"benchmark mix falls short: {short}"
