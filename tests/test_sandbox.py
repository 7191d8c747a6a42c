"""The sandbox contract, on every backend that works here: what goes in, what comes out, what is refused."""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import textwrap
from pathlib import Path

import pytest

from optimus.core.errors import ConfigError, SandboxError
from optimus.core.sandbox import Limits, RunResult, backend_names, doctor, get_backend, read_result_file
from optimus.core.sandbox import bwrap as bwrap_module
from optimus.core.sandbox import cli as sandbox_cli
from optimus.core.sandbox import container as container_module
from optimus.core.sandbox.base import Backend
from tests.sandbox_fixtures import BACKEND_NAMES, backend_or_skip

# Generous wall time: these check what comes through, not speed, and a busy machine stretches wall time (beside
# 50 busy processes pytest inside bwrap took over 30 s); CPU time it does not stretch.
SMALL = Limits(wall_s=600, cpu_s=30, memory_mb=1024)
PULP_SOLVER = textwrap.dedent(
    """
    import json, os, pulp
    data = json.load(open("data.json"))
    m = pulp.LpProblem("knap", pulp.LpMaximize)
    x = [pulp.LpVariable(f"x{i}", cat="Binary") for i in range(len(data["v"]))]
    m += pulp.lpSum(v * xi for v, xi in zip(data["v"], x))
    m += pulp.lpSum(w * xi for w, xi in zip(data["w"], x)) <= data["cap"], "s1_capacity"
    solver = {"CBC": pulp.PULP_CBC_CMD, "HIGHS": pulp.HiGHS}[os.environ["OPTIMUS_SOLVER"]](msg=False)
    m.solve(solver)
    json.dump({"status": pulp.LpStatus[m.status].lower(), "objective": pulp.value(m.objective)},
              open("solution.json", "w"))
    """
)


@pytest.fixture(params=BACKEND_NAMES)
def backend(request: pytest.FixtureRequest) -> Backend:
    return backend_or_skip(request.param)


@pytest.fixture
def data_file(tmp_path: Path) -> Path:
    path = tmp_path / "inputs" / "data.json"
    path.parent.mkdir()
    path.write_text(json.dumps({"v": [10, 13, 7, 8], "w": [5, 6, 3, 4], "cap": 10}))
    return path


def workdir(tmp_path: Path, **files: str) -> Path:
    work = tmp_path / "work"
    work.mkdir(exist_ok=True)
    for name, text in files.items():
        (work / name).write_text(text)
    return work


@pytest.mark.parametrize("solver", ["CBC", "HIGHS"])
def test_pulp_solver_runs_and_writes_its_output(
    backend: Backend, tmp_path: Path, data_file: Path, solver: str
):
    work = workdir(tmp_path, **{"solver.py": PULP_SOLVER})
    res = backend.run(
        ["python", "solver.py"],
        workdir=work,
        readonly={"data.json": data_file},
        limits=SMALL,
        env={"OPTIMUS_SOLVER": solver},
    )
    assert res.ok, res.stderr
    assert json.loads((work / "solution.json").read_text()) == {"status": "optimal", "objective": 21.0}
    assert res.backend == backend.name and res.wall_s > 0
    # The mount point / copy for data.json is gone, and what the program wrote belongs to the work dir's owner.
    assert sorted(p.name for p in work.iterdir()) == ["solution.json", "solver.py"]
    assert (work / "solution.json").stat().st_uid == work.stat().st_uid == os.getuid()


def test_readonly_input_cannot_be_changed(backend: Backend, tmp_path: Path, data_file: Path):
    before = data_file.read_text()
    code = "open('data.json', 'a').write('x')"
    res = backend.run(
        ["python", "-c", code], workdir=workdir(tmp_path), readonly={"data.json": data_file}, limits=SMALL
    )
    assert data_file.read_text() == before
    if backend.name == "process" and os.geteuid() == 0:
        return  # it writes to its own 0444 copy: root ignores the mode, the host file stays intact
    assert res.exit_code == 1 and ("PermissionError" in res.stderr or "Read-only" in res.stderr), res.stderr


