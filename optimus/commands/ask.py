"""`optimus ask RUN_DIR "QUESTION"`: what-if, why, why-not and sensitivity, answered by solving.

One model call (prompt ask.txt: names, types and shapes, never data values) turns the question into one typed
request (optimus.commands.question), shown before anything runs. The change is solved on a copy, `<problem>/variants/q<k>/`:
- a data-only what-if re-runs the run's own program on the changed data.json (optimus.commands.rerun: no model call);
- a statement change goes through formulate and codegen, like a repaired variant (optimus.commands.repair.apply);
- why / why-not forces or forbids a decision in the captured model.mps, and sensitivity reads shadow prices and
  ranging (an LP) or moves the limits and solves again (a MILP), both in the sandbox (optimus/core/families/pulp/resolve/ask.py).
The answer is the harness's numbers: objective before → after, the decisions that changed most, the status;
when the change makes the problem infeasible, the diagnosis in the user's statements and `optimus repair`. One
optional paragraph in words (prompt ask_words.txt) is the model's, labelled so, and dropped when it writes a
number the table does not hold. Every question is a line of RUN_DIR/ask.jsonl.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

from optimus.commands.ask_inputs import Env, Solved, is_number
from optimus.commands.new import numbers_in
from optimus.commands.question import (
    Request,
    data_candidate,
    op_text,
    parse,
    row_examples,
    rows_text,
    variable_families,
)
from optimus.commands.repair import apply, variant_dir, variant_solver
from optimus.commands.whatif import TOP, changed, flatten, num_text, on_captured_model
from optimus.core.diagnose import final_attempt
from optimus.core.errors import ConfigError, OptimusError, SpecError
from optimus.core.files import read_json
from optimus.core.outcomes import STATUSES
from optimus.core.problem import Problem, load_problem
from optimus.core.prompts import Prompt, render
from optimus.core.runstore import problem_of, unfinished_message
from optimus.core.sandbox import Limits, read_result_file
from optimus.core.sandbox.files import read_object
from optimus.core.terminal import SIGNIFICANT, number


def load_run(run_dir: Path) -> Solved:
    run_dir = Path(run_dir)
    if not (run_dir / "report.json").is_file():
        raise SpecError(run_dir, "", unfinished_message(run_dir))
    report = read_json(run_dir / "report.json")
    if not isinstance(report, dict) or report.get("status") not in ("solved", "ran", "infeasible", "unbounded"):
        status = report.get("status") if isinstance(report, dict) else None
        raise SpecError(run_dir / "report.json", "status", f"the run is {status!r}: ask a run that solved (or is "
                        "infeasible); solve the problem first")
    attempt = final_attempt(run_dir, report.get("winning_variant"))
    output = read_object(attempt, "output.json")[0]
    solution = read_object(attempt, "solution.json")[0] or {}
    return Solved(run_dir, load_problem(problem_of(run_dir)), report, attempt, output, solution)


# ---- the question → a typed request ------------------------------------------------------------------------


def to_request(question: str, solved: Solved, env: Env) -> Request:
    from optimus.core.datasummary import summarize_problem
    from optimus.core.llm.extract import json_answer
    from optimus.core.stages.context import numbered

    snop = solved.problem.snop
    capture = (solved.report.get("verification") or {}).get("capture")
    prompt = render("ask", problem_type=snop.problem_type, statements=numbered(snop.problem_info),
                    objective=snop.objective, input_format=snop.input_format,
                    data_summary=summarize_problem(solved.problem),
                    variables=variable_families(list(solved.values)), rows=rows_text(capture, _row_examples(solved)),
                    question=question)
    raw = json_answer(env.ask_model("ask", prompt))
    if raw is None:
        raise SpecError("ask answer", "$", "the model's answer holds no JSON object")
    return parse(raw, solved.problem)


def _row_examples(solved: Solved) -> dict[str, str]:
    if not (solved.attempt / "model.mps").is_file():
        return {}
    return row_examples(read_result_file(solved.attempt, "model.mps").decode(errors="replace"))


def describe(req: Request) -> str:
    parts = [f"{req.kind}:", "; ".join(op_text(d) for d in req.data)]
    parts += [f"reword {s}" for s in req.statements] + [f"drop {s}" for s in req.drop]
    parts += [f"add statement \"{t}\"" for t in req.add_statements]
    parts += [f"{b['variable']} in [{num_text(b.get('lower'), '-inf')}, {num_text(b.get('upper'), 'inf')}]" for b in req.bounds]
    if req.kind == "sensitivity":
        parts += [f"limits of {', '.join(req.rows) or '(none)'} moved by {req.delta:g}"]
        parts += [f"reduced costs of {', '.join(req.variables)}"] if req.variables else []
    return " ".join(p for p in parts if p) + (f"  (reading: {req.reading})" if req.reading else "")


# ---- solving the request -------------------------------------------------------------------------------------


def solve_request(req: Request, solved: Solved, env: Env, question: str) -> dict:
    """The request solved on a copy: {how, change, status, objective, verified, decisions, …} after the change."""
    dest = variant_dir(solved.problem.root, "q")
    if req.kind == "sensitivity" or req.bounds:
        return on_captured_model(req, solved, env, dest)
    cand = data_candidate(req, solved.problem)
    change = apply(solved.problem, cand, dest)
    if req.changes_statements:
        change += add_statements(dest, req.add_statements)
        for old in ("reference", "tests"):  # its program and tests encode the old statements
            shutil.rmtree(dest / old, ignore_errors=True)
        if env.reference_questions:
            _reference_program(solved.problem, question, dest)
        report = env.solve_variant(dest)
        how = (f"a new formulation and program for the changed statements, solved in mode {report.get('mode')} "
               "(the folder's tests check the old statements: they stay behind)")
    else:
        from optimus.commands.rerun import rerun

        report = rerun(load_problem(dest), solved.run_dir, solved.attempt, env.mode, solved.report.get("family"),
                       env.sandbox, env.limits).to_dict()
        how = "the run's own program re-ran on the changed data.json"
    after = _output_of(report)
    return {"how": how, "variant": str(dest), "change": change, "status": report.get("status"),
            "solver_status": report.get("solver_status"), "objective": report.get("objective"), "verified": report.get("verified"), "message": report.get("message"),
            "run_dir": report.get("run_dir"), "calls": (report.get("llm_usage") or {}).get("calls", 0),
            "decisions": changed(flatten(solved.output), flatten(after)), "decisions_of": "output.json",
            "diagnosis": ((report.get("verification") or {}).get("diagnosis") or {}).get("message")}


def add_statements(dest: Path, added: list[str]) -> list[str]:
    """Append the new statements to the variant's SNOP (numbered after what is left of the old ones)."""
    if not added:
        return []
    from optimus.core.snop import dump_snop

    problem = load_problem(dest)
    snop = problem.snop
    n = len(snop.problem_info)
    snop.problem_info = list(snop.problem_info) + list(added)
    for name in ("snop.json", "description.txt"):
        (dest / name).unlink(missing_ok=True)
    (dest / "snop.json").write_text(dump_snop(snop, "json"))
    return [f"+ (s{n + i}) {t}" for i, t in enumerate(added, 1)]


