"""Agreement among samples: the verified ones grouped by status and objective, the answer chosen, costs per sample.

A group holds the samples whose verified results agree: the same status and objectives within the bench's
tolerance (optimus.core.report.objective_matches). The answer is the largest group, ties going to the group with the
earliest sample; the report is that group's first sample's. Where no sample was verified, the report is the
earliest sample that finished, and there is no group. A sample that stopped because its program was an earlier
sample's (optimus.commands.samples) counts with that sample's result.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from optimus.core.report import ABS_TOL, REL_TOL, Report, objective_matches


@dataclass
class Sample:
    """One of K samples: what its own run ended with, or why it has no report of its own."""

    index: int
    run_dir: Path
    report: Report | None = None
    duplicate_of: int | None = None  # its first program was this earlier sample's: not run again
    error: str | None = None  # it stopped on an error outside the loop (the loop's own ends are in report)
    usage: dict[str, Any] = field(default_factory=dict)  # its client's calls and tokens (LLMStats.as_dict)


@dataclass
class Group:
    status: str
    objective: float | None
    members: list[int]

    def to_dict(self) -> dict:
        return {"status": self.status, "objective": self.objective, "size": len(self.members),
                "samples": self.members}


def sample_dir(run_dir: Path, index: int) -> Path:
    return run_dir / f"s{index}"


def result_of(samples: list[Sample], sample: Sample) -> Report | None:
    """A sample's report, or for one that joined an earlier sample, that sample's."""
    return samples[sample.duplicate_of].report if sample.duplicate_of is not None else sample.report


def same_answer(a: Report, b: Report, rel: float = REL_TOL, abs_tol: float = ABS_TOL) -> bool:
    if a.status != b.status:
        return False
    if a.objective is None or b.objective is None:
        return a.objective is None and b.objective is None
    return objective_matches(a.objective, b.objective, rel, abs_tol)


def group(samples: list[Sample], rel: float = REL_TOL, abs_tol: float = ABS_TOL) -> list[Group]:
    """The verified samples grouped by answer, largest group first (ties: the one with the earliest sample).
    Each group's first member ran its program itself: a sample that joined another comes after it."""
    groups: list[tuple[Report, Group]] = []
    for sample in samples:
        report = result_of(samples, sample)
        if report is None or not report.verified:
            continue
        home = next((g for first, g in groups if same_answer(first, report, rel, abs_tol)), None)
        if home is None:
            groups.append((report, Group(report.status, report.objective, [sample.index])))
        else:
            home.members.append(sample.index)
    return sorted((g for _, g in groups), key=lambda g: (-len(g.members), g.members[0]))


def choose(samples: list[Sample], groups: list[Group]) -> int:
    """The sample whose report is the answer: the largest group's first, else the earliest that finished."""
    if groups:
        return groups[0].members[0]
    return next((s.index for s in samples if s.report is not None), 0)


def agreement(groups: list[Group], count: int) -> str:
    """full: every sample in one verified group; split: some verified, not all agreeing; none: nothing verified."""
    if not groups:
        return "none"
    return "full" if len(groups) == 1 and len(groups[0].members) == count else "split"


def summary(samples: list[Sample], groups: list[Group], chosen: int) -> dict:
    """report.json `consensus`."""
    rows = []
    for s in samples:
        report = result_of(samples, s)
        rows.append({"sample": s.index, "run_dir": s.run_dir.name, "duplicate_of": s.duplicate_of,
                     "status": report.status if report else "error",
                     "objective": report.objective if report else None,
                     "verified": bool(report and report.verified), "error": s.error,
                     **{k: s.usage.get(k, 0) for k in ("calls", "cached_calls", "prompt_tokens",
                                                       "completion_tokens")}})
    grouped = {m for g in groups for m in g.members}
    return {
        "samples": len(samples),
        "chosen": chosen,
        "chosen_run_dir": samples[chosen].run_dir.name,
        "agreement": agreement(groups, len(samples)),
        "groups": [g.to_dict() for g in groups],
        "unverified": [r["sample"] for r in rows if r["sample"] not in grouped],
        "per_sample": rows,
    }


def chosen_run_dir(run_dir: Path) -> Path:
    """The folder whose attempts are the run's answer: the chosen sample's when the run took several samples
    (report.json `consensus`), else the run's own."""
    try:
        consensus = json.loads((run_dir / "report.json").read_text()).get("consensus") or {}
    except (OSError, ValueError, AttributeError):
        return run_dir
    name = consensus.get("chosen_run_dir")
    # Only a plain sample folder name: report.json is ours, but a run folder may travel and be edited.
    if isinstance(name, str) and name.startswith("s") and name[1:].isdigit() and (run_dir / name).is_dir():
        return run_dir / name
    return run_dir


def bench_row(consensus: dict, ambiguity: dict | None) -> dict:
    """What a bench row keeps of a run's samples: the groups, the agreement, costs per sample, and the ambiguity
    report's statements (optimus.bench.agreement reads it)."""
    per = consensus.get("per_sample", [])
    return {
        "k": consensus.get("samples"),
        "agreement": consensus.get("agreement"),
        "groups": [{"objective": g["objective"], "status": g["status"], "samples": g["samples"]}
                   for g in consensus.get("groups", [])],
        "duplicates": sum(r.get("duplicate_of") is not None for r in per),
        "calls": [r.get("calls", 0) for r in per],
        "tokens": [r.get("prompt_tokens", 0) + r.get("completion_tokens", 0) for r in per],
        "ambiguity": None if ambiguity is None else {
            "usable": ambiguity.get("usable"), "why": ambiguity.get("why", ""),
            "statements": [d["statement"] for d in ambiguity.get("statements", [])]},
    }
