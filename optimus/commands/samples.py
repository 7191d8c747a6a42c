"""--samples K: K independent formulations of one problem, each through the whole loop, then one answer.

Sample k runs optimus.core.loop.solve in its own folder, runs/<id>/s<k>/, with its own client (transcript, calls and
tokens) and its own backend (`for_sample`: from sample 1 on a request seed of its own; the reference backend's
odd samples read reference/alternative/); from sample 1 on, formulate also asks in its own words
(prompts/independent.txt), so that even a temperature-0 server gives each sample a fresh request. The samples
run in threads, at most MAX_PARALLEL at once (model calls stay within the backend's own budget). A sample whose
first program is the same as an earlier sample's (whitespace aside) stops before running it and joins that
sample's result. optimus.core.consensus groups the verified results and picks the answer; when the two largest groups
differ, one model call (optimus.core.stages.ambiguity) names the statements their formulations read differently.

`solve_samples` is the hook: one problem, one mode, K samples, one Report (the bench's rows call it).
"""

from __future__ import annotations

import json
import threading
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any

from rich.markup import escape

from optimus.core import consensus
from optimus.core.consensus import Group, Sample
from optimus.core.errors import ConfigError
from optimus.core.llm import LLMClient
from optimus.core.llm.client import for_sample
from optimus.core.loop import Events, Options, solve
from optimus.core.problem import Problem
from optimus.core.report import ABS_TOL, REL_TOL, Report
from optimus.core.runstore import RunStore
from optimus.core.sandbox.base import Backend as SandboxBackend
from optimus.core.stages.ambiguity import LABELS, compare
from optimus.core.stages.testgen import GENERATED
from optimus.core.terminal import number

MAX_PARALLEL = 4  # samples under way at once (the bench's default --llm-concurrency)


class Duplicate(Exception):
    """A sample's first program is an earlier sample's: it is not run again."""

    def __init__(self, of: int):
        super().__init__(f"same program as sample {of}")
        self.of = of


class FirstPrograms:
    """The first program each sample runs, published once per sample (None: it never ran one). A sample decides
    whether its own is new only when every earlier sample has published, so "earlier" means a lower number."""

    def __init__(self) -> None:
        self.cond = threading.Condition()
        self.programs: dict[int, str | None] = {}

    def publish(self, sample: int, program: str | None) -> None:
        with self.cond:
            self.programs.setdefault(sample, program)
            self.cond.notify_all()

    def wait(self, sample: int) -> None:
        with self.cond:
            self.cond.wait_for(lambda: sample in self.programs)

    def earlier(self, sample: int, program: str) -> int | None:
        """Publish `program`; the first earlier sample whose first program is the same, if any."""
        self.publish(sample, program)
        with self.cond:
            self.cond.wait_for(lambda: all(i in self.programs for i in range(sample)))
            return next((i for i in range(sample) if self.programs[i] == program), None)


class FirstProgram:
    """One sample's on_program event: its first program waits for the earlier samples' first programs, and an
    identical one raises Duplicate instead of running. Every later program passes."""

    def __init__(self, sample: int, programs: FirstPrograms):
        self.sample, self.programs, self.first = sample, programs, True

    def __call__(self, _number: int, workdir: Path) -> None:
        if self.first:
            self.first = False
            same = self.programs.earlier(self.sample, program_text(Path(workdir)))
            if same is not None:
                raise Duplicate(same)


def program_text(workdir: Path) -> str:
    """What a run would execute, whitespace normalised: every file the family prepared in the work folder."""
    parts = []
    for path in sorted(p for p in workdir.iterdir() if p.is_file() and not p.is_symlink()):
        parts.append(f"{path.name}\n{' '.join(path.read_bytes().decode('utf-8', 'replace').split())}")
    return "\n".join(parts)


class SampleStore(RunStore):
    """runs/<id>/s<k>/: a sample's run folder inside the run's (runs/latest keeps pointing at the run)."""

    def __init__(self, run_dir: Path, sample: int):  # no timestamped folder, no runs/latest
        self.dir = consensus.sample_dir(run_dir, sample)
        self.dir.mkdir(parents=True, exist_ok=True)

    def finished(self) -> None:  # the run's own report.json, not a sample's, makes it runs/latest
        pass


