"""`optimus bench`: success and execution rate per mode (the paper's ablation), with fault injection.

    optimus bench nlp4lp --mode prompt,debug,autotests,supervised,full --llm reference --faults all --jobs 2

Every problem runs on a copy of its folder inside --out; results.jsonl gets one line per problem × mode as
each finishes, so a rerun with the same --out resumes. summary.md and summary.png are rewritten at the end.
"""

from __future__ import annotations

import argparse
import sys
import time
import types
from pathlib import Path

from optimus.core.errors import ConfigError
from optimus.core.solver_options import SolverOptions

# The library lives in optimus.bench.runner (run_bench, BenchOptions), .judge (the verdict), .draw (which fault
# each problem gets), .summary (summary.md, summary.png); this module only runs the command from its parsed
# flags (their definitions are the CLI's, optimus.commands.parser), so that building the parser stays cheap.

# The flags that are BenchOptions fields of the same name (the model's go to the backend).
BENCH_FLAGS = ("jobs", "faults", "seed", "sandbox", "timeout", "rel_tol", "abs_tol", "max_debug", "max_fix",
               "rephrasings", "llm_concurrency", "sandboxes", "executor", "ablation", "samples", "rpm", "optimal",
               "model", "base_url")


def run_from_args(args: argparse.Namespace) -> int:
    if args.repair:
        from optimus.bench.repair import run_repair_bench

        return run_repair_bench(args)
    if args.ask:
        from optimus.bench.ask import run_ask_bench

        return run_ask_bench(args)
    from optimus.commands.api import bench

    if args.llm_concurrency < 1 or args.sandboxes < 1:
        raise ConfigError("--llm-concurrency and --sandboxes must be at least 1")
    prices = (args.price_in, args.price_out or 0.0) if args.price_in is not None else None
    settings = {name: getattr(args, name) for name in BENCH_FLAGS}
    settings["solver"] = SolverOptions.from_args(args)
    modes = ["full"] if args.roles else [m.strip() for m in args.mode.split(",") if m.strip()]
    out = args.out or Path("results/bench-roles" if args.roles else "results/bench")
    started = time.monotonic()
    bench(args.dirs, out=out, modes=modes, llm=args.llm, prices=prices, roles=args.roles, ray_address=args.address,
          **settings)
    if args.roles:
        print(f"roles measured; {time.monotonic() - started:.0f} s in all")
    path = out / "summary.md"
    print(path.read_text())
    print(f"wrote {out / 'results.jsonl'}, {path}, {out / 'summary.png'}")
    return 0


class _CallablePackage(types.ModuleType):
    """`optimus.bench(...)` is the API's function (README: From Python), yet importing this package makes
    `optimus.bench` the package: calling the package calls the function, so both spellings keep working."""

    def __call__(self, *args, **kwargs):
        from optimus.commands.api import bench

        return bench(*args, **kwargs)


sys.modules[__name__].__class__ = _CallablePackage
