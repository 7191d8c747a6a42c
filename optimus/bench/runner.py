"""Run problems × modes on copies of the problem folders; one results.jsonl line per finished row.

Layout of --out:
    bench.json          the settings that decide the results (a resumed run must match them)
    results.jsonl       one line per problem × mode, appended and flushed as each row finishes; a problem that
                        cannot be prepared is one line {"problem", "mode": null, "skipped": why}
    faults.json         which faults really break which problems (verification cache)
    work/<problem>/source/   a clean copy (without runs/) + computed expected.json
    work/<problem>/<mode>/   a fresh copy per row: autotests writes tests/, every run writes runs/
"""

from __future__ import annotations

import json
import os
import shutil
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path

from optimus.bench.backends import Delayed, SandboxSlots, Throttled
from optimus.bench.draw import Subject, candidates, draw
from optimus.bench.faults import FaultPlan, parse_spec
from optimus.bench.judge import final_attempt, ground_truth, judge, rightness
from optimus.bench.ray_executor import run_rows
from optimus.commands.assumption_checks import check_assumptions
from optimus.commands.samples import solve_samples
from optimus.core import families
from optimus.core.consensus import bench_row
from optimus.core.errors import ConfigError, OptimusError, SpecError
from optimus.core.llm import LLMClient, LLMLog
from optimus.core.llm.client import Backend
from optimus.core.loop import Events, Options, solve
from optimus.core.problem import SNOP_FILES, Problem, load_problem, natural_order, short_name
from optimus.core.report import ABS_TOL, REL_TOL, Report
from optimus.core.runstore import RunStore
from optimus.core.sandbox import Limits, get_backend
from optimus.core.sandbox.testrunner import require_test_runner
from optimus.core.solver_options import SolverOptions
from optimus.core.stages import BASELINE_MODES, MODES
from optimus.core.stages.testgen import GENERATED
from optimus.core.stages.testrun import TestOutcome
from optimus.core.validate import validate

# Settings that change what a row means: a resumed benchmark must use the same ones.
PINNED = ("llm", "model", "faults", "seed", "rel_tol", "abs_tol", "max_debug", "max_fix", "rephrasings", "optimal",
          "ablation", "samples")


@dataclass
class BenchOptions:
    dirs: list[Path]
    out: Path
    modes: list[str] = field(default_factory=lambda: list(MODES))
    llm: str = "reference"
    jobs: int = 1
    faults: str = "none"
    seed: int = 0
    sandbox: str = "auto"
    timeout: float = 30.0
    memory_mb: int = 4096
    rel_tol: float = REL_TOL
    abs_tol: float = ABS_TOL
    max_debug: int = 5
    max_fix: int = 5
    rephrasings: int = 5
    llm_concurrency: int = 4  # model calls in flight at once (openai backend)
    sandboxes: int = field(default_factory=lambda: os.cpu_count() or 1)  # sandboxed runs at once
    latency: float = 0.0  # simulated seconds per model call (bench/bench_jobs.py)
    executor: str = "thread"  # "thread" (this machine) or "ray" (optimus.bench.ray_executor)
    # nested: one trajectory per problem records every mode's verdict (the modes share their samples);
    # independent: every mode runs from scratch
    ablation: str = "nested"
    # --samples K: every row takes K independent formulations (optimus.commands.samples); with K > 1 each mode is a whole
    # solve of its own (the independent ablation)
    samples: int = 1
    check_assumptions: int = 4  # model calls for solving the assumptions' alternative readings (data values: none)
    ray_address: str | None = None  # None: a local Ray on this machine
    rpm: int = 0  # model requests per minute, at most (ray executor; 0: no limit)
    optimal: bool = False  # planning: ask the planner for a proven-optimal plan (pddl: A* with LM-cut)
    solver: SolverOptions = field(default_factory=SolverOptions)  # --time-limit, --mip-gap, --threads, as solve's
    model: str = "reference"
    make_backend: Callable[[], Backend] | None = None  # the shared model backend (openai); None: reference

    def settings(self) -> dict:
        return {
            "llm": self.llm,
            "model": self.model,
            "faults": parse_spec(self.faults),
            "seed": self.seed,
            "rel_tol": self.rel_tol,
            "abs_tol": self.abs_tol,
            "max_debug": self.max_debug,
            "max_fix": self.max_fix,
            "rephrasings": self.rephrasings,
            "optimal": self.optimal,
            "ablation": self.ablation,
            **({"samples": self.samples} if self.samples > 1 else {}),  # absent: one sample, as before
            **({"solver": self.solver.describe()} if self.solver.describe() else {}),  # absent: none set
        }


