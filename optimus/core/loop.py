"""The loop: formulate → codegen → a list of steps over each program → repair, per the mode; then rephrase.

Modes mirror the paper's ablation: prompt (one shot), debug (+ repair on execution errors), autotests
(+ model-written tests and repair on failures), supervised (+ the user's tests instead), full (supervised +
rephrased statements, first passing variant wins, and a self-assessment of each passing run); direct is a
planning baseline (the model answers with the plan). What runs and how it is re-checked is the family's
(optimus.core.families); the loop never asks which family it is.

Each program passes through STEPS, in order. A step reads and updates the Attempt and answers Ok (the next
step runs), Repair (evidence the model can mend, and which repairs would), Rewrite (a new formulation and
program replace this one) or Stop (this mode's verdict is reached). A mode is its Phase: which repairs its
policy allows (`repairs`) and which tests it runs; the budgets are Options'. Observers (samples, the nested
ablation) subscribe to Events instead of wrapping the loop's collaborators. ARCHITECTURE.md: "Adding a stage".
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from optimus.core import families
from optimus.core.assumptions import qualify
from optimus.core.checks import evidence as checks_evidence
from optimus.core.checks import failed as failed_checks
from optimus.core.checks import run_checks
from optimus.core.datasummary import summarize_problem
from optimus.core.errors import ConfigError, LLMError
from optimus.core.llm import LLMClient
from optimus.core.llm.registry import description
from optimus.core.outcomes import FOUND, NO_SOLUTION, Execution, Verdict
from optimus.core.problem import Problem
from optimus.core.report import Report, label_abs_tol, objective_matches
from optimus.core.runstore import RunStore, attempt_path
from optimus.core.sandbox import Limits
from optimus.core.sandbox.base import Backend as SandboxBackend
from optimus.core.solver_options import SolverOptions
from optimus.core.stages import MODES
from optimus.core.stages import codegen as cg
from optimus.core.stages.assess import MAX_ROUNDS as MAX_ASSESSMENTS
from optimus.core.stages.assess import assess, revise
from optimus.core.stages.context import Context
from optimus.core.stages.execute import execute
from optimus.core.stages.formulate import formulate
from optimus.core.stages.rephrase import Rejected, rephrase
from optimus.core.stages.review import answer as no_solution_words
from optimus.core.stages.review import explained, review
from optimus.core.stages.testgen import TestSource, resolve_tests
from optimus.core.stages.testrun import TestOutcome, run_tests
from optimus.core.tables import row_counts
from optimus.core.terminal import solution_line


@dataclass
class Options:
    mode: str = "full"
    max_debug: int = 5
    max_fix: int = 5
    rephrasings: int = 5
    regen_tests: bool = False
    optimal: bool = False  # ask a family that has the choice for a proven-optimal answer (pddl: A* with LM-cut)
    assess: bool | None = None  # self-assessment after the tests pass (optimus.core.stages.assess); None: on in full
    limits: Limits = field(default_factory=lambda: Limits(wall_s=120, cpu_s=120, memory_mb=4096))
    sample: int = 0  # which of --samples K independent formulations this run is (optimus.commands.samples); 0: the plain one
    # Lesser modes whose verdicts this one trajectory also records (the bench's nested ablation): each is the
    # verdict that mode would have reached at the point it would have stopped.
    record: tuple[str, ...] = ()
    # An infeasible or unbounded status the re-check confirms is an answer, not a failure to fix (optimus repair).
    no_solution_is_an_answer: bool = False
    solver: SolverOptions = field(default_factory=SolverOptions)  # --time-limit, --mip-gap, --threads, --export lp


TEST_MODES = ("autotests", "supervised", "full")


@dataclass
class Phase:
    """One mode of the ladder: the repairs its policy allows, which tests it runs (None: none; a test mode
    resolves them when it starts), and whether a passing run is self-assessed."""

    mode: str
    debug: bool
    assess: bool
    tests: TestSource | None = None

    @property
    def tested(self) -> bool:
        return self.mode in TEST_MODES

    @property
    def repairs(self) -> tuple[str, ...]:
        """The repair policy: fix needs tests to fix against; debug is every mode's but prompt's and direct's."""
        return ("debug",) * self.debug + ("fix",) * (self.tests is not None)


