"""run: the family's artifact (solver.py, …) in the sandbox, with data.json read-only; what went wrong becomes evidence for debug."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from optimus.errors import SandboxError
from optimus.families import STATUSES
from optimus.sandbox import RunResult, write_beside_results
from optimus.sandbox.files import load_json_result
from optimus.stages.context import Context

# Evidence is capped so that a prompt never grows with the program's output.
MAX_EVIDENCE_CHARS = 3000


@dataclass
class Execution:
    workdir: Path
    result: RunResult
    output: dict | None = None
    solution: dict | None = None
    evidence: str | None = None  # None when the program ran and wrote both files correctly

    @property
    def executed(self) -> bool:
        """The code ran and wrote an output.json that parses (the paper's execution rate)."""
        return self.output is not None

    @property
    def ok(self) -> bool:
        return self.evidence is None


def execute(ctx: Context, code: str, workdir: Path) -> Execution:
    workdir.mkdir(parents=True, exist_ok=True)
    argv = ctx.family.prepare(ctx, workdir, code)
    result = ctx.sandbox.run(argv, workdir=workdir,
                             readonly={"data.json": ctx.problem.data_path}, limits=ctx.limits)
    ctx.sandbox_seconds += result.wall_s
    write_beside_results(workdir, "run.json", json.dumps(result.to_dict(), indent=2))
    ex = Execution(workdir, result)
    if result.timed_out or result.killed_by:
        ex.evidence = _killed(result, ctx)
    elif result.exit_code != 0:
        ex.evidence = f"The program exited with code {result.exit_code}. Its error output ends with:\n" + tail(
            result.stderr or result.stdout)
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
    limit = {"wall": f"the time limit of {ctx.limits.wall_s:g} s", "cpu": f"the CPU limit of {ctx.limits.cpu_s} s",
             "memory": f"the memory limit of {ctx.limits.memory_mb} MB",
             "output": "the output size limit (it printed too much)",
             "file_size": f"the file size limit of {ctx.limits.file_size_mb} MB",
             "processes": f"the limit of {ctx.limits.processes} processes",
             "signal": "its sandbox (killed by a signal)"}.get(result.killed_by or "wall", str(result.killed_by))
    return (f"The program was stopped: it exceeded {limit}. Look for an endless loop, a model far larger than "
            f"needed, or missing solver time limits.\nLast output:\n{tail(result.stderr or result.stdout)}")


def read_object(workdir: Path, name: str) -> tuple[dict | None, str | None]:
    """A JSON object the sandboxed program wrote, or None and what is wrong with it (words for a repair prompt).
    Read defensively (optimus.sandbox.files): no symlink, FIFO or device, a size cap, a depth cap."""
    path = workdir / name
    if not path.exists() and not path.is_symlink():
        return None, f"The program ended without writing {path.name}."
    try:
        value = load_json_result(workdir, name)
    except SandboxError as exc:
        return None, f"{path.name} cannot be read: {exc}"
    except ValueError as exc:
        return None, f"{exc}."
    if not isinstance(value, dict):
        return None, f"{path.name} must hold a JSON object, found {type(value).__name__}."
    return value, None


def tail(text: str, limit: int = MAX_EVIDENCE_CHARS) -> str:
    """The end of an output: where a traceback names the error."""
    text = text.strip()
    return text if len(text) <= limit else "…" + text[-limit:]
