"""run: the family's artifact (solver.py, …) in the sandbox, with data.json read-only; what went wrong becomes evidence for debug."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

from optimus.core import datause
from optimus.core.outcomes import STATUSES, Execution
from optimus.core.sandbox import RunResult, write_beside_results
from optimus.core.sandbox.files import read_object, take_out
from optimus.core.sandbox.sizing import killed_words
from optimus.core.stages.context import Context
from optimus.core.tables import sandbox_inputs

# Evidence is capped so that a prompt never grows with the program's output.
MAX_EVIDENCE_CHARS = 3000


def execute(ctx: Context, code: str, workdir: Path,
            before_run: Callable[[Path], None] = lambda _: None) -> Execution:
    """Run `code` in workdir, sandboxed; `before_run(workdir)` sees it prepared (and may stop it by raising)."""
    workdir.mkdir(parents=True, exist_ok=True)
    argv = ctx.family.prepare(ctx, workdir, code)
    before_run(workdir)
    traced = ctx.family.lang == "python"  # a program that reads data.json itself: record which keys it reads
    env = {**(datause.prepare(workdir) if traced else {}), **ctx.solver.env()}
    result = ctx.sandbox.run(argv, workdir=workdir, readonly=sandbox_inputs(ctx.problem.data_path),
                             limits=ctx.limits, env=env or None)
    ctx.sandbox_seconds += result.wall_s
    write_beside_results(workdir, "run.json", json.dumps(result.to_dict(), indent=2))
    ex = Execution(workdir, result)
    if traced and result.exit_code == 0:
        ex.warnings = datause.findings(ctx.problem.root, ctx.problem.data, workdir)
    take_out(workdir, *ctx.family.sandbox_side, datause.TRACE_DIR)
    if result.timed_out or result.killed_by:
        ex.evidence = _killed(result, ctx)
    elif result.exit_code != 0:
        ended = last_output(result, "Its error output ends with")
        ex.evidence = f"The program exited with code {result.exit_code}.{ended}"
    ex.output, problem = read_object(workdir, "output.json")
    if ex.evidence is None and problem:
        ex.evidence = problem
    ex.solution, problem = read_object(workdir, "solution.json")
    if ex.evidence is None and problem:
        ex.evidence = problem
    elif ex.evidence is None and ex.solution.get("status") not in STATUSES:
        ex.evidence = (f"solution.json has status {ex.solution.get('status')!r}; it must be one of "
                       f"{', '.join(STATUSES)}.")
    return ex


def _killed(result: RunResult, ctx: Context) -> str:
    named = killed_words(result.killed_by, ctx.limits)  # wall, CPU, memory: the value and how to raise it
    limit = {"wall": named, "cpu": named, "memory": named,
             "output": "the output size limit (it printed too much)",
             "file_size": f"the file size limit of {ctx.limits.file_size_mb} MB (a file it wrote was cut off there)",
             "processes": f"the limit of {ctx.limits.processes} processes",
             "signal": "its sandbox (killed by a signal)"}.get(result.killed_by or "wall", str(result.killed_by))
    return (f"The program was stopped: it exceeded {limit}.{_time_went(result)} Look for an endless loop, a model "
            f"far larger than needed, or missing solver time limits.{last_output(result, 'Its last output')}")


def _time_went(result: RunResult) -> str:
    """Where a wall-time limit's seconds went, in facts the user and the model can weigh: whether the program was
    mostly on the CPU, and whether the machine was busier than its cores (then the time may have gone to other
    work). Said without numbers: the evidence is part of a prompt, and a rerun must ask the same question."""
    if (result.killed_by or "wall") != "wall":
        return ""
    cpu = result.resources.get("cpu_s")
    idle = cpu is not None and cpu < result.wall_s / 2
    busy = os.getloadavg()[0] > (cores := os.cpu_count() or 1)
    if idle and busy:
        return (f" It was on the CPU under half of that time, and the machine was busier than its {cores} cores: "
                "the time may have gone to other work.")
    if idle:
        return " It was on the CPU under half of that time: it was mostly waiting (sleep, input, a lock)."
    if busy:
        return f" The machine was busier than its {cores} cores: part of the time may have gone to other work."
    return ""


def last_output(result: RunResult, heading: str) -> str:
    """The end of what the program printed, under its heading on lines of its own; or that it printed nothing
    (never a heading with nothing after it)."""
    text = tail(result.stderr or result.stdout).strip()
    return f"\n{heading}:\n{text}" if text else " It printed nothing."


def tail(text: str, limit: int = MAX_EVIDENCE_CHARS) -> str:
    """The end of an output: where a traceback names the error."""
    text = text.strip()
    return text if len(text) <= limit else "…" + text[-limit:]
