"""The Z3 pitfalls in the fault catalogue: each applies to a Z3 program and really breaks it, and the loop's
repair prompt carries the evidence it needs (the real loop, with the reference backend serving the fault)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from optimus.bench.draw import Subject, candidates, first_breaking
from optimus.bench.judge import ground_truth
from optimus.core.problem import load_problem
from tests.test_faults import SHORT, run_loop

TALKS = Path(__file__).parent / "fixtures" / "z3" / "talks"


def talks(tmp: Path) -> Subject:
    dest = tmp / "talks"
    shutil.copytree(TALKS, dest, ignore=shutil.ignore_patterns("runs"))
    expected, why = ground_truth(dest)
    assert expected is not None, why
    return Subject("z3/talks", load_problem(dest), expected, tmp / "talks-trials")


CAUGHT = [  # (fault, the cheapest mode whose loop should catch and repair it on the talks problem)
    ("z3_python_bool", "debug"),  # z3 raises: symbolic expressions cannot be cast to concrete Boolean
    ("z3_model_value", "debug"),  # json cannot write an IntNumRef
    ("z3_python_if", "supervised"),  # silent: x == k compared structurally; a supervised test fails
    ("drop_constraint", "supervised"),  # a tracked assertion dropped
    ("flip_constraint", "supervised"),
    ("flip_objective", "supervised"),  # the re-check compares model.smt2's sense with the objective's words
]


@pytest.mark.parametrize(("fault", "mode"), CAUGHT)
def test_a_z3_fault_breaks_the_program_and_the_loop_repairs_it(fault, mode, sandbox, tmp_path):
    s = talks(tmp_path)
    assert candidates(s, fault, 0), f"{fault} does not apply to {s.key}"
    assert first_breaking(s, fault, 0, sandbox, SHORT) is not None, f"{fault} does not break {s.key}"
    plan, report, verdict = run_loop(s, fault, mode, sandbox, tmp_path)
    assert plan.served >= 1 and plan.repair_prompts >= 1
    assert plan.evidence[-1] is True and plan.repaired, plan.to_dict()
    assert report.verified and verdict.success, verdict.reason
