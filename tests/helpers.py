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


def cbc(**options):
    """CBC through PuLP, a second solver for ground truth, without PULP_CBC_CMD (deprecated, gone in PuLP 4):
    COIN_CMD on the binary PuLP 3 bundles, else on the cbc PuLP 4 finds (pip install pulp[cbc])."""
    import os

    import pulp
    from pulp.apis import coin_api

    bundled = getattr(coin_api, "pulp_cbc_path", None)
    return pulp.COIN_CMD(path=bundled, **options) if bundled and os.path.exists(bundled) else pulp.COIN_CMD(**options)
