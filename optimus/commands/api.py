"""The Python API, for notebooks and scripts: what the command line stands on (exported by optimus/__init__.py).

    import optimus
    report = optimus.solve("nlp4lp/12", llm="reference")
    print(report.status, report.objective)

Each function takes what its command's flags take, as keyword arguments, and returns what the command prints
from: a Report for solve, the outcome of a repair dialogue, the rows of a benchmark.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from optimus.commands.arguments import BadValue, check, check_values, refuse_unknown
from optimus.core.errors import ConfigError, SpecError
from optimus.core.llm import LLMClient, registry
from optimus.core.llm.client import MAX_CALLS
from optimus.core.loop import Options
from optimus.core.loop import solve as solve_loop
from optimus.core.problem import Problem, load_problem
from optimus.core.report import Report
from optimus.core.runstore import RunStore, runs_base
from optimus.core.sandbox import get_backend
from optimus.core.sandbox.base import Backend as SandboxBackend
from optimus.core.sandbox.sizing import sized_limits
from optimus.core.sandbox.testrunner import require_test_runner
from optimus.core.solver_options import SolverOptions
from optimus.core.stages import BASELINE_MODES, MODES


@dataclass
class Solve:
    """A solve set up and not yet run: what the terminal names before the first model call."""

    problem: Problem
    client: LLMClient
    sandbox: SandboxBackend
    run: RunStore
    options: Options
    samples: int = 1
    warnings: list = field(default_factory=list)  # validate's warnings on the folder (the run goes on)
    check_assumptions: int = 4  # model calls the assumption checks may spend (optimus.commands.assumption_checks)


def prepare_solve(folder: str | Path, *, llm: str = "openai", mode: str = "full", sandbox: str = "auto",
                  samples: int = 1, timeout: float | None = None, memory_mb: int | None = None, max_debug: int = 5,
                  max_fix: int = 5, rephrasings: int = 5, regen_tests: bool = False, optimal: bool = False,
                  assess: bool | None = None, use_cache: bool = True, solver: SolverOptions | None = None,
                  runs_dir: str | Path | None = None, max_calls: int | None = MAX_CALLS,
                  check_assumptions: int = 4, **llm_settings: Any) -> Solve:
    """Check the folder (errors raise SpecError naming file and field), then build the model client, the sandbox
    and the run folder. `solver`: time limit, MIP gap, threads, LP export (optimus.core.solver_options).
    `max_calls`: the paid model calls the solve may make (None: no budget).
    `check_assumptions`: model calls for solving the assumptions' alternative readings (data values cost none).
    `runs_dir`: runs go to <runs_dir>/<folder name>/ instead of <folder>/runs/ (also $OPTIMUS_RUNS_DIR).
    `llm_settings`: model, base_url, temperature, max_tokens."""
    from optimus.core.validate import validate

    check("solve", {"llm": llm, "mode": mode, "sandbox": sandbox, "samples": samples, "timeout": timeout,
                    "memory_mb": memory_mb, "max_debug": max_debug, "max_fix": max_fix, "rephrasings": rephrasings,
                    "max_calls": max_calls, "check_assumptions": check_assumptions, **llm_settings})
    if samples < 1:
        raise ConfigError(f"--samples {samples}: the number of independent formulations must be at least 1")
    findings = validate(Path(folder))
    errors = [f for f in findings if f.level == "error"]
    if errors:
        listed = "".join(f"\n  {f}" for f in errors)
        invalid = SpecError(Path(folder), "",
                            f"{len(errors)} error(s) in the problem folder; fix them and rerun:{listed}")
        invalid.findings = errors  # each names its file and field
        raise invalid
    problem = load_problem(folder)
    box = get_backend(sandbox)
    require_test_runner(box.name, mode)  # before any model call: say so at once, never spend calls on it
    run = RunStore(problem.root, runs_base(problem.root, runs_dir))
    client = registry.get_client(llm, problem, transcript=run.dir / "transcript.jsonl", use_cache=use_cache,
                                 **llm_settings)
    client.max_calls = max_calls
    # None: sized to the data (optimus.core.sandbox.sizing), data.json as already read
    solver = solver or SolverOptions()
    limits = sized_limits(problem.root, timeout, memory_mb, data=problem.data, solver_s=solver.time_limit)
    options = Options(mode=mode, max_debug=max_debug, max_fix=max_fix, rephrasings=rephrasings,
                      regen_tests=regen_tests, optimal=optimal, limits=limits, assess=assess,
                      solver=solver)
    return Solve(problem, client, box, run, options, samples, findings, check_assumptions)


def run_solve(setup: Solve, progress: Callable[[str], None] = lambda _: None) -> Report:
    """Run a prepared solve, then solve its assumptions' alternatives; report.json is written in its run folder."""
    from optimus.commands.assumption_checks import check_assumptions

    if setup.samples > 1:
        from optimus.commands.samples import solve_samples

        report = solve_samples(setup.problem, setup.client, setup.sandbox, setup.run, setup.options, setup.samples,
                               progress=progress)
    else:
        report = solve_loop(setup.problem, setup.client, setup.sandbox, setup.run, setup.options, progress=progress)
    check_assumptions(setup.problem, setup.client, setup.sandbox, setup.run, setup.options, report,
                      setup.check_assumptions, progress)
    return report


