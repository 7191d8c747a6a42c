"""report.json: what a run ended with, and whether that matches the known answer."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Any

# Tolerances for "the objective matches expected.json" (the paper's success criterion).
REL_TOL = 1e-4
ABS_TOL = 1e-6


def objective_matches(value: Any, expected: float | None, rel: float = REL_TOL, abs_tol: float = ABS_TOL) -> bool:
    if expected is None or not isinstance(value, (int, float)) or isinstance(value, bool):
        return False
    return math.isclose(float(value), float(expected), rel_tol=rel, abs_tol=abs_tol)


def label_abs_tol(expected: dict | None, floor: float = ABS_TOL) -> float:
    """The absolute tolerance a label allows: a value printed with few digits (`0.333`, abs_tol 0.0005 in
    expected.json) matches anything it rounds from; never tighter than `floor`."""
    written = (expected or {}).get("abs_tol")
    return max(floor, float(written)) if isinstance(written, (int, float)) else floor


@dataclass
class Report:
    problem: str
    mode: str
    llm: dict[str, Any]  # backend, model, and for the reference backend what it is
    sandbox: str
    family: str | None = None  # the solver family that ran (optimus.core.families)
    # solved (verified by re-solve or tests, harness checks passed) | ran (executed, checks passed, nothing could
    # verify it) | failed | infeasible | unbounded | error
    status: str = "error"
    solver_status: str | None = None
    objective: float | None = None
    # A MILP its time limit stopped with a solution (solver_status time_limit): the best bound and the relative gap
    # (a fraction) the program reported; the objective is then that solution's, an answer with a gap
    bound: float | None = None
    gap: float | None = None
    expected: dict[str, Any] | None = None
    objective_matches: bool | None = None  # None when there is no expected objective
    verified: bool = False  # solved with tests passing, or the expected status reached
    executed: bool = False
    tests: dict[str, Any] = field(default_factory=dict)
    verification: dict[str, Any] | None = None  # re-solve of the captured model (optimus.core.families.pulp.verify)
    checks: list[dict[str, Any]] = field(default_factory=list)  # the harness's own checks (optimus.core.checks)
    # The self-assessment rounds after the tests passed: scores and reasons per step, and what was done
    # about a 0 (optimus.core.stages.assess). The model's judgement, not a check; None when assessment was off.
    assessment: list[dict[str, Any]] | None = None
    # A proven "no solution" read against its statements before it was the answer (optimus.core.stages.review)
    review: dict[str, Any] | None = None
    attempts: dict[str, int] = field(default_factory=dict)
    variants: list[dict[str, Any]] = field(default_factory=list)
    winning_variant: int | None = None
    llm_usage: dict[str, Any] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)
    run_dir: str = ""
    message: str = ""
    # --samples K > 1 (optimus.commands.samples): the groups of agreeing samples, the chosen one (whose result this report
    # is) and each sample's calls and tokens; None for a single sample
    consensus: dict[str, Any] | None = None
    # two verified answers that differ: the statements their formulations read differently (optimus.core.stages.ambiguity)
    ambiguity: dict[str, Any] | None = None
    # What the verdict rests on (optimus.core.assumptions): the folder's assumptions (new.json, empty data), the status
    # with them ("solved under 2 assumptions"), and a goal program's stages in priority order (objective: the first)
    assumptions: list[dict[str, Any]] = field(default_factory=list)
    status_detail: str = ""
    stages: list[dict[str, Any]] | None = None
    # Findings that are neither checks nor failures (optimus.core.datause: data keys and request numbers nothing read)
    warnings: list[dict[str, Any]] = field(default_factory=list)
    # The number check's findings about the request (new.json, as confirmed): shown, never counted as assumptions
    findings: list[dict[str, Any]] = field(default_factory=list)
    # Each assumption with an alternative solved under it (optimus.commands.assumption_checks): does it move the answer
    assumption_checks: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)
