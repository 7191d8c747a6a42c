"""What a question of optimus ask works on: the solved run it is put to (Solved) and what answering needs (Env).
Both optimus.commands.ask and optimus.commands.whatif read them, so they live below both.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from optimus.core.problem import Problem
from optimus.core.prompts import Prompt
from optimus.core.sandbox import Limits
from optimus.core.sandbox.base import Backend as SandboxBackend


@dataclass
class Solved:
    """The run a question is put to: its problem, report and the final attempt's results."""

    run_dir: Path
    problem: Problem
    report: dict
    attempt: Path
    output: dict | None
    solution: dict

    @property
    def values(self) -> dict[str, float]:
        values = self.solution.get("values")
        return {k: v for k, v in values.items() if is_number(v)} if isinstance(values, dict) else {}

    @property
    def offset(self) -> float:
        """The objective's constant term, which model.mps cannot hold (the program says it in solution.json)."""
        c = self.solution.get("objective_constant", 0)
        return float(c) if is_number(c) else 0.0


@dataclass
class Env:
    """What answering needs: the model (stage, prompt → text), the sandbox, how a variant folder is solved."""

    ask_model: Callable[[str, Prompt], str]
    solve_variant: Callable[[Path], dict]  # a variant folder → its report.json (a new formulation and program)
    sandbox: SandboxBackend
    limits: Limits
    mode: str
    words: bool = True
    speaker: str = "the model's paragraph"  # who wrote the paragraph in words, as its label says
    reference_questions: bool = False  # offline: a changed statement's program comes from reference/questions/
    show: Callable[[str], None] = print
    calls: list[int] = field(default_factory=lambda: [0])  # model calls of the current question


def is_number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)