def problem_dirs(dirs: list[Path]) -> list[Path]:
    """Each DIR is a problem folder, or a folder of them (taken in natural order)."""
    found = []
    for d in dirs:
        if not d.is_dir():
            raise SpecError(d, "", "not a folder")
        if any((d / n).exists() for n in SNOP_FILES):
            found.append(d)
            continue
        subs = natural_order(p for p in d.iterdir() if p.is_dir() and any((p / n).exists() for n in SNOP_FILES))
        if not subs:
            raise SpecError(d, "", "no problem folder here (none holds snop.json or description.txt)")
        found += subs
    return found


class Results:
    """results.jsonl: read on start (resume), appended and flushed one row at a time."""

    def __init__(self, path: Path):
        self.path, self.lock = path, threading.Lock()
        self.rows: list[dict] = []
        if path.exists():
            for line in path.read_text().splitlines():
                try:
                    self.rows.append(json.loads(line))
                except json.JSONDecodeError:
                    continue  # a line cut short by a kill: that row runs again
        # A skipped problem is tried again on resume: its folder may have been fixed since.
        self.done = {(r["problem"], r["mode"]) for r in self.rows if "skipped" not in r}

    @property
    def runs(self) -> list[dict]:
        """The rows of runs, without the rows of skipped problems."""
        return [r for r in self.rows if "skipped" not in r]

    def skip(self, problem: str, why: str) -> None:
        """One row {"problem", "mode": null, "skipped": why}, unless the last one for the problem says the same."""
        last = next((r for r in reversed(self.rows) if r["problem"] == problem and "skipped" in r), None)
        if last is None or last["skipped"] != why:
            self.add({"problem": problem, "mode": None, "skipped": why})

    def add(self, row: dict) -> None:
        with self.lock:
            with self.path.open("a", encoding="utf-8") as fh:
                fh.write(json.dumps(row) + "\n")
                fh.flush()
                os.fsync(fh.fileno())
            self.rows.append(row)
            if "skipped" not in row:
                self.done.add((row["problem"], row["mode"]))


def check_settings(out: Path, settings: dict) -> None:
    path = out / "bench.json"
    if path.exists():
        old = json.loads(path.read_text())
        old.setdefault("ablation", "independent")  # results made before the nested ablation existed
        diff = [k for k in PINNED if old.get(k) != settings.get(k)]
        if diff:
            raise ConfigError(
                f"{out}: holds results made with other settings ({', '.join(diff)}: "
                f"{', '.join(str(old.get(k)) for k in diff)}); use another --out or the same settings"
            )
    path.write_text(json.dumps(settings, indent=2) + "\n")


def prepare(folder: Path, out: Path, timeout: float, offline: bool) -> tuple[Subject | None, str]:
    """Copy the folder into the work area and find its ground truth; (None, why) when it cannot be run.
    Nothing wrong in one folder stops the bench: it becomes that problem's reason to be skipped."""
    try:
        return _prepare(folder, out, timeout, offline)
    except Exception as exc:  # noqa: BLE001 — one broken folder must not end the bench; its row says why
        return None, f"{type(exc).__name__}: {exc}" if not isinstance(exc, OptimusError) else str(exc)


def _prepare(folder: Path, out: Path, timeout: float, offline: bool) -> tuple[Subject | None, str]:
    key = short_name(folder)
    errors = [str(f) for f in validate(folder) if f.level == "error"]
    if errors:
        return None, errors[0]
    family = families.choose(load_problem(folder))
    artifact = family.artifact if family else "solver.py"  # what the reference backend answers codegen with
    missing = [n for n in ("formulation.md", artifact) if not (folder / "reference" / n).is_file()]
    if offline and missing:
        return None, f"the reference backend needs reference/{' and '.join(missing)}"
    source = out / "work" / key / "source"
    if not (source / ".ready").exists():
        if source.exists():
            shutil.rmtree(source)
        # The folder's tests as solve takes them: its test_generated.py too (the user's, once written)
        shutil.copytree(folder, source, ignore=shutil.ignore_patterns("runs", f"{GENERATED}.bak-*"))
    expected, origin = ground_truth(source, timeout)
    if expected is None:
        return None, origin
    (source / ".ready").write_text(origin + "\n")
    return Subject(key, load_problem(source), expected, out / "work" / key / "fault-trials"), origin


