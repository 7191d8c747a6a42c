"""The command line's flags, one definition for the CLI (optimus.commands.cli) and the Python API's checks of its
keyword arguments (optimus.commands.arguments). Building the parser stays cheap: no pipeline module is imported."""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable, Mapping
from pathlib import Path

from optimus import __version__
from optimus.core import solver_options
from optimus.core.llm.client import MAX_CALLS
from optimus.core.llm.registry import names as llm_names
from optimus.core.sandbox import cli as sandbox_cli
from optimus.core.stages import BASELINE_MODES, MODES


def build_parser(handlers: Mapping[str, Callable] | None = None,
                 description: str | None = None) -> argparse.ArgumentParser:
    """Every command's parser; `handlers` (command name → function) become each command's `func`."""
    parser = argparse.ArgumentParser(prog="optimus", description=description)
    parser.add_argument("--version", action="version", version=f"optimus {__version__}")
    sub = parser.add_subparsers(metavar="COMMAND")
    commands = {"validate": add_validate, "convert": add_convert, "import-nlp4lp": add_import, "solve": add_solve,
                "bench": add_bench, "logs": add_logs, "new": add_new, "repair": add_repair, "ask": add_ask,
                "diagnose": add_diagnose}
    for name, add in commands.items():
        p = add(sub)
        if handlers and name in handlers:
            p.set_defaults(func=handlers[name])
        if name == "convert":
            sandbox_cli.register(sub)  # `optimus sandbox …` brings its own handlers
    return parser


def add_validate(sub) -> argparse.ArgumentParser:
    """`optimus validate`."""
    p = sub.add_parser("validate", help="check problem folders before any model is called")
    p.add_argument("dirs", nargs="+", type=Path, metavar="DIR")
    p.add_argument("--strict", action="store_true", help="exit 1 when there are warnings")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    return p


def add_convert(sub) -> argparse.ArgumentParser:
    """`optimus convert`."""
    p = sub.add_parser("convert", help="turn snop.json into description.txt or back")
    p.add_argument("source", type=Path, help="a snop.json, a description.txt, or a problem folder")
    p.add_argument("--to", choices=["json", "text"], help="target form (default: the other one)")
    p.add_argument("-o", "--output", type=Path, help="write here instead of standard output")
    return p


def add_import(sub) -> argparse.ArgumentParser:
    """`optimus import-nlp4lp`."""
    p = sub.add_parser("import-nlp4lp", help="convert the public NLP4LP layout into problem folders")
    p.add_argument("source", type=Path, metavar="SRC", help="folder holding <source>/<problem>/description.txt")
    p.add_argument("dest", type=Path, metavar="DEST")
    p.add_argument("--json", action="store_true", help="print the import report as JSON")
    return p


def add_solve(sub) -> argparse.ArgumentParser:
    """`optimus solve`."""
    p = sub.add_parser("solve", help="formulate, code, run, test and repair until the tests pass")
    p.add_argument("dir", type=Path, metavar="DIR", help="a problem folder")
    p.add_argument("--mode", choices=MODES + BASELINE_MODES, default="full",
                   help="ablation mode (default: full); direct: the model writes the plan itself (planning)")
    add_llm_arguments(p)
    p.add_argument("--max-debug", type=int, default=5, help="repairs after execution errors (default 5)")
    p.add_argument("--max-fix", type=int, default=5, help="repairs after failed tests (default 5)")
    p.add_argument("--rephrasings", type=int, default=5, help="rewrites of the statements in full mode")
    p.add_argument("--regen-tests", action="store_true", help="regenerate tests/test_generated.py (backup kept)")
    p.add_argument("--sandbox", default="auto", help="auto, docker, bwrap or process (default auto)")
    p.add_argument("--timeout", type=float, default=None,
                   help="seconds per sandboxed run (default: 120, more for large data; also OPTIMUS_SANDBOX_TIMEOUT "
                        "or the folder's limits.json)")
    p.add_argument("--memory", type=int, default=None,
                   help="MiB of address space per sandboxed run (default: 8192, more for large data; also "
                        "OPTIMUS_SANDBOX_MEMORY_MB or the folder's limits.json)")
    p.add_argument("--optimal", action="store_true",
                   help="planning: a proven-shortest plan (Fast Downward A* with LM-cut) even when the objective "
                        "does not minimise (a minimising objective gets one anyway; lama-first otherwise)")
    p.add_argument("--assess", action=argparse.BooleanOptionalAction, default=None,
                   help="after the tests pass, the model rates its own steps and a 0 sends one back "
                        "(default: on in mode full, off otherwise)")
    p.add_argument("--samples", type=int, default=1, metavar="K",
                   help="K independent formulations, each verified; the largest agreeing group is the answer, and "
                        "two verified answers that differ are reported as an ambiguity (default 1)")
    solver_options.add_arguments(p)  # variables the program reads, honoured by the re-solve too
    add_solve_extras(p)
    return p


def add_solve_extras(p: argparse.ArgumentParser) -> None:
    """`optimus solve`'s flags after the solver options: output, budgets, where runs go."""
    p.add_argument("--show", choices=["top", "all"], default="top",
                   help="decisions shown after the objective: the first 20 non-zero (top, default) or all")
    p.add_argument("--max-calls", type=int, default=MAX_CALLS, metavar="N",
                   help=f"paid model calls the solve may make; then it stops and reports (default {MAX_CALLS}; "
                        "0: no budget)")
    p.add_argument("--check-assumptions", type=int, default=4, metavar="N",
                   help="model calls for solving each assumption's alternative reading, to tell which change the "
                        "answer (a data value's alternative re-runs the program: no call; default 4, 0: none)")
    p.add_argument("--runs-dir", type=Path, metavar="DIR",
                   help="write runs to DIR/<folder name>/ instead of <folder>/runs/ (or set OPTIMUS_RUNS_DIR)")
    p.add_argument("--json", action="store_true", help="print report.json")


