"""`optimus repair RUN_DIR`: a dialogue that makes an infeasible problem feasible, with the user.

Each round shows the conflicting statements and up to K candidate changes ranked by size (optimus.core.changes: a
limit moved, an assertion relaxed, a statement dropped; data changes checked by re-running the run's program on
the changed data before they are shown). The user picks one by number, protects a statement ("never touch s4"), or answers in free text, which one
model call (prompt repair.txt) turns into a concrete change, shown as a diff before it is applied.

A change is applied to a new variant folder `<problem>/variants/r<k>/` (the original is never modified), solved
with the run's mode, and the dialogue goes on until a solve is feasible, the user stops, or --rounds run out.
Every round is a line of `<RUN_DIR>/repair.jsonl`.
"""

from __future__ import annotations

import contextlib
import copy
import json
import re
import shutil
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from optimus.commands.statement_tests import restate_tests
from optimus.core.changes import (
    FEASIBLE,
    Candidate,
    Edit,
    Prober,
    apply_edit,
    candidates,
    get_at,
    outward,
    statements_of_key,
    where,
)
from optimus.core.diagnose import final_attempt
from optimus.core.errors import ConfigError, SpecError
from optimus.core.files import read_json
from optimus.core.outcomes import NO_SOLUTION
from optimus.core.problem import Problem, load_problem
from optimus.core.runstore import problem_of
from optimus.core.sandbox import Limits
from optimus.core.sandbox.base import Backend as SandboxBackend
from optimus.core.tables import tables_dir
from optimus.core.terminal import quote, verdict_words

NONE_LEFT = "no change left that keeps your constraints"
_PROTECT = re.compile(r"^\s*(?:never\s+touch|refuse|keep|protect|not|no)\s+((?:s\d+[\s,]*(?:and\s+)?)+)\s*$", re.IGNORECASE)
_STOP = {"", "q", "quit", "stop", "exit"}
MAX_BAD_ANSWERS = 3


# ---- applying a change to a variant folder ------------------------------------------------------------------


def variant_dir(root: Path, prefix: str = "r") -> Path:
    """The next free `variants/<prefix><n>/` (r: repair, q: ask)."""
    n = 1
    while (root / "variants" / f"{prefix}{n}").exists():
        n += 1
    return root / "variants" / f"{prefix}{n}"


def apply(problem: Problem, cand: Candidate, dest: Path) -> list[str]:
    """Copy the folder (not runs/, variants/ or expected.json: the answer changes) and change it; the diff."""
    # A changed statement needs a new program: the folder's reference/ program encodes the old statements.
    skip = ("runs", "variants", "expected.json", "new") + (("reference",) if cand.drop or cand.rewrite else ())
    ignore = shutil.ignore_patterns(*skip)
    shutil.copytree(problem.root, dest, ignore=ignore, symlinks=False)
    data = copy.deepcopy(problem.data)
    diff = []
    for e in cand.edits:
        apply_edit(data, e)
        diff.append(f"data.json {e.text()}")
    (dest / "data.json").write_text(json.dumps(data, indent=1) + "\n")
    if cand.drop or cand.rewrite:
        snop = copy.deepcopy(problem.snop)
        for sid, text in cand.rewrite.items():
            k = int(sid[1:])
            diff += [f"- ({sid}) {snop.problem_info[k - 1]}", f"+ ({sid}) {text}"]
            snop.problem_info[k - 1] = text
        for sid in sorted(cand.drop, key=lambda s: -int(s[1:])):
            diff.append(f"- ({sid}) {snop.problem_info[int(sid[1:]) - 1]}")
            del snop.problem_info[int(sid[1:]) - 1]
        # The folder's tests were written for the old statements: a test of a changed one is not evidence.
        diff += restate_tests(dest / "tests", problem.snop.problem_info, problem.data,
                              {int(s[1:]) for s in cand.drop}, {int(s[1:]) for s in cand.rewrite})
        from optimus.core.snop import dump_snop

        for name in ("snop.json", "description.txt"):
            (dest / name).unlink(missing_ok=True)
        (dest / "snop.json").write_text(dump_snop(snop, "json"))
    return diff


# ---- the free-text step --------------------------------------------------------------------------------------


