"""`optimus bench`: success and execution rate per mode (the paper's ablation), with fault injection.

    optimus bench nlp4lp --mode prompt,debug,autotests,supervised,full --llm reference --faults all --jobs 2

Every problem runs on a copy of its folder inside --out; results.jsonl gets one line per problem × mode as
each finishes, so a rerun with the same --out resumes. summary.md and summary.png are rewritten at the end.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import types
from pathlib import Path

from optimus.core import solver_options
from optimus.core.errors import ConfigError
from optimus.core.solver_options import SolverOptions
from optimus.core.stages import MODES

# The library lives in optimus.bench.runner (run_bench, BenchOptions), .judge (the verdict), .draw (which fault
# each problem gets), .summary (summary.md, summary.png); this module only holds the command's arguments, so
# that building the CLI parser stays cheap.


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("dirs", nargs="+", type=Path, metavar="DIR", help="problem folders, or folders of them")
    p.add_argument(
        "--mode",
        default=",".join(MODES),
        help="comma list of modes (default: all five)",
    )
    p.add_argument(
        "--llm",
        choices=["reference", "openai"],
        default="reference",
        help="reference: offline, answers from reference/; openai: any OpenAI-compatible endpoint",
    )
    p.add_argument("--model", help="model name (default: $OPTIMUS_MODEL)")
    p.add_argument("--base-url", help="OpenAI-compatible endpoint (default: $OPENAI_BASE_URL)")
    p.add_argument("--jobs", type=int, default=1, help="rows run at once (default 1)")
    p.add_argument("--llm-concurrency", type=int, default=4, help="model calls in flight at once (default 4)")
    p.add_argument("--executor", choices=["thread", "ray"], default="thread",
                   help="thread: this machine; ray: Ray tasks, local or on a cluster (pip install 'optimus[ray]')")
    p.add_argument("--address", help="with --executor ray: a cluster, e.g. ray://head:10001 (default: local Ray)")
    p.add_argument("--rpm", type=int, default=0, help="with --executor ray: model requests per minute (0: no limit)")
    p.add_argument("--optimal", action="store_true",
                   help="planning: a proven-shortest plan (Fast Downward A* with LM-cut) even when the objective "
                        "does not minimise (a minimising objective gets one anyway; lama-first otherwise)")
    p.add_argument("--price-in", type=float, help="money per 1M prompt tokens: adds cost per solved problem")
    p.add_argument("--price-out", type=float, help="money per 1M completion tokens (with --price-in)")
    p.add_argument("--sandboxes", type=int, default=os.cpu_count() or 1,
                   help="sandboxed runs at once (default: the number of cores)")
    p.add_argument("--ablation", choices=["nested", "independent"], default="nested",
                   help="nested (default): one trajectory per problem records each mode's verdict where that mode "
                        "would stop, so the modes share their samples; independent: every mode from scratch")
    p.add_argument("--samples", type=int, default=1, metavar="K",
                   help="K independent formulations per row (optimus.commands.samples); K > 1 runs every mode as its own "
                        "solve and adds agreement and ambiguity to summary.md (default 1)")
    p.add_argument(
        "--faults", default="none", help="all, none, or a comma list of fault names (reference only)"
    )
    p.add_argument("--seed", type=int, default=0, help="seed of the fault draw (default 0)")
    p.add_argument("--roles", action="store_true",
                   help="the model as solver, verifier and heuristic, and its self-assessment (full mode), against "
                        "the formal labels (optimus/bench/roles.py)")
    p.add_argument("--repair", action="store_true",
                   help="mimic users repair every infeasible folder with optimus repair (optimus/bench/repair.py)")
    p.add_argument("--ask", action="store_true",
                   help="put each folder's questions.json to its solved run with optimus ask (optimus/bench/ask.py)")
    solver_options.add_arguments(p, export=False)  # as optimus solve takes them; a time limit's answer has a gap
    p.add_argument("--out", type=Path, help="results folder (default results/bench); reruns resume")
    p.add_argument("--sandbox", default="auto", help="auto, docker, bwrap or process (default auto)")
    p.add_argument("--timeout", type=float, default=30, help="seconds per sandboxed run (default 30)")
    p.add_argument("--rel-tol", type=float, default=1e-4, help="objective tolerance, relative (default 1e-4)")
    p.add_argument("--abs-tol", type=float, default=1e-6, help="objective tolerance, absolute (default 1e-6)")
    p.add_argument("--max-debug", type=int, default=5, help="repairs after execution errors (default 5)")
    p.add_argument("--max-fix", type=int, default=5, help="repairs after failed tests (default 5)")
    p.add_argument(
        "--rephrasings", type=int, default=5, help="rewrites of the statements in full mode (default 5)"
    )


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
