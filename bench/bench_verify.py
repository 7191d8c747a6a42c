"""Overhead of model capture + independent re-solve, as a ratio of the solver program's own time.

    .venv/bin/python bench/bench_verify.py [--elements 1000 10000 100000] [--problems 29 30] [--sandbox process]

For every problem with a scale.py, and every size: run the reference solver (sandboxed, as the agent does) with
and without its prob.writeMPS(...) line (capture cost = the difference), then optimus.core.families.pulp.verify on the attempt
(re-solve with HiGHS, CBC for a MILP, output check). Prints numbers; it is not a test.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from optimus.core.families.pulp.verify import verify_attempt
from optimus.core.sandbox import Limits, get_backend

ROOT = Path(__file__).resolve().parents[1] / "nlp4lp"
LIMITS = Limits(wall_s=600, cpu_s=600, memory_mb=8192)


def run(sandbox, code: str, data: Path, work: Path) -> float:
    work.mkdir(parents=True)
    (work / "solver.py").write_text(code)
    started = time.monotonic()
    result = sandbox.run(["python", "solver.py"], workdir=work, readonly={"data.json": data}, limits=LIMITS)
    if result.exit_code != 0:
        raise SystemExit(f"{work}: the solver failed: {result.stderr[-500:]}")
    return time.monotonic() - started


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--elements", type=int, nargs="+", default=[1000, 10000, 100000])
    ap.add_argument("--problems", nargs="+", help="problem folder names (default: every one with scale.py)")
    ap.add_argument("--sandbox", default="process")
    args = ap.parse_args()
    sandbox = get_backend(args.sandbox)
    names = args.problems or sorted((p.parent.name for p in ROOT.glob("*/scale.py")), key=lambda n: (len(n), n))
    print(f"{'problem':>8} {'elements':>9} {'rows':>7} {'cols':>7} {'solver s':>9} {'capture s':>9} "
          f"{'verify s':>9} {'resolve s':>9} {'ratio':>6}  outcome")
    for name in names:
        ref = (ROOT / name / "reference" / "solver.py").read_text()
        no_capture = re.sub(r"^(\s*)\w+\.writeMPS\([^)]*\)\s*$", r"\1pass", ref, flags=re.MULTILINE)
        statements = _statements(name)
        for n in args.elements:
            with tempfile.TemporaryDirectory(prefix="bench-verify-") as tmp:
                data = Path(tmp) / "data.json"
                subprocess.run([sys.executable, str(ROOT / name / "scale.py"), "--elements", str(n), "--out",
                                str(data)], check=True, capture_output=True)
                with_mps = run(sandbox, ref, data, Path(tmp) / "with")
                without = run(sandbox, no_capture, data, Path(tmp) / "without")
                verdict = verify_attempt(Path(tmp) / "with", statements, sandbox, LIMITS)
                raw_s = sum(r.get("seconds", 0) for r in verdict.resolves)
                capture = max(0.0, with_mps - without)
                model = verdict.capture or {}
                rows = sum(v["rows"] for v in model.get("statements", {}).values()) + model.get("unnamed_rows", 0)
                cols = (verdict.values_check or {}).get("columns", "?")
                ratio = (capture + verdict.seconds) / without
                print(f"{name:>8} {n:>9} {rows:>7} {cols!s:>7} {without:>9.3f} {capture:>9.3f} "
                      f"{verdict.seconds:>9.3f} {raw_s:>9.3f} {ratio:>6.2f}  {verdict.outcome}", flush=True)
    return 0


def _statements(name: str) -> list[str]:
    from optimus.core.problem import load_problem

    return load_problem(ROOT / name).snop.problem_info


if __name__ == "__main__":
    sys.exit(main())
