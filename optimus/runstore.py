"""Run folders: <problem>/runs/<timestamp>/ with every artifact of a run; runs/latest points at the newest."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any


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
