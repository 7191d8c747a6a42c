"""Shared fixtures: the scripted OpenAI-compatible server, and a private OPTIMUS_HOME for every test."""

import pytest

from optimus.core.sandbox import get_backend
from tests.scripted_server import scripted_llm  # noqa: F401

# Problem folders used as fixtures carry their own tests of a program's output (fixtures data, output, …): the
# harness runs those in a sandbox; the suite itself never collects them.
collect_ignore_glob = ["fixtures/*"]


@pytest.fixture(scope="session")
def sandbox():
    """The process backend: fast, for tests about the loop rather than about isolation (tests/test_sandbox*
    exercise docker and bwrap)."""
    return get_backend("process")


@pytest.fixture(autouse=True)
def optimus_home(tmp_path_factory, monkeypatch):
    """Keep the LLM log and anything else optimus writes under ~ out of the real home directory."""
    home = tmp_path_factory.mktemp("optimus-home")
    monkeypatch.setenv("OPTIMUS_HOME", str(home))
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "OPTIMUS_MODEL"):
        monkeypatch.delenv(name, raising=False)
    return home


def pytest_terminal_summary(terminalreporter):
    """Lines tests left for the end of the run (tests.helpers.SUMMARY: the PDDL conformance coverage)."""
    from tests.helpers import SUMMARY

    for line in SUMMARY:
        terminalreporter.write_line(line)
