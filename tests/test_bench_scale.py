"""bench/bench_scale.py at its smallest size, so that the script cannot rot: it runs end to end on a real class
and ends with the summary line in the issue's form, every figure a finite positive number (no timing asserted)."""

from __future__ import annotations

import math
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MAKE = ROOT / "industrial" / "_make"
LINE = re.compile(r"^scale (\d+) vars: build ratio (\S+), recheck ratio (\S+), peak MiB (\S+), prompt ratio (\S+) "
                  r"\(with HiGHS's solves: peak MiB (\S+)\)$")


def a_class() -> str | None:
    """A class whose reference program exists and whose 10^3 folder is committed (nothing to generate)."""
    found = sorted(p.parent.parent.name for p in MAKE.glob("*/reference/solver.py")
                   if (ROOT / "industrial" / f"{p.parent.parent.name}-1e3" / "snop.json").is_file())
    return found[0] if found else None


@pytest.mark.skipif(a_class() is None, reason="no industrial class with a reference program and a 1e3 folder yet")
def test_bench_scale_ends_with_the_summary_line(tmp_path):
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "bench_scale.py"), "--vars", "1000", "--classes",
                           a_class(), "--time-limit", "60", "--out", str(tmp_path)],
                          check=False, capture_output=True, text=True, timeout=900, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.strip().splitlines()
    found = LINE.match(lines[-1])
    assert found, lines[-1]
    assert int(found.group(1)) == 1000
    figures = [float(x) for x in found.groups()[1:]]
    assert all(math.isfinite(x) and x > 0 for x in figures), figures
    assert float(found.group(5)) == 1.0  # the prompt measured against itself at 10^3
    assert any(line.startswith(f"{a_class()} ") for line in lines), done.stdout  # the class's own row
    assert any(line.startswith("layers at 1000 vars") and "against arrays: PuLP" in line for line in lines)