def generates_tests(problem: Problem, options: Options) -> bool:
    """Whether the run writes tests/test_generated.py: then the first sample writes it and the others wait."""
    if options.regen_tests:
        return True
    if options.mode == "autotests":
        return not (problem.tests_dir / GENERATED).exists()
    return options.mode in ("supervised", "full") and not problem.test_files()


def solve_samples(problem: Problem, client: LLMClient, sandbox: SandboxBackend, run: RunStore, options: Options,
                  samples: int, progress: Callable[[str], None] = lambda _: None,
                  rel: float = REL_TOL, abs_tol: float = ABS_TOL) -> Report:
    """One problem in options.mode with `samples` independent samples; returns the run's report (the chosen
    sample's result, with `consensus` and, when two verified answers differ, `ambiguity`) and writes it to
    report.json. `client` is the run's: it asks the ambiguity question, and ends holding every sample's totals."""
    if samples < 1:
        raise ConfigError(f"--samples must be at least 1, got {samples}")
    started = time.monotonic()
    programs, gated = FirstPrograms(), generates_tests(problem, options)
    outcomes = [Sample(k, consensus.sample_dir(run.dir, k)) for k in range(samples)]
    raised: dict[int, BaseException] = {}

    def one(k: int) -> None:
        out, sub = outcomes[k], None
        try:
            if k and gated:  # one sample writes the generated tests; the others then read them
                programs.wait(0)
            store = SampleStore(run.dir, k)
            sub = LLMClient(for_sample(client.backend, k), log=client.log,
                            transcript=store.dir / "transcript.jsonl", use_cache=client.use_cache)
            mine = replace(options, sample=k, regen_tests=options.regen_tests and k == 0)
            out.report = solve(problem, sub, sandbox, store, mine, progress=lambda m: progress(f"s{k}: {m}"),
                               events=Events(on_program=FirstProgram(k, programs)))
        except Duplicate as dup:
            out.duplicate_of = dup.of
            store.write("duplicate.json", {"duplicate_of": dup.of, "why": "its first program is sample "
                                           f"{dup.of}'s (whitespace aside): not run again, it joins that result"})
            progress(f"s{k}: same program as sample {dup.of}: not run again, joins its result")
        except Exception as exc:  # noqa: BLE001 — one sample's failure is that sample's result
            out.error, raised[k] = f"{type(exc).__name__}: {exc}", exc
            progress(f"s{k}: stopped — {out.error}")
        finally:  # whatever happened, later samples must not wait for this one's first program
            programs.publish(k, None)
            out.usage = sub.stats.as_dict() if sub else {}

    with ThreadPoolExecutor(min(samples, MAX_PARALLEL)) as pool:
        list(pool.map(one, range(samples)))
    if len(raised) == samples:  # nothing finished: the first sample's error is the run's (a bad option: exit 2)
        raise raised[0]
    for out in outcomes:
        client.stats.add(out.usage)

    groups = consensus.group(outcomes, rel, abs_tol)
    chosen = consensus.choose(outcomes, groups)
    base = outcomes[chosen].report
    if base is None:  # every sample stopped on an error or joined one that did: the first error is the run's
        raise raised[min(raised)]
    report = replace(base, run_dir=str(run.dir), variants=list(base.variants), tests=dict(base.tests))
    report.consensus = consensus.summary(outcomes, groups, chosen)
    if len(groups) > 1:
        progress(f"ambiguity: verified answers differ, {shown(groups[0])} against {shown(groups[1])}; "
                 "comparing the two formulations")
        report.ambiguity = ambiguity(problem, client, outcomes, groups[:2])
    agree = f"{len(groups[0].members)} of {samples} samples agree" if groups else f"none of {samples} verified"
    report.message = f"{base.message}; sample {chosen} answers, {agree}"
    # From the transcripts: a sample that joined another has no report, but its calls were made all the same.
    transcripts = [o.run_dir / "transcript.jsonl" for o in outcomes] + [run.dir / "transcript.jsonl"]
    report.attempts = dict(sum((stage_counts(t) for t in transcripts), Counter()))
    report.llm_usage = client.stats.as_dict()
    report.seconds = {"llm": round(client.stats.llm_seconds, 3),
                      "sandbox": round(sum(o.report.seconds.get("sandbox", 0) for o in outcomes if o.report), 3),
                      "total": round(time.monotonic() - started, 3)}
    run.write("report.json", report.to_dict())
    return report