def run_bench(opts: BenchOptions, progress: Callable[[str], None] = print) -> list[dict]:
    """Run every missing row; returns all rows in results.jsonl (old and new)."""
    bad = [m for m in opts.modes if m not in MODES + BASELINE_MODES]
    if bad:
        raise ConfigError(f"--mode: unknown mode {', '.join(bad)}; choose from {', '.join(MODES + BASELINE_MODES)}")
    if opts.ablation not in ("nested", "independent"):
        raise ConfigError(f"--ablation: {opts.ablation!r}; choose nested or independent")
    if opts.jobs < 1:
        raise ConfigError("--jobs must be at least 1")
    if opts.samples < 1 or (opts.samples > 1 and parse_spec(opts.faults)):
        raise ConfigError(f"--samples {opts.samples}: must be at least 1, and 1 with --faults (a fault plan "
                          "follows one trajectory)")
    if opts.samples > 1:  # K samples per row: every mode is a whole solve of its own, and bench.json says so
        opts.ablation = "independent"
    fault_names = parse_spec(opts.faults)
    if fault_names and opts.llm != "reference":
        raise ConfigError(
            "--faults needs --llm reference: faults are injected into the reference backend's answers"
        )
    folders = problem_dirs(opts.dirs)
    opts.out.mkdir(parents=True, exist_ok=True)
    check_settings(opts.out, opts.settings())
    results = Results(opts.out / "results.jsonl")
    sandbox = SandboxSlots(get_backend(opts.sandbox), opts.sandboxes)
    for mode in opts.modes:
        require_test_runner(sandbox.name, mode)
    limits = Limits(wall_s=opts.timeout, cpu_s=max(1, int(opts.timeout)), memory_mb=opts.memory_mb)
    started = time.monotonic()

    todo = [f for f in folders if any((short_name(f), m) not in results.done for m in opts.modes)]
    with ThreadPoolExecutor(opts.jobs) as pool:
        prepared = list(pool.map(lambda f: prepare(f, opts.out, opts.timeout, opts.llm == "reference"), todo))
    skipped = {short_name(f): why for f, (s, why) in zip(todo, prepared) if s is None}
    subjects = [s for s, _ in prepared if s is not None]
    for key, why in skipped.items():
        results.skip(key, why)
        progress(f"skip {key}: {why}")
    (opts.out / "skipped.json").write_text(json.dumps(skipped, indent=2) + "\n")

    assignment: dict[str, tuple[str, int] | None] = {}
    if fault_names:
        cache = opts.out / "faults.json"
        known = json.loads(cache.read_text()) if cache.exists() else {}
        drawing = time.monotonic()
        assignment = draw(
            subjects,
            fault_names,
            opts.seed,
            sandbox,
            Limits(wall_s=min(opts.timeout, 15), cpu_s=min(int(opts.timeout), 15), memory_mb=opts.memory_mb),
            opts.jobs,
            known,
            progress,
        )
        cache.write_text(json.dumps(known, indent=2) + "\n")
        progress(f"faults: drawn and checked in {time.monotonic() - drawing:.1f} s")

    shared = opts.make_backend() if opts.make_backend else None
    if shared is not None:
        shared = Throttled(shared, threading.Semaphore(opts.llm_concurrency))
    tasks = plan_tasks(subjects, opts, results.done)
    stop = threading.Event()

    def one(task: tuple[Subject, tuple[str, ...]]) -> list[dict]:
        if stop.is_set():
            return []
        subject, modes = task
        return run_task(subject, modes, opts, sandbox, limits, shared, assignment.get(subject.key))

    def threaded() -> Iterator[dict]:
        pool = ThreadPoolExecutor(opts.jobs)
        pending = {pool.submit(one, t) for t in tasks}
        try:
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                yield from (row for fut in done for row in fut.result())
        except BaseException:
            stop.set()
            pool.shutdown(wait=False, cancel_futures=True)
            raise
        pool.shutdown()

    if opts.executor == "ray":
        rows = run_rows(tasks, opts, assignment, run_task)
    else:
        rows = threaded()
    total, finished = sum(len(modes) for _, modes in tasks), 0
    for row in rows:  # rows are written here, in the driver, whichever executor ran them: resume works across
        results.add(row)
        finished += 1
        progress(f"[{finished}/{total}] {line(row)}")
    progress(
        f"{finished} row(s) in {time.monotonic() - started:.1f} s ({len(results.runs)} in {opts.out}/results.jsonl)"
    )
    return results.runs