def _nothing(*_args) -> None:
    return None


@dataclass
class Events:
    """What observers subscribe to. on_program(number, workdir): program `number` is prepared in workdir and
    about to run (raising stops the run: optimus.commands.samples skips a program an earlier sample ran). on_verdict(number,
    verdict): the family's re-check of it. on_mode_end(report, attempt): in a nested trajectory, the report a
    recorded lesser mode would have ended with and the run folder of its last program."""

    on_program: Callable[[int, Path], None] = _nothing
    on_verdict: Callable[[int, Verdict], None] = _nothing
    on_mode_end: Callable[[Report, str], None] = _nothing


@dataclass
class VariantResult:
    executed: bool = False
    execution: Execution | None = None
    tests: TestOutcome | None = None
    verified: bool = False
    message: str = ""
    verification: dict | None = None  # the independent re-solve of the last run's captured model
    checks: list[dict] = field(default_factory=list)  # the harness's own checks of the last run (optimus.core.checks)
    ran: bool = False  # it ran, every check passed, but nothing could verify it (no tests, no re-solve)
    assessment: list[dict] | None = None  # the self-assessment rounds (None: assessment off)
    attempt: str = ""  # the run folder of the last program run (relative to the run's folder)
    review: dict | None = None  # a proven "no solution" read against its statements (optimus.core.stages.review)
    first_failing: list[str] | None = None  # the user's own tests that failed the variant's first tested program


@dataclass
class Ok:
    """Nothing to mend: the next step runs."""


@dataclass
class Repair:
    """Evidence of an error the model can mend and the repairs that would, preferred first; when the mode's
    policy and budgets allow none of them, the mode's verdict is `otherwise`."""

    kinds: tuple[str, ...]
    evidence: str
    otherwise: str


@dataclass
class Rewrite:
    """A new formulation and program replace the current one (the self-assessment's; it costs a fix)."""

    formulation: str
    code: str


@dataclass
class Stop:
    """This mode's verdict is reached (the step has set verified/ran); no later step runs on the program."""

    message: str


Outcome = Ok | Repair | Rewrite | Stop
OK = Ok()


@dataclass
class Attempt:
    """One statement variant on its way through the ladder: the current program and what is known of it."""

    ctx: Context
    index: int
    ladder: list[Phase]
    options: Options
    progress: Callable[[str], None]
    events: Events
    load: Callable[[Phase], TestSource]  # a test mode's tests, when it starts
    reached: Callable[[Phase, VariantResult], None]  # a lesser mode's verdict, where it would stop
    formulation: str = ""
    code: str = ""
    rung: int = 0  # which mode of the ladder
    number: int = 0  # programs run so far
    debug_left: int = 0
    fix_left: int = 0
    ex: Execution | None = None  # the current program's run; None: not run yet
    harness: list | None = None  # optimus.core.checks of the current program; None: not checked yet
    check: Verdict | None = None  # the family's re-check of the current program
    tested: dict[str, TestOutcome] = field(default_factory=dict)  # its test outcomes, by test kind
    result: VariantResult = field(default_factory=VariantResult)

    @property
    def phase(self) -> Phase:
        return self.ladder[self.rung]

    @property
    def status(self) -> str | None:
        return (self.ex.solution or {}).get("status") if self.ex else None


