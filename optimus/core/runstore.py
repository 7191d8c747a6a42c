"""Run folders: <problem>/runs/<timestamp>/ with every artifact of a run; runs/latest points at the newest.

Inside, v<i>/ holds statement variant i (v0: the statements as written) and v<i>/attempt-NN/ each program run.
"""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path
from typing import Any

# Written into the problem folders optimus makes: runs and repair variants are outputs, not the problem.
FOLDER_GITIGNORE = "runs/\nvariants/\n"


class RunStore:
    def __init__(self, problem_root: Path, runs_dir: Path | None = None):
        base = runs_dir or problem_root / "runs"
        base.mkdir(parents=True, exist_ok=True)
        stamp = time.strftime("%Y%m%d-%H%M%S")
        path, n = base / stamp, 1
        while path.exists():
            n += 1
            path = base / f"{stamp}-{n}"
        path.mkdir()
        self.dir = path
        latest = base / "latest"
        tmp = base / f".latest-{os.getpid()}"
        tmp.unlink(missing_ok=True)
        tmp.symlink_to(path.name)
        tmp.replace(latest)  # atomic: a reader never sees runs/latest missing

    def path(self, rel: str) -> Path:
        target = self.dir / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        return target

    def write(self, rel: str, content: str | Any) -> Path:
        target = self.path(rel)
        target.write_text(content if isinstance(content, str) else json.dumps(content, indent=2) + "\n")
        return target


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
