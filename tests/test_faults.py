"""The fault catalogue: every fault applies to some nlp4lp problem and really breaks it (run), and the loop's
own repair prompts carry the evidence each fault's predicate asks for (the loop runs, nothing is mocked)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from optimus.bench.draw import Subject, candidates, first_breaking
from optimus.bench.faults import CATALOGUE, FaultPlan, parse_spec, repair_evidence
from optimus.bench.judge import final_attempt, ground_truth, judge
from optimus.core.errors import ConfigError
from optimus.core.llm import LLMClient
from optimus.core.llm.reference import ReferenceBackend
from optimus.core.loop import Options, solve
from optimus.core.problem import load_problem
from optimus.core.prompts import render
from optimus.core.runstore import RunStore
from optimus.core.sandbox import Limits
from tests.helpers import NLP4LP, copy_problem

LIMITS = Limits(wall_s=20, cpu_s=20, memory_mb=4096)
SHORT = Limits(
    wall_s=4, cpu_s=4, memory_mb=4096
)  # enough for these small references; ends endless loops fast
# Small problems first, so a fault is checked where it is cheapest; any nlp4lp problem may serve.
PREFERRED = ["1", "5", "8", "6", "2", "3", "7", "4"]



def subject(name: str, tmp: Path) -> Subject:
    """A bench-style copy of nlp4lp/<name> under tmp, with its ground truth."""
    dest = tmp / name
    if not dest.exists():
        copy_problem(name, dest)
    expected, why = ground_truth(dest)
    assert expected is not None, why
    return Subject(f"nlp4lp/{name}", load_problem(dest), expected, tmp / f"{name}-trials")


def problem_order() -> list[str]:
    rest = sorted(p.name for p in NLP4LP.iterdir() if (p / "reference" / "solver.py").exists())
    return [n for n in PREFERRED if (NLP4LP / n).exists()] + [n for n in rest if n not in PREFERRED]


@pytest.mark.parametrize("fault", [f for f in CATALOGUE if not f.startswith("z3_")])  # z3_*: test_faults_z3.py
def test_each_fault_applies_to_a_problem_and_really_breaks_it(fault, sandbox, tmp_path):
    for name in problem_order():
        if not (NLP4LP / name / "reference" / "formulation.md").exists():
            continue
        s = subject(name, tmp_path)
        if not candidates(s, fault, seed=0):
            continue
        index = first_breaking(s, fault, 0, sandbox, SHORT)
        if index is not None:
            inj = candidates(s, fault, 0)[index]
            assert inj.text != (s.problem.reference_dir / "solver.py").read_text() or inj.target == "tests"
            return
    pytest.fail(f"fault {fault} applies to no nlp4lp problem in a way that breaks it")


def run_loop(s: Subject, fault: str, mode: str, sandbox, tmp: Path):
    """The real loop on a copy, with the fault the bench would draw; returns (plan, report, bench verdict)."""
    index = first_breaking(s, fault, 0, sandbox, SHORT)
    assert index is not None, f"{fault} does not break {s.key}"
    plan = FaultPlan(candidates(s, fault, 0)[index])
    folder = tmp / f"{mode}-{fault}"
    shutil.copytree(s.problem.root, folder)
    problem = load_problem(folder)
    run = RunStore(folder)
    client = LLMClient(ReferenceBackend(problem, faults=plan))
    limits = SHORT if fault == "infinite_loop" else LIMITS
    report = solve(problem, client, sandbox, run, Options(mode=mode, max_debug=2, max_fix=2, limits=limits))
    verdict = judge(s.problem, s.expected, final_attempt(run.dir), sandbox, LIMITS, folder / "eval")
    return plan, report, verdict


CAUGHT = [  # (fault, problem, the cheapest mode whose loop should catch and repair it)
    ("syntax_error", "1", "debug"),
    ("wrong_key", "1", "debug"),
    ("key_as_int", "5", "debug"),
    ("sum_over_generator", "7", "debug"),
    ("infinite_loop", "1", "debug"),
    ("solution_missing", "1", "debug"),
    ("drop_constraint", "1", "supervised"),
    ("flip_constraint", "1", "supervised"),
    ("misspell_output_key", "1", "supervised"),
    ("output_wrong_length", "5", "supervised"),
    ("solution_wrong_objective", "1", "supervised"),  # the loop's re-solve of model.mps reports it
    ("flip_objective", "1", "supervised"),  # the re-solve compares model.mps's sense with the objective's
]


@pytest.mark.parametrize(("fault", "name", "mode"), CAUGHT)
def test_the_loops_repair_prompt_carries_the_evidence(fault, name, mode, sandbox, tmp_path):
    plan, report, verdict = run_loop(subject(name, tmp_path), fault, mode, sandbox, tmp_path)
    assert plan.served >= 1 and plan.repair_prompts >= 1
    assert plan.evidence[-1] is True and plan.repaired
    assert verdict.success, verdict.reason
    # Problem 7 is cvxpy: no model file to re-solve and no tests in debug mode, so the repaired program "ran";
    # nothing could verify it. Every other row is verified by the re-solve or the tests.
    assert report.status == "ran" if (name, mode) == ("7", "debug") else report.verified


def test_a_wrong_generated_test_is_not_repairable_by_the_loop(sandbox, tmp_path):
    """Honest limit: the fix loop can only change the program, so with a wrong generated test autotests never
    verifies — it spends every fix and reports failure on a right program (the reference never bends the
    program to the wrong test; a model might). Supervised tests (never replaced) are unaffected."""
    s = subject("1", tmp_path)
    plan, report, verdict = run_loop(s, "wrong_test", "autotests", sandbox, tmp_path)
    assert plan.served == 1 and not plan.repaired and not any(plan.evidence)
    assert not report.verified and report.attempts["fix"] == 2
    assert verdict.success  # the bench's verdict, by the supervised tests: the program itself is right
    plan, report, verdict = run_loop(s, "wrong_test", "supervised", sandbox, tmp_path)
    assert plan.served == 0 and report.verified and verdict.success


def test_evidence_excludes_the_program_and_statements(tmp_path):
    """The faulty program (which names the wrong key and every constraint) is in the prompt; it is not evidence."""
    s = subject("1", tmp_path)
    for fault in ("wrong_key", "drop_constraint", "misspell_output_key"):
        inj = candidates(s, fault, 0)[0]
        values = {
            "statements": "\n".join(s.problem.snop.problem_info),
            "formulation": "f",
            "input_format": "i",
            "data_summary": "d",
            "output_format": s.problem.snop.output_format,
            "code": inj.text,
            "evidence": "The program ended without writing solution.json.",
        }
        prompt = render("debug", **values).text
        assert repair_evidence("debug", prompt) == "The program ended without writing solution.json."
        assert not CATALOGUE[fault].evidence(inj, repair_evidence("debug", prompt))
        assert CATALOGUE["solution_missing"].evidence(inj, repair_evidence("debug", prompt))


def test_fault_spec():
    assert parse_spec("all") == list(CATALOGUE)
    assert parse_spec("none") == parse_spec("") == []
    assert parse_spec("wrong_test,syntax_error") == ["syntax_error", "wrong_test"]
    with pytest.raises(ConfigError, match="unknown fault bogus"):
        parse_spec("syntax_error,bogus")