def run_program(a: Attempt) -> Outcome:
    """A new program runs in the sandbox; one that fails to run is for debug."""
    if a.ex is None:
        a.number += 1
        a.result.attempt = attempt_path(a.index, a.number)
        ex = execute(a.ctx, a.code, a.ctx.run.path(a.result.attempt),
                     before_run=lambda workdir: a.events.on_program(a.number, workdir))
        a.ex, a.harness, a.check, a.tested = ex, None, None, {}
        a.result.execution, a.result.executed = ex, a.result.executed or ex.executed
        a.progress(f"run {a.number}: ok — {solution_line(ex.solution)}" if ex.ok else
                   f"run {a.number}: failed — {ex.evidence.splitlines()[0]}")
    if a.ex.ok:
        return OK
    lines = a.ex.evidence.strip().splitlines()
    first, last = lines[0], lines[-1]
    return Repair(("debug",), a.ex.evidence,
                  f"the program did not run: {first}" + (f" … {last.strip()}" if last != first else ""))


def harness_checks(a: Attempt) -> Outcome:
    """The harness's own checks of output.json and solution.json (optimus.core.checks), once per program."""
    if a.harness is None:
        snop = a.ctx.snop
        a.harness = run_checks(snop.output_format, snop.input_format, a.ctx.problem.data, a.ex.output,
                               a.ex.solution, row_counts(a.ctx.problem.root))
        a.result.checks = [c.to_dict() for c in a.harness]
        failing = failed_checks(a.harness)
        if failing:
            a.progress(f"checks {a.number}: {len(failing)} failed — {failing[0].message}")
    return OK


def family_recheck(a: Attempt) -> Outcome:
    """The family's independent re-check (e.g. re-solve model.mps, outside the program's control). A disagreement
    or a failed harness check is evidence like a failing test: fix mends it, or debug in a mode without tests."""
    if a.check is None:
        a.check = a.ctx.family.recheck(a.ctx, a.ex)
        a.result.verification = a.check.to_dict()
        a.progress(f"verify {a.number}: {a.check.summary}")
        a.events.on_verdict(a.number, a.check)
    failing = failed_checks(a.harness)
    if not (a.check.disagrees or failing):
        return OK
    evidence = "\n".join(e for e in (checks_evidence(a.harness), a.check.evidence() if a.check.disagrees else "")
                         if e)
    return Repair(("fix", "debug") if failing else ("fix",), evidence,
                  f"not verified: {evidence.splitlines()[0].removeprefix('- ')}")


def proven_no_solution(a: Attempt) -> Outcome:
    """An infeasible or unbounded model the re-check confirms and the user's statements explain is an answer,
    in every mode that repairs: its rows are read against their statements once (one model call), a misreading
    is rewritten once, and otherwise the loop stops with the answer and the repair command. Not when
    expected.json says the problem has a solution (then it is an error to fix), nor where expected.json or the
    caller (optimus repair) already settles it."""
    status, expected = a.status, (a.ctx.problem.expected or {}).get("status")
    if (status not in NO_SOLUTION or a.check.outcome != "agrees" or not explained(a.check.diagnosis)
            or not a.phase.debug or expected in FOUND or status == expected or a.options.no_solution_is_an_answer):
        return OK
    if a.result.review is None:  # read against its statements once per variant
        verdict = review(a.ctx, a.formulation, a.code, status, a.check.diagnosis)
        a.result.review = verdict.to_dict()
        a.progress(f"review {a.number}: {verdict.summary}")
        if verdict.misreading:
            try:
                return Rewrite(a.formulation, cg.fix(a.ctx, a.formulation, a.code, verdict.evidence()))
            except LLMError as exc:
                a.result.review["rewrite"] = f"no usable rewrite: {exc}"
    a.result.verified = True
    return Stop(no_solution_words(status, a.check.diagnosis, a.ctx.snop.problem_info, a.ctx.problem.data,
                                  str(a.ctx.run.dir)))