def from_words(words: str, problem: Problem, diagnosis: dict, protected: set[str], ask: Callable) -> Candidate:
    """One model call turns the user's words into edits (set/add/multiply a value), rewrites or drops."""
    from optimus.core.datasummary import summarize_problem
    from optimus.core.llm.extract import json_answer
    from optimus.core.prompts import render
    from optimus.core.stages.context import numbered

    prompt = render("repair", statements=numbered(problem.snop.problem_info), input_format=problem.snop.input_format,
                    data_summary=summarize_problem(problem), conflict=", ".join(diagnosis.get("statements", [])),
                    protected=", ".join(sorted(protected)) or "(none)", answer=words.strip())
    raw = json_answer(ask(prompt))
    if raw is None:
        raise SpecError("repair answer", "$", "the model's answer holds no JSON object")
    return change_from(raw, problem)


def change_from(raw: Any, problem: Problem) -> Candidate:
    """The model's JSON answer → a Candidate; values are computed here from data.json, never by the model."""
    if not isinstance(raw, dict):
        raise SpecError("repair answer", "$", "expected a JSON object")
    data, statements = problem.data, problem.snop.problem_info
    edits, touched = [], set()
    for i, item in enumerate(raw.get("data") or []):
        key, path = item.get("key"), item.get("index") or []
        try:
            old = get_at(data, key, path)
        except (KeyError, IndexError, TypeError):
            place = where(str(key), path if isinstance(path, list) else [path])
            raise SpecError("repair answer", f"data[{i}]", f"no value {place} in data.json") from None
        op = next((o for o in ("set", "add", "multiply") if o in item), None)
        if op is None or isinstance(old, (list, dict, bool)) or not isinstance(item[op], (int, float)):
            raise SpecError("repair answer", f"data[{i}]", "expected a number under set, add or multiply")
        new = {"set": item[op], "add": old + item[op], "multiply": old * item[op]}[op]
        edits.append(Edit(key, list(path), float(old), outward(old, new) if isinstance(old, int) and
                          float(new).is_integer() else new))
        touched |= set(statements_of_key(key, statements, data))
    rewrite = {s: t for s, t in (raw.get("statements") or {}).items() if re.fullmatch(r"s\d+", s)
               and 1 <= int(s[1:]) <= len(statements) and isinstance(t, str) and t.strip()}
    drop = [s for s in raw.get("drop") or [] if re.fullmatch(r"s\d+", s) and 1 <= int(s[1:]) <= len(statements)]
    what = "; ".join([f"set {e.text()}" for e in edits] + [f"reword {s}" for s in rewrite]
                     + [f"drop {s}" for s in drop]) or "no change"
    return Candidate("text", what, sorted(touched | set(rewrite) | set(drop)), edits, drop, rewrite,
                     source=str(raw.get("why", "from your words")))


# ---- the dialogue --------------------------------------------------------------------------------------------


@dataclass
class Dialogue:
    """What drives a repair: the run, how to solve a variant, who answers, and the limits."""

    run_dir: Path
    solve: Callable[[Path], dict]  # variant folder → its report.json (the same mode as the run)
    answer: Callable[[str], str]  # proposal text → the user's answer
    ask_model: Callable[[Any], str]  # a rendered repair prompt → the model's text
    sandbox: SandboxBackend
    limits: Limits
    protected: set[str] = field(default_factory=set)
    rounds: int = 10
    k: int = 3
    show: Callable[[str], None] = print
    tried: set[str] = field(default_factory=set)  # changes whose variant neither solved nor got a diagnosis
    seen: dict[tuple, list[Candidate]] = field(default_factory=dict)
    # The protected statements by their text: numbers shift when a variant drops a statement, the text does not.
    kept: set[str] = field(default_factory=set)
    made: list[Path] = field(default_factory=list)  # the variant folders this dialogue wrote


def start(run_dir: Path) -> tuple[Problem, dict, Path]:
    run_dir = Path(run_dir)
    report_path = run_dir / "report.json"
    if not report_path.is_file():
        raise SpecError(run_dir, "", "no report.json: pass a run folder `optimus solve` wrote (<problem>/runs/<stamp>)")
    report = read_json(report_path)
    diagnosis = ((report.get("verification") or {}).get("diagnosis")) if isinstance(report, dict) else None
    if not diagnosis or diagnosis.get("kind") not in NO_SOLUTION:
        raise SpecError(report_path, "verification.diagnosis",
                        f"the run is {report.get('status')!r}, not infeasible or unbounded: nothing to repair")
    problem = load_problem(problem_of(run_dir))
    return problem, diagnosis, final_attempt(run_dir, report.get("winning_variant"))