def plan_tasks(subjects: list[Subject], opts: BenchOptions, done: set) -> list[tuple[Subject, tuple[str, ...]]]:
    """The runs still to do, each (problem, modes). Independent ablation: one run per mode. Nested: one
    trajectory per problem through its missing ablation modes (a baseline mode is a run of its own)."""
    tasks = []
    for s in subjects:
        missing = [m for m in opts.modes if (s.key, m) not in done and applies(s, m)]
        ladder = [m for m in MODES if m in missing] if opts.ablation == "nested" else []  # K > 1: independent
        if ladder:
            tasks.append((s, tuple(ladder)))
        tasks += [(s, (m,)) for m in missing if m not in ladder]
    return tasks


def applies(subject: Subject, mode: str) -> bool:
    """A baseline mode (direct: the model answers with the plan itself) runs only where the problem's family has
    a prompt for it; the ablation's modes run everywhere."""
    if mode not in BASELINE_MODES:
        return True
    family = families.choose(subject.problem)
    return family is not None and family.prompt_name(mode) != mode


def run_task(
    subject: Subject,
    modes: tuple[str, ...],
    opts: BenchOptions,
    sandbox,
    limits: Limits,
    shared: Backend | None,
    drawn: tuple[str, int] | None,
    wrap: Callable[[Backend], Backend] | None = None,
) -> list[dict]:
    """One problem on a fresh copy: one row per mode, each holding the loop's report and the bench's verdict.
    Several modes are one nested trajectory in the last of them, recording where each lesser one would have
    stopped. `wrap` wraps the model backend (the Ray executor's cluster-wide call budget)."""
    folder = opts.out / "work" / subject.key / (modes[0] if len(modes) == 1 else "nested")
    if folder.exists():
        shutil.rmtree(folder)
    shutil.copytree(subject.problem.root, folder, ignore=shutil.ignore_patterns(".ready"))
    problem = load_problem(folder)
    plan = None
    if drawn is not None:
        fault, index = drawn
        plan = FaultPlan(candidates(subject, fault, opts.seed)[index])
    backend = shared if shared is not None else reference_backend(problem, plan)
    if opts.latency:
        backend = Delayed(backend, opts.latency)
    if wrap is not None:
        backend = wrap(backend)
    run = RunStore(folder)
    client = LLMClient(
        backend,
        log=LLMLog() if backend.cacheable else None,
        transcript=run.dir / "transcript.jsonl",
        use_cache=False,
    )
    options = Options(
        mode=modes[-1], max_debug=opts.max_debug, max_fix=opts.max_fix, rephrasings=opts.rephrasings, limits=limits,
        optimal=opts.optimal, record=modes[:-1], solver=opts.solver,
    )
    started = time.monotonic()
    ends: list[tuple[Report, Path | None, dict | None, float]] = []  # each mode's report, last program, fault

    def snapshot(report: Report, attempt: Path | None) -> None:
        fault = json.loads(json.dumps(plan.to_dict())) if plan else None
        ends.append((report, attempt, fault, time.monotonic() - started))

    error = None
    try:
        if opts.samples > 1:  # one mode, K samples: optimus.commands.samples is the hook a nested trajectory could call too
            report = solve_samples(problem, client, sandbox, run, options, opts.samples, rel=opts.rel_tol,
                                   abs_tol=opts.abs_tol)
        else:
            report = solve(problem, client, sandbox, run, options,
                           events=Events(on_mode_end=lambda r, a: snapshot(r, run.dir / a)))
        check_assumptions(problem, client, sandbox, run, options, report, opts.check_assumptions)
        snapshot(report, final_attempt(run.dir))
    except Exception as exc:  # noqa: BLE001 — one broken row must not end a long benchmark; the row says why
        error = f"{type(exc).__name__}: {exc}"
    rows, verdicts = [], {}
    for n, mode in enumerate(modes):
        report, attempt, fault, seconds = ends[n] if n < len(ends) else (None, final_attempt(run.dir), None, 0.0)
        if attempt not in verdicts:  # modes that stopped on the same program share its verdict
            verdicts[attempt] = judge(subject.problem, subject.expected, attempt, sandbox, limits,
                                      folder / f"bench-eval-{mode}", opts.rel_tol, opts.abs_tol,
                                      passed=loop_passed(report))
        usage = report.llm_usage if report else client.stats.as_dict()
        rows.append(make_row(subject, mode, backend, report, usage, verdicts[attempt], plan, fault,
                             error if n >= len(ends) else None, seconds, run.dir))
        rows[-1]["verdict"], rows[-1]["under_assumption"] = rightness(
            verdicts[attempt], subject.expected, report.assumption_checks if report else None, opts.rel_tol,
            opts.abs_tol)
    return rows


