"""Does `optimus bench --jobs N` overlap problems? Wall time against the critical path, with a simulated model.

    .venv/bin/python bench/bench_jobs.py [--jobs 8] [--latency 1.0] [--mode supervised] [--faults none] [DIR...]
                                          [--sandbox bwrap]

Every model call sleeps --latency seconds (a wrapper around the offline reference backend), as a remote model
would. Each problem first runs alone (its time is what it costs at best); then all of them run together with
--jobs N. The critical path is the longest single problem; the target is wall ≤ 1.25 × critical path.
Prints the numbers; a benchmark command, not a test.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import sys
import tempfile
import time
from pathlib import Path

from optimus.bench.runner import BenchOptions, problem_dirs, run_bench
from optimus.core.problem import short_name

ROOT = Path(__file__).resolve().parents[1]


def timed(opts: BenchOptions) -> tuple[float, list[dict]]:
    started = time.monotonic()
    with contextlib.redirect_stdout(io.StringIO()):
        rows = run_bench(opts, progress=lambda _: None)
    return time.monotonic() - started, rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dirs", nargs="*", type=Path)
    parser.add_argument("--jobs", type=int, default=8)
    parser.add_argument("--latency", type=float, default=1.0, help="seconds per simulated model call")
    parser.add_argument("--mode", default="supervised")
    parser.add_argument("--faults", default="none")
    parser.add_argument("--sandbox", default="bwrap")
    parser.add_argument("--sandboxes", type=int, default=None, help="sandboxed runs at once (default: cores)")
    args = parser.parse_args(argv)
    # Problems with a shipped expected.json: no ground truth to compute, so the timings are the rows alone.
    # Default: as many problems as jobs (the first with a shipped expected.json, so no ground truth is computed):
    # with more problems than jobs the wall time is bounded by the sum, not the critical path.
    folders = (
        args.dirs
        or [p for p in problem_dirs([ROOT / "nlp4lp"]) if (p / "expected.json").exists()][: args.jobs]
    )
    modes = args.mode.split(",")
    with tempfile.TemporaryDirectory(prefix="optimus-bench-jobs-") as tmp:

        def options(dirs: list[Path], out: str, jobs: int) -> BenchOptions:
            return BenchOptions(
                dirs=dirs,
                out=Path(tmp) / out,
                modes=modes,
                jobs=jobs,
                faults=args.faults,
                sandbox=args.sandbox,
                latency=args.latency,
                **({"sandboxes": args.sandboxes} if args.sandboxes else {}),
            )

        alone, waits, work = {}, [], 0.0
        for folder in folders:
            seconds, rows = timed(options([folder], f"alone-{folder.name}", 1))
            alone[short_name(folder)] = (seconds, sum(r["llm_calls"] for r in rows))
            waits.append(sum(r["seconds"]["llm"] for r in rows))
            work += sum(r["seconds"]["sandbox"] or 0 for r in rows)
            print(f"  alone  {short_name(folder):<22} {seconds:6.1f} s  ({alone[short_name(folder)][1]} model calls)")
        wall, rows = timed(options(folders, "together", args.jobs))
    critical = max(s for s, _ in alone.values())
    serial = sum(s for s, _ in alone.values())
    ratio = wall / critical
    print(
        f"problems {len(folders)}, modes {args.mode}, simulated latency {args.latency:g} s/call, "
        f"sandbox {args.sandbox}"
    )
    print(f"serial sum      {serial:7.1f} s")
    print(f"critical path   {critical:7.1f} s  (the longest single problem)")
    print(
        f"--jobs {args.jobs:<2}       {wall:7.1f} s  = {ratio:.2f} × critical path "
        f"({'within' if ratio <= 1.25 else 'NOT within'} 1.25×), speed-up {serial / wall:.1f}× over serial"
    )
    # Alone, a problem's sandbox seconds are its CPU work; together, no sandbox starts before the model has
    # answered every problem's first calls, and then the work shares the cores: a floor no scheduling beats.
    cores = os.cpu_count() or 1
    floor = max(critical, min(waits) + work / cores)
    print(f"sandbox work    {work:7.1f} s  (alone); after {min(waits):.1f} s of model calls on {cores} cores the "
          f"together run needs ≥ {floor:.1f} s = {floor / critical:.2f} × critical path")
    return 0


if __name__ == "__main__":
    sys.exit(main())
