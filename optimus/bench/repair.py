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

from optimus.agent import Options, solve
from optimus.bench.runner import problem_dirs
from optimus.files import read_json
from optimus.llm import LLMClient
from optimus.problem import load_problem, short_name
from optimus.repair import Dialogue, run_dialogue
from optimus.runstore import RunStore
from optimus.sandbox import Limits, get_backend


def infeasible_folders(dirs: list[Path]) -> list[Path]:
    """The bench's problem folders (runner.problem_dirs) whose expected.json says infeasible."""
    return [f for f in problem_dirs(dirs)
            if (f / "expected.json").is_file() and read_json(f / "expected.json").get("status") == "infeasible"]


def mimic_rows(folder: Path, work: Path, sandbox, limits: Limits, mode: str, make_backend, k: int = 3,
               rounds: int = 10) -> list[dict]:
    """Solve a copy of the folder once, then let each mimic user talk the repair through on its own copy."""
    base = work / "solved"
    shutil.copytree(folder, base, ignore=shutil.ignore_patterns("runs", "variants"), symlinks=True)
    options = Options(mode=mode, limits=limits)

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
            from optimus.prompts import messages

            return client.chat("repair", messages(prompt), prompt.name, prompt.template_hash).text

        def solve_variant(dest: Path) -> dict:
            try:
                return solve_folder(dest)
            except Exception as exc:  # noqa: BLE001 - an unsolvable variant is a failed round, not a crash
                return {"status": "not solved", "message": str(exc)}

        d = Dialogue(run_dir, solve_variant, lambda _: "1", ask_model, sandbox, limits, set(protected),
                     rounds=rounds, k=k, show=lambda _: None)
        outcome = run_dialogue(d)
        rows.append({"problem": short_name(folder), "user": user, "kind": "accept-all" if not protected
                     else "refuse-one", "outcome": outcome["outcome"], "rounds": outcome["rounds"],
                     "success": outcome["outcome"] == "feasible", "dialogue": str(run_dir / "repair.jsonl")})
    return rows


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
    from optimus.llm.reference import ReferenceBackend
    from optimus.solve import make_backend as from_args

    out = args.out or Path("results/bench-repair")
    modes = [m.strip() for m in args.mode.split(",") if m.strip()]
    mode = modes[0] if len(modes) == 1 else "supervised"  # the default list of all modes: supervised
    limits = Limits(wall_s=args.timeout, cpu_s=max(1, int(args.timeout)))
    sandbox = get_backend(args.sandbox)
    if args.llm == "reference":
        def make(problem):
            return ReferenceBackend(problem)
    else:
        def make(problem):
            return from_args(argparse.Namespace(llm="openai", model=args.model, base_url=args.base_url,
                                                temperature=None, max_tokens=None), problem)
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
