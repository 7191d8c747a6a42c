"""The command line: a thin layer over library functions. Errors become one line and an exit code."""

from __future__ import annotations

import argparse
import errno
import gc
import json
import os
import sys
from pathlib import Path

from optimus import __version__
from optimus.core.errors import OptimusError
from optimus.core.llm.client import MAX_CALLS
from optimus.core.llm.registry import names as llm_names
from optimus.core.sandbox import cli as sandbox_cli
from optimus.core.stages import BASELINE_MODES, MODES


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        code = args.func(args)
        sys.stdout.flush()  # a reader that left shows here, in the handler, not in the interpreter's last flush
        return code
    except OptimusError as exc:
        if os.environ.get("OPTIMUS_DEBUG"):
            raise
        print(f"optimus: error: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("optimus: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # `optimus logs | head`: the reader left; stop quietly, as cat does
        quiet_closed_pipes()
        return 141  # 128 + SIGPIPE, the shell's code for a writer whose reader left
    except OSError as exc:
        if os.environ.get("OPTIMUS_DEBUG") or exc.errno not in ENVIRONMENT_ERRNOS:
            raise
        print(f"optimus: error: {environment_fault(exc)}", file=sys.stderr)
        return 2
    except Exception as exc:
        if os.environ.get("OPTIMUS_DEBUG"):
            raise
        print(f"optimus: internal error: {type(exc).__name__}: {exc} — a bug in optimus, not in your input; "
              "rerun with OPTIMUS_DEBUG=1 for the traceback and report it", file=sys.stderr)
        return 1
    finally:
        if argv is None:  # the process's own command, about to exit: skip the last full collection (~30 ms)
            gc.freeze()


# The machine's faults, not the input's nor ours: a read-only or full disk, a path we may not write.
ENVIRONMENT_ERRNOS = {errno.EROFS, errno.ENOSPC, errno.EDQUOT, errno.EACCES, errno.EPERM}


def environment_fault(exc: OSError) -> str:
    path = f" {exc.filename}" if exc.filename else ""
    fix = {errno.ENOSPC: "free some space", errno.EDQUOT: "free some space"}.get(
        exc.errno, "make it writable, or put runs elsewhere with --runs-dir DIR (or OPTIMUS_RUNS_DIR=DIR)")
    return f"cannot write{path}: {exc.strerror} — the machine's, not your input's; {fix}"


def quiet_closed_pipes() -> None:
    """Point stdout and stderr at /dev/null so the interpreter's last flush has nowhere to fail."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    for stream in (sys.stdout, sys.stderr):
        try:
            os.dup2(devnull, stream.fileno())
        except (OSError, ValueError, AttributeError):  # not a real file (a test's capture): nothing to flush
            pass
    os.close(devnull)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="optimus", description=__doc__)
    parser.add_argument("--version", action="version", version=f"optimus {__version__}")
    sub = parser.add_subparsers(metavar="COMMAND")

    p = sub.add_parser("validate", help="check problem folders before any model is called")
    p.add_argument("dirs", nargs="+", type=Path, metavar="DIR")
    p.add_argument("--strict", action="store_true", help="exit 1 when there are warnings")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_validate)

    p = sub.add_parser("convert", help="turn snop.json into description.txt or back")
    p.add_argument("source", type=Path, help="a snop.json, a description.txt, or a problem folder")
    p.add_argument("--to", choices=["json", "text"], help="target form (default: the other one)")
    p.add_argument("-o", "--output", type=Path, help="write here instead of standard output")
    p.set_defaults(func=cmd_convert)
    sandbox_cli.register(sub)

    p = sub.add_parser("import-nlp4lp", help="convert the public NLP4LP layout into problem folders")
    p.add_argument("source", type=Path, metavar="SRC", help="folder holding <source>/<problem>/description.txt")
    p.add_argument("dest", type=Path, metavar="DEST")
    p.add_argument("--json", action="store_true", help="print the import report as JSON")
    p.set_defaults(func=cmd_import)

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
    add_solver_arguments(p)
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
    p.set_defaults(func=cmd_solve)

    p = sub.add_parser("bench", help="success and execution rate per mode, optionally with injected faults")
    from optimus.bench import add_arguments as add_bench_arguments

    add_bench_arguments(p)
    p.set_defaults(func=cmd_bench)

    what = "list past exchanges with models from logs.db: the newest N, newest last"
    p = sub.add_parser("logs", help=what, description=what[0].upper() + what[1:] + " (text and --json alike).")
    p.add_argument("-n", "--count", type=int, default=3,
                   help="how many of the newest exchanges (default 3; 0 for all)")
    p.add_argument("--stage", help="only this stage (formulate, codegen, debug, fix, testgen, …)")
    p.add_argument("--json", action="store_true", help="the rows as JSON, messages included")
    p.set_defaults(func=cmd_logs)

    p = sub.add_parser("new", help="a free-text request with its numbers → a problem folder (snop.json, data.json)")
    p.add_argument("dir", type=Path, metavar="DIR", help="the problem folder to write")
    p.add_argument("--from", dest="source", required=True, metavar="FILE", help="the request text, or - for stdin")
    p.add_argument("--data", type=Path, action="append", metavar="FILE",
                   help="a .csv or .json file read into data.json by code (its values never enter a prompt)")
    p.add_argument("--force", action="store_true", help="write over DIR's snop.json and data.json")
    p.add_argument("--yes", action="store_true", help="accept the assumptions and number findings without asking")
    add_llm_arguments(p)
    p.set_defaults(func=cmd_new)

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
    p.set_defaults(func=cmd_repair)

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
    p.set_defaults(func=cmd_ask)

    p = sub.add_parser("diagnose", help="re-solve a past run's captured model; explain infeasible/unbounded")
    p.add_argument("run_dir", type=Path, metavar="RUN_DIR", help="a run folder: <problem>/runs/<stamp>/")
    p.add_argument("--sandbox", default="auto", help="auto, docker, bwrap or process (default auto)")
    p.add_argument("--timeout", type=float, default=120, help="seconds for the re-solve (default 120)")
    p.add_argument("--json", action="store_true", help="print the verdict as JSON")
    p.set_defaults(func=cmd_diagnose)
    return parser


def add_solver_arguments(p: argparse.ArgumentParser) -> None:
    """Solver options: variables the program reads (optimus.core.solver_options), honoured by the re-solve too."""
    from optimus.core import solver_options

    solver_options.add_arguments(p)


def add_llm_arguments(p: argparse.ArgumentParser, default: str | None = "openai") -> None:
    p.add_argument("--llm", choices=llm_names(), default=default,
                   help="openai: any OpenAI-compatible endpoint; reference: offline, answers from reference/ "
                        f"(default: {default or 'the one the run was made with'})")
    p.add_argument("--model", help="model name (default: $OPTIMUS_MODEL)")
    p.add_argument("--base-url", help="OpenAI-compatible endpoint (default: $OPENAI_BASE_URL)")
    p.add_argument("--temperature", type=float)
    p.add_argument("--max-tokens", type=int)
    p.add_argument("--no-cache", action="store_true", help="do not answer repeated requests from the log")


def cmd_new(args: argparse.Namespace) -> int:
    from optimus.commands.new import run_new

    return run_new(args)


def cmd_repair(args: argparse.Namespace) -> int:
    from optimus.commands.repair import run_repair

    return run_repair(args)


def cmd_ask(args: argparse.Namespace) -> int:
    from optimus.commands.ask import run_ask

    return run_ask(args)


def cmd_validate(args: argparse.Namespace) -> int:
    from optimus.core.validate import validate

    results = {str(d): validate(d) for d in args.dirs}
    findings = [f for fs in results.values() for f in fs]
    if args.json:
        print(json.dumps({d: [f.to_dict() for f in fs] for d, fs in results.items()}, indent=2))
    else:
        for finding in findings:
            print(finding)
        errors = sum(f.level == "error" for f in findings)
        print(f"{len(results)} folder(s): {errors} error(s), {len(findings) - errors} warning(s)", file=sys.stderr)
    if any(f.level == "error" for f in findings):
        return 2
    return 1 if args.strict and findings else 0


def cmd_convert(args: argparse.Namespace) -> int:
    from optimus.core.problem import load_problem
    from optimus.core.snop import dump_snop, load_snop

    if args.source.is_dir():
        problem = load_problem(args.source)
        snop, source = problem.snop, problem.snop_path
    else:
        snop, source = load_snop(args.source), args.source
    form = args.to or ("text" if source.suffix == ".json" else "json")
    text = dump_snop(snop, form)
    if args.output:
        args.output.write_text(text)
    else:
        sys.stdout.write(text)
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    from dataclasses import asdict

    from optimus.commands.nlp4lp_import import import_tree

    results = import_tree(args.source, args.dest)
    if args.json:
        print(json.dumps([asdict(r) for r in results], indent=2))
    else:
        for r in results:
            print(f"{r.dest}: {'ok' if not r.unmapped and not r.findings else 'imported with notes'}")
            for kind, lines in (("mapped", r.mapped), ("not mapped", r.unmapped), ("validate", r.findings)):
                for line in lines:
                    print(f"  {kind}: {line}")
    print(f"{len(results)} problem(s) imported into {args.dest}; report: {args.dest / 'import-report.json'}",
          file=sys.stderr)
    return 0


def cmd_solve(args: argparse.Namespace) -> int:
    from optimus.core.sandbox.registry import prefetch

    prefetch(args.sandbox)  # the sandbox's check runs while the solver's modules import
    gc.disable()  # those imports make objects that all stay alive: collecting among them is wasted start-up time
    try:
        from optimus.commands.solve import run_solve
    finally:
        gc.enable()

    return run_solve(args)


def cmd_bench(args: argparse.Namespace) -> int:
    from optimus.bench import run_from_args

    return run_from_args(args)


def cmd_logs(args: argparse.Namespace) -> int:
    from optimus.core.llm.log import default_path, recent

    # The newest N (SQLite: LIMIT -1 is no limit), shown oldest first like a conversation: newest last, as text
    # and as JSON alike
    rows = list(reversed(recent(args.count if args.count > 0 else -1, stage=args.stage)))
    if args.json:
        print(json.dumps(rows, indent=2, ensure_ascii=False))
        return 0
    if not rows:
        print(f"no exchanges logged in {default_path()}{' for stage ' + args.stage if args.stage else ''}",
              file=sys.stderr)
    for row in rows:
        tokens = f"{row['prompt_tokens'] or 0}+{row['completion_tokens'] or 0} tokens"
        print(f"## {row['created']} · {row['stage']} · {row['backend']}:{row['model']} · {tokens} · "
              f"prompt {row['prompt_name']} ({row['prompt_hash']})")
        print(f"### request\n{row['messages'][-1]['content'].rstrip()}\n### response\n{row['response'].rstrip()}\n")
    return 0


def cmd_diagnose(args: argparse.Namespace) -> int:
    from optimus.commands.diagnose import diagnose_run
    from optimus.core.sandbox import Limits, get_backend

    limits = Limits(wall_s=args.timeout, cpu_s=max(1, int(args.timeout)))
    entry = diagnose_run(args.run_dir, get_backend(args.sandbox), limits)
    if args.json:
        print(json.dumps(entry, indent=2, default=str))
    else:
        print(f"{entry['attempt']}: {entry['summary']}")
        for finding in entry["findings"][1:]:
            print(f"  {finding}")
        if entry["diagnosis"]:
            print(entry["diagnosis"]["message"])
    return 0 if entry["outcome"] != "error" else 1
