"""The installed tool runs its own tests wherever it runs programs (issue 24): pytest is a runtime dependency, and
a sandbox whose interpreter lacks it is named, with the reason, before any model call."""

from __future__ import annotations

import importlib.metadata
import json
import os
import re
import subprocess
import sys

from tests.helpers import copy_problem
from tests.scripted_server import ScriptedLLM

# The host interpreter without pytest, as a hand-made environment would be (the sandbox itself still has it).
WITHOUT_PYTEST = "import sys; sys.modules['pytest'] = None; from optimus.commands.cli import main; sys.exit(main(sys.argv[1:]))"


def test_pytest_is_a_runtime_dependency_not_only_a_test_extra():
    requires = importlib.metadata.requires("optimus") or []
    assert [r for r in requires if re.match(r"pytest\b", r) and "extra ==" not in r], requires


def test_a_mode_with_tests_stops_before_any_model_call_where_the_sandbox_cannot_import_pytest(
    tmp_path, scripted_llm: ScriptedLLM
):
    folder = copy_problem("12", tmp_path / "12")
    env = {**os.environ, "OPTIMUS_HOME": str(tmp_path / "home")}
    cmd = [sys.executable, "-c", WITHOUT_PYTEST, "solve", str(folder), "--llm", "openai", "--base-url",
           scripted_llm.base_url, "--sandbox", "process", "--mode", "supervised"]
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 2, done.stderr
    assert "mode supervised runs tests, but the process sandbox runs" in done.stderr
    assert "cannot import pytest" in done.stderr and "Traceback" not in done.stderr
    assert scripted_llm.requests == []
    doctor = subprocess.run([sys.executable, "-c", WITHOUT_PYTEST, "sandbox", "doctor", "--json"], env=env,
                            capture_output=True, text=True, timeout=120, check=False)
    rows = {r["backend"]: r for r in json.loads(doctor.stdout)}
    assert all("cannot import pytest" in rows[b]["reason"] for b in ("bwrap", "process") if rows[b]["works"])
    assert rows["process"]["works"]
