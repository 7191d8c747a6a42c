"""What every stage needs: the problem (and the statement variant being tried), the model, the sandbox, the run."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from optimus.core.families import Family, status_words
from optimus.core.llm import LLMClient
from optimus.core.problem import Problem
from optimus.core.prompts import Prompt, messages
from optimus.core.runstore import RunStore
from optimus.core.sandbox import Limits
from optimus.core.sandbox.base import Backend as SandboxBackend
from optimus.core.snop import Snop
from optimus.core.solver_options import SolverOptions


@dataclass
class Context:
    problem: Problem
    snop: Snop
    client: LLMClient
    sandbox: SandboxBackend
    limits: Limits
    run: RunStore
    data_summary: str
    family: Family | None = None  # None until chosen (formulate chooses when the SNOP leaves it open)
    mode: str = "full"  # the agent's mode; "direct" asks for the solution itself (a plan), not a model of it
    optimal: bool = False  # --optimal: a family with a choice of engines asks for a proven-optimal answer
    sample: int = 0  # which of --samples K independent formulations (optimus.commands.samples); 0: the plain request
    attempts: Counter = field(default_factory=Counter)
    sandbox_seconds: float = 0.0
    solver: SolverOptions = field(default_factory=SolverOptions)  # --time-limit, --mip-gap, --threads

    def ask(self, stage: str, prompt: Prompt, extra: list[dict] | None = None):
        """One exchange with the model for `stage`; counts it."""
        self.attempts[stage] += 1
        return self.client.chat(stage, messages(prompt) + (extra or []), prompt.name, prompt.template_hash)

    def spec_values(self) -> dict[str, str]:
        """The SNOP's parts, as prompts show them. Data values are never among them: only the summary."""
        return {
            "solver_rules": self.family.codegen_rules() if self.family else "",
            "problem_type": self.snop.problem_type,
            "statements": numbered(self.snop.problem_info),
            "objective": self.snop.objective,
            "input_format": self.snop.input_format,
            "data_summary": self.data_summary,
            "output_info": bullets(self.snop.output_info) or "(see the output shape)",
            "output_format": self.snop.output_format,
            "found_status": status_words(self.family, self.snop.problem_type),
            **(self.family.prompt_values(self) if self.family else {}),
        }


def numbered(statements: list[str]) -> str:
    return "\n".join(f"(s{i}) {s}" for i, s in enumerate(statements, 1))


def bullets(items: list[str]) -> str:
    return "\n".join(f"- {item}" for item in items)
