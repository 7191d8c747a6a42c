"""The offline `reference` backend: no language model at all.

It answers each stage from the problem folder's reference/ files (formulation.md, solver.py) and tests/, so
the whole pipeline — sandbox, tests, repair loop, report — runs with no network, for demos, CI and
benchmarks of the harness. It measures nothing about a model. A fault plan (optimus.faults) can make its
first answers wrong, to test whether the loop feeds back the evidence a model would need.
"""

from __future__ import annotations

import json
from typing import Protocol

from optimus.errors import ConfigError
from optimus.llm.client import Completion
from optimus.problem import Problem

DESCRIPTION = "offline: answers from the problem's reference/ folder, no language model"


class FaultPlan(Protocol):
    def answer(self, stage: str, messages: list[dict], text: str) -> str: ...


class ReferenceBackend:
    name = "reference"
    model = "reference"
    cacheable = False

    def __init__(self, problem: Problem, faults: FaultPlan | None = None):
        self.problem, self.faults = problem, faults
        ref = problem.reference_dir
        missing = [n for n in ("formulation.md", "solver.py") if not (ref / n).is_file()]
        if missing:
            raise ConfigError(f"{ref}: the reference backend needs {' and '.join(missing)} there "
                              "(or use an OpenAI-compatible model: set OPENAI_API_KEY or OPENAI_BASE_URL)")

    def complete(self, stage: str, messages: list[dict]) -> Completion:
        text = self._answer(stage)
        if self.faults is not None:
            text = self.faults.answer(stage, messages, text)
        words = sum(len(m["content"].split()) for m in messages)
        return Completion(text, self.model, words, len(text.split()), "stop", 0.0)

    def _answer(self, stage: str) -> str:
        ref = self.problem.reference_dir
        if stage == "formulate":
            return (ref / "formulation.md").read_text()
        if stage in ("codegen", "debug", "fix"):
            return fence("python", (ref / "solver.py").read_text())
        if stage == "testgen":
            return fence("python", self._tests())
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


def fence(lang: str, text: str) -> str:
    return f"```{lang}\n{text.rstrip()}\n```\n"
