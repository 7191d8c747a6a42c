"""`optimus bench --ask`: questions put to solved problems (optimus ask), each answer judged against ground truth.

A folder may carry `questions.json`: [{"id", "question", "kind" (what-if-data, what-if-statement, why, why-not,
sensitivity), "expected": {"status", "objective"}, "truth": {"data": {key: full new value}, "program":
"reference" or "question"}}]. Each folder is solved once (on a copy), then every question asked of that run. An
answer is right when its status and objective after the change match `expected` (relative 1e-4); a sensitivity
answer on an LP must also predict that objective from its shadow prices. Offline, the reference backend answers
the question-to-change call from the folder's reference/questions/ (optimus.core.llm.reference_questions).

Ground truth, computed apart from optimus ask: `python -m optimus.bench.ask nlp4lp [--write]` runs the reference
program (the folder's, or the question's own for a changed statement) on data.json with `truth.data` written
over it (the new values typed out in questions.json), once with CBC and once with HiGHS, and checks (or with
--write, sets) `expected` when the two agree.
"""

from __future__ import annotations

import argparse
import json
import math
import shutil
import sys
import tempfile
from pathlib import Path

from optimus.core.files import read_json
from optimus.core.problem import load_problem, short_name

REL_TOL = 1e-4
FOUND = ("optimal", "solved")


def question_folders(dirs: list[Path]) -> list[Path]:
    from optimus.bench.runner import problem_dirs

    return [f for f in problem_dirs(dirs) if (f / "questions.json").is_file()]


def right(entry: dict, expected: dict, kind: str) -> bool:
    after = entry.get("after") or {}
    status = "optimal" if after.get("status") in FOUND else after.get("status")
    if status != expected.get("status") or (after.get("verified") is False):
        return False
    if expected.get("objective") is None:
        return True
    ok = _close(after.get("objective"), expected["objective"])
    if kind == "sensitivity" and "predicted" in after and after.get("predicted_within_range"):
        ok = ok and _close(after.get("predicted"), expected["objective"])
    return ok


def _close(a, b) -> bool:
    return isinstance(a, (int, float)) and math.isclose(a, b, rel_tol=REL_TOL, abs_tol=1e-6)


def ask_rows(folder: Path, work: Path, args: argparse.Namespace, mode: str) -> list[dict]:
    """Solve a copy of the folder once, then ask each of its questions of that run."""
    from optimus.commands.ask import answer, load_run, make_env
    from optimus.core.llm import LLMClient
    from optimus.core.llm.registry import from_args
    from optimus.core.loop import Options, solve
    from optimus.core.runstore import RunStore
    from optimus.core.sandbox import Limits, get_backend

    shutil.copytree(folder, work, ignore=shutil.ignore_patterns("runs", "variants"), symlinks=True)
    problem = load_problem(work)
    limits = Limits(wall_s=args.timeout, cpu_s=max(1, int(args.timeout)))
    run = RunStore(problem.root)
    client = LLMClient(from_args(args, problem), transcript=run.dir / "transcript.jsonl")
    first = solve(problem, client, get_backend(args.sandbox), run, Options(mode=mode, limits=limits))
    rows = []
    for q in read_json(folder / "questions.json"):
        row = {"problem": short_name(folder), "id": q["id"], "kind": q["kind"], "question": q["question"],
               "expected": q["expected"], "type": problem.snop.problem_type, "shape": data_shape(problem.data)}
        try:
            solved = load_run(run.dir)
            env = make_env(argparse.Namespace(**{**vars(args), "mode": mode, "words": True}), solved)
            env.show = lambda _: None
            entry = answer(q["question"], solved, env)
            row.update(right=right(entry, q["expected"], q["kind"]), calls=entry["calls"],
                       status=entry["after"].get("status"), objective=entry["after"].get("objective"),
                       variant=entry["after"].get("variant"))
        except Exception as exc:  # noqa: BLE001 - one unanswerable question is a wrong row, not a crash
            row.update(right=False, calls=None, status="not answered", error=f"{type(exc).__name__}: {exc}")
        row["base"] = first.status
        rows.append(row)
        print(f"{row['problem']} {row['id']}: {row['status']} {_fmt(row.get('objective'))} — "
              f"{'right' if row['right'] else 'wrong'}{' (' + row['error'] + ')' if row.get('error') else ''}",
              file=sys.stderr, flush=True)
    return rows


def data_shape(data: dict) -> str:
    """How data.json holds its values: "records" (a list of objects), "maps" (objects by name), else "lists"."""
    def kinds(v, inside_list=False):
        if isinstance(v, dict):
            yield "records" if inside_list else "maps"
            for item in v.values():
                yield from kinds(item)
        elif isinstance(v, list):
            for item in v:
                yield from kinds(item, True)

    found = {k for value in data.values() for k in kinds(value)} if isinstance(data, dict) else set()
    return next((s for s in ("records", "maps") if s in found), "lists")