def verdict_without_tests(a: Attempt) -> Outcome:
    """A mode without tests ends on the re-check's word; "no solution" ends where expected.json says so."""
    status, expected = a.status, (a.ctx.problem.expected or {}).get("status")
    r = a.result
    if a.phase.tests is None:
        r.verified = a.check.outcome == "agrees" or (status not in FOUND and status == expected)
        r.ran = not r.verified and status in FOUND
        how = f"verified by {a.check.summary}" if r.verified else f"not verified: {a.check.summary}"
        return Stop(f"solver status {status}; {how} (no tests in mode {a.phase.mode})")
    if status in NO_SOLUTION and status == expected:
        r.verified = True
        return Stop(f"{status}, as expected.json says")
    if status in NO_SOLUTION and a.options.no_solution_is_an_answer and a.check.outcome == "agrees":
        r.verified = True
        return Stop(f"{status}; {a.check.summary}")
    if status == "time_limit" and a.check.outcome == "agrees":  # an answer with a gap, its incumbent substituted
        r.verified = True  # into every row of the captured model: no fix can prove more within the same limit
        return Stop(a.check.summary)  # "verified: feasible within G % of optimal (time limit): objective …"
    if status == "time_limit" and (a.ex.solution or {}).get("objective") is None:
        # The solver's limit ran out before any solution, no error of the program: never sent to be mended
        return Stop(f"no solution within the limit: the solver stopped ({status}) before it found one — the "
                    "limit's, not an error in the program; rerun with a larger --timeout (and --time-limit)")
    return OK


def run_phase_tests(a: Attempt) -> Outcome:
    """The mode's tests on the program's output (once per program and kind of tests); failures are for fix."""
    status, kind = a.status, a.phase.tests.kind
    found = status in FOUND
    if found and kind not in a.tested:
        ctx, ex = a.ctx, a.ex
        a.tested[kind] = run_tests(ctx.sandbox, ctx.limits, ctx.problem.data_path, a.phase.tests.files, ex,
                                   ex.workdir / (f"tests-{kind}" if a.tested else "tests"),
                                   ctx.family.conftest(), ctx.family.test_files(ex.workdir))
        ctx.sandbox_seconds += a.tested[kind].seconds
    outcome = a.tested[kind] if found else TestOutcome()
    a.result.tests = outcome
    if found and outcome.ok:
        a.progress(f"tests {a.number}: {outcome.passed} passed")
        a.result.verified, a.result.message = True, f"{status}; {outcome.passed} tests passed"
        return OK
    if found and kind == "supervised" and a.result.first_failing is None:
        a.result.first_failing = outcome.failing
    a.progress(f"status {status}" if not found else f"tests {a.number}: could not run" if outcome.broken
               else f"tests {a.number}: {outcome.failed} failed ({', '.join(outcome.failing)})")
    known = (a.ctx.problem.expected or {}).get("status") in FOUND
    evidence = (f"{a.ctx.family.no_solution_hint(status, known)}\n{a.check.evidence()}".strip() if not found
                else outcome.evidence())
    return Repair(("fix",), evidence, f"not verified after {a.options.max_fix} fixes: {evidence.splitlines()[0]}")


def self_assess(a: Attempt) -> Outcome:
    """Verified by its tests; the model's review of its own steps may still send it back (full mode)."""
    r = a.result
    if a.phase.assess and len(r.assessment) < MAX_ASSESSMENTS:
        revised = second_look(a.ctx, r, a.formulation, a.code, a.ex, a.number, a.fix_left > 0, a.progress)
        if revised is not None:
            return Rewrite(*revised)
    doubting = sum(x["action"] != "none" for x in r.assessment or [])
    if doubting:
        r.message += f"; the self-assessment scored a step 0 in {doubting} of {len(r.assessment)} round(s)"
    return Stop(r.message)


# Every program passes through these, in order. Adding a stage is adding a step here (ARCHITECTURE.md).
STEPS: list[Callable[[Attempt], Outcome]] = [run_program, harness_checks, family_recheck, proven_no_solution,
                                             verdict_without_tests, run_phase_tests, self_assess]


