"""Fault injection for the offline `reference` backend: does the loop feed back the evidence a model needs?

Each fault in CATALOGUE is a source transformation of a problem's reference solver.py (or, for `wrong_test`,
of its tests) plus a predicate over a repair prompt. A FaultPlan, handed to ReferenceBackend, makes the
backend's code answers carry the fault until a debug or fix prompt carries the evidence the fault's
predicate asks for (the traceback names the key, a failing check names the constraint, the time-out is
reported…); then it answers the correct reference program. So a benchmark with faults measures the loop's
feedback, not the oracle: without the evidence, the "model" keeps answering the same faulty code.

A fault lists every way it applies to a program (`candidates`, in source order; empty: it does not apply).
Which candidate is used, and whether it really breaks the program, is the benchmark's business (it runs it).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from optimus.bench.faults.base import Fault, Info, Injected
from optimus.bench.faults.catalogue import CATALOGUE, prompt_part, repair_evidence
from optimus.core.errors import ConfigError

CODE_STAGES = ("codegen", "debug", "fix")
REPAIR_STAGES = ("debug", "fix")

__all__ = ["CATALOGUE", "Fault", "FaultPlan", "Info", "Injected", "parse_spec", "repair_evidence"]


def parse_spec(spec: str | None) -> list[str]:
    """`all`, `none` (or empty) or a comma list of fault names → the names, in catalogue order."""
    spec = (spec or "none").strip()
    if spec == "none":
        return []
    if spec == "all":
        return list(CATALOGUE)
    names = [n.strip() for n in spec.split(",") if n.strip()]
    unknown = [n for n in names if n not in CATALOGUE]
    if unknown:
        raise ConfigError(
            f"--faults: unknown fault {', '.join(unknown)}; choose all, none or some of "
            f"{', '.join(CATALOGUE)}"
        )
    return [n for n in CATALOGUE if n in names]


@dataclass
class FaultPlan:
    """The hook ReferenceBackend calls on every answer: serve the faulty artifact until repaired.

    Records what happened: `served` (faulty answers given), `repair_prompts` (debug/fix prompts seen while
    the fault was live) and `evidence` (whether each of those carried the evidence), `repaired`."""

    injected: Injected
    served: int = 0
    repaired: bool = False
    repair_prompts: int = 0
    evidence: list[bool] = field(default_factory=list)
    doubts: list[bool] = field(default_factory=list)  # per assess prompt while live: did the answer doubt it

    @property
    def fault(self) -> Fault:
        return CATALOGUE[self.injected.fault]

    def answer(self, stage: str, messages: list[dict], text: str) -> str:
        from optimus.core.llm.reference import fence

        if self.injected.target == "tests":
            if stage == "testgen":
                self.served += 1
                return fence("python", self.injected.text)
            return text
        if stage == "assess":
            return self._assess(messages, text)
        if stage not in CODE_STAGES or self.repaired:
            return text
        if stage in REPAIR_STAGES:
            prompt = next((m["content"] for m in reversed(messages) if m["role"] == "user"), "")
            seen = self.fault.evidence(self.injected, repair_evidence(stage, prompt))
            self.repair_prompts += 1
            self.evidence.append(seen)
            if seen:
                self.repaired = True
                return text
        self.served += 1
        return fence("python", self.injected.text)

    def _assess(self, messages: list[dict], text: str) -> str:
        """While the faulty program is live, a fault a reader can see in it (Fault.doubt) makes the review
        score the code 0, quoting it; only when the assess prompt really shows the program."""
        from optimus.core.llm.reference import fence

        if self.fault.doubt is None or self.repaired or not self.served:
            return text
        prompt = next((m["content"] for m in messages if m["role"] == "user"), "")  # the prompt, not feedback
        reason = self.fault.doubt(self.injected, prompt_part("assess", prompt, "code"))
        self.doubts.append(reason is not None)
        if reason is None:
            return text
        fine = "not judged: the offline reference backend has no model"
        steps = [{"step": "formulation", "score": 1, "reason": fine}, {"step": "code", "score": 0, "reason": reason},
                 {"step": "output", "score": 1, "reason": fine}]
        return fence("json", json.dumps({"steps": steps}))

    def to_dict(self) -> dict:
        return {
            "fault": self.injected.fault,
            "where": self.injected.where,
            "served": self.served,
            "repair_prompts": self.repair_prompts,
            "evidence": self.evidence,
            "doubts": self.doubts,
            "repaired": self.repaired,
        }
