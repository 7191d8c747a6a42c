"""`optimus bench`: success and execution rate per mode (the paper's ablation), with fault injection.

    optimus bench nlp4lp --mode prompt,debug,autotests,supervised,full --llm reference --faults all --jobs 2

Every problem runs on a copy of its folder inside --out; results.jsonl gets one line per problem × mode as
each finishes, so a rerun with the same --out resumes. summary.md and summary.png are rewritten at the end.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

from optimus.errors import ConfigError
from optimus.stages import MODES

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
                   help="planning: a proven-optimal planner (Fast Downward A* with LM-cut) instead of lama-first")
    p.add_argument("--price-in", type=float, help="money per 1M prompt tokens: adds cost per solved problem")
    p.add_argument("--price-out", type=float, help="money per 1M completion tokens (with --price-in)")
    p.add_argument("--sandboxes", type=int, default=os.cpu_count() or 1,
                   help="sandboxed runs at once (default: the number of cores)")
    p.add_argument("--ablation", choices=["nested", "independent"], default="nested",
                   help="nested (default): one trajectory per problem records each mode's verdict where that mode "
                        "would stop, so the modes share their samples; independent: every mode from scratch")
    p.add_argument("--samples", type=int, default=1, metavar="K",
                   help="K independent formulations per row (optimus.samples); K > 1 runs every mode as its own "
                        "solve and adds agreement and ambiguity to summary.md (default 1)")
    p.add_argument(
        "--faults", default="none", help="all, none, or a comma list of fault names (reference only)"
    )
    p.add_argument("--seed", type=int, default=0, help="seed of the fault draw (default 0)")
    p.add_argument("--repair", action="store_true",
                   help="mimic users repair every infeasible folder with optimus repair (optimus/bench/repair.py)")
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


def run_from_args(args: argparse.Namespace) -> int:
    if args.repair:
        from optimus.bench.repair import run_repair_bench

        return run_repair_bench(args)
    from optimus.bench.runner import BenchOptions, run_bench
    from optimus.bench.summary import write_summary

    modes = [m.strip() for m in args.mode.split(",") if m.strip()]
    make_backend, model = None, "reference"
    if args.llm == "openai":
        from optimus.llm import LLMConfig, OpenAIBackend

        cfg = LLMConfig.from_env(model=args.model, base_url=args.base_url).require()
        make_backend, model = (lambda: OpenAIBackend(cfg)), cfg.model
    if args.llm_concurrency < 1 or args.sandboxes < 1:
        raise ConfigError("--llm-concurrency and --sandboxes must be at least 1")
    opts = BenchOptions(
        dirs=args.dirs,
        out=args.out or Path("results/bench"),
        modes=modes,
        llm=args.llm,
        jobs=args.jobs,
        faults=args.faults,
        seed=args.seed,
        sandbox=args.sandbox,
        timeout=args.timeout,
        rel_tol=args.rel_tol,
        abs_tol=args.abs_tol,
        max_debug=args.max_debug,
        max_fix=args.max_fix,
        rephrasings=args.rephrasings,
        llm_concurrency=args.llm_concurrency,
        sandboxes=args.sandboxes,
        executor=args.executor,
        ablation=args.ablation,
        samples=args.samples,
        ray_address=args.address,
        rpm=args.rpm,
        optimal=args.optimal,
        model=model,
        make_backend=make_backend,
    )
    started = time.monotonic()
    rows = run_bench(opts)
    skipped_path = opts.out / "skipped.json"
    skipped = json.loads(skipped_path.read_text()) if skipped_path.exists() else {}
    prices = (args.price_in, args.price_out or 0.0) if args.price_in is not None else None
    path = write_summary(opts.out, rows, wall_s=time.monotonic() - started, skipped=skipped, prices=prices)
    print(path.read_text())
    print(f"wrote {opts.out / 'results.jsonl'}, {path}, {opts.out / 'summary.png'}")
    return 0
