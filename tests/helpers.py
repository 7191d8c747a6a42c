"""What several test modules share: where the benchmark problems live, a clean copy of one, a program run."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

NLP4LP = Path(__file__).resolve().parents[1] / "nlp4lp"
SUMMARY: list[str] = []  # lines a test leaves for the end of the pytest run (conftest's terminal summary)


def copy_problem(name: str, dest: Path) -> Path:
    """nlp4lp/<name> copied to `dest`, without runs/ or a generated test module: tests write into the copy."""
    shutil.copytree(NLP4LP / name, dest, ignore=shutil.ignore_patterns("runs", "test_generated.py*"))
    return dest


def run_program(folder: Path, program: str, work: Path, timeout: float) -> dict:
    """A solver program run on a copy of `folder` in `work` (a new directory): its exit, solution.json and
    output.json (None when it left none), or {"timed_out": True}."""
    shutil.copytree(folder, work)
    (work / "solver.py").write_text(program)
    try:
        done = subprocess.run([sys.executable, "solver.py"], cwd=work, capture_output=True, text=True,
                              timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return {"timed_out": True}
    read = {n: json.loads((work / n).read_text()) if (work / n).is_file() else None
            for n in ("solution.json", "output.json")}
    return {"exit": done.returncode, **read}


def cbc(**options):
    """CBC through PuLP, a second solver for ground truth, without PULP_CBC_CMD (deprecated, gone in PuLP 4):
    COIN_CMD on the binary PuLP 3 bundles, else on the cbc PuLP 4 finds (pip install pulp[cbc])."""
    import os

    import pulp
    from pulp.apis import coin_api

    bundled = getattr(coin_api, "pulp_cbc_path", None)
    return pulp.COIN_CMD(path=bundled, **options) if bundled and os.path.exists(bundled) else pulp.COIN_CMD(**options)
