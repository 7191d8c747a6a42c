"""`optimus bench --repair`: mimic users talk `optimus repair` through every infeasible variant.

For each folder whose expected.json says infeasible: one user who accepts the first candidate every round
(accept-all), and one per statement of the first diagnosis who refuses to change that statement (refuse-sK)
and otherwise accepts the first candidate. Offline (--llm reference) no model speaks: the candidates come from
the diagnosis and the run's program, and a variant is solved from the folder's reference/. The table gives,
per kind of user, the repair success rate and the rounds per success (the planner paper's Tables 3–4).
"""

from __future__ import annotations

import argparse
import json
import shutil
from pathlib import Path

from optimus.bench.runner import problem_dirs
from optimus.commands.repair import Dialogue, run_dialogue
from optimus.core.changes import param_keys
from optimus.core.files import read_json
from optimus.core.llm import LLMClient
from optimus.core.loop import Options, solve
from optimus.core.problem import Problem, load_problem, short_name
from optimus.core.runstore import RunStore
from optimus.core.sandbox import Limits


def infeasible_folders(dirs: list[Path]) -> list[Path]:
    """The bench's problem folders (runner.problem_dirs) whose expected.json says infeasible."""
    return [f for f in problem_dirs(dirs)
            if (f / "expected.json").is_file() and read_json(f / "expected.json").get("status") == "infeasible"]


def mimic_rows(folder: Path, work: Path, sandbox, limits: Limits, mode: str, make_backend, k: int = 3,
               rounds: int = 10) -> list[dict]:
    """Solve a copy of the folder once, then let each mimic user talk the repair through on its own copy."""
    base = work / "solved"
    shutil.copytree(folder, base, ignore=shutil.ignore_patterns("runs", "variants"), symlinks=True)
    options = Options(mode=mode, limits=limits, no_solution_is_an_answer=True)

    def solve_folder(root: Path) -> dict:
        problem = load_problem(root)
        run = RunStore(problem.root)
        client = LLMClient(make_backend(problem), transcript=run.dir / "transcript.jsonl")
        return solve(problem, client, sandbox, run, options).to_dict()

    first = solve_folder(base)
    diagnosis = (first.get("verification") or {}).get("diagnosis") or {}
    users = {"accept-all": set()} | {f"refuse-{s}": {s} for s in diagnosis.get("statements", [])}
    rows = []
    for user, protected in users.items():
        copy = work / user
        shutil.copytree(base, copy, symlinks=True)
        run_dir = copy / "runs" / "latest"

        def ask_model(prompt, root=copy) -> str:  # offline: the folder's reference/repair.json
            client = LLMClient(make_backend(load_problem(root)))
            from optimus.core.prompts import messages

            return client.chat("repair", messages(prompt), prompt.name, prompt.template_hash).text

        def solve_variant(dest: Path) -> dict:
            try:
                return solve_folder(dest)
            except Exception as exc:  # noqa: BLE001 - an unsolvable variant is a failed round, not a crash
                return {"status": "not solved", "message": str(exc)}

        d = Dialogue(run_dir, solve_variant, lambda _: "1", ask_model, sandbox, limits, set(protected),
                     rounds=rounds, k=k, show=lambda _: None)
        outcome = run_dialogue(d)
        broken = protected_changes(load_problem(base), Path(outcome["variant"]), protected) \
            if outcome["outcome"] == "feasible" else []
        rows.append({"problem": short_name(folder), "user": user, "kind": "accept-all" if not protected
                     else "refuse-one", "outcome": "feasible, protection broken" if broken else outcome["outcome"],
                     "rounds": outcome["rounds"], "success": outcome["outcome"] == "feasible" and not broken,
                     "protection_broken": broken, "dialogue": str(run_dir / "repair.jsonl")})
    return rows


def protected_changes(original: Problem, variant_dir: Path, protected: set[str]) -> list[str]:
    """What the final variant changed of the protected statements, found by diffing it against the original
    (not by trusting the dialogue): the statement's text gone or reworded, or a value of its parameters moved."""
    variant = load_problem(variant_dir)
    statements, found = original.snop.problem_info, []
    for sid in sorted(protected):
        text = statements[int(sid[1:]) - 1]
        if text not in variant.snop.problem_info:
            found.append(f"{sid} \"{text}\" is no longer a statement")
        for key in param_keys(text, original.data):
            if variant.data.get(key) != original.data[key]:
                found.append(f"{sid}'s {key}: {json.dumps(original.data[key])} → {json.dumps(variant.data.get(key))}")
    return found


def table(rows: list[dict]) -> str:
    lines = ["| mimic user | dialogues | repaired | success rate | rounds per success |", "| --- | --- | --- | --- | --- |"]
    for kind in ("accept-all", "refuse-one"):
        mine = [r for r in rows if r["kind"] == kind]
        won = [r for r in mine if r["success"]]
        rate = f"{len(won) / len(mine):.0%}" if mine else "–"
        per = f"{sum(r['rounds'] for r in won) / len(won):.2f}" if won else "–"
        lines.append(f"| {kind} | {len(mine)} | {len(won)} | {rate} | {per} |")
    lines += ["", "| problem | user | outcome | rounds |", "| --- | --- | --- | --- |"]
    lines += [f"| {r['problem']} | {r['user']} | {r['outcome']} | {r['rounds']} |" for r in rows]
    return "\n".join(lines) + "\n"


def run_repair_bench(args: argparse.Namespace) -> int:
    from optimus.core.llm.registry import get_backend
    from optimus.core.sandbox import get_backend as get_sandbox

    out = args.out or Path("results/bench-repair")
    modes = [m.strip() for m in args.mode.split(",") if m.strip()]
    mode = modes[0] if len(modes) == 1 else "supervised"  # the default list of all modes: supervised
    limits = Limits(wall_s=args.timeout, cpu_s=max(1, int(args.timeout)))
    sandbox = get_sandbox(args.sandbox)

    def make(problem):
        return get_backend(args.llm, problem, model=args.model, base_url=args.base_url)
    rows = []
    for folder in infeasible_folders(args.dirs):
        work = out / "work" / short_name(folder).replace("/", "__")
        shutil.rmtree(work, ignore_errors=True)
        rows += mimic_rows(folder, work, sandbox, limits, mode, make)
    out.mkdir(parents=True, exist_ok=True)
    (out / "repair.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    text = f"# Repair with mimic users ({args.llm}, mode {mode})\n\n" + table(rows)
    (out / "repair.md").write_text(text)
    print(text)
    print(f"wrote {out / 'repair.jsonl'}, {out / 'repair.md'}")
    return 0
