"""The loop: formulate → codegen → run → (debug) → tests → (fix) → (rephrase), per the mode.

Modes mirror the paper's ablation: prompt (one shot), debug (+ repair on execution errors), autotests
(+ model-written tests and repair on failures), supervised (+ the user's tests instead), full (supervised +
rephrased statements, first passing variant wins).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from optimus import families
from optimus.datasummary import summarize
from optimus.errors import LLMError
from optimus.llm import LLMClient
from optimus.problem import Problem
from optimus.report import Report, objective_matches
from optimus.runstore import RunStore, attempt_path
from optimus.sandbox import Limits
from optimus.sandbox.base import Backend as SandboxBackend
from optimus.stages import codegen as cg
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
    limits: Limits = field(default_factory=lambda: Limits(wall_s=120, cpu_s=120, memory_mb=4096))


@dataclass
class VariantResult:
    executed: bool = False
    execution: Execution | None = None
    tests: TestOutcome | None = None
    verified: bool = False
    message: str = ""
    verification: dict | None = None  # the independent re-solve of the last run's captured model


def solve(problem: Problem, client: LLMClient, sandbox: SandboxBackend, run: RunStore, options: Options,
          progress: Callable[[str], None] = lambda _: None) -> Report:
    started = time.monotonic()
    backend = client.backend
    llm = {"backend": backend.name, "model": backend.model}
    if backend.name == "reference":
        from optimus.llm.reference import DESCRIPTION

        llm["what"] = DESCRIPTION
    report = Report(problem=str(problem.root), mode=options.mode, llm=llm, sandbox=sandbox.name,
                    expected=problem.expected, run_dir=str(run.dir))
    ctx = Context(problem, problem.snop, client, sandbox, options.limits, run, summarize(problem.data),
                  family=families.choose(problem))
    tests, result = None, VariantResult()
    try:
        if options.mode in ("autotests", "supervised", "full"):
            tests = resolve_tests(ctx, options.mode, options.regen_tests)
            for name, text in tests.files.items():
                run.write(f"tests/{name}", text)
            report.tests["source"] = tests.kind
            progress(f"tests: {tests.kind} ({', '.join(tests.files)}){' — ' + tests.note if tests.note else ''}")
        result = try_variants(ctx, report, tests, options, progress)
    except LLMError as exc:
        # The model gave up or answered unusably: the run still ends with a report saying so.
        result.message = str(exc)
        progress(f"stopped: {exc}")
    finish(report, result, ctx, client, started)
    run.write("report.json", report.to_dict())
    return report


def try_variants(ctx: Context, report: Report, tests: TestSource | None, options: Options,
                 progress: Callable[[str], None]) -> VariantResult:
    """The original statements, then (full mode) rewrites of them; the first verified variant wins."""
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
        result = attempt(ctx, index, tests, options, progress)
        report.variants.append({"variant": index, "executed": result.executed, "verified": result.verified,
                                "message": result.message})
        report.executed = report.executed or result.executed
        if result.verified:
            report.winning_variant = index
            break
    return result


def attempt(ctx: Context, index: int, tests: TestSource | None, options: Options,
            progress: Callable[[str], None]) -> VariantResult:
    """One statement variant through formulate, codegen and the bounded repair loop."""
    prefix = f"v{index}/"
    formulation = formulate(ctx)
    ctx.run.write(prefix + "formulation.md", formulation)
    progress("formulate: done")
    if ctx.family is None:  # the SNOP left the solver open: the formulation chose, and said why
        ctx.family, why = families.from_formulation(formulation)
        progress(f"family: {ctx.family.name} ({why})")
    code = cg.codegen(ctx, formulation)
    debug_left = options.max_debug if options.mode != "prompt" else 0
    fix_left = options.max_fix if tests is not None else 0
    expected_status = (ctx.problem.expected or {}).get("status")
    result = VariantResult()
    for number in range(1, 2 + options.max_debug + options.max_fix):
        workdir = ctx.run.path(attempt_path(index, number))
        ex = execute(ctx, code, workdir)
        result.execution, result.executed = ex, result.executed or ex.executed
        if not ex.ok:
            progress(f"run {number}: failed — {ex.evidence.splitlines()[0]}")
            if debug_left:
                debug_left -= 1
                code = cg.debug(ctx, formulation, code, ex.evidence)
                continue
            result.message = f"the program did not run: {ex.evidence.splitlines()[0]}"
            return result
        status = ex.solution.get("status")
        progress(f"run {number}: ok — status {status}, objective {ex.solution.get('objective')}")
        check = ctx.family.recheck(ctx, ex)  # e.g. re-solve model.mps, outside the generated code's control
        result.verification = check.to_dict()
        progress(f"verify {number}: {check.summary}")
        if check.disagrees:
            if not fix_left:
                result.message = f"not verified: {check.summary}"
                return result
            fix_left -= 1
            code = cg.fix(ctx, formulation, code, check.evidence())
            continue
        if tests is None:
            result.verified = status in families.FOUND or status == expected_status
            result.message = f"ran; solver status {status} (no tests in mode {options.mode})"
            return result
        if status in ("infeasible", "unbounded") and status == expected_status:
            result.verified, result.message = True, f"{status}, as expected.json says"
            return result
        outcome = TestOutcome()
        found = status in families.FOUND
        if found:
            outcome = run_tests(ctx.sandbox, ctx.limits, ctx.problem.data_path, tests.files, ex, workdir / "tests",
                                ctx.family.conftest())
            ctx.sandbox_seconds += outcome.seconds
        result.tests = outcome
        evidence = f"{status_evidence(status)}\n{check.evidence()}".strip() if not found else outcome.evidence()
        if found and outcome.ok:
            progress(f"tests {number}: {outcome.passed} passed")
            result.verified, result.message = True, f"{status}; {outcome.passed} tests passed"
            return result
        progress(f"tests {number}: {outcome.failed} failed" if found else f"status {status}")
        if fix_left:
            fix_left -= 1
            code = cg.fix(ctx, formulation, code, evidence)
            continue
        result.message = f"not verified after {options.max_fix} fixes: {evidence.splitlines()[0]}"
        return result
    return result


def status_evidence(status: str) -> str:
    return (f"The solver reported the model {status}, but the problem is expected to have an optimal solution. "
            "Look for a constraint with the wrong direction or scale, a wrong bound, or a missing variable.")


def finish(report: Report, result: VariantResult, ctx: Context, client: LLMClient, started: float) -> None:
    ex = result.execution
    solution = (ex.solution or {}) if ex else {}
    report.solver_status = solution.get("status")
    report.objective = solution.get("objective")
    report.verified = result.verified
    report.family = ctx.family.name if ctx.family else None
    if result.verified:
        report.status = "solved" if report.solver_status in families.FOUND else report.solver_status
    elif report.solver_status in ("infeasible", "unbounded"):
        report.status = report.solver_status
    else:
        report.status = "failed" if report.executed else "error"
    expected = report.expected or {}
    if expected.get("objective") is not None:
        report.objective_matches = objective_matches(report.objective, expected["objective"])
    if result.tests is not None:
        report.tests.update(result.tests.to_dict())
    report.message = result.message
    report.verification = result.verification
    report.attempts = dict(ctx.attempts)
    report.llm_usage = client.stats.as_dict()
    report.seconds = {"llm": round(client.stats.llm_seconds, 3), "sandbox": round(ctx.sandbox_seconds, 3),
                      "total": round(time.monotonic() - started, 3)}