def make_row(subject: Subject, mode: str, backend: Backend, report: Report | None, usage: dict, verdict,
             plan: FaultPlan | None, fault: dict | None, error: str | None, seconds: float, run_dir: Path) -> dict:
    row = {
        "problem": subject.key,
        "mode": mode,
        "llm": f"{backend.name}:{backend.model}",
        "fault": plan.injected.fault if plan else None,
        "planning": subject.problem.snop.problem_type == "PLANNING",
        "success": verdict.success,
        "executed": verdict.executed,
        "verified": bool(report and report.verified),
        "status": report.status if report else "error",
        "solver_status": verdict.status,
        "objective": verdict.objective,
        "expected": subject.expected,
        "objective_match": verdict.objective_match,
        "tests": row_tests(verdict, report),
        # A solve that stopped on an error (a configuration error, say) is the reason, not what it left behind.
        "reason": f"the solve stopped: {error}" if error else verdict.reason,
        "error": error,
        "attempts": dict(report.attempts) if report else {},
        "llm_calls": usage.get("calls", 0),
        "prompt_tokens": usage.get("prompt_tokens", 0),
        "completion_tokens": usage.get("completion_tokens", 0),
        "seconds": {
            "llm": round(usage.get("llm_seconds", 0.0), 3),
            "sandbox": report.seconds.get("sandbox") if report else None,
            "total": round(seconds, 3),
        },
        "run_dir": str(run_dir),
    }
    if report is not None and report.consensus:  # --samples: the groups, agreement, ambiguity, cost per sample
        row["samples"] = bench_row(report.consensus, report.ambiguity)
    if plan is not None:
        fault = fault or plan.to_dict()
        row["fault_detail"] = fault
        # Detected: the loop did not accept the faulty program. A wrong test is never "detected": the loop has
        # no way to doubt its tests; it fails the (right) program instead.
        code = plan.injected.target == "code"
        row["detected"] = code and fault["served"] > 0 and (fault["repair_prompts"] > 0 or not row["verified"])
    return row


def row_tests(verdict, report: Report | None) -> dict:
    """The tests behind a row: the bench's own supervised run when it ran them, else the loop's (generated tests
    in autotests), each with its source, so that a row never shows 0 tests where the run passed some."""
    if verdict.tests_passed or verdict.tests_failed:
        return {"source": "supervised", "passed": verdict.tests_passed, "failed": verdict.tests_failed}
    t = report.tests if report is not None else {}
    return {"source": t.get("source"), "passed": t.get("passed", 0), "failed": t.get("failed", 0)}


def loop_passed(report) -> TestOutcome | None:
    """The loop's final test outcome when it ran exactly the supervised tests (the copy holds no generated
    module, so supervised/full modes ran tests/ as the bench would) and they passed on the final program."""
    if report is None or not report.verified or report.tests.get("source") != "supervised":
        return None
    t = report.tests
    outcome = TestOutcome(
        t.get("passed", 0), t.get("failed", 0), list(t.get("failures", [])), t.get("broken")
    )
    return outcome if outcome.ok else None


def reference_backend(problem: Problem, plan: FaultPlan | None) -> Backend:
    from optimus.core.llm.registry import get_backend

    return get_backend("reference", problem, faults=plan)


def line(row: dict) -> str:
    verdict = "success" if row["success"] else ("executed" if row["executed"] else "not executed")
    fault = ""
    if row.get("fault"):
        detail = row["fault_detail"]
        state = "repaired" if detail["repaired"] else ("n/a" if not detail["served"] else "not repaired")
        fault = f" [fault {row['fault']}: {state}]"
    why = f" — {row['reason']}" if row["reason"] and not row["success"] else ""
    return (
        f"{row['problem']} {row['mode']}: {verdict}{fault}, {row['llm_calls']} calls, "
        f"{row['seconds']['total']:.1f} s{why}"
    )