def test_environment_is_only_what_was_passed(
    backend: Backend, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setenv("OPTIMUS_HOST_ONLY", "leak")
    code = "import json, os; print(json.dumps(dict(os.environ)))"
    res = backend.run(
        ["python", "-c", code], workdir=workdir(tmp_path), limits=SMALL, env={"OPTIMUS_SOLVER": "CBC"}
    )
    env = json.loads(res.stdout)
    assert env["OPTIMUS_SOLVER"] == "CBC"
    assert "OPTIMUS_HOST_ONLY" not in env
    assert env["OPENBLAS_NUM_THREADS"] == "1"  # one BLAS thread per run (sandbox.base.THREADS_ENV)
    # Only the minimal set we provide, plus what the sandbox runtime itself adds (PWD, HOSTNAME).
    assert set(env) <= {
        "OPTIMUS_SOLVER",
        "PATH",
        "HOME",
        "LANG",
        "TMPDIR",
        "PYTHONDONTWRITEBYTECODE",
        "OPENBLAS_NUM_THREADS",
        "OMP_NUM_THREADS",
        "PWD",
        "OLDPWD",
        "HOSTNAME",
    }


def test_exit_codes_and_signals_come_through(backend: Backend, tmp_path: Path):
    work = workdir(tmp_path)
    res = backend.run(
        ["python", "-c", "import sys; print('out'); print('err', file=sys.stderr); sys.exit(3)"],
        workdir=work,
        limits=SMALL,
    )
    assert (res.exit_code, res.stdout, res.stderr.strip(), res.killed_by) == (3, "out\n", "err", None)
    res = backend.run(
        ["python", "-c", "import os, signal; os.kill(os.getpid(), signal.SIGTERM)"],
        workdir=work,
        limits=SMALL,
    )
    assert res.exit_code == -signal.SIGTERM and res.killed_by == "signal"
    assert not res.ok


def test_pytest_runs_inside(backend: Backend, tmp_path: Path, data_file: Path):
    tests = "def test_data(data):\n    assert data['cap'] == 10\n\ndef test_fails():\n    assert 1 == 2\n"
    conftest = (
        "import json, pytest\n\n@pytest.fixture\ndef data():\n    return json.load(open('data.json'))\n"
    )
    work = workdir(tmp_path, **{"test_x.py": tests, "conftest.py": conftest})
    res = backend.run(
        ["python", "-m", "pytest", "-q", "-p", "no:cacheprovider", "--junitxml=junit.xml"],
        workdir=work,
        readonly={"data.json": data_file},
        limits=SMALL,
    )
    assert res.exit_code == 1, res.stdout + res.stderr
    assert "1 failed, 1 passed" in res.stdout
    assert (work / "junit.xml").exists()


def test_result_serializes(backend: Backend, tmp_path: Path):
    res = backend.run(["python", "-c", "print('hi')"], workdir=workdir(tmp_path), limits=SMALL)
    again = RunResult(**json.loads(json.dumps(res.to_dict())))
    assert again == res and again.ok
    # CPU of the program itself (bwrap and docker measure it with the shim), not of the sandbox runtime.
    assert 0 <= res.resources["cpu_s"] < 5  # the shim counts in 10 ms ticks: a tiny run may show 0
    if backend.name == "process":
        # ru_maxrss of RUSAGE_CHILDREN is the largest child this process ever waited for, not this one's:
        # only a lower bound is meaningful here.
        assert res.resources["max_rss_kb"] > 5_000


def test_cpu_time_is_the_programs(backend: Backend, tmp_path: Path):
    spin = "import time\nt = time.process_time()\nwhile time.process_time() - t < 0.5: pass"
    res = backend.run(["python", "-c", spin], workdir=workdir(tmp_path), limits=SMALL)
    assert res.ok and 0.45 <= res.resources["cpu_s"] < 3, res.resources  # 10 ms ticks, rounded down


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"cmd": []}, "non-empty list"),
        ({"readonly": {"../x": Path("/etc/hostname")}}, "plain file name"),
        ({"readonly": {"data.json": Path("/nonexistent/data.json")}}, "does not exist"),
        ({"env": {"BAD NAME": "x"}}, "not a valid variable name"),
        ({"workdir": Path("/nonexistent-workdir")}, "not a directory"),
    ],
)
def test_bad_requests_are_config_errors(tmp_path: Path, kwargs: dict, message: str):
    request = {"cmd": ["python", "-c", "pass"], "workdir": workdir(tmp_path), **kwargs}
    with pytest.raises(ConfigError, match=message):
        get_backend("process").run(**request)


def test_readonly_name_must_not_collide(tmp_path: Path, data_file: Path):
    work = workdir(tmp_path, **{"data.json": "{}"})
    with pytest.raises(ConfigError, match="collides"):
        get_backend("process").run(["python", "-c", "pass"], workdir=work, readonly={"data.json": data_file})


@pytest.mark.parametrize("field", ["wall_s", "memory_mb", "processes", "output_bytes"])
def test_limits_must_be_positive(field: str):
    with pytest.raises(ConfigError, match=field):
        Limits(**{field: 0})


def test_unknown_backend_is_a_config_error():
    with pytest.raises(ConfigError, match="choose one of auto, docker, bwrap, process"):
        get_backend("chroot")


