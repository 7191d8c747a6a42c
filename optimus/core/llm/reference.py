"""The offline `reference` backend: no language model at all.

It answers each stage from the problem folder's reference/ files (formulation.md, solver.py) and tests/, so
the whole pipeline — sandbox, tests, repair loop, report — runs with no network, for demos, CI and
benchmarks of the harness. It measures nothing about a model. A fault plan (optimus.bench.faults) can make its
first answers wrong, to test whether the loop feeds back the evidence a model would need.

With --samples, odd-numbered samples (1, 3, ...) answer from reference/alternative/ where the folder has one: a
second reading of a loosely worded statement, written by the folder's author, with ambiguity.json as the
answer to the ambiguity stage. So 3 samples give 2 main readings against 1 alternative.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Protocol

from optimus.core.errors import ConfigError
from optimus.core.llm import reference_questions as questions
from optimus.core.llm.client import Completion
from optimus.core.problem import Problem

DESCRIPTION = ("offline: answers from the problem's reference/ folder (odd-numbered samples from "
               "reference/alternative/ where there is one), no language model")
ALTERNATIVE = "alternative"  # reference/alternative/: a second reading (formulation.md, solver.py, ambiguity.json)


class FaultPlan(Protocol):
    def answer(self, stage: str, messages: list[dict], text: str) -> str: ...


class ReferenceBackend:
    name = "reference"
    model = "reference"
    cacheable = False
    description = DESCRIPTION

    def __init__(self, problem: Problem, faults: FaultPlan | None = None, sample: int = 0):
        self.problem, self.faults, self.sample = problem, faults, sample
        ref = problem.reference_dir
        # A planning folder's known-good artifact is the problem file the model would write.
        artifact = "problem.pddl" if (ref / "problem.pddl").is_file() else "solver.py"
        missing = [n for n in ("formulation.md", artifact) if not (ref / n).is_file()]
        if missing:
            raise ConfigError(f"{ref}: the reference backend needs {' and '.join(missing)} there "
                              "(or use an OpenAI-compatible model: set OPENAI_API_KEY or OPENAI_BASE_URL)")

    def for_sample(self, sample: int) -> ReferenceBackend:
        """The backend of sample `sample` of several (optimus.commands.samples)."""
        return ReferenceBackend(self.problem, self.faults, sample)

    def reading(self) -> Path:
        """Where this sample's formulation and program come from: reference/alternative/ for odd samples of a
        folder that has a complete one, else reference/."""
        alternative = self.problem.reference_dir / ALTERNATIVE
        if self.sample % 2 and all((alternative / n).is_file() for n in ("formulation.md", "solver.py")):
            return alternative
        return self.problem.reference_dir

    def complete(self, stage: str, messages: list[dict]) -> Completion:
        # optimus ask: the question picks its answer in reference/questions/ (optimus.core.llm.reference_questions)
        text = questions.answer(self.problem.reference_dir, stage, messages) if stage in questions.STAGES \
            else self._answer(stage)
        if self.faults is not None:
            text = self.faults.answer(stage, messages, text)
        words = sum(len(m["content"].split()) for m in messages)
        return Completion(text, self.model, words, len(text.split()), "stop", 0.0)

    def _answer(self, stage: str) -> str:
        ref = self.problem.reference_dir
        if stage in ("formulate", "reformulate"):
            return (self.reading() / "formulation.md").read_text()
        if stage == "assess":  # reference/assessment.json if the folder has one; else nothing doubted
            if (ref / "assessment.json").is_file():
                return fence("json", (ref / "assessment.json").read_text())
            return fence("json", json.dumps({"steps": [
                {"step": s, "score": 1, "reason": "not judged: the offline reference backend has no model"}
                for s in ("formulation", "code", "output")]}))
        if stage == "review":  # a proven "no solution" read against its statements: reference/review.json, else
            # no misreading (the reference program is the folder author's reading; the report says who answered)
            if (ref / "review.json").is_file():
                return fence("json", (ref / "review.json").read_text())
            return fence("json", json.dumps({"rows": [], "misreading": False}))
        if stage in ("codegen", "debug", "fix") and (ref / "problem.pddl").is_file():
            return fence("pddl", (ref / "problem.pddl").read_text())
        if stage in ("codegen", "debug", "fix"):
            return fence("python", (self.reading() / "solver.py").read_text())
        if stage == "ambiguity":  # the folder author's comparison of the main and the alternative reading
            return fence("json", _reference_file(ref / ALTERNATIVE / "ambiguity.json",
                                                 "the answer to the ambiguity stage"))
        if stage == "direct":  # a planning folder's known-good plan (LLM-as-planner baseline)
            return fence("json", _reference_file(ref / "plan.json", "the plan that answers --mode direct"))
        if stage == "testgen":
            return fence("python", self._tests())
        if stage == "repair":  # the free-text step of `optimus repair`: a change the folder's author wrote
            return fence("json", _reference_file(ref / "repair.json", "the free-text answer of optimus repair"))
        if stage == "rephrase":
            # It cannot rephrase: it returns the statements as they are, which passes the marks check.
            return fence("json", json.dumps(self.problem.snop.problem_info, indent=2))
        raise ConfigError(f"the reference backend has no answer for stage {stage!r}")

    def _tests(self) -> str:
        files = [p for p in self.problem.test_files() if p.name != "test_generated.py"]
        if not files:
            raise ConfigError(f"{self.problem.tests_dir}: the reference backend answers testgen from tests/test_*.py; "
                              "there is none")
        return "\n\n".join(p.read_text() for p in files)


class RequestReference:
    """Offline answers for `optimus new`, before any problem folder exists: the request file's folder holds
    reference/new.json, the SNOP and data a model would write. No language model."""

    name = "reference"
    model = "reference"
    cacheable = False
    description = "offline: answers from the request's folder (reference/new.json), no language model"

    def __init__(self, folder: Path):
        self.answer = folder / "reference" / "new.json"
        _reference_file(self.answer, "the answer to optimus new")

    def complete(self, stage: str, messages: list[dict]) -> Completion:
        if stage != "new":
            raise ConfigError(f"the reference backend for a request has no answer for stage {stage!r}")
        text = fence("json", self.answer.read_text())
        return Completion(text, self.model, sum(len(m["content"].split()) for m in messages), len(text.split()),
                          "stop", 0.0)


def _reference_file(path: Path, what: str) -> str:
    if not path.is_file():
        raise ConfigError(f"{path}: the reference backend reads {what} there; there is none "
                          "(or use an OpenAI-compatible model: set OPENAI_API_KEY or OPENAI_BASE_URL)")
    return path.read_text()


def fence(lang: str, text: str) -> str:
    return f"```{lang}\n{text.rstrip()}\n```\n"