def solve(problem: Problem, client: LLMClient, sandbox: SandboxBackend, run: RunStore, options: Options,
          progress: Callable[[str], None] = lambda _: None, events: Events | None = None) -> Report:
    """Solve in options.mode. With options.record, `events.on_mode_end(report, attempt)` receives, in order, the
    report each recorded lesser mode would have ended with and the run folder of its last program."""
    started = time.monotonic()
    events = events or Events()
    backend = client.backend
    llm = {"backend": backend.name, "model": backend.model}
    if description(backend):  # an offline backend says what it is wherever it appears
        llm["what"] = description(backend)
    report = Report(problem=str(problem.root), mode=options.mode, llm=llm, sandbox=sandbox.name,
                    expected=problem.expected, run_dir=str(run.dir))
    ctx = Context(problem, problem.snop, client, sandbox, options.limits, run,
                  summarize_problem(problem), family=families.choose(problem),
                  mode=options.mode, optimal=options.optimal, sample=options.sample, solver=options.solver)
    if options.mode == "direct" and (ctx.family is None or ctx.family.prompt_name("direct") == "direct"):
        raise ConfigError(f"--mode direct: the model answers with the solution itself, which only a family with "
                          f"a direct prompt takes (planning: solver pddl); {problem.root} is solved with "
                          f"{ctx.family.name if ctx.family else 'a family formulate chooses'}")
    ladder = phases(options)

    def reached(phase: Phase, result: VariantResult) -> None:
        if events.on_mode_end is _nothing:
            return
        partial = Report(problem=report.problem, mode=phase.mode, llm=llm, sandbox=report.sandbox,
                         expected=report.expected, run_dir=report.run_dir, executed=result.executed,
                         variants=[{"variant": 0, "executed": result.executed, "verified": result.verified,
                                    "message": result.message}],
                         winning_variant=0 if result.verified else None)
        if phase.tests is not None:
            partial.tests["source"] = phase.tests.kind
        finish(partial, result, ctx, client, started)
        events.on_mode_end(partial, result.attempt)

    result = VariantResult()
    try:
        if not options.record and options.mode in TEST_MODES:  # one mode: its tests before anything else
            ladder[0].tests = load_tests(ctx, report, ladder[0].mode, options, progress)
        result = try_variants(ctx, report, ladder, options, progress, events, reached)
    except LLMError as exc:
        # The model gave up or answered unusably: the run still ends with a report saying so.
        result.message = str(exc)
        progress(f"stopped: {exc}")
    finish(report, result, ctx, client, started)
    run.write("report.json", report.to_dict())
    return report


def phases(options: Options) -> list[Phase]:
    """The modes this trajectory passes through, in the ablation's order, ending with options.mode."""
    wanted = set(options.record) | {options.mode}
    if options.record and (options.mode not in MODES or any(m not in MODES[:MODES.index(options.mode)]
                                                              for m in options.record)):
        raise ConfigError(f"a nested trajectory records only modes below its own ({options.mode}): "
                          f"{', '.join(options.record)}")
    order = [m for m in MODES if m in wanted] if options.record else [options.mode]
    return [Phase(m, debug=m not in ("prompt", "direct"),
                  assess=(options.assess if options.assess is not None else m == "full") and m in TEST_MODES)
            for m in order]


def load_tests(ctx: Context, report: Report, mode: str, options: Options,
               progress: Callable[[str], None]) -> TestSource:
    tests = resolve_tests(ctx, mode, options.regen_tests)
    for name, text in tests.files.items():
        ctx.run.write(f"tests/{name}", text)
    report.tests["source"] = tests.kind
    progress(f"tests: {tests.kind} ({', '.join(tests.files)}){' — ' + tests.note if tests.note else ''}")
    return tests