def add_bench(sub) -> argparse.ArgumentParser:
    """`optimus bench`."""
    p = sub.add_parser("bench", help="success and execution rate per mode, optionally with injected faults")
    add_bench_arguments(p)
    return p


def add_logs(sub) -> argparse.ArgumentParser:
    """`optimus logs`."""
    what = "list past exchanges with models from logs.db: the newest N, newest last"
    p = sub.add_parser("logs", help=what, description=what[0].upper() + what[1:] + " (text and --json alike).")
    p.add_argument("-n", "--count", type=int, default=3,
                   help="how many of the newest exchanges (default 3; 0 for all)")
    p.add_argument("--stage", help="only this stage (formulate, codegen, debug, fix, testgen, …)")
    p.add_argument("--json", action="store_true", help="the rows as JSON, messages included")
    return p


def add_new(sub) -> argparse.ArgumentParser:
    """`optimus new`."""
    p = sub.add_parser("new", help="a free-text request with its numbers → a problem folder (snop.json, data.json)")
    p.add_argument("dir", type=Path, metavar="DIR", help="the problem folder to write")
    p.add_argument("--from", dest="source", required=True, metavar="FILE", help="the request text, or - for stdin")
    p.add_argument("--data", type=Path, action="append", metavar="FILE",
                   help="a .csv or .json file read into data.json by code (its values never enter a prompt)")
    p.add_argument("--force", action="store_true", help="write over DIR's snop.json and data.json")
    p.add_argument("--yes", action="store_true", help="accept the assumptions and number findings without asking")
    add_llm_arguments(p)
    return p


def add_repair(sub) -> argparse.ArgumentParser:
    """`optimus repair`."""
    p = sub.add_parser("repair", help="a dialogue that makes an infeasible run feasible, in new variant folders")
    p.add_argument("run_dir", type=Path, metavar="RUN_DIR", help="an infeasible run: <problem>/runs/<stamp>/")
    p.add_argument("--accept", type=int, metavar="N", help="answer every round with candidate N (scripted)")
    p.add_argument("--refuse", metavar="S4,S7", help="statements never to change")
    p.add_argument("--rounds", type=int, default=10, help="at most this many rounds (default 10)")
    p.add_argument("--candidates", type=int, default=3, help="changes shown per round (default 3)")
    p.add_argument("--mode", choices=MODES, help="solve the variants in this mode (default: the run's)")
    p.add_argument("--sandbox", default="auto", help="auto, docker, bwrap or process (default auto)")
    p.add_argument("--timeout", type=float, default=120, help="seconds per sandboxed run (default 120)")
    add_llm_arguments(p, default=None)  # None: the run's own backend and model (report.json)
    return p


def add_ask(sub) -> argparse.ArgumentParser:
    """`optimus ask`."""
    p = sub.add_parser("ask", help="what-if, why, why-not, sensitivity: a question put to a solved run, answered by solving")
    p.add_argument("run_dir", type=Path, metavar="RUN_DIR", help="a solved (or infeasible) run: <problem>/runs/<stamp>/")
    p.add_argument("question", nargs="?", help="the question; without it, questions are read line by line")
    p.add_argument("--mode", choices=MODES, help="solve the variants in this mode (default: the run's)")
    p.add_argument("--words", action=argparse.BooleanOptionalAction, default=True,
                   help="a short paragraph by the model from the computed numbers, checked (default on)")
    p.add_argument("--sandbox", default="auto", help="auto, docker, bwrap or process (default auto)")
    p.add_argument("--timeout", type=float, default=120, help="seconds per sandboxed run (default 120)")
    p.add_argument("--json", action="store_true", help="print each answer as JSON")
    add_llm_arguments(p)
    return p


def add_diagnose(sub) -> argparse.ArgumentParser:
    """`optimus diagnose`."""
    p = sub.add_parser("diagnose", help="re-solve a past run's captured model; explain infeasible/unbounded")
    p.add_argument("run_dir", type=Path, metavar="RUN_DIR", help="a run folder: <problem>/runs/<stamp>/")
    p.add_argument("--sandbox", default="auto", help="auto, docker, bwrap or process (default auto)")
    p.add_argument("--timeout", type=float, default=120, help="seconds for the re-solve (default 120)")
    p.add_argument("--json", action="store_true", help="print the verdict as JSON")
    return p


def add_llm_arguments(p: argparse.ArgumentParser, default: str | None = "openai") -> None:
    p.add_argument("--llm", choices=llm_names(), default=default,
                   help="openai: any OpenAI-compatible endpoint; reference: offline, answers from reference/ "
                        f"(default: {default or 'the one the run was made with'})")
    p.add_argument("--model", help="model name (default: $OPTIMUS_MODEL)")
    p.add_argument("--base-url", help="OpenAI-compatible endpoint (default: $OPENAI_BASE_URL)")
    p.add_argument("--temperature", type=float)
    p.add_argument("--max-tokens", type=int)
    p.add_argument("--no-cache", action="store_true", help="do not answer repeated requests from the log")


def add_bench_arguments(p: argparse.ArgumentParser) -> None:
    """`optimus bench`'s flags (optimus.bench runs the command; its flags live here with the others)."""
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