def _reference_program(problem: Problem, question: str, dest: Path) -> None:
    """Offline only: the folder author's formulation and program for this changed statement (reference/questions/)."""
    from optimus.core.llm.reference_questions import find

    folder = find(problem.reference_dir, question)
    if folder is not None and (folder / "solver.py").is_file():
        (dest / "reference").mkdir(exist_ok=True)
        for name in ("formulation.md", "solver.py"):
            if (folder / name).is_file():
                shutil.copy(folder / name, dest / "reference" / name)


def _output_of(report: dict) -> dict | None:
    run_dir = report.get("run_dir")
    if not run_dir or not Path(run_dir).is_dir():
        return None
    try:
        return read_object(final_attempt(Path(run_dir), report.get("winning_variant")), "output.json")[0]
    except SpecError:
        return None


# ---- the answer ------------------------------------------------------------------------------------------------


def answer(question: str, solved: Solved, env: Env) -> dict:
    """One question: the request (shown before anything runs), the solve, the table, the optional paragraph."""
    env.calls[0] = 0
    req = to_request(question, solved, env)
    reading = env.calls[0]
    env.show(f"request: {describe(req)}")
    after = solve_request(req, solved, env, question)
    before = {"status": solved.report.get("status"), "solver_status": solved.report.get("solver_status"),
              "objective": solved.report.get("objective")}
    entry: dict[str, Any] = {"question": question, "request": req.to_dict(), "before": before, "after": after}
    a, b = before["objective"], after.get("objective")
    if is_number(a) and is_number(b):
        entry["difference"] = 0.0 if abs(b - a) <= 1e-9 * max(1.0, abs(a)) else b - a  # solver noise is no change
        entry["relative"] = (b - a) / abs(a) if a else None
    if after.get("status") == "infeasible" and after.get("run_dir"):
        entry["repair"] = f"optimus repair {after['run_dir']}"
    entry["words"] = words(question, entry, env) if env.words else None
    entry["calls_by"] = {"reading the question": reading, "solving": after.get("calls") or 0,
                         "the paragraph": env.calls[0] - reading}
    entry["calls"] = sum(entry["calls_by"].values())
    return entry