def run_dialogue(d: Dialogue) -> dict:
    """Rounds until a feasible solve, a stop, nothing left, or --rounds; returns the outcome, logs every round.
    A dialogue that ends without a feasible solve removes the variant folders it wrote that never ran."""
    outcome = _talk(d)
    if outcome["outcome"] != "feasible":
        empty = [v for v in d.made if v.is_dir() and not (v / "runs").is_dir()]
        for v in empty:
            shutil.rmtree(v)
        with contextlib.suppress(OSError):  # only when nothing else is in it
            (d.run_dir.resolve().parent.parent / "variants").rmdir()
        if empty:
            outcome["removed"] = [str(v) for v in empty]
            d.show(f"removed {len(empty)} variant folder(s) that never ran: {', '.join(v.name for v in empty)}")
    return outcome


def protected_ids(kept: set[str], statements: list[str]) -> set[str]:
    """The protected statements' numbers in this problem's statements (they follow the text)."""
    return {f"s{i}" for i, text in enumerate(statements, 1) if text in kept}


def texts_of(ids: set[str], statements: list[str]) -> set[str]:
    return {statements[int(s[1:]) - 1] for s in ids if 1 <= int(s[1:]) <= len(statements)}


def _talk(d: Dialogue) -> dict:
    problem, diagnosis, attempt = start(d.run_dir)
    log_path = d.run_dir / "repair.jsonl"
    negotiable, origin = problem.snop.negotiable, problem.root
    d.kept |= texts_of(d.protected, problem.snop.problem_info)
    for number in range(1, d.rounds + 1):
        d.protected = protected_ids(d.kept, problem.snop.problem_info)
        prober = Prober(attempt, d.sandbox, d.limits, tables_dir(problem.root))
        key = (str(problem.root), frozenset(d.protected), len(d.tried))
        if key not in d.seen:  # the same problem and answers give the same candidates: no program re-runs
            d.seen[key] = candidates(diagnosis, problem, d.protected, prober, d.k + len(d.tried), negotiable)
        cands = [c for c in d.seen[key] if c.what not in d.tried][:d.k]
        proposal = proposal_text(diagnosis, problem, cands)
        entry: dict[str, Any] = {"round": number, "problem": str(problem.root), "protected": sorted(d.protected),
                                 "protected_text": sorted(d.kept),
                                 "conflict": diagnosis.get("statements", []), "proposal": proposal,
                                 "candidates": [asdict(c) for c in cands], "probe_runs": prober.runs}
        d.show(proposal)
        if not cands and diagnosis.get("kind") == "infeasible":
            d.show(NONE_LEFT)
            return _end(d, log_path, entry, "none_left", NONE_LEFT, number)
        answer = _in_range(d, d.answer(proposal).strip(), cands)
        entry["answer"] = answer
        if answer is None:
            return _end(d, log_path, entry, "stopped", f"stopped: {MAX_BAD_ANSWERS} answers out of range", number)
        if not cands and answer.isdigit():  # unbounded, nothing to pick: only the user's own words can help
            d.show(NONE_LEFT)
            return _end(d, log_path, entry, "none_left", NONE_LEFT, number)
        protect = _PROTECT.match(answer)
        if answer.lower() in _STOP:
            return _end(d, log_path, entry, "stopped", "the user stopped", number)
        if protect:
            d.kept |= texts_of(set(re.findall(r"s\d+", protect.group(1))), problem.snop.problem_info)
            entry["result"] = f"protected {', '.join(sorted(protected_ids(d.kept, problem.snop.problem_info)))}"
            _write(log_path, entry)
            continue
        if answer.isdigit():
            chosen = cands[int(answer) - 1]
        else:
            chosen = from_words(answer, problem, diagnosis, d.protected, d.ask_model)
            if set(chosen.statements) & d.protected:
                entry["result"] = f"refused: it touches protected {', '.join(set(chosen.statements) & d.protected)}"
                d.show(entry["result"])
                _write(log_path, entry)
                continue
        dest = variant_dir(origin)
        d.made.append(dest)
        diff = apply(problem, chosen, dest)
        entry.update(chosen=asdict(chosen), diff=diff, variant=str(dest))
        d.show("\n".join(["diff:"] + [f"  {line}" for line in diff]))
        report = d.solve(dest)
        entry["result"] = {"status": report.get("status"), "message": report.get("message"),
                           "solver_status": report.get("solver_status"), "objective": report.get("objective"), "verified": report.get("verified"),
                           "run_dir": report.get("run_dir")}
        d.show(f"variant {dest}: {verdict_words(report)}")
        if report.get("solver_status") in FEASIBLE and report.get("verified"):
            return _end(d, log_path, entry, "feasible", f"feasible after {number} round(s): {dest}", number, dest)
        new_diag = (report.get("verification") or {}).get("diagnosis")
        if not new_diag:  # nothing learnt from this variant: go on from the same problem, without this change
            d.tried.add(chosen.what)
            _write(log_path, entry)
            continue
        _write(log_path, entry)
        problem, diagnosis = load_problem(dest), new_diag
        attempt = final_attempt(Path(report["run_dir"]), report.get("winning_variant"))
    return {"outcome": "rounds", "message": f"no feasible solve within {d.rounds} round(s)", "rounds": d.rounds}


