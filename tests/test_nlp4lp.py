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
import tempfile
import xml.etree.ElementTree as ET
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

from optimus.bench.groundtruth import lp as groundtruth

ROOT = Path(__file__).resolve().parents[1] / "nlp4lp"
CONFTEST = Path(__file__).resolve().parents[1] / "optimus" / "core" / "testing" / "conftest.py"
FOLDERS = groundtruth.discover(ROOT) if any(ROOT.glob("*/reference/solver.py")) else []
IDS = [f.name for f in FOLDERS]
WORKERS = max(2, os.cpu_count() or 2)


@dataclass
class Evidence:
    """Everything the per-folder tests look at, gathered once per session."""

    primary: dict
    secondary: dict
    accept: dict | None = None  # outcome of the folder's tests on the reference output
    reject: dict | None = None  # ... and on reference/wrong_output.json
    log: str = ""


def gather(folder: Path) -> Evidence:
    """Run the reference with both solvers, then the folder's tests on its output and on the wrong output.

    Both test runs share one pytest process (two work dirs, importlib mode), as the harness would lay them out:
    conftest, data.json, output.json, solution.json and the tests side by side."""
    primary, secondary = (groundtruth.run_reference(folder, s) for s in groundtruth.solvers(folder))
    evidence = Evidence(primary, secondary)
    tests = sorted((folder / "tests").glob("test_*.py"))
    if not tests:
        return evidence
    wrong = folder / "reference" / "wrong_output.json"
    outputs = {"accept": primary["output"] or {}}
    if wrong.exists():
        outputs["reject"] = json.loads(wrong.read_text())
    with tempfile.TemporaryDirectory(prefix="optimus-nlp4lp-") as tmp:
        for kind, output in outputs.items():
            work = Path(tmp) / kind
            work.mkdir()
            for path in [CONFTEST, folder / "data.json", *tests]:
                shutil.copy(path, work)
            (work / "output.json").write_text(json.dumps(output))
            (work / "solution.json").write_text(json.dumps(primary["solution"]))
        env = {k: v for k, v in os.environ.items() if k != "OPTIMUS_TEST_DIR"}
        proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--import-mode=importlib",
                               "--continue-on-collection-errors",
                               "--junitxml=report.xml", *outputs], cwd=tmp, capture_output=True, text=True,
                              timeout=300, env=env, check=False)
        evidence.log = proc.stdout[-4000:]
        report = Path(tmp) / "report.xml"
        counts = _outcomes(ET.parse(report).getroot()) if report.exists() else {}
    missing = {"passed": 0, "failure": 0, "error": 1, "skipped": 0}  # pytest never got to report on it
    evidence.accept = counts.get("accept", missing)
    if "reject" in outputs:
        evidence.reject = counts.get("reject", missing)
    return evidence


def _outcomes(root: ET.Element) -> dict[str, dict[str, int]]:
    """{'accept': {'passed': n, 'failure': n, 'error': n, 'skipped': n}, 'reject': {...}} from a JUnit report."""
    counts: dict[str, dict[str, int]] = {}
    for case in root.iter("testcase"):
        kind = (case.get("classname") or case.get("name") or "").split(".")[0]
        outcome = next((c.tag for c in case if c.tag in ("failure", "error", "skipped")), "passed")
        bucket = counts.setdefault(kind, {"passed": 0, "failure": 0, "error": 0, "skipped": 0})
        bucket[outcome] += 1
    return counts


@pytest.fixture(scope="session")
def evidence(request) -> dict[Path, Evidence]:
    """Evidence for every folder the session will test, gathered in parallel (subprocesses, so threads do)."""
    # Only this module's items: other modules parametrize over their own `folder`s (llmfp/, planning/).
    wanted = sorted({item.callspec.params["folder"] for item in request.session.items
                     if item.path == Path(__file__) and "folder" in getattr(getattr(item, "callspec", None), "params", {})})
    with ThreadPoolExecutor(WORKERS) as pool:
        return dict(zip(wanted, pool.map(gather, wanted)))


def problem_type(folder: Path) -> str:
    """The SNOP's problem type (LP, MILP, QP, ...) from snop.json or description.txt."""
    if (folder / "snop.json").exists():
        return json.loads((folder / "snop.json").read_text())["problem_type"].upper()
    match = re.search(r"^PROBLEM TYPE:\s*(\S+)", (folder / "description.txt").read_text(), re.MULTILINE)
    assert match, f"{folder}/description.txt: no PROBLEM TYPE header"
    return match.group(1).upper()


@pytest.mark.parametrize("folder", FOLDERS, ids=IDS)
def test_reference_reproduces_expected(folder: Path, evidence):
    primary, secondary = evidence[folder].primary, evidence[folder].secondary
    assert (folder / "expected.json").exists(), f"{folder.name}: no expected.json (python -m optimus.bench.groundtruth.lp)"
    expected = json.loads((folder / "expected.json").read_text())
    wording = groundtruth.snop_sense(folder)
    assert expected.get("sense") == wording, f"{folder.name}: expected.json says {expected.get('sense')}, SNOP {wording}"
    for run in (primary, secondary):
        assert run["error"] is None, f"{folder.name}: {run['solver']} failed: {run['error']}"
    assert primary["status"] == secondary["status"], (
        f"{folder.name}: {primary['solver']} says {primary['status']}, {secondary['solver']} {secondary['status']}")
    problems = groundtruth.compare_expected(expected, primary, secondary)
    assert not problems, f"{folder.name}: " + "; ".join(problems)


@pytest.mark.parametrize("folder", FOLDERS, ids=IDS)
def test_supervised_tests_accept_reference(folder: Path, evidence):
    outcome = evidence[folder].accept
    if outcome is None:
        pytest.skip("no supervised tests")
    # all-skipped is fine: status-only variants skip the constraint checks when there is no solution
    assert outcome["passed"] + outcome["skipped"] > 0 and outcome["failure"] == outcome["error"] == 0, (
        f"{folder.name}: tests on the reference output: {outcome}\n{evidence[folder].log}")


@pytest.mark.parametrize("folder", FOLDERS, ids=IDS)
def test_supervised_tests_reject_wrong_output(folder: Path, evidence):
    if not (folder / "reference" / "wrong_output.json").exists():
        pytest.skip("status-only variant: no reference/wrong_output.json")
    outcome = evidence[folder].reject
    assert outcome is not None, f"{folder.name}: wrong_output.json but no tests to reject it"
    # a real test failure, not a collection or fixture error, which would prove nothing
    assert outcome["failure"] > 0 and outcome["error"] == 0, (
        f"{folder.name}: tests do not reject wrong_output.json: {outcome}\n{evidence[folder].log}")


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
