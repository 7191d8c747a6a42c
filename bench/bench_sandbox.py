"""Sandbox overhead: the same commands bare and through each working backend, as medians and ratios.

    python bench/bench_sandbox.py [--runs 20] [--json]

Runs are interleaved (bare, docker, bwrap, process, bare, ...) so drift hits every column alike. The time
is what a caller of backend.run() waits, container creation and removal included.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from optimus.core.sandbox import Backend, Limits, get_backend
from optimus.core.sandbox.registry import BACKENDS

HERE = Path(__file__).resolve().parent
CASES = {"python -c pass": ["python", "-c", "pass"], "pulp solve": ["python", "sandbox_pulp.py"]}
LIMITS = Limits(wall_s=120, cpu_s=120)
TARGETS = "targets: bwrap <= 1.10x bare on the pulp solve; docker <= bare + 0.5 s"


def run_bare(cmd: list[str], work: Path) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, *cmd[1:]], cwd=work, check=True, capture_output=True)
    return time.perf_counter() - start


def run_sandboxed(backend: Backend, cmd: list[str], work: Path) -> float:
    start = time.perf_counter()
    res = backend.run(cmd, workdir=work, limits=LIMITS)
    took = time.perf_counter() - start
    if not res.ok:
        raise SystemExit(f"{backend.name} failed on {cmd}: {res.stderr[-500:]}")
    return took


def measure(runs: int) -> dict[str, dict[str, list[float]]]:
    backends = {name: get_backend(name) for name, cls in BACKENDS.items() if cls.check() is None}
    times: dict[str, dict[str, list[float]]] = {}
    with tempfile.TemporaryDirectory(prefix="optimus-bench-") as tmp:
        work = Path(tmp)
        shutil.copy(HERE / "sandbox_pulp.py", work)
        for case, cmd in CASES.items():
            columns: dict[str, list[float]] = {"bare": [], **{name: [] for name in backends}}
            for i in range(runs + 1):  # the first round warms caches and is dropped
                for column, values in columns.items():
                    took = (
                        run_bare(cmd, work)
                        if column == "bare"
                        else run_sandboxed(backends[column], cmd, work)
                    )
                    if i:
                        values.append(took)
            times[case] = columns
    return times


def summary(times: dict[str, dict[str, list[float]]]) -> list[dict[str, object]]:
    rows = []
    for case, columns in times.items():
        bare = statistics.median(columns["bare"])
        for column, values in columns.items():
            q = statistics.quantiles(values, n=10)
            median = statistics.median(values)
            rows.append({
                "case": case, "backend": column, "runs": len(values), "median_s": round(median, 4),
                "p10_s": round(q[0], 4), "p90_s": round(q[-1], 4),
                "ratio": round(median / bare, 3), "over_bare_s": round(median - bare, 4),
            })  # fmt: skip
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20, help="measured runs per column (default 20)")
    parser.add_argument("--json", action="store_true", help="print rows as JSON")
    args = parser.parse_args()
    rows = summary(measure(max(args.runs, 2)))
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    print(f"{'case':16} {'backend':8} {'median s':>9} {'p10-p90 s':>15} {'x bare':>7} {'+ s':>7}")
    for r in rows:
        spread = f"{r['p10_s']:.3f}-{r['p90_s']:.3f}"
        print(
            f"{r['case']:16} {r['backend']:8} {r['median_s']:9.3f} {spread:>15} "
            f"{r['ratio']:7.2f} {r['over_bare_s']:+7.3f}"
        )
    print(TARGETS)
    return 0


if __name__ == "__main__":
    sys.exit(main())
