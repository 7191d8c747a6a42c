"""Which fault each problem gets: drawn, seeded, and balanced over the catalogue; checked by running it.

A fault applies to a problem when it has a candidate there (optimus.bench.faults) that really breaks it: the
faulty program, run sandboxed, fails the benchmark's own verdict (or, for `wrong_test`, the faulty tests
reject the reference program's output). Problems are taken in order; each draws, with a generator seeded
by (seed, problem), among the applicable faults used least so far, so every fault gets its share.
Verification runs in parallel, round by round, until every drawn pair is known to break.
"""

from __future__ import annotations

import random
import shutil
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from optimus.bench.faults import CATALOGUE, Info, Injected
from optimus.bench.judge import executed, family_of, judge, supervised_tests
from optimus.core.problem import Problem
from optimus.core.sandbox import Limits
from optimus.core.sandbox.base import Backend as SandboxBackend
from optimus.core.stages.context import Context
from optimus.core.stages.testrun import run_tests
from optimus.core.tables import sandbox_inputs
from optimus.core.template import TemplateError, parse_template

MAX_TRIES = 3  # candidates tried per (problem, fault) before the fault counts as not applying


@dataclass
class Subject:
    """A prepared problem: its bench copy (with expected.json) and a scratch folder for trial runs."""

    key: str
    problem: Problem
    expected: dict
    scratch: Path


def info_of(problem: Problem) -> Info:
    try:
        out = frozenset(e.key for e in parse_template(problem.snop.output_format))
    except TemplateError:
        out = frozenset()
    tests = "\n\n".join(supervised_tests(problem).values())
    return Info(frozenset(problem.data), out, tests)


def candidates(subject: Subject, fault: str, seed: int) -> list[Injected]:
    source = (subject.problem.reference_dir / family_of(subject.problem).artifact).read_text()
    found = CATALOGUE[fault].candidates(source, info_of(subject.problem))
    random.Random(f"{seed}:{subject.key}:{fault}").shuffle(found)
    return found[:MAX_TRIES]


def run_program(subject: Subject, text: str, folder: Path, sandbox: SandboxBackend, limits: Limits) -> Path:
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    # Run as the loop would: the family writes the artifact and says how to run it (a planning program
    # runs under the harness's horizon loop, a PDDL problem under the planner).
    family = family_of(subject.problem)
    ctx = Context(subject.problem, subject.problem.snop, None, sandbox, limits, None, "", family=family)
    sandbox.run(
        family.prepare(ctx, folder, text),
        workdir=folder,
        readonly=sandbox_inputs(subject.problem.data_path),
        limits=limits,
    )
    return folder


def breaks(subject: Subject, inj: Injected, sandbox: SandboxBackend, limits: Limits, tag: str) -> bool:
    """Does the injected fault really break this problem? Runs it."""
    base = subject.scratch / tag
    if inj.target == "tests":
        family = family_of(subject.problem)
        ref = run_program(
            subject,
            (subject.problem.reference_dir / family.artifact).read_text(),
            base / "reference",
            sandbox,
            limits,
        )
        outcome = run_tests(sandbox, limits, subject.problem.data_path, {"test_generated.py": inj.text},
                            executed(ref), base / "tests", family.conftest(), family.test_files(ref))
        return not outcome.ok
    attempt = run_program(subject, inj.text, base / "program", sandbox, limits)
    return not judge(subject.problem, subject.expected, attempt, sandbox, limits, base / "eval").success


def first_breaking(
    subject: Subject, fault: str, seed: int, sandbox: SandboxBackend, limits: Limits
) -> int | None:
    """Index (in the seeded order) of the first candidate that breaks the problem, or None."""
    for i, inj in enumerate(candidates(subject, fault, seed)):
        if breaks(subject, inj, sandbox, limits, f"{fault}-{i}"):
            return i
    return None


def draw(
    subjects: list[Subject],
    faults: list[str],
    seed: int,
    sandbox: SandboxBackend,
    limits: Limits,
    jobs: int,
    known: dict[str, dict[str, int | None]],
    progress: Callable[[str], None] = lambda _: None,
) -> dict[str, tuple[str, int] | None]:
    """Assign each subject a (fault, candidate index), or None when no fault applies.

    `known` caches verification results, subject key → fault → candidate index or None; it is updated
    in place so a resumed benchmark does not run them again."""
    static = {s.key: [f for f in faults if candidates(s, f, seed)] for s in subjects}
    while True:
        usage: Counter = Counter()
        chosen: dict[str, tuple[str, int] | None] = {}
        pending: list[tuple[Subject, str]] = []
        for s in subjects:
            rng = random.Random(f"{seed}:{s.key}")
            options = [f for f in static[s.key] if known.get(s.key, {}).get(f, 0) is not None]
            chosen[s.key] = None
            if options:
                least = min(usage[f] for f in options)
                fault = rng.choice([f for f in options if usage[f] == least])
                usage[fault] += 1
                if fault in known.get(s.key, {}):
                    chosen[s.key] = (fault, known[s.key][fault])
                else:
                    pending.append((s, fault))
        if not pending:
            return chosen
        progress(f"faults: checking that {len(pending)} drawn fault(s) really break their problems")
        with ThreadPoolExecutor(max(1, jobs)) as pool:
            found = list(pool.map(lambda sf: first_breaking(sf[0], sf[1], seed, sandbox, limits), pending))
        for (s, fault), index in zip(pending, found):
            known.setdefault(s.key, {})[fault] = index
