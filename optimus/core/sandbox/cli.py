"""`optimus sandbox doctor` and `optimus sandbox run`: a thin layer over optimus.core.sandbox."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from optimus.core.errors import ConfigError


def register(subparsers: Any) -> None:
    """Add the `sandbox` command to the top-level `optimus` subparsers."""
    from optimus.core.sandbox.registry import backend_names

    parser = subparsers.add_parser("sandbox", help="check and try the sandboxes that run generated code")
    sub = parser.add_subparsers(metavar="SUBCOMMAND")
    parser.set_defaults(func=lambda args: _help(parser))

    p = sub.add_parser("doctor", help="which sandbox backends work here, and what to install for the others")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_doctor)

    p = sub.add_parser("run", help="run one command in a sandbox and print the result")
    p.add_argument("--backend", default="auto", choices=["auto", *backend_names()], help="default: auto")
    p.add_argument("--timeout", type=float, default=60, metavar="S", help="wall-clock limit in seconds")
    p.add_argument("--memory", type=int, default=2048, metavar="MB", help="memory limit in MB")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.add_argument("workdir", type=Path, metavar="WORKDIR", help="the one writable directory; cwd of CMD")
    p.add_argument(
        "cmd", nargs=argparse.REMAINDER, metavar="-- CMD", help="the command ('python' = sandbox python)"
    )
    p.set_defaults(func=cmd_run)


def _help(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return 2


def cmd_doctor(args: argparse.Namespace) -> int:
    from optimus.core.sandbox.registry import doctor

    rows = doctor()
    if args.json:
        print(json.dumps([{"backend": n, "works": ok, "reason": r} for n, ok, r in rows], indent=2))
    else:
        for name, ok, reason in rows:
            print(f"{name:8} {'ok  ' if ok else 'NO  '} {reason}")
        best = next((n for n, ok, _ in rows if ok), None)
        print(f"auto -> {best or 'nothing works'}", file=sys.stderr)
    return 0 if any(ok for _, ok, _ in rows) else 1


def cmd_run(args: argparse.Namespace) -> int:
    from optimus.core.sandbox import Limits, get_backend

    cmd = args.cmd[1:] if args.cmd[:1] == ["--"] else args.cmd
    if not cmd:
        raise ConfigError(
            "sandbox run: give the command after the work dir, e.g. `WORKDIR -- python solver.py`"
        )
    limits = Limits(wall_s=args.timeout, cpu_s=max(1, int(args.timeout)), memory_mb=args.memory)
    result = get_backend(args.backend).run(cmd, workdir=args.workdir, limits=limits)
    if args.json:
        print(json.dumps(result.to_dict(), indent=2))
    else:
        sys.stdout.write(result.stdout)
        sys.stderr.write(result.stderr)
        verdict = (
            f"exit {result.exit_code}" if result.killed_by is None else f"killed by {result.killed_by} limit"
        )
        truncated = ", output truncated" if result.output_truncated else ""
        print(f"[{result.backend}] {verdict} in {result.wall_s:.2f} s{truncated}", file=sys.stderr)
    return 0 if result.ok else 1