def _in_range(d: Dialogue, answer: str, cands: list[Candidate]) -> str | None:
    """A number must pick one of the changes shown: ask again (at most MAX_BAD_ANSWERS times), never read it as
    words for a model. None when the answers stayed out of range."""
    bad = 0
    while answer.isdigit() and cands and not 1 <= int(answer) <= len(cands):
        bad += 1
        message = (f"{answer} is not one of the {len(cands)} change(s) shown: answer 1–{len(cands)}, "
                   "'never touch sN', your own change in words, or 'stop'")
        d.show(message)
        if bad == MAX_BAD_ANSWERS:
            return None
        answer = d.answer(message).strip()
    return answer


def _end(d: Dialogue, log_path: Path, entry: dict, outcome: str, message: str, number: int,
         variant: Path | None = None) -> dict:
    entry["outcome"] = outcome
    _write(log_path, entry)
    return {"outcome": outcome, "message": message, "rounds": number, "variant": str(variant) if variant else None}


def _write(path: Path, entry: dict) -> None:
    with path.open("a", encoding="utf-8") as fh:
        fh.write(json.dumps(entry, ensure_ascii=False, default=str) + "\n")


def proposal_text(diagnosis: dict, problem: Problem, cands: list[Candidate]) -> str:
    statements = problem.snop.problem_info
    conflict = [s for s in diagnosis.get("statements", []) if re.fullmatch(r"s\d+", s)]
    if diagnosis.get("kind") == "unbounded":
        lines = ["The objective improves without limit; these statements are the likeliest to lack a limit:"]
    else:
        lines = ["These statements cannot all hold:"]
    lines += [f"  {quote(int(s[1:]), statements)}" for s in conflict]
    lines += [f"  {i}. {c.line()}" for i, c in enumerate(cands, 1)]
    if not cands:
        lines.append("  No candidate change was found: say in your own words which limit is missing.")
    lines.append("Answer a number, 'never touch sN', your own change in words, or 'stop'.")
    return "\n".join(lines)


def replay(log_path: Path) -> list[tuple[str, str, Any]]:
    """(proposal, answer, result) per round of a repair.jsonl: the dialogue as it went."""
    rows = [json.loads(line) for line in Path(log_path).read_text().splitlines() if line.strip()]
    return [(r["proposal"], r.get("answer", ""), r.get("result", r.get("outcome"))) for r in rows]


# ---- the command ---------------------------------------------------------------------------------------------


