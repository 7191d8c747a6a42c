"""Run folders as a user meets them: runs/latest is the last finished run, an interrupted run says so, a folder
optimus may not write is the machine's fault (exit 2, the path and the fix named), and --runs-dir puts runs
elsewhere."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from optimus.commands.cli import main
from optimus.core.runstore import UNFINISHED
from tests.helpers import copy_problem

OPTIMUS = [sys.executable, "-m", "optimus"]
SOLVE = ["--llm", "reference", "--mode", "prompt", "--sandbox", "process"]
# A reference program that hangs while its marker file exists: the run is interrupted mid-program.
HANGS = "import pathlib, time\nwhile pathlib.Path({marker!r}).exists():\n    time.sleep(0.2)\nraise SystemExit(3)\n"


def solved(folder: Path) -> Path:
    assert main(["solve", str(folder), *SOLVE]) == 0
    return (folder / "runs" / "latest").resolve()


def interrupt_a_solve(folder: Path, marker: Path) -> Path:
    """Start a solve whose program hangs, Ctrl-C it once the program runs; the interrupted run's folder."""
    before = set((folder / "runs").iterdir())
    proc = subprocess.Popen([*OPTIMUS, "solve", str(folder), *SOLVE], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    deadline = time.monotonic() + 300  # a bound on a hang, not a speed test
    new: list[Path] = []
    while time.monotonic() < deadline and not any((p / "v0" / "attempt-01").is_dir() for p in new):
        time.sleep(0.2)
        new = [p for p in (folder / "runs").iterdir() if p not in before and not p.is_symlink()]
    time.sleep(1.0)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    marker.unlink(missing_ok=True)
    assert proc.returncode == 130, err
    assert len(new) == 1, new
    return new[0]


def test_an_interrupted_run_leaves_latest_at_the_last_finished_run(tmp_path, capsys):
    folder = copy_problem("12", tmp_path / "p12")
    finished = solved(folder)
    marker = tmp_path / "hang"
    marker.write_text("")
    (folder / "reference" / "solver.py").write_text(HANGS.format(marker=str(marker)))
    interrupted = interrupt_a_solve(folder, marker)

    assert (folder / "runs" / "latest").resolve() == finished
    assert (interrupted / UNFINISHED).is_file() and not (interrupted / "report.json").exists()
    assert not (finished / UNFINISHED).exists()
    capsys.readouterr()
    for command in (["ask", str(interrupted), "why?", "--llm", "reference"],
                    ["diagnose", str(interrupted), "--sandbox", "process"]):
        assert main(command) == 2
        err = capsys.readouterr().err
        assert "did not finish" in err and str(finished) in err and "Traceback" not in err, (command, err)


def read_only(folder: Path, command: list[str]) -> subprocess.CompletedProcess:
    """`command` run with `folder` mounted read-only (a mount namespace of its own; root or a user namespace)."""
    shell = f'mount --bind -o ro "{folder}" "{folder}" && exec "$@"'
    for unshare in (["unshare", "-m"], ["unshare", "-rm"]):
        if not shutil.which("unshare"):
            break
        probe = subprocess.run([*unshare, "sh", "-c", shell, "sh", "true"], check=False, capture_output=True)
        if probe.returncode == 0:
            return subprocess.run([*unshare, "sh", "-c", shell, "sh", *command], check=False, capture_output=True,
                                  text=True, timeout=600)
    pytest.skip("no mount namespace here to make a folder read-only (unshare -m / -rm refused)")


def test_a_read_only_folder_is_the_machines_fault_and_runs_dir_puts_runs_elsewhere(tmp_path):
    folder = copy_problem("12", tmp_path / "p12")
    done = read_only(folder, [*OPTIMUS, "solve", str(folder), *SOLVE])
    assert done.returncode == 2, done.stderr
    assert "internal error" not in done.stderr and "bug in optimus" not in done.stderr
    assert str(folder / "runs") in done.stderr and "--runs-dir" in done.stderr

    elsewhere = tmp_path / "elsewhere"
    done = read_only(folder, [*OPTIMUS, "solve", str(folder), *SOLVE, "--runs-dir", str(elsewhere)])
    assert done.returncode == 0, done.stderr
    report = json.loads((elsewhere / "p12" / "latest" / "report.json").read_text())
    assert report["status"] == "ran" or report["status"] == "solved"
    assert not (folder / "runs").exists()


def test_runs_kept_elsewhere_still_answer_questions_about_their_problem(tmp_path, monkeypatch, capsys):
    """OPTIMUS_RUNS_DIR as --runs-dir: diagnose finds the problem folder of a run kept away from it."""
    folder = copy_problem("15-infeasible", tmp_path / "inf")
    monkeypatch.setenv("OPTIMUS_RUNS_DIR", str(tmp_path / "runs-here"))
    assert main(["solve", str(folder), "--llm", "reference", "--mode", "debug", "--sandbox", "process"]) == 0
    run_dir = tmp_path / "runs-here" / "inf" / "latest"
    assert (run_dir / "report.json").is_file() and not (folder / "runs").exists()
    capsys.readouterr()
    assert main(["diagnose", str(run_dir), "--sandbox", "process"]) == 0
    assert "cannot all hold" in capsys.readouterr().out