def try_variants(ctx: Context, report: Report, ladder: list[Phase], options: Options,
                 progress: Callable[[str], None], events: Events,
                 reached: Callable[[Phase, VariantResult], None]) -> VariantResult:
    """The original statements, then (full mode) rewrites of them; the first verified variant wins. A rewrite
    runs in the last mode only: the lesser modes' verdicts are the original statements'."""
    problem, run = ctx.problem, ctx.run
    max_variants = 1 + (options.rephrasings if options.mode == "full" else 0)
    result = VariantResult()
    for index in range(max_variants):
        if index > 0:
            try:
                ctx.snop = rephrase(ctx, problem.snop, index)
            except Rejected as exc:
                report.variants.append({"variant": index, "rejected": str(exc)})
                progress(f"rephrase {index}: rejected — {exc}")
                continue
            run.write(f"v{index}/statements.json", ctx.snop.problem_info)
            progress(f"rephrase {index}: trying the rewritten statements")
        a = Attempt(ctx, index, ladder if index == 0 else ladder[-1:], options, progress, events,
                    lambda phase: load_tests(ctx, report, phase.mode, options, progress), reached)
        result = attempt(a)
        report.variants.append({"variant": index, "executed": result.executed, "verified": result.verified,
                                "message": result.message})
        report.executed = report.executed or result.executed
        if result.verified:
            report.winning_variant = index
            break
        if index == 0 and index + 1 < max_variants and users_tests_unmoved(result):
            result.message += (f"; not rephrasing: your test(s) {', '.join(result.tests.failing)} failed the first "
                               "program and still fail after the fixes — check them against the statements")
            progress("rephrase: not tried — the failing tests are the folder's own, and no fix changed them")
            break
    return result


def users_tests_unmoved(result: VariantResult) -> bool:
    """The folder's own tests (written or edited by the user) failed, and the same ones still fail after every fix:
    a rewrite of the statements cannot mend a test, so the user hears of it now."""
    failing = result.tests.failing if result.tests else []
    return bool(failing) and result.first_failing is not None and set(failing) == set(result.first_failing)


def attempt(a: Attempt) -> VariantResult:
    """One statement variant through formulate, codegen and the steps, passing through the ladder's modes in
    order: where one would stop, on_mode_end gets its verdict and the next goes on from the same program (the
    last one's verdict is returned)."""
    first_program(a)
    a.result.assessment = [] if any(p.assess for p in a.ladder) else None
    a.debug_left, a.fix_left = a.options.max_debug, a.options.max_fix
    while True:
        if not enter_mode(a):
            continue
        verdict = run_steps(a)
        if verdict is None:  # a repair or a rewrite replaced the program: it goes through the steps again
            continue
        a.result.message = verdict.message
        if a.rung + 1 == len(a.ladder):
            return a.result
        # This mode would stop here; the next goes on from the same program, with its own tests' fixes.
        r = a.result
        a.reached(a.phase, replace(r, checks=list(r.checks),
                                     assessment=list(r.assessment) if a.phase.assess else None))
        a.rung += 1
        if a.phase.tested and a.phase.mode != "full":
            a.fix_left = a.options.max_fix


def first_program(a: Attempt) -> None:
    """The formulation and the first program (direct, the baseline: the model answers with the solution)."""
    ctx = a.ctx
    if a.options.mode == "direct":
        a.code = cg.direct(ctx)
        a.progress("direct: answered")
        return
    a.formulation = formulate(ctx)
    ctx.run.write(f"v{a.index}/formulation.md", a.formulation)
    a.progress("formulate: done")
    if ctx.family is None:  # the SNOP left the solver open: the formulation chose, and said why
        ctx.family, why = families.from_formulation(a.formulation)
        a.progress(f"family: {ctx.family.name} ({why})")
    a.code = cg.codegen(ctx, a.formulation)


def enter_mode(a: Attempt) -> bool:
    """A test mode's tests, resolved when it starts (a supervised mode after supervised reuses them). False when
    they cannot be had: that mode's verdict says why and the next mode is current (the last one raises)."""
    phase = a.phase
    if not phase.tested or phase.tests is not None:
        return True
    before = a.ladder[a.rung - 1] if a.rung else None
    try:
        phase.tests = before.tests if before is not None and before.mode != "autotests" else None
        phase.tests = phase.tests or a.load(phase)
        return True
    except LLMError as exc:
        if a.rung + 1 == len(a.ladder):
            raise
        a.reached(phase, replace(a.result, verified=False, ran=False, message=str(exc)))
        a.rung += 1
        return False


