"""Run folders: <problem>/runs/<timestamp>/ with every artifact of a run; runs/latest points at the newest finished
one (the newest that wrote report.json); an unfinished one holds a file UNFINISHED saying so.

Inside, v<i>/ holds statement variant i (v0: the statements as written) and v<i>/attempt-NN/ each program run.
"""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path
from typing import Any

from optimus.core.errors import EnvironmentFault

# Written into the problem folders optimus makes: runs and repair variants are outputs, not the problem.
FOLDER_GITIGNORE = "runs/\nvariants/\n"
# Puts every problem's runs under one folder (e.g. when problem folders are read-only); --runs-dir sets it too.
RUNS_DIR_VARIABLE = "OPTIMUS_RUNS_DIR"


# In a run folder until its report.json is written: a run that stopped before (Ctrl-C, a crash) says so.
UNFINISHED = "UNFINISHED"
PROBLEM_FILE = "problem.txt"  # the problem folder's path, for runs kept elsewhere (--runs-dir)
UNFINISHED_TEXT = ("This run did not finish (interrupted, or stopped before writing report.json); "
                   "runs/latest names the last finished run.\n")


class RunStore:
    def __init__(self, problem_root: Path, runs_dir: Path | None = None):
        base = Path(runs_dir) if runs_dir else runs_base(problem_root)
        try:
            base.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise UnwritableRuns(base, exc) from exc
        stamp = time.strftime("%Y%m%d-%H%M%S")
        path, n = base / stamp, 1
        while path.exists():
            n += 1
            path = base / f"{stamp}-{n}"
        try:
            path.mkdir()
            (path / UNFINISHED).write_text(UNFINISHED_TEXT)
            (path / PROBLEM_FILE).write_text(str(Path(problem_root).resolve()) + "\n")
        except OSError as exc:
            raise UnwritableRuns(base, exc) from exc
        self.dir = path
        self.base = base

    def finished(self) -> None:
        """The run wrote its report: it is now runs/latest, and no longer marked unfinished."""
        (self.dir / UNFINISHED).unlink(missing_ok=True)
        point_latest(self.base, self.dir)

    def path(self, rel: str) -> Path:
        target = self.dir / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        return target

    def write(self, rel: str, content: str | Any) -> Path:
        target = self.path(rel)
        target.write_text(content if isinstance(content, str) else json.dumps(content, indent=2) + "\n")
        if rel == "report.json":
            self.finished()
        return target


def point_latest(base: Path, run_dir: Path) -> None:
    latest = base / "latest"
    tmp = base / f".latest-{os.getpid()}"
    tmp.unlink(missing_ok=True)
    tmp.symlink_to(run_dir.name)
    tmp.replace(latest)  # atomic: a reader never sees runs/latest missing


def runs_base(problem_root: Path, elsewhere: str | Path | None = None) -> Path:
    """Where a problem's runs go: <elsewhere>/<problem folder name> (--runs-dir, else $OPTIMUS_RUNS_DIR) when set,
    else <problem>/runs."""
    elsewhere = elsewhere or os.environ.get(RUNS_DIR_VARIABLE)
    return Path(elsewhere) / Path(problem_root).resolve().name if elsewhere else Path(problem_root) / "runs"


def problem_of(run_dir: Path) -> Path:
    """The problem folder a run folder belongs to: problem.txt's path, else the folder two levels up."""
    named = Path(run_dir) / PROBLEM_FILE
    if named.is_file():
        folder = Path(named.read_text().strip())
        if folder.is_dir():
            return folder
    return Path(run_dir).resolve().parent.parent


def last_finished(run_dir: Path) -> Path | None:
    """For an unfinished run folder: the newest sibling run that wrote its report.json, if any."""
    runs = [p for p in Path(run_dir).resolve().parent.iterdir() if p.is_dir() and not p.is_symlink()
            and (p / "report.json").is_file()]
    return max(runs, key=lambda p: p.name) if runs else None


def unfinished_message(run_dir: Path) -> str:
    """What ask and diagnose say of a run folder without report.json."""
    run_dir = Path(run_dir)
    why = "did not finish (interrupted, or stopped before writing report.json)" if (
        run_dir / UNFINISHED).exists() else "has no report.json"
    last = last_finished(run_dir) if run_dir.is_dir() else None
    hint = f"; the last finished run is {last}" if last else "; no finished run beside it"
    return f"this run {why}{hint}"


class UnwritableRuns(EnvironmentFault):
    def __init__(self, base: Path, exc: OSError):
        super().__init__(f"cannot write runs in {base}: {exc.strerror or exc}; make the folder writable, or put runs "
                         f"elsewhere with --runs-dir DIR (or {RUNS_DIR_VARIABLE}=DIR)")


def attempt_path(variant: int, number: int) -> str:
    return f"v{variant}/attempt-{number:02d}"


def attempts(run_dir: Path, variant: int | None = None) -> list[Path]:
    """One variant's attempt folders, in order: `variant`'s when it exists, else the last variant's that has any."""

    def number(path: Path) -> int:
        digits = re.sub(r"\D", "", path.name)
        return int(digits) if digits else -1

    variants = sorted((p for p in run_dir.glob("v*") if p.is_dir() and number(p) >= 0), key=number)
    if variant is not None and (run_dir / f"v{variant}").is_dir():
        variants = [run_dir / f"v{variant}"]
    for v in reversed(variants):
        found = sorted((p for p in v.glob("attempt-*") if p.is_dir()), key=number)
        if found:
            return found
    return []
