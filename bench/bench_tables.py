"""Tables at scale: the prompt does not grow with the data, and the sandboxed program costs about a DuckDB scan.

    .venv/bin/python bench/bench_tables.py [--problem travel/1] [--sandbox bwrap] [--rows 100000,1000000,10000000] [--prompt-rows N]

1. Prompt characters (characters, not tokens: no tokenizer is installed) of every request `optimus solve
   --llm reference --mode prompt` sends for the trip with a 10-row and with a 10^7-row flights table; the ratio.
2. For each size: the trip's reference program (reference/solver.py) and a bare DuckDB scan of the same
   flights.parquet (every column read), each run in the sandbox with data/ mounted read-only; wall seconds and
   peak memory (the largest resident set of the process or its children, from getrusage), and the ratios
   program ÷ scan. Prints numbers measured in this run; it is not a test.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "travel"))

from generate import generate

from optimus.core.sandbox import Limits, get_backend
from optimus.core.tables import sandbox_inputs

# Runs a script and prints its peak resident memory (KiB, Linux) last on stderr.
MEASURE = ("import resource, runpy, sys\nrunpy.run_path(sys.argv[1], run_name='__main__')\n"
           "peak = max(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,"
           " resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\nprint('peak_kib', peak, file=sys.stderr)\n")
BARE = ("import duckdb\nprint(duckdb.sql(\"SELECT count(*), min(flight_id), min(origin), min(dest), min(day), "
        "min(depart_hour), sum(price) FROM 'data/flights.parquet'\").fetchone())\n")


def folder_with(src: Path, dest: Path, rows: int) -> Path:
    shutil.copytree(src, dest, ignore=shutil.ignore_patterns("runs", "variants", "data"))
    generate(dest / "data", flights=rows, fmt="parquet")
    snop = json.loads((dest / "snop.json").read_text())
    snop["input_format"] = snop["input_format"].replace(".csv", ".parquet")
    (dest / "snop.json").write_text(json.dumps(snop, indent=2))
    return dest


def prompt_chars(folder: Path, sandbox: str, home: str) -> int:
    optimus = Path(sys.executable).with_name("optimus")
    subprocess.run([str(optimus), "solve", str(folder), "--llm", "reference", "--mode", "prompt", "--sandbox",
                    sandbox, "--timeout", "300", "--memory", "4096"], capture_output=True, check=False,
                   env={"OPTIMUS_HOME": home, "PATH": "/usr/bin:/bin"})
    lines = (folder / "runs" / "latest" / "transcript.jsonl").read_text().splitlines()
    return sum(len(m["content"]) for line in lines for m in json.loads(line)["messages"])


def measured(backend, folder: Path, script: str, limits: Limits) -> tuple[float, float]:
    """(wall seconds, peak MiB) of `script` run in the sandbox beside the folder's data."""
    with tempfile.TemporaryDirectory(prefix="bench-tables-") as tmp:
        work = Path(tmp)
        (work / "measure.py").write_text(MEASURE)
        (work / "program.py").write_text(script)
        result = backend.run(["python", "measure.py", "program.py"], work,
                             readonly=sandbox_inputs(folder / "data.json"), limits=limits)
    if not result.ok:
        raise SystemExit(f"the run failed ({result.killed_by or result.exit_code}): {result.stderr[-800:]}")
    peak = int(result.stderr.rsplit("peak_kib", 1)[1].split()[0])
    return result.wall_s, peak / 1024


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--problem", default="travel/1")
    ap.add_argument("--sandbox", default="bwrap")
    ap.add_argument("--rows", default="100000,1000000,10000000")
    ap.add_argument("--memory", type=int, default=8192, help="the sandbox's memory limit, MiB")
    ap.add_argument("--prompt-rows", type=int, default=10_000_000, help="the large table of the prompt comparison")
    args = ap.parse_args()
    backend = get_backend(args.sandbox)
    limits = Limits(wall_s=600, cpu_s=600, memory_mb=args.memory, file_size_mb=4096)
    src = ROOT / args.problem
    with tempfile.TemporaryDirectory(prefix="bench-tables-") as tmp:
        small = prompt_chars(folder_with(src, Path(tmp) / "p10", 10), args.sandbox, tmp)
        big = prompt_chars(folder_with(src, Path(tmp) / "big", args.prompt_rows), args.sandbox, tmp)
        shutil.rmtree(Path(tmp) / "big")
        print(f"prompt characters, all requests of one prompt-mode solve: 10 rows {small}, {args.prompt_rows:,} "
              f"rows {big}, ratio {big / small:.2f}")
        print("| flights rows | file MiB | program s | scan s | wall ratio | program peak MiB | scan peak MiB "
              "| memory ratio |\n| --- | --- | --- | --- | --- | --- | --- | --- |")
        program = (src / "reference" / "solver.py").read_text()
        for rows in (int(r) for r in args.rows.split(",")):
            folder = folder_with(src, Path(tmp) / f"r{rows}", rows)
            size = (folder / "data" / "flights.parquet").stat().st_size / 2**20
            p_wall, p_peak = measured(backend, folder, program, limits)
            s_wall, s_peak = measured(backend, folder, BARE, limits)
            print(f"| {rows:,} | {size:.1f} | {p_wall:.2f} | {s_wall:.2f} | {p_wall / s_wall:.2f} | {p_peak:.0f} "
                  f"| {s_peak:.0f} | {p_peak / s_peak:.2f} |")
            shutil.rmtree(folder)
    return 0


if __name__ == "__main__":
    sys.exit(main())