def run_steps(a: Attempt) -> Stop | None:
    """The current program through STEPS: the mode's verdict, or None when a repair replaced the program."""
    a.result.verified, a.result.ran = False, False
    for step in STEPS:
        outcome = step(a)
        if isinstance(outcome, Ok):
            continue
        if isinstance(outcome, Stop):
            return outcome
        if isinstance(outcome, Rewrite):
            a.fix_left -= 1
            a.result.verified = False
            if outcome.formulation != a.formulation:
                a.ctx.run.write(f"v{a.index}/formulation-round{len(a.result.assessment)}.md", outcome.formulation)
            a.formulation, a.code, a.ex = outcome.formulation, outcome.code, None
            return None
        return repair(a, outcome)
    return Stop(a.result.message)


def repair(a: Attempt, needed: Repair) -> Stop | None:
    """The first repair the mode's policy allows with budget left mends the program; none: the verdict."""
    left = {"debug": a.debug_left, "fix": a.fix_left}
    kind = next((k for k in needed.kinds if k in a.phase.repairs and left[k] > 0), None)
    if kind is None:
        return Stop(needed.otherwise)
    if kind == "debug":
        a.debug_left -= 1
        a.code = cg.debug(a.ctx, a.formulation, a.code, needed.evidence)
    else:
        a.fix_left -= 1
        a.code = cg.fix(a.ctx, a.formulation, a.code, needed.evidence)
    a.ex = None
    return None


def second_look(ctx: Context, result: VariantResult, formulation: str, code: str, ex: Execution, number: int,
                can_repair: bool, progress: Callable[[str], None]) -> tuple[str, str] | None:
    """One self-assessment round on a run its tests verified: the rewritten (formulation, code) to run next, or
    None when the verified program stands (nothing doubted, no repair left, or no usable rewrite)."""
    verdict = assess(ctx, formulation, code, ex.output, ex.solution, ex.warnings)
    progress(f"assess {number}: {verdict.summary}")
    doubted = [s.step for s in verdict.doubted]
    action = ("none" if not doubted else "no repair left" if not can_repair
              else "reformulate" if "formulation" in doubted else "fix")
    result.assessment.append({"round": len(result.assessment) + 1, "attempt": number, **verdict.to_dict(),
                              "action": action})
    if not doubted or not can_repair:
        return None
    revised = revise(ctx, formulation, code, verdict)
    if revised is None:
        result.assessment[-1]["action"] += " (no usable answer)"
    return revised


def finish(report: Report, result: VariantResult, ctx: Context, client: LLMClient, started: float) -> None:
    ex = result.execution
    solution = (ex.solution or {}) if ex else {}
    report.solver_status = solution.get("status")
    report.objective = solution.get("objective")
    if report.solver_status == "time_limit":  # an answer with a gap (ARCHITECTURE.md "Solver programs")
        report.bound, report.gap = solution.get("bound"), solution.get("gap")
    report.verified = result.verified
    report.family = ctx.family.name if ctx.family else None
    report.checks = result.checks
    report.assessment = result.assessment
    report.review = result.review
    if result.verified:
        report.status = "solved" if report.solver_status in FOUND else report.solver_status
    elif report.solver_status in (*NO_SOLUTION, "time_limit"):
        report.status = report.solver_status
    elif result.ran:  # executed, the harness checks passed, but neither a re-solve nor tests stand behind it
        report.status = "ran"
    else:
        report.status = "failed" if report.executed else "error"
    expected = report.expected or {}
    if expected.get("objective") is not None:
        report.objective_matches = objective_matches(report.objective, expected["objective"],
                                                     abs_tol=label_abs_tol(expected))
    if result.tests is not None:
        report.tests.update(result.tests.to_dict())
    report.message = result.message
    report.verification = result.verification
    report.attempts = dict(ctx.attempts)
    report.llm_usage = {**client.stats.as_dict(), **({"budget": client.max_calls} if client.max_calls else {})}
    report.seconds = {"llm": round(client.stats.llm_seconds, 3), "sandbox": round(ctx.sandbox_seconds, 3),
                      "total": round(time.monotonic() - started, 3)}
    qualify(report, ctx.problem, ex)  # assumptions, status detail, goal stages, unused-data warnings
