"""`optimus solve` on the terminal: optimus.commands.api sets up and runs the solve; this module prints it."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape

from optimus.commands.api import Solve, prepare_solve
from optimus.commands.api import run_solve as run_solve_setup
from optimus.core import families
from optimus.core.assumptions import result_lines
from optimus.core.diagnose import infeasible_message
from optimus.core.llm import registry
from optimus.core.report import Report
from optimus.core.solver_options import SolverOptions
from optimus.core.terminal import TOP_DECISIONS, decisions, gap_words, number, table, timings, unnest


def run_solve(args: argparse.Namespace) -> int:
    """`optimus solve`: optimus.commands.api.solve, with the terminal's lines around it."""
    # On a terminal, lines wrap at word boundaries to its width; into a file or a pipe, a fact stays one line.
    console = Console(stderr=True, highlight=False, soft_wrap=not sys.stderr.isatty())
    setup = prepare_folder(args)  # a folder with errors raises them all, in the message
    for finding in setup.warnings:  # the run goes on, but a "ten" where a number belongs is said first
        console.print(str(finding), markup=False)
    family = drop_unread_options(setup, console)
    backend, options = setup.client.backend, setup.options
    what = registry.description(backend)
    llm = f"{backend.name} — {what};" if what else f"{backend.name}:{backend.model},"
    solver = options.solver.describe() + ("" if family else f" ({PULP_ONLY})")
    console.print(f"[bold]optimus[/] {escape(str(setup.problem.root))} — mode {args.mode}, LLM {escape(llm)} "
                  f"sandbox {setup.sandbox.name}" + (f"; solver {escape(solver)}" if options.solver.describe() else ""))
    # Progress lines quote programs and tracebacks: never read them as rich markup ("[/tmp/x]" would raise).
    say = lambda m: console.print(f"  {m}", markup=False)
    report = run_solve_setup(setup, progress=say)
    if family is None and report.family:  # formulate chose the family: only now can the options be judged
        for line in unread_options(options.solver, report.family, setup.problem.root, chosen=True):
            console.print(f"optimus: warning: {line}", markup=False)
    if name_diagnosis_limits(report, setup, say):
        setup.run.write("report.json", report.to_dict())
    if args.json:
        print(json.dumps(report.to_dict(), indent=2))
    summarize(report, console, show_all=args.show == "all")
    if options.solver.export_lp:
        say(exported_lp(report))
    if report.consensus:
        from optimus.commands.samples import print_samples

        print_samples(report, console)
    return 0 if report.verified else 1


def prepare_folder(args: argparse.Namespace):
    """optimus.api.prepare_solve with the command line's flags."""
    return prepare_solve(args.dir, llm=args.llm, mode=args.mode, sandbox=args.sandbox, samples=args.samples,
                         timeout=args.timeout, memory_mb=args.memory, max_debug=args.max_debug,
                         max_fix=args.max_fix, rephrasings=args.rephrasings, regen_tests=args.regen_tests,
                         optimal=args.optimal, assess=args.assess, use_cache=not args.no_cache,
                         check_assumptions=args.check_assumptions,
                         solver=SolverOptions.from_args(args), runs_dir=args.runs_dir, max_calls=args.max_calls or None,
                         **{k: getattr(args, k, None) for k in registry.SETTINGS})


PULP_ONLY = "LP/MILP programs only"


def unread_options(options: SolverOptions, family: str | None, root: Path, chosen: bool = False) -> list[str]:
    """One warning per solver flag the family's programs do not read: `--export lp applies to PuLP programs
    only; llmfp/blocks-1 is solved with z3, so it is not passed on`."""
    if not family:
        return []
    where = f"formulate chose {family} for {root}, so it had no effect" if chosen else \
        f"{root} is solved with {family}, so it is not passed on"
    return [f"{flag} applies to {PULP_ONLY}; {where}" for flag in options.unread_by(family)]


def drop_unread_options(setup: Solve, console: Console) -> families.Family | None:
    """Warn of each solver flag the problem's family does not read and drop it, so that neither the header nor
    the program's environment claims it; the family, None when formulate is to choose it."""
    family = families.choose(setup.problem)
    if family is not None:
        for line in unread_options(setup.options.solver, family.name, setup.problem.root):
            console.print(f"optimus: warning: {line}", markup=False)
        setup.options = replace(setup.options, solver=setup.options.solver.read_by(family.name))
    return family


