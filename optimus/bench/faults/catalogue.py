"""The catalogue: each fault's source transformation and the evidence its repair needs."""

from __future__ import annotations

import re
from collections.abc import Callable

from optimus.bench.faults.base import Fault, Injected
from optimus.bench.faults.edits import (
    added_restriction,
    drop_constraint,
    drop_integrality,
    flip_constraint,
    flip_objective,
    infinite_loop,
    key_as_int,
    misspell_output_key,
    output_wrong_length,
    solution_missing,
    solution_wrong_objective,
    sum_over_generator,
    syntax_error,
    wrong_key,
    wrong_test,
)
from optimus.bench.faults.z3_edits import model_value, python_bool, python_if
from optimus.core.prompts import template

# ---- the evidence a repair prompt carries ----

_PLACEHOLDER = re.compile(r"\{\{(\w+)\}\}")


def repair_evidence(stage: str, prompt: str) -> str:
    """The `evidence` part of a debug or fix prompt, cut out by matching the prompt's own template (so the
    program and the statements, which mention every key and constraint, do not count as evidence)."""
    return prompt_part(stage, prompt, "evidence")


def prompt_part(stage: str, prompt: str, part: str) -> str:
    """The text a prompt holds for placeholder `part`, cut out by matching the stage's template; the whole
    prompt when it does not match."""
    try:
        text = template(stage)
    except OSError:
        return prompt
    parts = _PLACEHOLDER.split(text)
    pattern = "".join(
        re.escape(p) if i % 2 == 0 else ("(?P<part>.*)" if p == part else ".*?")
        for i, p in enumerate(parts)
    )
    match = re.fullmatch(pattern, prompt, re.DOTALL)
    return match.group("part") if match and "part" in match.groupdict() else prompt


def _status_reported(evidence: str) -> bool:
    return bool(
        re.search(
            r"reported the model (infeasible|unbounded)|\b(infeasible|unbounded)\b", evidence, re.IGNORECASE
        )
    )


def _names_constraint(inj: Injected, evidence: str) -> bool:
    sid, words = inj.detail.get("statement"), inj.detail.get("words", [])
    # test names join words with "_" (test_s5_flow_balance): a word starts after anything but a letter or digit
    if sid and re.search(rf"(?<![A-Za-z0-9]){sid}(?!\d)", evidence):
        return True
    return any(re.search(rf"(?<![A-Za-z]){w}", evidence, re.IGNORECASE) for w in words) or _status_reported(
        evidence
    )


def _traceback_names(*patterns: str) -> Callable[[Injected, str], bool]:
    return lambda inj, ev: any(re.search(p.format(**inj.detail), ev) for p in patterns)