def status_line(before: dict, after: dict) -> str:
    """One vocabulary on both sides: the solver's word (optimal, infeasible, time_limit, …) where both runs have
    one, never the run's verdict ("solved") beside a solver's word."""
    if before.get("solver_status") and (after.get("solver_status") or after.get("status") in STATUSES):
        was, now = before["solver_status"], after.get("solver_status") or after.get("status")
    else:
        was, now = before.get("status"), after.get("status")
    said = f"status: {now}, as before" if was == now else f"status: {was} → {now}"
    message = after.get("message") or ""
    message = message.removeprefix(f"solver status {now}; ")  # the run's message repeats the word just said
    return said + (f" ({message})" if message else "")


def objective_line(entry: dict) -> str:
    """Before → after, and the difference only when there is one (never "+0, -0.00%")."""
    before, after = entry["before"]["objective"], entry["after"]["objective"]
    head = f"objective: {number(before)} → {number(after)}"
    if not entry["difference"]:
        return head + " (no change)"
    rel = entry.get("relative")
    rel_text = "" if rel is None else f", {rel:+.2%}" if abs(rel) >= 5e-5 else f", {rel:+.{SIGNIFICANT}g} as a fraction"
    return head + f" (difference {entry['difference']:+.{SIGNIFICANT}g}{rel_text})"


def calls_line(entry: dict) -> str:
    """The question's one count of model calls, with where they went when any were made."""
    by = entry.get("calls_by") or {}
    parts = ", ".join(f"{k} {v}" for k, v in by.items())
    return f"model calls for this question: {entry['calls']}" + (f" ({parts})" if parts and entry["calls"] else "")


def table_lines(entry: dict) -> list[str]:
    """The harness's numbers, as the terminal shows them (and the words prompt gets them)."""
    after, before = entry["after"], entry["before"]
    lines = [f"change: {line}" for line in after.get("change", [])[:TOP + 2]]
    lines.append(f"how: {after.get('how')}")
    lines.append(status_line(before, after))
    if "difference" in entry:
        lines.append(objective_line(entry))
    if after.get("predicted") is not None:
        lines.append(f"predicted by the shadow prices: {number(after['predicted'])} (the moved limits "
                     f"{'stay' if after['predicted_within_range'] else 'do not all stay'} inside their ranges)")
    for r in after.get("shadow_prices", [])[:TOP]:
        rng = r.get("range") or [None, None]
        lines.append(f"  row {r['name']}: activity {number(r['activity'])}, shadow price {number(r['dual'])}, "
                     f"holds for its limit in [{num_text(rng[0], '-inf')}, {num_text(rng[1], 'inf')}]")
    for c in after.get("reduced_costs", [])[:TOP]:
        lines.append(f"  variable {c['name']}: value {number(c['value'])}, reduced cost {number(c['reduced_cost'])}")
    if after.get("decisions"):
        total = after["decisions"][0]["of"]
        lines.append(f"{total} {'value' if total == 1 else 'values'} changed in {after.get('decisions_of')}"
                     + (f", the {TOP} largest moves first" if total > TOP else "") + ":")
        lines += [f"  {d['name']}: {num_text(d['before'], '–')} → {num_text(d['after'], '–')}" for d in after["decisions"]]
    elif after.get("status") in ("optimal", "solved"):
        lines.append("no decision changed")
    if after.get("diagnosis"):
        lines.append(f"diagnosis: {after['diagnosis']}")
    if entry.get("repair"):
        lines.append(f"to make it feasible: {entry['repair']}")
    if after.get("variant"):
        lines.append(f"variant: {_near(after['variant'])}")
    return lines


def _near(path: str) -> str:
    """A path as the user would type it: relative to the working folder when inside it."""
    try:
        return str(Path(path).relative_to(Path.cwd()))
    except ValueError:
        return path


def words(question: str, entry: dict, env: Env) -> dict | None:
    """The model's paragraph from the table's numbers; kept only when every number it writes is the table's."""
    table = "\n".join(table_lines(entry))
    try:
        text = env.ask_model("ask_words", render("ask_words", question=question, table=table)).strip()
    except ConfigError as exc:  # offline: no paragraph was written for this question
        return {"text": None, "note": str(exc)}
    unknown = unknown_numbers(text, table + "\n" + question)
    return {"text": None if unknown else text, "dropped": text if unknown else None, "by": env.speaker,
            "note": f"dropped: it writes numbers the table does not hold: {', '.join(unknown)}" if unknown else
            "every number in it is the table's"}