def test_missing_bwrap_says_what_to_install(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("PATH", "/nonexistent")
    bwrap_module._check.cache_clear()
    try:
        with pytest.raises(SandboxError, match="apt-get install bubblewrap"):
            get_backend("bwrap")
    finally:
        bwrap_module._check.cache_clear()


def test_unreachable_docker_engine_says_how_to_start_one(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    monkeypatch.setenv("DOCKER_HOST", f"unix://{tmp_path}/no-such.sock")
    container_module._check.cache_clear()
    try:
        with pytest.raises(SandboxError, match="apt-get install docker.io.*dockerd --iptables=false"):
            get_backend("docker")
    finally:
        container_module._check.cache_clear()


def test_auto_takes_the_strongest_working_backend():
    working = [name for name, ok, _ in doctor() if ok]
    assert get_backend("auto").name == working[0]
    assert backend_names() == ["docker", "bwrap", "process"]


def test_process_backend_warns_once(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch):
    from optimus.core.sandbox import registry

    monkeypatch.setattr(registry, "_warned", False)
    get_backend("process")
    get_backend("process")
    err = capsys.readouterr().err
    assert err.count("warning: the 'process' sandbox cannot hold") == 1 and "network" in err


def test_read_result_file_refuses_symlinks_and_special_files(tmp_path: Path):
    secret = tmp_path / "id_rsa"
    secret.write_text("SECRET")
    work = workdir(tmp_path, **{"output.json": '{"x": 1}'})
    assert read_result_file(work, "output.json") == b'{"x": 1}'
    (work / "planted.json").symlink_to(secret)
    os.mkfifo(work / "fifo.json")
    for name, why in [
        ("planted.json", "symlink"),
        ("fifo.json", "not a regular file"),
        ("../id_rsa", "plain"),
    ]:
        with pytest.raises(SandboxError, match=why):
            read_result_file(work, name)
    with pytest.raises(SandboxError, match="over the 3 limit"):
        read_result_file(work, "output.json", max_bytes=3)


def test_symlink_left_by_sandboxed_code_is_not_followed_by_host(backend: Backend, tmp_path: Path):
    secret = tmp_path / "secret.txt"
    secret.write_text("SECRET")
    work = workdir(tmp_path)
    backend.run(
        ["python", "-c", f"import os; os.symlink({str(secret)!r}, 'output.json')"], workdir=work, limits=SMALL
    )
    assert (work / "output.json").is_symlink()
    with pytest.raises(SandboxError, match="symlink"):
        read_result_file(work, "output.json")


def _cli(*argv: str) -> int:
    parser = argparse.ArgumentParser(prog="optimus")
    sandbox_cli.register(parser.add_subparsers())
    args = parser.parse_args(list(argv))
    return args.func(args)


def test_cli_doctor_json(capsys: pytest.CaptureFixture[str]):
    assert _cli("sandbox", "doctor", "--json") == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["backend"] for r in rows] == ["docker", "bwrap", "process"]
    assert next(r for r in rows if r["backend"] == "process")["works"] is True


def test_cli_doctor_explains_a_missing_backend(capsys: pytest.CaptureFixture[str], monkeypatch):
    monkeypatch.setenv("PATH", "/nonexistent")
    bwrap_module._check.cache_clear()
    try:
        _cli("sandbox", "doctor")
    finally:
        bwrap_module._check.cache_clear()
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("bwrap"))
    assert "NO" in line and "apt-get install bubblewrap" in line


def test_cli_run_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    work = workdir(tmp_path)
    assert (
        _cli(
            "sandbox",
            "run",
            "--backend",
            "process",
            "--timeout",
            "1",
            "--json",
            str(work),
            "--",
            "python",
            "-c",
            "import time; time.sleep(30)",
        )
        == 1
    )
    result = json.loads(capsys.readouterr().out)
    assert result["killed_by"] == "wall" and result["backend"] == "process"


def test_cli_run_needs_a_command(tmp_path: Path):
    with pytest.raises(ConfigError, match="give the command"):
        _cli("sandbox", "run", str(tmp_path), "--")


def test_cli_is_registered_in_optimus(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    from optimus.commands.cli import main

    assert (
        main(
            [
                "sandbox",
                "run",
                "--backend",
                "process",
                str(workdir(tmp_path)),
                "--",
                "python",
                "-c",
                "print(6 * 7)",
            ]
        )
        == 0
    )
    assert capsys.readouterr().out == "42\n"


def test_image_inputs_hash_matches_build_script():
    """build-image.sh tags the image with a hash of its inputs; doctor recomputes it to spot a stale image."""
    sandbox_dir = container_module.SANDBOX_DIR
    if not (sandbox_dir / "build-image.sh").exists():
        pytest.skip("no sandbox/ folder (installed package, not a checkout)")
    script = "cat Dockerfile requirements.txt build-image.sh | sha256sum | cut -c1-16"
    from_shell = subprocess.run(
        ["bash", "-c", script], cwd=sandbox_dir, capture_output=True, text=True, check=True
    ).stdout
    assert container_module.inputs_hash() == from_shell.strip()
