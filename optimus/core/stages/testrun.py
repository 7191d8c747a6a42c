"""test: run the tests against output.json in the sandbox; failures become evidence for fix."""

from __future__ import annotations

import json
import re
import shutil
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

from optimus.core.errors import SandboxError
from optimus.core.outcomes import Execution
from optimus.core.sandbox import Limits, read_result_file
from optimus.core.sandbox.base import Backend as SandboxBackend
from optimus.core.stages.execute import MAX_EVIDENCE_CHARS, tail
from optimus.core.tables import sandbox_inputs
from optimus.core.testing import CONFTEST

RUN_STYLE_SHIM = """\
import importlib.util

import pytest

_spec = importlib.util.spec_from_file_location("nlp4lp_test", "{module}")
_module = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_module)
ERRORS = [str(e) for e in (_module.run() or [])]


@pytest.mark.parametrize("error", ERRORS or [None])
def test_nlp4lp_check(error):
    assert error is None, error
"""


def is_run_style(text: str) -> bool:
    return bool(re.search(r"^def run\(", text, re.MULTILINE)) and not re.search(r"^def test_", text, re.MULTILINE)


@dataclass
class TestOutcome:
    passed: int = 0
    failed: int = 0
    failures: list[str] = field(default_factory=list)  # "test_name: message", one per failed test
    broken: str | None = None  # the tests themselves could not run (syntax error, missing fixture…)
    seconds: float = 0.0  # wall time of the sandboxed pytest run

    @property
    def ok(self) -> bool:
        return self.broken is None and self.failed == 0 and self.passed > 0

    @property
    def failing(self) -> list[str]:
        """The failed tests' names, in the order pytest ran them."""
        return [f.split(":", 1)[0] for f in self.failures]

    def evidence(self) -> str:
        if self.broken:
            return f"The tests could not run:\n{self.broken}"
        text = "\n".join(f"- {f}" for f in self.failures)
        return tail(text, MAX_EVIDENCE_CHARS) if len(text) > MAX_EVIDENCE_CHARS else text

    def to_dict(self) -> dict:
        return {"passed": self.passed, "failed": self.failed, "failures": self.failures, "broken": self.broken}


def run_tests(sandbox: SandboxBackend, limits: Limits, data: Path, tests: dict[str, str], ex: Execution,
              workdir: Path, conftest: Path = CONFTEST, extra: dict[str, Path] | None = None) -> TestOutcome:
    """`tests` maps file name → module text. They run in the sandbox beside `data` (read-only, as data.json)
    and copies of the output.json and solution.json that `ex` read; `conftest` is the family's fixtures, and
    `extra` the files it reads besides (name → path: a planning family's problem.pddl and domain.pddl)."""
    workdir.mkdir(parents=True, exist_ok=True)
    shutil.copy(conftest, workdir / "conftest.py")
    for name, text in tests.items():
        if is_run_style(text):
            # A public NLP4LP test: run() returns error strings. Keep it out of collection; a shim reports
            # each error string as one failure.
            (workdir / f"nlp4lp_{name}").write_text(text)
            (workdir / name).write_text(RUN_STYLE_SHIM.format(module=f"nlp4lp_{name}"))
        else:
            (workdir / name).write_text(text)
    # Write what execute() already read safely, never a copy of what the program left (it may be a link).
    for name, value in (("output.json", ex.output), ("solution.json", ex.solution)):
        if value is not None:
            (workdir / name).write_text(json.dumps(value))
    for name, path in (extra or {}).items():
        if path.exists() or path.is_symlink():  # read without following a link the run may have planted
            (workdir / name).write_bytes(read_result_file(path.parent, path.name))
    cmd = ["python", "-m", "pytest", "-q", "-p", "no:cacheprovider", "--junitxml=junit.xml", "-o",
           "junit_family=xunit1", *sorted(tests)]
    # No entry-point plugins: the harness needs none (junitxml is built in, fixtures come from conftest.py), and
    # loading the host venv's hypothesis plugin alone costs ~1.6 s per run in the bwrap and process sandboxes.
    result = sandbox.run(cmd, workdir=workdir, readonly=sandbox_inputs(data), limits=limits,
                         env={"PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"})
    try:
        junit = ET.fromstring(read_result_file(workdir, "junit.xml"))
        outcome = _parse_junit(junit, result.stdout)
    except (SandboxError, ET.ParseError):
        outcome = TestOutcome(broken=tail(result.stdout + result.stderr))
    outcome.seconds = result.wall_s
    return outcome


def _parse_junit(root: ET.Element, stdout: str) -> TestOutcome:
    outcome = TestOutcome()
    for case in root.iter("testcase"):
        problem = case.find("failure")
        if problem is None:
            problem = case.find("error")
        if case.find("skipped") is not None:
            continue
        if problem is None:
            outcome.passed += 1
            continue
        if case.get("name") is None or (problem.tag == "error" and not case.get("classname")):
            outcome.broken = tail(problem.text or problem.get("message") or stdout)
            continue
        outcome.failed += 1
        message = (problem.get("message") or "").split("\nassert ")[0].strip()
        outcome.failures.append(f"{case.get('name')}: {message or tail(problem.text or '', 400)}")
    if outcome.passed == outcome.failed == 0 and outcome.broken is None:
        outcome.broken = "no test was collected:\n" + tail(stdout)
    return outcome
