"""A lean start: the CLI and an offline solve's modules import no heavy package they do not use."""

from __future__ import annotations

import subprocess
import sys

HEAVY = ("openai", "cvxpy", "matplotlib", "docker")


def test_cli_and_offline_solve_modules_import_no_heavy_package():
    code = ("import sys, optimus.cli, optimus.solve, optimus.agent, optimus.bench.runner, optimus.validate;"
            f"print(','.join(m for m in {HEAVY!r} if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "", f"imported at start-up: {done.stdout.strip()}"


def test_the_openai_backend_is_still_importable_from_optimus_llm():
    from optimus.llm import OpenAIBackend
    from optimus.llm.openai_backend import OpenAIBackend as direct

    assert OpenAIBackend is direct
