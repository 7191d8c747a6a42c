"""A lean start: the CLI and an offline solve's modules import no heavy package they do not use."""

from __future__ import annotations

import subprocess
import sys

import pytest

HEAVY = ("openai", "cvxpy", "matplotlib", "docker", "unified_planning", "z3", "ray")


def test_cli_and_offline_solve_modules_import_no_heavy_package():
    code = ("import sys, optimus.commands.cli, optimus.commands.solve, optimus.core.loop, optimus.bench.runner, optimus.core.validate;"
            f"print(','.join(m for m in {HEAVY!r} if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "", f"imported at start-up: {done.stdout.strip()}"


def test_the_openai_backend_is_still_importable_from_optimus_llm():
    from optimus.core.llm import OpenAIBackend
    from optimus.core.llm.openai_backend import OpenAIBackend as direct

    assert OpenAIBackend is direct


def test_no_docker_engine_is_seen_without_importing_the_docker_sdk(tmp_path):
    """`--sandbox auto` asks docker first: with no engine behind the socket, say so without the SDK's ~0.1 s."""
    import socket

    refusing = tmp_path / "docker.sock"
    with socket.socket(socket.AF_UNIX) as sock:
        sock.bind(str(refusing))  # bound, never listening: connecting is refused, as with a stopped dockerd
    code = ("import sys; from optimus.core.sandbox.container import DockerBackend; print(DockerBackend.check()); "
            "print('docker' in sys.modules)")
    for host in (f"unix://{refusing}", f"unix://{tmp_path}/missing.sock"):
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                              env={"DOCKER_HOST": host, "PATH": "/usr/bin:/bin"})
        reason, imported = done.stdout.strip().splitlines()
        assert reason.startswith("no docker engine answers") and "dockerd" in reason, reason
        assert imported == "False"


def test_prefetch_runs_the_sandbox_check_beside_the_caller_and_get_backend_waits_for_it(monkeypatch):
    import threading
    from functools import cache

    from optimus.core.errors import SandboxError
    from optimus.core.sandbox import registry

    calls: list[str] = []
    gate, finished = threading.Event(), threading.Event()

    class Slow(registry.ProcessBackend):
        name = "slow"

        @classmethod
        @cache
        def check(cls):
            calls.append(threading.current_thread().name)
            gate.wait(30)  # like bwrap's probe, a real sandbox start: here it ends when the test says so
            finished.set()

    class Broken(registry.ProcessBackend):
        name = "broken"

        @classmethod
        def check(cls):
            calls.append(threading.current_thread().name)
            raise SandboxError("cannot tell")

    monkeypatch.setitem(registry.BACKENDS, "slow", Slow)
    monkeypatch.setitem(registry.BACKENDS, "broken", Broken)
    registry.prefetch("slow")
    assert not finished.is_set()  # the caller goes on with its own work while the check runs
    gate.set()
    assert isinstance(registry.get_backend("slow"), Slow)
    assert calls == ["optimus-sandbox-check"]  # checked once, in the background; get_backend took its answer
    calls.clear()
    registry.prefetch("broken")  # fails in the thread, quietly: get_backend checks again and says why
    with pytest.raises(SandboxError, match="cannot tell"):
        registry.get_backend("broken")
    assert calls == ["optimus-sandbox-check", "MainThread"]


def test_choosing_an_lp_family_loads_no_other_family():
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    code = ("import sys; from optimus.core import families; from optimus.core.problem import load_problem; "
            f"f = families.choose(load_problem({str(root / 'nlp4lp' / '1')!r})); "
            "print(f.name, sorted(m for m in sys.modules if m.startswith('optimus.core.families.')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split(" ", 1) == ["pulp", "['optimus.core.families.pulp']\n"], done.stdout


def test_a_valid_problem_loads_without_jsonschema_and_an_invalid_one_is_explained_by_it(tmp_path):
    """The quick compiled check passes a valid SNOP and expected.json; jsonschema still words every error."""
    import json
    import shutil

    from tests.helpers import NLP4LP

    shutil.copytree(NLP4LP / "12", tmp_path / "ok", ignore=shutil.ignore_patterns("runs"))
    code = ("import sys; from optimus.core.problem import load_problem; p = load_problem(sys.argv[1]); "
            "p.snop; p.expected; print('jsonschema' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code, str(tmp_path / "ok")], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == "False"
    bad = tmp_path / "bad"
    shutil.copytree(tmp_path / "ok", bad)
    (bad / "expected.json").write_text(json.dumps({"status": "optimal", "objective": "many"}))
    done = subprocess.run([sys.executable, "-c", code, str(bad)], capture_output=True, text=True, check=False)
    assert done.returncode != 0 and "expected.json" in done.stderr and "objective" in done.stderr
