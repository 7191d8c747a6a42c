"""`optimus bench --roles`: the model as solver, verifier and heuristic, and its self-assessment, each measured
against the harness's formal labels (Li et al.'s analysis of LLMs in planning, for every family).

Per problem (optimus.bench.roles_candidates builds and labels the candidates):
- solver: one call; the model answers the solution itself (pddl: the plan, with the `direct` prompt), labelled
  like any candidate;
- verifier: one call per candidate: feasible? optimal?;
- heuristic: one call per pair of candidates and one for a set of four: the order, best first. Candidates are
  shown in a seeded shuffle, so their position tells nothing.
Prompts never carry data values: statements, names, types and shapes, and the candidate's output.json cut short
as self-assessment cuts it. One line per problem in roles.jsonl (a rerun with the same --out skips those).

Offline, `RolesReference` answers: the solver with the folder's reference solution, the verifier "feasible and
optimal" to everything (a judge that trusts), the heuristic with the order shown (a random order). Those are
reference answers, not a model's: the tables say so; they measure the scoring, and give the base rates a model
must beat.
"""

from __future__ import annotations

import json
import random
import re
import string
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from optimus.bench import roles_candidates as rc
from optimus.bench.backends import SandboxSlots, Throttled
from optimus.bench.draw import Subject
from optimus.bench.judge import family_of, final_attempt
from optimus.bench.roles_scoring import quality, section
from optimus.bench.runner import BenchOptions, prepare, problem_dirs
from optimus.core.datasummary import summarize_problem
from optimus.core.errors import LLMError
from optimus.core.llm import CodeExtractionError, LLMClient, LLMLog
from optimus.core.llm.client import Backend, Completion
from optimus.core.llm.extract import json_answer
from optimus.core.problem import short_name
from optimus.core.prompts import render
from optimus.core.sandbox import Limits, get_backend
from optimus.core.snop import objective_sense
from optimus.core.stages.assess import MAX_RESULT_CHARS, cut_short
from optimus.core.stages.context import Context

ROLES_FILE = "roles.jsonl"
SET_OF = 4  # the larger ordered set; every pair is asked too
REFERENCE_NOTE = ("reference answers, not a model's: the solver answers the folder's reference solution, the "
                  "verifier calls every candidate feasible and optimal, the heuristic keeps the (shuffled) order "
                  "shown — base rates a model must beat")


class RolesReference:
    """Offline answers for the roles (no language model): see REFERENCE_NOTE."""

    name = "reference"
    model = "reference"
    cacheable = False

    def __init__(self, solution: dict | None):
        self.solution = solution

    def complete(self, stage: str, messages: list[dict]) -> Completion:
        prompt = messages[-1]["content"]
        if stage in ("roles_solver", "direct"):
            body = self.solution
        elif stage == "roles_verifier":
            body = {"feasible": True, "optimal": True, "reason": "reference answer: every candidate trusted"}
        else:
            shown = re.findall(r"^Candidate ([A-Z]):", prompt, re.MULTILINE)
            body = {"order": shown, "reason": "reference answer: the order shown"}
        text = f"```json\n{json.dumps(body)}\n```\n"
        return Completion(text, self.model, len(prompt.split()), len(text.split()), "stop", 0.0)