def solve(folder: str | Path, *, progress: Callable[[str], None] = lambda _: None, **settings: Any) -> Report:
    """Solve one problem folder (`optimus solve`); `settings` as prepare_solve takes them."""
    return run_solve(prepare_solve(folder, **settings), progress)


def bench(folders: Sequence[str | Path], *, out: str | Path = "results/bench", modes: Sequence[str] | None = None,
          llm: str = "reference", prices: tuple[float, float] | None = None, roles: bool = False,
          **settings: Any) -> list[dict]:
    """Benchmark problem folders (`optimus bench`): the rows of results.jsonl; summary.md is written in `out`
    (with the cost per solved problem at `prices`, per million tokens in and out). `settings`: any field of
    optimus.bench.runner.BenchOptions (jobs, faults, sandbox, timeout, …) and the model's model and base_url.
    `roles`: also measure the model as solver, verifier and heuristic (README: the model's roles)."""
    import json
    import time
    from dataclasses import fields

    from optimus.bench.runner import BenchOptions, run_bench
    from optimus.bench.summary import write_summary

    refuse_unknown("bench", settings, {f.name for f in fields(BenchOptions)} | {"base_url"})
    check_values("bench", {"llm": llm, **settings})
    for mode in modes or ():
        if mode not in MODES + BASELINE_MODES:
            raise BadValue(f"optimus.bench(): unknown mode {mode}; choose from {', '.join(MODES + BASELINE_MODES)}")
    model_settings = {k: settings.pop(k) for k in ("model", "base_url") if k in settings}
    if llm != "reference":  # one model shared by every row; the reference backend answers per folder
        settings["make_backend"] = lambda: registry.get_backend(llm, **model_settings)
        settings["model"] = settings["make_backend"]().model  # a configuration error stops it before any row
    opts = BenchOptions(dirs=[Path(f) for f in folders], out=Path(out), llm=llm, **settings,
                        **({"modes": list(modes)} if modes else {}))
    started = time.monotonic()
    rows = run_bench(opts)
    skipped_path = opts.out / "skipped.json"
    skipped = json.loads(skipped_path.read_text()) if skipped_path.exists() else {}
    path = write_summary(opts.out, rows, wall_s=time.monotonic() - started, skipped=skipped, prices=prices)
    if roles:  # the model as solver, verifier and heuristic, after the full mode's rows (optimus.bench.roles)
        from optimus.bench.roles import append_section

        append_section(opts, rows, path)
    return rows


def new(request: str | Path, dest: str | Path, *, data: Sequence[str | Path] = (), llm: str = "openai",
        force: bool = False, yes: bool = False, **llm_settings: Any) -> Any:
    """A problem folder from a request in plain words (`optimus new`): the text, or the path of a file holding it
    (the offline reference backend answers from that file's folder). The model's assumptions and the number
    check's findings need consent: `yes=True` gives it (like --yes); without it, NotConfirmed lists them and
    nothing is written. Returns the Draft written (snop, data, assumptions)."""
    import argparse
    import tempfile

    from optimus.commands.new import ask_user, create, make_client

    check("new", {"llm": llm, "force": force, "yes": yes, **llm_settings})
    path = Path(request) if isinstance(request, Path) or Path(str(request)).is_file() else None
    text = path.read_text(encoding="utf-8") if path else str(request)
    args = argparse.Namespace(llm=llm, no_cache=False, **{k: llm_settings.get(k) for k in registry.SETTINGS})
    transcript = Path(tempfile.mkdtemp(prefix="optimus-new-log-")) / "transcript.jsonl"
    client = make_client(args, str(path) if path else "-", transcript)
    return create(Path(dest), text, client, [Path(d) for d in data], force=force,
                  confirm=lambda draft: ask_user(draft, yes, interactive=False))


def repair(run_dir: str | Path, *, accept: int | None = None, answer: Callable[[str], str] | None = None,
           refuse: Sequence[str] = (), rounds: int = 10, candidates: int = 3, mode: str | None = None,
           llm: str | None = None, sandbox: str = "auto", timeout: float = 120.0, **llm_settings: Any) -> dict:
    """Repair an infeasible run (`optimus repair`): each round is answered by `answer(proposal)` (a candidate's
    number, "protect s4", words, or "stop"), or always by candidate `accept`. The dialogue's outcome (feasible,
    stopped, none_left, rounds) and the variant that solved; every round is in RUN_DIR/repair.jsonl. `llm`:
    None takes the run's own backend."""
    import argparse

    from optimus.commands.repair import repair_dialogue

    check("repair", {"accept": accept, "rounds": rounds, "candidates": candidates, "mode": mode, "llm": llm,
                     "sandbox": sandbox, "timeout": timeout, **llm_settings})
    if answer is None and accept is None:
        raise ConfigError("optimus.repair needs answer= (a function of the proposal) or accept= (a candidate)")
    args = argparse.Namespace(run_dir=Path(run_dir), accept=accept, refuse=",".join(refuse), rounds=rounds,
                              candidates=candidates, mode=mode, sandbox=sandbox, timeout=timeout, llm=llm,
                              **{k: llm_settings.get(k) for k in registry.SETTINGS})
    return repair_dialogue(args, answer or (lambda _proposal: str(accept)))