def table(rows: list[dict]) -> str:
    kinds = sorted({r["kind"] for r in rows})
    lines = ["| kind | asked | answered right | model calls per question |", "| --- | --- | --- | --- |"]
    for kind in kinds + ["all"]:
        mine = [r for r in rows if kind in ("all", r["kind"])]
        calls = [r["calls"] for r in mine if r.get("calls") is not None]
        per = f"{sum(calls) / len(calls):.2f}" if calls else "–"
        lines.append(f"| {kind} | {len(mine)} | {sum(r['right'] for r in mine)} / {len(mine)} | {per} |")
    lines += ["", "| problem type | data.json holds | kinds asked | asked | answered right |", "| --- | --- | --- | --- | --- |"]
    for group in sorted({(r.get("type", "–"), r.get("shape", "–")) for r in rows}):
        mine = [r for r in rows if (r.get("type", "–"), r.get("shape", "–")) == group]
        asked = ", ".join(sorted({r["kind"] for r in mine}))
        lines.append(f"| {group[0]} | {group[1]} | {asked} | {len(mine)} | {sum(r['right'] for r in mine)} / {len(mine)} |")
    lines += ["", "| problem | question | kind | expected | answered | right | calls |", "| --- | --- | --- | --- | --- | --- | --- |"]
    for r in rows:
        exp = r["expected"]
        got = f"{r.get('status')} {_fmt(r.get('objective'))}".strip()
        lines.append(f"| {r['problem']} | {r['question']} | {r['kind']} | {exp['status']} {_fmt(exp.get('objective'))} "
                     f"| {got} | {'yes' if r['right'] else 'no'} | {r.get('calls', '–')} |")
    return "\n".join(lines) + "\n"


def _fmt(x) -> str:
    return f"{x:.10g}" if isinstance(x, (int, float)) else ""


def run_ask_bench(args: argparse.Namespace) -> int:
    out = args.out or Path("results/bench-ask")
    modes = [m.strip() for m in args.mode.split(",") if m.strip()]
    mode = modes[0] if len(modes) == 1 else "supervised"  # the default list of all modes: supervised
    args = argparse.Namespace(**{**vars(args), "temperature": None, "max_tokens": None, "no_cache": False})
    rows = []
    for folder in question_folders(args.dirs):
        work = out / "work" / short_name(folder).replace("/", "__")
        shutil.rmtree(work, ignore_errors=True)
        rows += ask_rows(folder, work, args, mode)
    out.mkdir(parents=True, exist_ok=True)
    (out / "ask.jsonl").write_text("".join(json.dumps(r, default=str) + "\n" for r in rows))
    what = " — offline: the reference backend answers from reference/questions/, no language model" \
        if args.llm == "reference" else ""
    text = f"# Ask: questions put to solved problems ({args.llm}, mode {mode}{what})\n\n## Ask\n\n" + table(rows)
    (out / "summary.md").write_text(text)
    print(text)
    print(f"wrote {out / 'ask.jsonl'}, {out / 'summary.md'}")
    return 0


# ---- ground truth, two ways --------------------------------------------------------------------------------


def truth(folder: Path, q: dict) -> dict:
    """The question's answer by the reference program on the changed data, with CBC and with HiGHS."""
    from optimus.bench.groundtruth.lp import close, run_reference

    spec = q.get("truth") or {}
    with tempfile.TemporaryDirectory(prefix="optimus-ask-gt-") as tmp:
        copy = Path(tmp) / "p"
        shutil.copytree(folder, copy, ignore=shutil.ignore_patterns("runs", "variants"))
        data = read_json(folder / "data.json")
        data.update(spec.get("data") or {})
        (copy / "data.json").write_text(json.dumps(data))
        if spec.get("program") == "question":
            shutil.copy(folder / "reference" / "questions" / q["id"] / "solver.py", copy / "reference" / "solver.py")
        runs = [run_reference(copy, s) for s in ("CBC", "HIGHS")]
    agree = runs[0]["status"] == runs[1]["status"] and close(runs[0]["objective"], runs[1]["objective"])
    return {"status": runs[0]["status"], "objective": runs[0]["objective"], "agree": agree,
            "runs": [{k: r[k] for k in ("solver", "status", "objective", "error")} for r in runs]}


def written(objective: float | None) -> float | None:
    """As groundtruth.lp writes an objective: the digits the two solvers agree on, no binary float noise."""
    from optimus.bench.groundtruth.lp import WRITTEN_DIGITS

    return None if objective is None else float(f"{objective:.{WRITTEN_DIGITS}g}")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m optimus.bench.ask", description="ground truth of questions.json")
    p.add_argument("dirs", nargs="+", type=Path)
    p.add_argument("--write", action="store_true", help="write the agreed answers into questions.json")
    args = p.parse_args(argv)
    bad = 0
    for folder in question_folders(args.dirs):
        questions = read_json(folder / "questions.json")
        for q in questions:
            t = truth(folder, q)
            same = t["agree"] and t["status"] == q["expected"].get("status") and (
                t["objective"] is None or _close(q["expected"].get("objective"), t["objective"]))
            if args.write and t["agree"]:
                q["expected"] = {"status": t["status"], "objective": written(t["objective"])}
            bad += not (t["agree"] and (same or args.write))
            print(f"{short_name(folder)} {q['id']}: {t['runs'][0]['status']} {_fmt(t['runs'][0]['objective'])} (CBC), "
                  f"{t['runs'][1]['status']} {_fmt(t['runs'][1]['objective'])} (HiGHS) — "
                  f"{'agree' if t['agree'] else 'DISAGREE'}{'' if same or args.write else ', expected differs'}")
        if args.write:
            (folder / "questions.json").write_text(json.dumps(questions, indent=1) + "\n")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
