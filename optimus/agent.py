"""The loop: formulate → codegen → run → (debug) → tests → (fix) → (rephrase), per the mode.

Modes mirror the paper's ablation: prompt (one shot), debug (+ repair on execution errors), autotests
(+ model-written tests and repair on failures), supervised (+ the user's tests instead), full (supervised +
rephrased statements, first passing variant wins, and a self-assessment of each passing run); direct is a
planning baseline (the model answers with the plan). What runs and how it is re-checked is the family's
(optimus.families); the loop never asks which family it is.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from optimus import families
from optimus.checks import evidence as checks_evidence
from optimus.checks import failed as failed_checks
from optimus.checks import run_checks
from optimus.datasummary import summarize
from optimus.errors import ConfigError, LLMError
from optimus.llm import LLMClient
from optimus.problem import Problem
from optimus.report import Report, label_abs_tol, objective_matches
from optimus.runstore import RunStore, attempt_path
from optimus.sandbox import Limits
from optimus.sandbox.base import Backend as SandboxBackend
from optimus.stages import MODES
from optimus.stages import codegen as cg
from optimus.stages.assess import MAX_ROUNDS as MAX_ASSESSMENTS
from optimus.stages.assess import assess, revise
from optimus.stages.context import Context
from optimus.stages.execute import Execution, execute
from optimus.stages.formulate import formulate
from optimus.stages.rephrase import Rejected, rephrase
from optimus.stages.testgen import TestSource, resolve_tests
from optimus.stages.testrun import TestOutcome, run_tests


@dataclass
class Options:
    mode: str = "full"
    max_debug: int = 5
    max_fix: int = 5
    rephrasings: int = 5
    regen_tests: bool = False
    optimal: bool = False  # ask a family that has the choice for a proven-optimal answer (pddl: A* with LM-cut)
    assess: bool | None = None  # self-assessment after the tests pass (optimus.stages.assess); None: on in full
    limits: Limits = field(default_factory=lambda: Limits(wall_s=120, cpu_s=120, memory_mb=4096))
    sample: int = 0  # which of --samples K independent formulations this run is (optimus.samples); 0: the plain one
    # Lesser modes whose verdicts this one trajectory also records (the bench's nested ablation): each is the
    # verdict that mode would have reached at the point it would have stopped.
    record: tuple[str, ...] = ()


@dataclass
class Phase:
    """What one mode adds to the loop: whether failures go back to the model (debug), which tests it runs
    (None: none; a test mode resolves them when it starts), and whether a passing run is self-assessed."""

    mode: str
    debug: bool
    assess: bool
    tests: TestSource | None = None

    @property
    def tested(self) -> bool:
        return self.mode in TEST_MODES


# One mode's verdict, recorded in a nested trajectory: its phase and the result as it stood.
Reached = Callable[[Phase, "VariantResult"], None]
TEST_MODES = ("autotests", "supervised", "full")


@dataclass
class VariantResult:
    executed: bool = False
    execution: Execution | None = None
    tests: TestOutcome | None = None
    verified: bool = False
    message: str = ""
    verification: dict | None = None  # the independent re-solve of the last run's captured model
    checks: list[dict] = field(default_factory=list)  # the harness's own checks of the last run (optimus.checks)
    ran: bool = False  # it ran, every check passed, but nothing could verify it (no tests, no re-solve)
    assessment: list[dict] | None = None  # the self-assessment rounds (None: assessment off)
    attempt: str = ""  # the run folder of the last program run (relative to the run's folder)


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


def solve(problem: Problem, client: LLMClient, sandbox: SandboxBackend, run: RunStore, options: Options,
          progress: Callable[[str], None] = lambda _: None,
          lesser: Callable[[Report, str], None] | None = None) -> Report:
    """Solve in options.mode. With options.record, `lesser(report, attempt)` receives, in order, the report
    each recorded lesser mode would have ended with and the run folder of its last program."""
    started = time.monotonic()
    backend = client.backend
    llm = {"backend": backend.name, "model": backend.model}
    if backend.name == "reference":
        from optimus.llm.reference import DESCRIPTION

        llm["what"] = DESCRIPTION
    report = Report(problem=str(problem.root), mode=options.mode, llm=llm, sandbox=sandbox.name,
                    expected=problem.expected, run_dir=str(run.dir))
    summary = summarize(problem.data, problem.snop.input_format)
    ctx = Context(problem, problem.snop, client, sandbox, options.limits, run, summary,
                  family=families.choose(problem), mode=options.mode, optimal=options.optimal,
                  sample=options.sample)
    if options.mode == "direct" and (ctx.family is None or ctx.family.prompt_name("direct") == "direct"):
        raise ConfigError(f"--mode direct: the model answers with the solution itself, which only a family with "
                          f"a direct prompt takes (planning: solver pddl); {problem.root} is solved with "
                          f"{ctx.family.name if ctx.family else 'a family formulate chooses'}")
    ladder = phases(options)

    def reached(phase: Phase, result: VariantResult) -> None:
        if lesser is None:
            return
        partial = Report(problem=report.problem, mode=phase.mode, llm=llm, sandbox=report.sandbox,
                         expected=report.expected, run_dir=report.run_dir, executed=result.executed,
                         variants=[{"variant": 0, "executed": result.executed, "verified": result.verified,
                                    "message": result.message}],
                         winning_variant=0 if result.verified else None)
        if phase.tests is not None:
            partial.tests["source"] = phase.tests.kind
        finish(partial, result, ctx, client, started)
        lesser(partial, result.attempt)

    result = VariantResult()
    try:
        if not options.record and options.mode in TEST_MODES:  # one mode: its tests before anything else
            ladder[0].tests = load_tests(ctx, report, ladder[0].mode, options, progress)
        result = try_variants(ctx, report, ladder, options, progress, reached)
    except LLMError as exc:
        # The model gave up or answered unusably: the run still ends with a report saying so.
        result.message = str(exc)
        progress(f"stopped: {exc}")
    finish(report, result, ctx, client, started)
    run.write("report.json", report.to_dict())
    return report


def load_tests(ctx: Context, report: Report, mode: str, options: Options,
               progress: Callable[[str], None]) -> TestSource:
    tests = resolve_tests(ctx, mode, options.regen_tests)
    for name, text in tests.files.items():
        ctx.run.write(f"tests/{name}", text)
    report.tests["source"] = tests.kind
    progress(f"tests: {tests.kind} ({', '.join(tests.files)}){' — ' + tests.note if tests.note else ''}")
    return tests


def try_variants(ctx: Context, report: Report, ladder: list[Phase], options: Options,
                 progress: Callable[[str], None], reached: Reached) -> VariantResult:
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
        result = attempt(ctx, index, ladder if index == 0 else ladder[-1:], options, progress, reached,
                         lambda phase: load_tests(ctx, report, phase.mode, options, progress))
        report.variants.append({"variant": index, "executed": result.executed, "verified": result.verified,
                                "message": result.message})
        report.executed = report.executed or result.executed
        if result.verified:
            report.winning_variant = index
            break
    return result


def attempt(ctx: Context, index: int, ladder: list[Phase], options: Options, progress: Callable[[str], None],
            reached: Reached, load: Callable[[Phase], TestSource]) -> VariantResult:
    """One statement variant through formulate, codegen and the bounded repair loop, passing through the
    ladder's modes in order: where one would stop, `reached` gets its verdict and the next goes on from the
    same program (the last one's verdict is returned)."""
    prefix = f"v{index}/"
    if options.mode == "direct":  # the baseline: the model answers with the solution itself, one shot
        formulation, code = "", cg.direct(ctx)
        progress("direct: answered")
    else:
        formulation = formulate(ctx)
        ctx.run.write(prefix + "formulation.md", formulation)
        progress("formulate: done")
        if ctx.family is None:  # the SNOP left the solver open: the formulation chose, and said why
            ctx.family, why = families.from_formulation(formulation)
            progress(f"family: {ctx.family.name} ({why})")
        code = cg.codegen(ctx, formulation)
    expected_status = (ctx.problem.expected or {}).get("status")
    result = VariantResult(assessment=[] if any(p.assess for p in ladder) else None)
    debug_left, fix_left = options.max_debug, options.max_fix
    step, ex, number = 0, None, 0
    while True:
        phase = ladder[step]
        if phase.tested and phase.tests is None:
            try:
                phase.tests = ladder[step - 1].tests if step and ladder[step - 1].mode != "autotests" else None
                phase.tests = phase.tests or load(phase)
            except LLMError as exc:  # no tests for this mode: its verdict says why; the next mode goes on
                if step + 1 == len(ladder):
                    raise
                reached(phase, replace(result, verified=False, ran=False, message=str(exc)))
                step += 1
                continue
        if ex is None:  # a new program: run it, then the harness's checks and the family's re-check
            number += 1
            result.attempt = attempt_path(index, number)
            workdir = ctx.run.path(result.attempt)
            ex = execute(ctx, code, workdir)
            result.execution, result.executed = ex, result.executed or ex.executed
            harness, failing, check, tested = [], [], None, {}
            if not ex.ok:
                progress(f"run {number}: failed — {ex.evidence.splitlines()[0]}")
            else:
                progress(f"run {number}: ok — status {ex.solution.get('status')}, objective "
                         f"{ex.solution.get('objective')}")
                harness = run_checks(ctx.snop.output_format, ctx.snop.input_format, ctx.problem.data, ex.output,
                                     ex.solution)
                result.checks = [c.to_dict() for c in harness]
                failing = failed_checks(harness)
                if failing:
                    progress(f"checks {number}: {len(failing)} failed — {failing[0].message}")
                check = ctx.family.recheck(ctx, ex)  # e.g. re-solve model.mps, outside the generated code's control
                result.verification = check.to_dict()
                progress(f"verify {number}: {check.summary}")
        repair, evidence = None, ""
        result.verified, result.ran = False, False
        if not ex.ok:
            if phase.debug and debug_left:
                repair, evidence = "debug", ex.evidence
            else:
                first, last = ex.evidence.strip().splitlines()[0], ex.evidence.strip().splitlines()[-1]
                result.message = f"the program did not run: {first}" + (f" … {last.strip()}" if last != first else "")
        elif check.disagrees or failing:
            # The harness's own checks and the re-solve are evidence like failing tests: fix, or in a mode
            # without tests debug, mends them; with no repair left the run ends unverified.
            evidence = "\n".join(e for e in (checks_evidence(harness), check.evidence() if check.disagrees else "") if e)
            if phase.tests is not None and fix_left:
                repair = "fix"
            elif phase.debug and debug_left and failing:
                repair = "debug"
            else:
                result.message = f"not verified: {evidence.splitlines()[0].removeprefix('- ')}"
        else:
            status = ex.solution.get("status")
            if phase.tests is None:
                result.verified = check.outcome == "agrees" or (status not in families.FOUND and status == expected_status)
                result.ran = not result.verified and status in families.FOUND
                how = f"verified by {check.summary}" if result.verified else f"not verified: {check.summary}"
                result.message = f"solver status {status}; {how} (no tests in mode {phase.mode})"
            elif status in ("infeasible", "unbounded") and status == expected_status:
                result.verified, result.message = True, f"{status}, as expected.json says"
            else:
                found = status in families.FOUND
                outcome = TestOutcome()
                if found and phase.tests.kind not in tested:
                    tested[phase.tests.kind] = run_tests(ctx.sandbox, ctx.limits, ctx.problem.data_path,
                                                         phase.tests.files, ex, ex.workdir / (f"tests-{phase.tests.kind}" if tested else "tests"),
                                                         ctx.family.conftest(), ctx.family.test_files(ex.workdir))
                    ctx.sandbox_seconds += tested[phase.tests.kind].seconds
                if found:
                    outcome = tested[phase.tests.kind]
                result.tests = outcome
                if found and outcome.ok:
                    progress(f"tests {number}: {outcome.passed} passed")
                    result.verified, result.message = True, f"{status}; {outcome.passed} tests passed"
                    if phase.assess and len(result.assessment) < MAX_ASSESSMENTS:
                        # Verified by its tests; the model's review of its own steps may still send one back.
                        revised = second_look(ctx, result, formulation, code, ex, number, fix_left > 0, progress)
                        if revised is not None:
                            fix_left -= 1
                            result.verified = False
                            if revised[0] != formulation:
                                ctx.run.write(prefix + f"formulation-round{len(result.assessment)}.md", revised[0])
                            formulation, code, ex = revised[0], revised[1], None
                            continue
                    doubting = sum(r["action"] != "none" for r in result.assessment or [])
                    if doubting:
                        result.message += (f"; the self-assessment scored a step 0 in {doubting} of "
                                           f"{len(result.assessment)} round(s)")
                else:
                    progress(f"tests {number}: {outcome.failed} failed" if found else f"status {status}")
                    evidence = (f"{ctx.family.no_solution_hint(status)}\n{check.evidence()}".strip() if not found
                                else outcome.evidence())
                    if fix_left:
                        repair = "fix"
                    else:
                        result.message = f"not verified after {options.max_fix} fixes: {evidence.splitlines()[0]}"
        if repair == "debug":
            debug_left -= 1
            code, ex = cg.debug(ctx, formulation, code, evidence), None
            continue
        if repair == "fix":
            fix_left -= 1
            code, ex = cg.fix(ctx, formulation, code, evidence), None
            continue
        if step + 1 == len(ladder):
            return result
        # This mode would stop here; the next goes on from the same program, with its own tests' fixes.
        reached(phase, replace(result, checks=list(result.checks),
                               assessment=list(result.assessment) if phase.assess else None))
        step += 1
        if ladder[step].tested and ladder[step].mode != "full":
            fix_left = options.max_fix


def second_look(ctx: Context, result: VariantResult, formulation: str, code: str, ex: Execution, number: int,
                can_repair: bool, progress: Callable[[str], None]) -> tuple[str, str] | None:
    """One self-assessment round on a run its tests verified: the rewritten (formulation, code) to run next, or
    None when the verified program stands (nothing doubted, no repair left, or no usable rewrite)."""
    verdict = assess(ctx, formulation, code, ex.output, ex.solution)
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
    report.verified = result.verified
    report.family = ctx.family.name if ctx.family else None
    report.checks = result.checks
    report.assessment = result.assessment
    if result.verified:
        report.status = "solved" if report.solver_status in families.FOUND else report.solver_status
    elif report.solver_status in ("infeasible", "unbounded"):
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
    report.llm_usage = client.stats.as_dict()
    report.seconds = {"llm": round(client.stats.llm_seconds, 3), "sandbox": round(ctx.sandbox_seconds, 3),
                      "total": round(time.monotonic() - started, 3)}