def variant_solver(args: Any, sandbox: SandboxBackend, options: Any) -> Callable[[Path], dict]:
    """Solve a variant folder from scratch (formulate, codegen, …) in `options.mode`: its report.json as a dict."""
    from optimus.core.llm import LLMClient, LLMLog
    from optimus.core.llm.registry import from_args as make_backend
    from optimus.core.loop import solve
    from optimus.core.runstore import RunStore

    def solve_variant(dest: Path) -> dict:
        problem = load_problem(dest)
        try:
            backend = make_backend(args, problem)
        except ConfigError as exc:  # offline, a changed statement has no reference program
            return {"status": "not solved", "message": f"the {args.llm} backend cannot solve this variant: {exc}"}
        run = RunStore(problem.root)
        client = LLMClient(backend, log=LLMLog() if backend.cacheable else None,
                           transcript=run.dir / "transcript.jsonl")
        return solve(problem, client, sandbox, run, options).to_dict()

    return solve_variant


def run_repair(args: Any) -> int:
    """`optimus repair RUN_DIR`: exit 0 when a variant solved feasibly, 1 otherwise."""
    import sys

    if args.accept is not None:
        def answer(_: str) -> str:
            return str(args.accept)
    else:
        def answer(_: str) -> str:
            try:
                return input("> ")
            except EOFError:
                return "stop"

    outcome = repair_dialogue(args, answer)
    print(f"optimus repair: {outcome['message']}", file=sys.stderr)
    print(f"dialogue: {Path(args.run_dir) / 'repair.jsonl'}", file=sys.stderr)
    return 0 if outcome["outcome"] == "feasible" else 1


def repair_dialogue(args: Any, answer: Callable[[str], str]) -> dict:
    """The dialogue on args.run_dir (the command's flags as attributes), each round answered by `answer(proposal)`:
    its outcome (feasible, stopped, none_left, rounds), every round logged in repair.jsonl."""
    import sys

    from optimus.core.llm import LLMClient, LLMLog
    from optimus.core.llm.reference import DESCRIPTION
    from optimus.core.llm.registry import from_args as make_backend
    from optimus.core.loop import Options
    from optimus.core.sandbox import get_backend
    from optimus.core.sandbox.testrunner import require_test_runner

    run_dir = Path(args.run_dir)
    report = read_json(run_dir / "report.json") if (run_dir / "report.json").is_file() else {}
    mode = args.mode or report.get("mode") or "full"
    args = the_runs_backend(args, report)
    sandbox = get_backend(args.sandbox)
    require_test_runner(sandbox.name, mode)
    # Before any round: a backend that cannot answer (no endpoint, no key) stops here, saying why (exit 2).
    original = make_backend(args, load_problem(problem_of(run_dir)))
    print(f"optimus repair: LLM {original.name}:{original.model}"
          + (f" ({DESCRIPTION})" if original.name == "reference" else "") + f", sandbox {sandbox.name}, mode {mode}",
          file=sys.stderr)
    limits = Limits(wall_s=args.timeout, cpu_s=max(1, int(args.timeout)))
    # A variant that stays infeasible, verified by the re-solve, is an answer (the next round's diagnosis), not
    # a failure for fix rounds to mend.
    options = Options(mode=mode, limits=limits, no_solution_is_an_answer=True)

    def ask_model(prompt: Any) -> str:
        from optimus.core.prompts import messages

        backend = make_backend(args, load_problem(problem_of(run_dir)))
        client = LLMClient(backend, log=LLMLog() if backend.cacheable else None,
                           transcript=run_dir / "repair-transcript.jsonl")
        return client.chat("repair", messages(prompt), prompt.name, prompt.template_hash).text

    protected = {s.strip() for s in (args.refuse or "").split(",") if s.strip()}
    bad = [s for s in protected if not re.fullmatch(r"s\d+", s)]
    if bad:
        raise SpecError("--refuse", bad[0], "expected statement ids like s4,s7")
    return run_dialogue(Dialogue(run_dir, variant_solver(args, sandbox, options), answer, ask_model, sandbox, limits,
                                 protected, rounds=args.rounds, k=args.candidates))


def the_runs_backend(args: Any, report: dict) -> Any:
    """--llm, --model and --base-url as given; what was not given, as the run was made (report.json `llm`)."""
    import argparse

    llm = report.get("llm") if isinstance(report.get("llm"), dict) else {}
    backend = args.llm or llm.get("backend") or "openai"
    same = backend == llm.get("backend")
    return argparse.Namespace(**{**vars(args), "llm": backend,
                                 "model": args.model or (llm.get("model") if same and backend == "openai" else None)})