def name_diagnosis_limits(report: Report, setup: Solve, say: Callable[[str], None]) -> bool:
    """Name the diagnosis's limits that are no data value as `optimus repair` would (its search re-runs the
    program), so that solve and repair speak of the same data key; True when the diagnosis changed."""
    from optimus.core.changes import Prober
    from optimus.core.consensus import chosen_run_dir
    from optimus.core.diagnose import final_attempt, name_limits
    from optimus.core.files import read_json
    from optimus.core.tables import tables_dir

    diagnosis = (report.verification or {}).get("diagnosis") or {}
    relax = diagnosis.get("relaxation") or {}
    moved = relax.get("changes") or relax.get("alternatives")
    if diagnosis.get("kind") != "infeasible" or not moved or not setup.problem.data:
        return False
    attempt = final_attempt(chosen_run_dir(Path(report.run_dir)), report.winning_variant)
    rephrased = attempt.parent / "statements.json"  # a variant's statements, as the diagnosis quoted them
    statements = read_json(rephrased) if rephrased.is_file() else None
    if not (isinstance(statements, list) and all(isinstance(s, str) for s in statements)):
        statements = setup.problem.snop.problem_info
    prober = Prober(attempt, setup.sandbox, setup.options.limits, tables_dir(setup.problem.root))
    say("diagnosis: re-running the program with limits moved, to name them by data.json key as optimus repair "
        "does…")
    started = time.monotonic()
    named = name_limits(diagnosis, statements, setup.problem.data, prober)
    spent = time.monotonic() - started
    if prober.runs:
        say(f"diagnosis: re-ran the program {prober.runs} time(s) in {spent:.1f} s")
    for key in ("total", "sandbox"):  # the timing line adds up to the wall time, the diagnosis's runs included
        if isinstance(report.seconds.get(key), (int, float)):
            report.seconds[key] = round(report.seconds[key] + spent, 3)
    report.verification["diagnosis"] = named
    return named is not diagnosis or prober.runs > 0  # the seconds changed too: report.json says them


# What each status word means (README "Status words" says the same). No parentheses: the result line puts
# the meaning in parentheses of its own.
STATUS_WORDS = {
    "solved": "verified: the re-solve agreed or the tests passed, and the harness checks passed",
    "ran": "it ran and the harness checks passed, but nothing could verify it: no re-solve, no tests",
    "failed": "it ran, but a check, the re-solve or the tests found it wrong",
    "infeasible": "no solution exists, says the solver",
    "unbounded": "the objective can improve without limit, says the solver",
    "time_limit": "the solver's time limit stopped it with a solution it could not prove optimal",
    "error": "no program ran to the end with readable results",
}
NO_SOLUTION_CHECKED = {True: "verified: the re-solve or expected.json agrees", False: "not verified"}


def result_line(report: Report) -> tuple[str, str, str]:
    """The first result line as (status, message, meaning), one level of parentheses in all: the status
    detail, the message and the meaning each bring their own, so the line is unnested as a whole."""
    head = report.status_detail or report.status
    message = f" — {report.message}"
    if report.message.startswith(f"{head} ("):  # "infeasible (verified): …" says its status word itself
        head, message = report.message[:len(head)], report.message[len(head):]
    # A verified answer's message already says what it rests on; the status word's meaning would repeat it.
    meaning = "" if report.verified and (report.status == "solved" or "(verified)" in message) else \
        STATUS_WORDS.get(report.status, "")
    if meaning and report.status in ("infeasible", "unbounded"):
        meaning += "; " + NO_SOLUTION_CHECKED[bool(report.verified)]
    tail = f" ({meaning})" if meaning else ""
    line = unnest(f"{head}{message}{tail}")  # unnest keeps lengths: the parts cut out again
    return line[:len(head)], line[len(head):len(line) - len(tail)], line[len(line) - len(tail):]


