"""Whether a sandbox can run the tests (pytest) at all, said before any model call is spent on a run that needs them.

bwrap and process run the host's interpreter (`sys.executable`): pytest must be importable there. pytest is a
runtime dependency of optimus, so an ordinary install has it; a hand-made environment may not. The docker image
installs it from sandbox/requirements.txt.
"""

from __future__ import annotations

import importlib.util
import sys

from optimus.core.errors import ConfigError

HOST_PYTHON = ("bwrap", "process")
TEST_MODES = ("autotests", "supervised", "full")


def cannot_run_tests(backend: str) -> str | None:
    """Why the named backend cannot run pytest here, or None."""
    if backend in HOST_PYTHON and importlib.util.find_spec("pytest") is None:
        return (f"the {backend} sandbox runs {sys.executable}, which cannot import pytest (No module named "
                f"pytest): pip install 'pytest>=8,<10' into that environment, or use --mode debug")
    return None


def require_test_runner(backend: str, mode: str) -> None:
    """Raise ConfigError (exit 2) when the mode runs tests and the backend cannot."""
    reason = cannot_run_tests(backend) if mode in TEST_MODES else None
    if reason:
        raise ConfigError(f"mode {mode} runs tests, but {reason}")