def stage_counts(transcript: Path) -> Counter:
    """Exchanges per stage in a transcript (paid, cached or failed, as Context.attempts counts them)."""
    counts: Counter = Counter()
    if transcript.is_file():
        for line in transcript.read_text(encoding="utf-8").splitlines():
            try:
                counts[json.loads(line)["stage"]] += 1
            except (ValueError, KeyError, TypeError):
                continue  # a line cut short by a kill
    return counts


def ambiguity(problem: Problem, client: LLMClient, outcomes: list[Sample], pair: list[Group]) -> dict:
    """report.json `ambiguity`: the two largest groups (A: the answer reported, B: the other), and the statements
    the model says their formulations read differently — or why its answer could not be used."""
    answers = {label: {"status": g.status, "objective": g.objective, "samples": g.members}
               for label, g in zip(LABELS, pair)}
    firsts = [outcomes[g.members[0]] for g in pair]
    failing = [f"sample {s.index}" for s in firsts if any(c.get("passed") is False for c in s.report.checks)]
    texts = [formulation(s) for s in firsts]
    if failing:
        comparison_why = f"{' and '.join(failing)} failed a check"
        differences = []
    elif None in texts:
        comparison_why, differences = "no formulation to compare (the samples answered without one)", []
    else:
        comparison = compare(client, problem.snop, texts[0], texts[1])
        comparison_why, differences = comparison.why, comparison.differences
    result = {"usable": not comparison_why, "why": comparison_why, "answers": answers,
              "statements": [d.to_dict() for d in differences]}
    result["warning"] = warning(result)
    return result


def formulation(sample: Sample) -> str | None:
    """The formulation behind a sample's result: its winning variant's, as last revised."""
    variant = sample.run_dir / f"v{sample.report.winning_variant or 0}"
    revised = sorted(variant.glob("formulation-round*.md"))
    path = revised[-1] if revised else variant / "formulation.md"
    return path.read_text() if path.is_file() else None


def warning(ambiguity: dict) -> str:
    """The line the terminal prints: the readings when the comparison was usable, else that it was not."""
    answers = ambiguity["answers"]

    def answer(label: str) -> str:
        a = answers[label]
        value = number(a["objective"]) if a["objective"] is not None else a["status"]
        who = ", ".join(map(str, a["samples"]))
        return f"{label}: objective {value} (sample{'s' if len(a['samples']) > 1 else ''} {who}" + (
            ", reported)" if label == "A" else ")")

    both = f"{answer('A')}; {answer('B')}"
    if not ambiguity["usable"]:
        return (f"your statements allow two answers: {both}, each verified; the comparison of their formulations "
                f"was unusable ({ambiguity['why']}), so which statements they read differently is not known")
    readings = "; ".join(f"({d['statement']}) A reads: {d['A']} B reads: {d['B']}" for d in ambiguity["statements"])
    return f"your statements allow two answers: {readings} — {both}"


def shown(group: Any) -> str:
    """`objective 17711.2` (rounded for reading), or the status of a group without an objective."""
    objective, status = (group.get("objective"), group.get("status")) if isinstance(group, dict) else (
        group.objective, group.status)
    return f"objective {number(objective)}" if objective is not None else str(status)


def print_samples(report: Report, console) -> None:
    """The terminal's lines about the samples: each group, the unverified, costs per sample, the ambiguity."""
    c = report.consensus or {}
    groups = ", ".join(f"{g['size']} × {shown(g)} (s{', s'.join(map(str, g['samples']))})" for g in c.get("groups", []))
    per = c.get("per_sample", [])
    costs = ", ".join(f"s{r['sample']} {r['calls']} calls/{r['prompt_tokens'] + r['completion_tokens']} tokens"
                      + (f" (joined s{r['duplicate_of']})" if r["duplicate_of"] is not None else "") for r in per)
    console.print(f"  samples: {c.get('samples')} — agreement {c.get('agreement')}: {groups or 'no verified answer'}"
                  + (f"; unverified: s{', s'.join(map(str, c['unverified']))}" if c.get("unverified") else ""),
                  markup=False)
    console.print(f"  per sample: {costs}", markup=False)
    if report.ambiguity:
        console.print(f"  [bold yellow]warning[/]: {escape(report.ambiguity['warning'])}")