def summarize(report: Report, console: Console, show_all: bool = False) -> None:
    colour = "green" if report.verified else "yellow" if report.status == "ran" else "red"
    head, message, meaning = result_line(report)
    console.print(f"[bold {colour}]{escape(head)}[/]{escape(message)}" + (f"[dim]{escape(meaning)}[/]" if meaning
                                                                           else ""))
    for line in result_lines(report):  # assumptions, goal stages, warnings (optimus.core.assumptions)
        console.print(line, markup=False)
    for check in report.checks:
        if check.get("passed") is False:
            console.print(f"  check {check['name']}: failed — {check['message']}", markup=False)
    if report.objective is not None:
        line = f"  objective {number(report.objective)}"
        if report.solver_status == "time_limit":  # an answer with a gap
            line += f" — {gap_words(report.gap)}"
        if report.objective_matches is not None:
            expected = number(report.expected["objective"])
            line += f" — {'matches' if report.objective_matches else 'differs from'} expected.json's {expected}"
        console.print(line, markup=False)
    if report.status in ("solved", "ran", "failed", "time_limit"):  # time_limit: the decisions of an answer with a gap
        show_decisions(report, console, show_all)
    verification = report.verification or {}
    if verification.get("summary") and verification["summary"] not in (report.message or ""):  # each fact once
        console.print(f"  verify: {verification['summary']}", markup=False)
    diagnosis = verification.get("diagnosis") or {}
    if diagnosis.get("message"):
        said = diagnosis["message"]
        if report.review and report.verified and diagnosis.get("parts"):  # the answer above quoted both already
            said = infeasible_message(diagnosis["parts"], skip=("statements", "relaxation"))
        console.print(f"  [bold]diagnosis[/]: {escape(said)}")
    usage = report.llm_usage
    samples = (report.consensus or {}).get("samples") or 1
    budget = f" of at most {usage['budget']}" if usage.get("budget") else ""
    console.print(f"  model calls {usage.get('calls', 0)}{budget}, {usage.get('cached_calls', 0)} more answered "
                  f"from the log; tokens {usage.get('prompt_tokens', 0)} in, {usage.get('completion_tokens', 0)} out; "
                  f"{timings(report.seconds, samples)}", markup=False)
    console.print(f"  run folder: {report.run_dir}", markup=False)


def show_decisions(report: Report, console: Console, show_all: bool) -> None:
    """The decisions after the objective: output.json's non-zero entries, the first TOP_DECISIONS unless
    --show all. A run that was not verified says so above the table."""
    found = output_of(report.run_dir, report.winning_variant)
    if found is None:
        return
    path, output = found
    rows, count = decisions(output, None if show_all else TOP_DECISIONS, zeros=show_all)
    if not count and not show_all:
        console.print(f"  decisions: every value in {path.name} is zero; --show all lists them", markup=False)
        return
    shown = (f"all {len(rows)}, {count} non-zero" if show_all else f"all {count} non-zero" if len(rows) == count
             else f"{len(rows)} of {count} non-zero; --show all for every one")
    note = "" if report.verified else ", not verified"
    console.print(f"  decisions from {path} — {shown}{note}", markup=False)
    for line in table(rows):
        console.print(line, markup=False)


def exported_lp(report: Report) -> str:
    """Where --export lp wrote the model, or why it could not."""
    found = output_of(report.run_dir, report.winning_variant)
    lp = found[0].with_name("model.lp") if found else None
    if lp is not None and lp.is_file():
        return f"model in LP format: {lp}"
    return (f"model in LP format: not written — the run captured no model.mps to convert "
            f"(family {report.family or 'unknown'}; only PuLP programs write one)")


def output_of(run_dir: str, winning_variant: int | None) -> tuple[Path, Any] | None:
    """The output.json the report's result came from (the chosen sample's, the winning variant's last attempt
    that wrote one), read as every result file is read; None when there is none to show."""
    from optimus.core.consensus import chosen_run_dir
    from optimus.core.diagnose import final_attempt
    from optimus.core.errors import OptimusError
    from optimus.core.sandbox.files import load_json_result

    try:
        attempt = final_attempt(chosen_run_dir(Path(run_dir)), winning_variant)
        return attempt / "output.json", load_json_result(attempt, "output.json")
    except (OptimusError, ValueError, OSError):
        return None
