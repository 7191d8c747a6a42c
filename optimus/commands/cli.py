"""The command line: a thin layer over library functions. Errors become one line and an exit code."""

from __future__ import annotations

import argparse
import errno
import gc
import json
import os
import sys

from optimus.commands import parser as flags
from optimus.core.errors import OptimusError


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
    handlers = {"validate": cmd_validate, "convert": cmd_convert, "import-nlp4lp": cmd_import, "solve": cmd_solve,
                "bench": cmd_bench, "logs": cmd_logs, "new": cmd_new, "repair": cmd_repair, "ask": cmd_ask,
                "diagnose": cmd_diagnose}
    return flags.build_parser(handlers, description=__doc__)


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