def run_roles(opts: BenchOptions, progress: Callable[[str], None] = print) -> list[dict]:
    """One row per problem with ground truth and candidates; returns every row in roles.jsonl."""
    opts.out.mkdir(parents=True, exist_ok=True)
    path = opts.out / ROLES_FILE
    lines = path.read_text().splitlines() if path.exists() else []
    rows = list({r["problem"]: r for r in map(json.loads, filter(None, lines))}.values())  # a problem's last row
    done = {r["problem"] for r in rows if "skipped" not in r}  # a skipped problem is tried again
    todo = [f for f in problem_dirs(opts.dirs) if short_name(f) not in done]
    sandbox = SandboxSlots(get_backend(opts.sandbox), opts.sandboxes)
    limits = Limits(wall_s=opts.timeout, cpu_s=max(1, int(opts.timeout)), memory_mb=opts.memory_mb)
    shared = opts.make_backend() if opts.make_backend else None
    if shared is not None:
        shared = Throttled(shared, threading.Semaphore(opts.llm_concurrency))
    lock = threading.Lock()

    def one(folder: Path) -> None:
        subject, why = prepare(folder, opts.out, opts.timeout, opts.llm == "reference")
        row = {"problem": short_name(folder), "skipped": why}
        try:
            row = measure(subject, opts, sandbox, limits, shared) if subject else row
        except Exception as exc:  # noqa: BLE001 — one broken problem must not end the bench; its row says why
            row["skipped"] = f"{type(exc).__name__}: {exc}"
        with lock, path.open("a", encoding="utf-8") as fh:
            fh.write(json.dumps(row) + "\n")
            rows[:] = [r for r in rows if r["problem"] != row["problem"]] + [row]
        progress(f"roles {row['problem']}: " + (row.get("skipped") or f"{len(row['candidates'])} candidates"))

    with ThreadPoolExecutor(opts.jobs) as pool:
        list(pool.map(one, todo))
    return rows


def measure(subject: Subject, opts: BenchOptions, sandbox, limits: Limits, shared: Backend | None) -> dict:
    work = opts.out / "work" / subject.key / "roles"
    work.mkdir(parents=True, exist_ok=True)
    family = family_of(subject.problem)
    row: dict = {"problem": subject.key, "family": family.name, "expected": subject.expected}
    cands = rc.load(work / "candidates.json")
    if not cands:
        try:
            cands = rc.build(subject, sandbox, limits, work, opts.seed)
        except rc.NoCandidates as exc:
            return {**row, "skipped": f"no candidates: {exc}"}
        rc.save(cands, work / "candidates.json")
    row["candidates"] = [c.to_dict() for c in cands]
    backend = shared or RolesReference(cands[0].output)
    row["llm"] = f"{backend.name}:{backend.model}"
    client = LLMClient(backend, log=LLMLog() if backend.cacheable else None, transcript=work / "transcript.jsonl",
                       use_cache=False)
    problem = subject.problem
    ctx = Context(problem, problem.snop, client, sandbox, limits, None,
                  summarize_problem(problem), family=family)
    sense = subject.expected.get("sense") or objective_sense(problem.snop.objective)
    key = rc.objective_key(cands[0].output, cands[0].objective)
    for role, task in (("solver", lambda: solver_role(ctx, subject, work, key, cands)),
                       ("verifier", lambda: verifier_role(ctx, cands)),
                       ("heuristic", lambda: heuristic_role(ctx, cands, sense, f"{opts.seed}:{subject.key}"))):
        before = client.stats.as_dict()
        row[role] = task()
        after = client.stats.as_dict()
        row[role + "_usage"] = {"calls": after["calls"] - before["calls"],
                                "tokens": (after["prompt_tokens"] + after["completion_tokens"])
                                - (before["prompt_tokens"] + before["completion_tokens"])}
    return row


def ask_json(ctx: Context, stage: str, prompt) -> object | None:
    """The JSON of the model's answer; None when there is none (counted as unreadable, never repaired)."""
    try:
        answer = ctx.ask(stage, prompt)
        return json_answer(answer.text, answer.finish_reason)
    except (LLMError, CodeExtractionError):
        return None


def solver_role(ctx: Context, subject: Subject, work: Path, key: str | None, known: list[rc.Candidate]) -> dict:
    """The model's own answer, labelled as any candidate. A pddl folder asks with the `direct` prompt."""
    name = ctx.family.prompt_name("direct")
    stage = "direct" if name != "direct" else "roles_solver"
    answer = ask_json(ctx, stage, render(name if stage == "direct" else "roles_solver", ctx.spec_values()))
    if not isinstance(answer, (dict, list)):
        return {"feasible": False, "optimal": False, "checks": {"answer": "no JSON"}}
    if isinstance(answer, list) and rc.plan_files(subject) is None:
        return {"feasible": False, "optimal": False, "checks": {"answer": "not an object"}}
    cand = rc.label_answer(subject, answer, ctx.sandbox, ctx.limits, work / "solver", key, known)
    return {"feasible": cand.feasible and not cand.disputed, "optimal": cand.optimal and not cand.disputed,
            "disputed": cand.disputed, "objective": cand.objective,
            "checks": cand.checks}


