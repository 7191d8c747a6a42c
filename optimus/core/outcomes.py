"""The words every layer shares: a run's status, what a sandboxed execution left, the re-check's verdict.

This module is the floor of the house: everything may import it and it imports nothing of optimus, so the
stages, the families and the commands agree on one vocabulary without importing each other.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any


class Status(str, Enum):
    """What solution.json may report, one set for every family. `feasible`: a solution that satisfies every
    statement, with no objective to optimise (a satisfaction problem) or none proven optimal (a satisficing plan).
    A str subclass, so `status == Status.OPTIMAL` holds for the plain word read from JSON."""

    OPTIMAL = "optimal"
    FEASIBLE = "feasible"
    INFEASIBLE = "infeasible"
    UNBOUNDED = "unbounded"
    TIME_LIMIT = "time_limit"
    ERROR = "error"

    def __str__(self) -> str:
        return self.value


STATUSES = tuple(s.value for s in Status)
FOUND = (Status.OPTIMAL.value, Status.FEASIBLE.value)  # a solution whose output the tests check
NO_SOLUTION = (Status.INFEASIBLE.value, Status.UNBOUNDED.value)  # the solver's answer is "none exists"
WITH_VALUES = (*FOUND, Status.TIME_LIMIT.value)  # statuses whose solution.json carries variable values


@dataclass
class Execution:
    """One sandboxed run of a program and what it left: output.json and solution.json as read, or the evidence
    (words for the repair prompt) of what went wrong."""

    workdir: Path
    result: Any  # optimus.core.sandbox.RunResult: exit code, limits hit, output, seconds
    output: dict | None = None
    solution: dict | None = None
    evidence: str | None = None  # None when the program ran and wrote both files correctly
    # Findings that fail nothing: data.json keys the program never read (optimus.core.datause); None: not traced
    warnings: list[dict] | None = None

    @property
    def executed(self) -> bool:
        """The code ran and wrote an output.json that parses (the paper's execution rate)."""
        return self.output is not None

    @property
    def ok(self) -> bool:
        return self.evidence is None


OUTCOMES = ("agrees", "disagrees", "unconfirmed", "skipped", "error")  # a Verdict's outcome


@dataclass
class Verdict:
    """A family's independent re-check of what one execution captured."""

    outcome: str  # one of OUTCOMES
    summary: str  # one line
    findings: list[str] = field(default_factory=list)  # each a disagreement, with its numbers
    claimed: dict[str, Any] = field(default_factory=dict)
    resolves: list[dict[str, Any]] = field(default_factory=list)
    values_check: dict[str, Any] | None = None  # solution.json's "values" against the captured model
    diagnosis: dict[str, Any] | None = None  # "no solution" explained in the user's statements
    capture: dict[str, Any] | None = None  # statement → rows of the captured model
    seconds: float = 0.0
    # An answer at a time limit, verified by substitution: {"objective", "bound" (None: not given), "gap" (a
    # fraction recomputed from the two; None without a bound), "claimed_gap", "words"}; None for other answers.
    incumbent: dict[str, Any] | None = None

    @property
    def disagrees(self) -> bool:
        return self.outcome == "disagrees"

    def evidence(self) -> str:
        """What the fix prompt gets: the disagreements, then the diagnosis when there is one."""
        parts = [f"- {f}" for f in self.findings]
        if self.diagnosis:
            parts.append(self.diagnosis["message"])
        return "\n".join(parts)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def stages_of(solution: dict[str, Any]) -> list[dict[str, Any]] | None:
    """solution.json's `stages` when it is a list of {"name", "objective": number}, first priority first."""
    stages = solution.get("stages")
    if not isinstance(stages, list) or not stages:
        return None
    good = all(isinstance(s, dict) and isinstance(s.get("objective"), (int, float))
               and not isinstance(s.get("objective"), bool) for s in stages)
    return [{"name": str(s.get("name", f"stage {i}")), "objective": s["objective"],
             **({"sense": s["sense"]} if "sense" in s else {})} for i, s in enumerate(stages, 1)] if good else None
