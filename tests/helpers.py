"""What several test modules share: where the benchmark problems live, and a clean copy of one."""

from __future__ import annotations

import shutil
from pathlib import Path

NLP4LP = Path(__file__).resolve().parents[1] / "nlp4lp"
SUMMARY: list[str] = []  # lines a test leaves for the end of the pytest run (conftest's terminal summary)


def copy_problem(name: str, dest: Path) -> Path:
    """nlp4lp/<name> copied to `dest`, without runs/ or a generated test module: tests write into the copy."""
    shutil.copytree(NLP4LP / name, dest, ignore=shutil.ignore_patterns("runs", "test_generated.py*"))
    return dest
