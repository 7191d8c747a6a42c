"""Start-up overhead of `optimus solve`: the command's wall time against the seconds it spent in the sandbox.

    .venv/bin/python bench/bench_startup.py [--problem nlp4lp/12] [--sandbox auto] [--runs 3]

Runs `optimus solve PROBLEM --llm reference --mode full --json` as a subprocess (a real start: imports, the
problem, the sandbox, the report) and prints wall ÷ report.seconds.sandbox per run and the median. Issue 15's
target is ≤ 1.3 on nlp4lp/12. Prints numbers; it is not a test.
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

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--problem", default="nlp4lp/12")
    ap.add_argument("--sandbox", default="auto")
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    optimus = Path(sys.executable).with_name("optimus")
    ratios = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "problem"  # a copy: runs/ must not land in the repo
        shutil.copytree(ROOT / args.problem, folder, ignore=shutil.ignore_patterns("runs"))
        for n in range(1, args.runs + 1):
            started = time.monotonic()
            cmd = [str(optimus), "solve", str(folder), "--llm", "reference", "--sandbox", args.sandbox, "--json"]
            done = subprocess.run(cmd, capture_output=True, text=True, check=False,
                                  env={"OPTIMUS_HOME": tmp, "PATH": "/usr/bin:/bin"})
            wall = time.monotonic() - started
            if done.returncode != 0:
                print(done.stderr[-2000:], file=sys.stderr)
                return 1
            report = json.loads(done.stdout)
            sandbox = report["seconds"]["sandbox"]
            ratios.append(wall / sandbox)
            print(f"run {n}: wall {wall:.2f} s, sandbox {sandbox:.2f} s, ratio {wall / sandbox:.2f} "
                  f"({report['sandbox']}, status {report['status']})")
    print(f"median ratio wall/sandbox: {statistics.median(ratios):.2f} (target ≤ 1.3)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
