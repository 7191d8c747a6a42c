"""`optimus solve`: check the folder, set up the model, the sandbox and the run, then hand over to the agent."""

from __future__ import annotations

import argparse
import json

from rich.console import Console
from rich.markup import escape

from optimus.agent import Options, solve
from optimus.errors import ConfigError, SpecError
from optimus.llm import LLMClient, LLMConfig, LLMLog
from optimus.llm.reference import DESCRIPTION, ReferenceBackend
from optimus.problem import Problem, load_problem
from optimus.report import Report
from optimus.runstore import RunStore
from optimus.sandbox import Limits, get_backend
from optimus.validate import validate


def run_solve(args: argparse.Namespace) -> int:
    console = Console(stderr=True, highlight=False, soft_wrap=True)
    samples = args.samples
    if samples < 1:
        raise ConfigError(f"--samples {samples}: the number of independent formulations must be at least 1")
    errors = [f for f in validate(args.dir) if f.level == "error"]
    if errors:
        for finding in errors:
            print(finding)
        raise SpecError(args.dir, "", f"{len(errors)} error(s) in the problem folder; fix them and rerun")
    problem = load_problem(args.dir)
    backend = make_backend(args, problem)
    sandbox = get_backend(args.sandbox)
    limits = Limits(wall_s=args.timeout, cpu_s=max(1, int(args.timeout)), memory_mb=args.memory)
    run = RunStore(problem.root)
    client = LLMClient(backend, log=LLMLog() if backend.cacheable else None, transcript=run.dir / "transcript.jsonl",
                       use_cache=not args.no_cache)
    options = Options(mode=args.mode, max_debug=args.max_debug, max_fix=args.max_fix, rephrasings=args.rephrasings,
                      regen_tests=args.regen_tests, optimal=args.optimal, limits=limits,
                      assess=args.assess)
    what = f" ({DESCRIPTION})" if backend.name == "reference" else ""
    console.print(f"[bold]optimus[/] {escape(str(problem.root))} — mode {args.mode}, LLM {backend.name}:"
                  f"{backend.model}{what}, sandbox {sandbox.name}")
    # Progress lines quote programs and tracebacks: never read them as rich markup ("[/tmp/x]" would raise).
    say = lambda m: console.print(f"  {m}", markup=False)
    if samples > 1:
        from optimus.samples import solve_samples

        report = solve_samples(problem, client, sandbox, run, options, samples, progress=say)
    else:
        report = solve(problem, client, sandbox, run, options, progress=say)
    if args.json:
        print(json.dumps(report.to_dict(), indent=2))
    summarize(report, console)
    if report.consensus:
        from optimus.samples import print_samples

        print_samples(report, console)
    return 0 if report.verified else 1


def make_backend(args: argparse.Namespace, problem: Problem):
    if args.llm == "reference":
        return ReferenceBackend(problem)
    from optimus.llm.openai_backend import OpenAIBackend

    cfg = LLMConfig.from_env(model=args.model, base_url=args.base_url, temperature=args.temperature,
                             max_tokens=args.max_tokens).require()
    return OpenAIBackend(cfg)


# What each status word means (README "Status words" says the same).
STATUS_WORDS = {
    "solved": "verified: the re-solve agreed or the tests passed, and the harness checks passed",
    "ran": "it ran and the harness checks passed, but nothing could verify it (no re-solve, no tests)",
    "failed": "it ran, but a check, the re-solve or the tests found it wrong",
    "infeasible": "no solution exists, says the solver (verified: the re-solve or expected.json agrees)",
    "unbounded": "the objective can improve without limit, says the solver (verified: likewise)",
    "error": "no program ran to the end with readable results",
}


def summarize(report: Report, console: Console) -> None:
    colour = "green" if report.verified else "yellow" if report.status == "ran" else "red"
    console.print(f"[bold {colour}]{report.status}[/] ({STATUS_WORDS.get(report.status, '')}) — "
                  f"{escape(report.message)}", soft_wrap=True)
    for check in report.checks:
        if check.get("passed") is False:
            console.print(f"  check {check['name']}: failed — {check['message']}", markup=False)
    if report.objective is not None:
        line = f"  objective {report.objective}"
        if report.objective_matches is not None:
            expected = report.expected["objective"]
            line += f" ({'matches' if report.objective_matches else 'differs from'} expected {expected})"
        console.print(line, markup=False)
    verification = report.verification or {}
    if verification.get("summary"):
        console.print(f"  verify: {verification['summary']}", markup=False)
    diagnosis = verification.get("diagnosis") or {}
    if diagnosis.get("message"):
        console.print(f"  [bold]diagnosis[/]: {escape(diagnosis['message'])}")
    usage = report.llm_usage
    console.print(f"  LLM calls {usage.get('calls', 0)} (+{usage.get('cached_calls', 0)} from the log), "
                  f"tokens {usage.get('prompt_tokens', 0)}+{usage.get('completion_tokens', 0)}; "
                  f"seconds: {report.seconds}")
    console.print(f"  run folder: {report.run_dir}", markup=False)