def verifier_role(ctx: Context, cands: list[rc.Candidate]) -> list[dict]:
    out = []
    for i, cand in enumerate(cands):
        if cand.disputed:
            continue
        prompt = render("roles_verifier", ctx.spec_values(),
                        candidate=cut_short("output.json", cand.output, MAX_RESULT_CHARS))
        answer = ask_json(ctx, "roles_verifier", prompt)
        said = answer if isinstance(answer, dict) else {}
        out.append({"candidate": i, "feasible": cand.feasible, "optimal": cand.optimal,
                    "said_feasible": _bool(said.get("feasible")), "said_optimal": _bool(said.get("optimal"))})
    return out


def _bool(value) -> bool | None:
    return value if isinstance(value, bool) else None


def heuristic_role(ctx: Context, cands: list[rc.Candidate], sense: str | None, seed: str) -> list[dict]:
    usable = [i for i, c in enumerate(cands) if not c.disputed]
    sets = [list(p) for p in _pairs(usable)] + ([usable[:SET_OF]] if len(usable) >= SET_OF else [])
    out, rng = [], random.Random(seed)
    for members in sets:
        shown = rng.sample(members, len(members))
        letters = string.ascii_uppercase[: len(shown)]
        budget = MAX_RESULT_CHARS // len(shown)
        text = "\n".join(f"Candidate {letter}: " + cut_short("output.json", cands[i].output, budget)
                         for letter, i in zip(letters, shown))
        prompt = render("roles_heuristic", ctx.spec_values(), candidates=text,
                        letters=", ".join(f'"{x}"' for x in letters))
        answer = ask_json(ctx, "roles_heuristic", prompt)
        order = answer.get("order") if isinstance(answer, dict) else None
        truth = [quality(cands[i].feasible, cands[i].objective, sense) for i in shown]
        ordered = None
        if isinstance(order, list) and sorted(map(str, order)) == sorted(letters):
            ordered = [truth[letters.index(x)] for x in order]
        out.append({"size": len(shown), "shown": shown, "truth": truth, "ordered": ordered})
    return out


def _pairs(items: list[int]) -> list[tuple[int, int]]:
    return [(a, b) for k, a in enumerate(items) for b in items[k + 1:]]


def assessment_records(bench_rows: list[dict], family: dict[str, str]) -> dict[str, list[dict]]:
    """Per family, one record per full-mode row: did the last assessment of the row's final program score every
    step 1 (None: the final program was never assessed), and is the bench's verdict on it success."""
    out: dict[str, list[dict]] = {}
    for row in bench_rows:
        if row.get("mode") != "full" or row["problem"] not in family:
            continue
        out.setdefault(family[row["problem"]], []).append({"approved": approved(Path(row["run_dir"])),
                                                          "success": row["success"]})
    return out


def approved(run_dir: Path) -> bool | None:
    try:
        rounds = json.loads((run_dir / "report.json").read_text()).get("assessment") or []
    except (OSError, ValueError):
        return None
    last = final_attempt(run_dir)
    if not rounds or last is None or rounds[-1].get("error") or not rounds[-1].get("scores"):
        return None
    if f"attempt-{rounds[-1].get('attempt', -1):02d}" != last.name:
        return None  # the last round judged an earlier program, which the bench never judged
    return all(s["score"] == 1 for s in rounds[-1]["scores"])


def append_section(opts: BenchOptions, bench_rows: list[dict], summary: Path, progress=print) -> None:
    """Measure the roles and add their tables to summary.md."""
    rows = run_roles(opts, progress)
    family = {r["problem"]: r["family"] for r in rows if r.get("family")}
    note = REFERENCE_NOTE if opts.llm == "reference" else None
    text = "\n".join(section(rows, assessment_records(bench_rows, family), note))
    summary.write_text(summary.read_text().rstrip("\n") + "\n\n" + text + "\n")