def unknown_numbers(text: str, table: str) -> list[str]:
    """Numbers the paragraph writes that no number of the table rounds to (at the precision written)."""
    known = [w.value for w in numbers_in(table)]
    known += [abs(v) for v in known] + [100 * v for v in known]
    out = []
    for w in numbers_in(text):
        decimals = len(re.match(r"\d*", w.text.split(".")[1]).group(0)) if "." in w.text else 0
        half = 0.5 * 10 ** -decimals
        if not any(abs(abs(k) - w.value) <= half + 1e-9 for k in known):
            out.append(w.text)
    return out


def render_answer(entry: dict) -> str:
    lines = table_lines(entry)
    said = entry.get("words") or {}
    if said.get("text"):
        lines.append(f"in words ({said['by']}, not computed; {said['note']}): {said['text']}")
    elif said.get("note"):
        lines.append(f"(no paragraph in words: {said['note']})")
    lines.append(calls_line(entry))
    return "\n".join(lines)


def log(run_dir: Path, entry: dict) -> None:
    with (Path(run_dir) / "ask.jsonl").open("a", encoding="utf-8") as fh:
        fh.write(json.dumps(entry, ensure_ascii=False, default=str) + "\n")


# ---- the command -------------------------------------------------------------------------------------------------


def make_env(args: Any, solved: Solved) -> Env:
    from optimus.core.llm import LLMClient, LLMLog
    from optimus.core.llm.registry import from_args as make_backend
    from optimus.core.loop import TEST_MODES, Options
    from optimus.core.prompts import messages
    from optimus.core.sandbox import get_backend

    mode = args.mode or solved.report.get("mode") or "full"
    limits = Limits(wall_s=args.timeout, cpu_s=max(1, int(args.timeout)))
    sandbox = get_backend(args.sandbox)
    backend = make_backend(args, solved.problem)
    client = LLMClient(backend, log=LLMLog() if backend.cacheable else None,
                       transcript=solved.run_dir / "ask-transcript.jsonl", use_cache=not args.no_cache)
    calls = [0]

    def ask_model(stage: str, prompt: Prompt) -> str:
        text = client.chat(stage, messages(prompt), prompt.name, prompt.template_hash).text
        calls[0] += 1
        return text

    # Offline, nothing can write tests for changed statements (the folder's check the old ones): no test mode.
    variant_mode = "debug" if args.llm == "reference" and mode in TEST_MODES else mode
    solve_variant = variant_solver(args, sandbox, Options(mode=variant_mode, limits=limits))

    offline = args.llm == "reference"
    return Env(ask_model, solve_variant, sandbox, limits, mode, words=args.words, reference_questions=offline,
               speaker="the folder author's paragraph, offline: no model" if offline else "the model's paragraph",
               calls=calls)


def run_ask(args: Any) -> int:
    """`optimus ask RUN_DIR [QUESTION]`: exit 0 when every question was answered by a solve, 1 otherwise."""
    import sys

    solved = load_run(args.run_dir)
    env = make_env(args, solved)
    if args.llm == "reference":
        from optimus.core.llm.reference import DESCRIPTION

        print(f"optimus ask: LLM reference ({DESCRIPTION}; questions from reference/questions/)", file=sys.stderr)
    show = (lambda _: None) if args.json else print
    env.show = show
    questions = [args.question] if args.question else _lines(show)
    answered = []
    for question in questions:
        try:
            entry = answer(question, solved, env)
        except OptimusError as exc:  # an unusable answer ends this question, not the conversation
            entry = {"question": question, "error": str(exc), "after": {"status": "not answered"}}
            print(f"optimus: could not answer: {exc}", file=sys.stderr)
        log(solved.run_dir, entry)
        answered.append(entry)
        if "error" in entry:
            continue
        if args.json:
            print(json.dumps(entry, indent=1, default=str))
        else:
            print(render_answer(entry))
    print(f"log: {solved.run_dir / 'ask.jsonl'}", file=sys.stderr)
    return 0 if answered and all(a["after"].get("status") not in ("not answered", "error", "not solved")
                                 for a in answered) else 1


def _lines(show: Callable[[str], None]):
    """A conversation: questions line by line until an empty line, 'stop' or the end of input."""
    while True:
        try:
            line = input("? ").strip()
        except EOFError:
            return
        if line.lower() in ("", "q", "quit", "stop", "exit"):
            return
        yield line