CATALOGUE: dict[str, Fault] = {
    f.name: f
    for f in [
        Fault(
            "syntax_error",
            "code",
            "a colon dropped from a compound statement",
            "the SyntaxError from the run",
            syntax_error,
            _traceback_names(r"SyntaxError"),
        ),
        Fault(
            "wrong_key",
            "code",
            "a data key read under a wrong name",
            "the KeyError naming the wrong key",
            wrong_key,
            _traceback_names(r"KeyError: '{wrong}'"),
        ),
        Fault(
            "key_as_int",
            "code",
            "a JSON key's type mixed up (int for a string key, or the reverse on a list)",
            "the KeyError/TypeError about the index type",
            key_as_int,
            _traceback_names(r"KeyError: \d+", r"indices must be integers"),
        ),
        Fault(
            "sum_over_generator",
            "code",
            "a sum over a generator (np.sum(x[i] for i …)) in a cvxpy model",
            "the TypeError naming the generator",
            sum_over_generator,
            _traceback_names(r"generator"),
        ),
        Fault(
            "drop_constraint",
            "code",
            "one constraint (family) left out",
            "a failed check naming the constraint (its statement id or words), or a wrong status",
            drop_constraint,
            _names_constraint,
        ),
        Fault(
            "flip_constraint",
            "code",
            "one constraint's inequality turned round",
            "a failed check naming the constraint (its statement id or words), or a wrong status",
            flip_constraint,
            _names_constraint,
        ),
        Fault(
            "flip_objective",
            "code",
            "minimize and maximize swapped",
            "a wrong objective or status reported (or cvxpy's DCP error)",
            flip_objective,
            lambda inj, ev: bool(re.search(r"DCP|objective|\bunbounded\b|\binfeasible\b", ev, re.IGNORECASE)),
        ),
        Fault(
            "drop_integrality",
            "code",
            "integer or binary variables made continuous",
            "a failed check about integrality",
            drop_integrality,
            lambda inj, ev: bool(re.search(r"integ|binary|fraction|whole number|0 or 1", ev, re.IGNORECASE)),
        ),
        Fault(
            "misspell_output_key",
            "code",
            "an output.json key misspelled",
            "a failed check naming the key",
            misspell_output_key,
            lambda inj, ev: (
                inj.detail["wrong"] in ev or bool(re.search(rf"KeyError: '{inj.detail['key']}'", ev))
            ),
        ),
        Fault(
            "output_wrong_length",
            "code",
            "an output list one element short",
            "a failed check about the list's length or shape",
            output_wrong_length,
            lambda inj, ev: bool(
                re.search(r"length|len\(|shape|\brows?\b|entries|IndexError|out of range", ev, re.IGNORECASE)
            ),
        ),
        Fault(
            "infinite_loop",
            "code",
            "an endless loop before the solve",
            "the time-out reported",
            infinite_loop,
            lambda inj, ev: bool(
                re.search(r"time limit|timed out|CPU limit|endless loop", ev, re.IGNORECASE)
            ),
        ),
        Fault(
            "solution_missing",
            "code",
            "solution.json never written",
            "the missing solution.json reported",
            solution_missing,
            _traceback_names(r"solution\.json"),
        ),
        Fault(
            "solution_wrong_objective",
            "code",
            "solution.json's objective negated",
            "a failed check comparing the reported objective",
            solution_wrong_objective,
            lambda inj, ev: bool(re.search(r"objective", ev, re.IGNORECASE)),
        ),
        Fault(
            "z3_python_bool",
            "code",
            "z3.And/Or/Not written with Python and/or/not",
            "the Z3Exception (symbolic expressions cannot be cast to Boolean), or a failed check naming the statement",
            python_bool,
            lambda inj, ev: bool(re.search(r"concrete Boolean|Symbolic expressions", ev)) or _names_constraint(inj, ev),
        ),
        Fault(
            "z3_python_if",
            "code",
            "z3.If written as a Python conditional (x == k compared structurally: silently False)",
            "the error on a sum turned Python int (no attribute 'as_ast'), the Z3Exception, or a failed check "
            "naming the statement or the objective",
            python_if,
            lambda inj, ev: bool(re.search(r"concrete Boolean|Symbolic expressions|as_ast|objective", ev, re.IGNORECASE))
            or _names_constraint(inj, ev),
        ),
        Fault(
            "z3_model_value",
            "code",
            "a model value written as a z3 expression (.as_long() / is_true left out)",
            "the TypeError that json cannot write a z3 value",
            model_value,
            lambda inj, ev: bool(re.search(r"not JSON serializable|NumRef|BoolRef|ExprRef|as_long", ev)),
        ),
        Fault(
            "added_restriction",
            "code",
            "a restriction no statement gives (a limit tightened to 80% beside the real one): tests still pass",
            "a self-assessment quoting the added line (tests and the re-solve cannot see it)",
            added_restriction,
            lambda inj, ev: inj.detail["line"] in ev,
            lambda inj, program: (
                f"the program adds `{inj.detail['line']}`, a restriction no statement gives: it tightens "
                f"{inj.detail['constraint'] or 'a limit'} beyond what the statements say and cuts off solutions "
                "they allow; remove that line" if inj.detail["line"] in program else None
            ),
        ),
        Fault(
            "wrong_test",
            "tests",
            "a generated test that rejects the correct answer",
            "nothing a code repair can use: only regenerated or supervised tests help",
            wrong_test,
            lambda inj, ev: False,
        ),
    ]
}
