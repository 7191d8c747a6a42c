"""What a fault is: the injected artifact, what a fault may look at, and the catalogue entry's shape."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Injected:
    """One concrete fault: the faulty artifact and what was changed (the predicate reads `detail`)."""

    fault: str
    target: str  # "code" (solver.py) or "tests" (the generated test module)
    text: str
    where: str  # one line for reports: what was changed
    detail: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Info:
    """What a fault may look at besides the source: the problem's data keys, output keys and tests."""

    data_keys: frozenset[str] = frozenset()
    output_keys: frozenset[str] = frozenset()
    tests: str = ""  # the reference testgen answer (the supervised test modules, joined)


@dataclass(frozen=True)
class Fault:
    name: str
    target: str
    summary: str  # what the fault is
    needs: str  # the evidence a repair needs: what the predicate looks for
    candidates: Callable[[str, Info], list[Injected]]
    evidence: Callable[[Injected, str], bool]
    # What a self-assessment that reads the program shown to it (the assess prompt's program part) would
    # object, or None when nothing there shows the fault. None: the fault leaves the assess answer alone.
    doubt: Callable[[Injected, str], str | None] | None = None
