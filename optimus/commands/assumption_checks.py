"""Which assumptions matter: each assumption with an alternative is solved under the alternative too.

An assumption (report.json `assumptions`, from new.json) may carry the other plausible choice the model gave:
`"alternative"`. Two kinds are solved, each on a variant folder under runs/<id>/assumptions/a<k>/:
- a data value (`about` names a data.json key or path, the alternative is a JSON value): the run's own program
  re-runs on data.json with the alternative in place (optimus.commands.rerun, no model call);
- a reading (a wording, integrality: the alternative is words): one reformulation through the --samples machinery
  (optimus.commands.samples: sample 1's backend, `for_sample`, and formulate's own-words prompt), the statement it
  is about carrying the alternative, in mode debug; at most the budget's model calls (`--check-assumptions N`).
Each check is a report.json `assumption_checks` entry; the result line names the assumptions that move the
objective beyond the tolerance with the answer under each, and lists the rest as "did not change the answer".
"""

from __future__ import annotations

import copy
import json
import re
import shutil
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from optimus.core.errors import OptimusError
from optimus.core.llm import LLMClient
from optimus.core.llm.client import for_sample
from optimus.core.loop import Options, solve
from optimus.core.problem import Problem, load_problem
from optimus.core.report import REL_TOL, Report, objective_matches
from optimus.core.runstore import RunStore
from optimus.core.sandbox.base import Backend as SandboxBackend
from optimus.core.terminal import number

DEFAULT_BUDGET = 4  # model calls for readings: two reformulations (formulate and codegen each)
READING_CALLS = 2  # the fewest a reading's reformulation takes
ABS_TOL = 1e-6
_PATH = re.compile(r"^([^.\[\]]+)((?:\[\d+\]|\.[^.\[\]]+)*)$")
_PART = re.compile(r"\[(\d+)\]|\.([^.\[\]]+)")


def check_assumptions(problem: Problem, client: LLMClient, sandbox: SandboxBackend, run: RunStore, options: Options,
                      report: Report, budget: int = DEFAULT_BUDGET,
                      progress: Callable[[str], None] = lambda _: None) -> list[dict[str, Any]]:
    """Solve each assumption's alternative (data: no model call; reading: within `budget` model calls); the
    checks, also set on `report` (its result line reads them) and written to report.json."""
    if report.status != "solved" or not isinstance(report.objective, (int, float)):
        return []  # nothing to compare the alternatives with
    checks, spent = [], 0
    for k, assumption in enumerate(report.assumptions, 1):
        if "alternative" not in assumption:
            continue
        dest = run.dir / "assumptions" / f"a{k}"
        assumption = {**assumption, "about": data_target(assumption, problem)}
        entry = {"assumption": k, "about": assumption["about"], "as_assumed": assumption.get("value"),
                 "alternative": assumption["alternative"], "kind": kind_of(assumption, problem.data)}
        if entry["kind"] == "data":
            entry.update(data_check(problem, run, report, sandbox, options, dest, assumption))
        elif spent + READING_CALLS > budget:
            entry.update(checked=False, calls=0, message=f"not checked: the --check-assumptions budget of {budget} "
                         f"model call(s) is spent ({spent} used)")
        else:
            entry.update(reading_check(problem, client, sandbox, options, dest, assumption, budget - spent))
            spent += entry["calls"]
        entry["changes"] = changes(report, entry)
        progress(f"assumption {k} ({assumption['about']}): {said(entry)}")
        checks.append(entry)
    if not checks:
        return []
    report.assumption_checks = checks
    if spent:  # the reformulations' calls are the run's too
        report.llm_usage = client.stats.as_dict()
    run.write("report.json", report.to_dict())
    return checks


def kind_of(assumption: dict[str, Any], data: Any) -> str:
    """"data" when the assumption is about a data.json value and its alternative is a value; else "reading"."""
    alternative = assumption["alternative"]
    if isinstance(alternative, str) or data_path(data, str(assumption["about"])) is None:
        return "reading"
    return "data"


def data_target(assumption: dict[str, Any], problem: Problem) -> str:
    """What a value assumption is about: its data key as given, or — when it names a statement (s3) — the one
    data key of that statement's parameters that holds the value the model chose."""
    about = str(assumption["about"])
    match = re.fullmatch(r"\(?s(\d+)\)?", about.strip())
    statements, data = problem.snop.problem_info, problem.data
    if not match or "value" not in assumption or isinstance(assumption["alternative"], str) \
            or not isinstance(data, dict) or not 1 <= int(match.group(1)) <= len(statements):
        return about
    from optimus.core.changes import param_keys

    keys = [key for key in param_keys(statements[int(match.group(1)) - 1], data)
            if data[key] == assumption["value"]]
    return keys[0] if len(keys) == 1 else about


def data_path(data: Any, about: str) -> list[str | int] | None:
    """`dist[3].km` as keys and positions that exist in data, or None."""
    match = _PATH.match(about.strip())
    if not match or not isinstance(data, dict):
        return None
    parts: list[str | int] = [match.group(1)]
    parts += [int(i) if i else key for i, key in _PART.findall(match.group(2))]
    node = data
    for part in parts:
        at_position = isinstance(part, int) and isinstance(node, list) and 0 <= part < len(node)
        if not (at_position or (isinstance(part, str) and isinstance(node, dict) and part in node)):
            return None
        node = node[part]
    return parts


def variant_folder(problem: Problem, dest: Path) -> Path:
    """A copy of the problem folder (without its runs, nor expected.json: the known answer is the assumed
    reading's, never the alternative's) to solve the alternative in."""
    if dest.exists():
        shutil.rmtree(dest)
    shutil.copytree(problem.root, dest,
                    ignore=shutil.ignore_patterns("runs", "variants", ".ready", "expected.json"))
    return dest


def data_check(problem: Problem, run: RunStore, report: Report, sandbox: SandboxBackend, options: Options,
               dest: Path, assumption: dict[str, Any]) -> dict[str, Any]:
    """The run's program on data.json with the alternative value in place: no model call."""
    from optimus.commands.rerun import rerun
    from optimus.core.consensus import chosen_run_dir
    from optimus.core.diagnose import final_attempt

    folder = variant_folder(problem, dest)
    data = copy.deepcopy(problem.data)
    *parents, last = data_path(data, str(assumption["about"]))
    node = data
    for part in parents:
        node = node[part]
    node[last] = assumption["alternative"]
    (folder / "data.json").write_text(json.dumps(data, indent=2) + "\n")
    try:
        attempt = final_attempt(chosen_run_dir(run.dir), report.winning_variant)
        result = rerun(load_problem(folder), run.dir, attempt, "debug", report.family, sandbox, options.limits)
    except OptimusError as exc:
        return {"checked": False, "calls": 0, "message": f"not checked: {exc}"}
    return outcome(result, "the run's program re-ran on data.json with the alternative value (no model call)")


def reading_check(problem: Problem, client: LLMClient, sandbox: SandboxBackend, options: Options, dest: Path,
                  assumption: dict[str, Any], budget: int) -> dict[str, Any]:
    """One reformulation with the statement read the other way, as sample 1 of --samples would formulate it."""
    folder = variant_folder(problem, dest)
    snop = problem.snop.to_dict()
    snop["problem_info"] = read_otherwise(snop["problem_info"], str(assumption["about"]),
                                          str(assumption["alternative"]))
    for name in ("description.txt", "snop.json"):
        (folder / name).unlink(missing_ok=True)
    (folder / "snop.json").write_text(json.dumps(snop, indent=2) + "\n")
    store = RunStore(folder)
    sub = LLMClient(for_sample(client.backend, 1), log=client.log, transcript=store.dir / "transcript.jsonl",
                    use_cache=client.use_cache)
    mine = replace(options, mode="debug", sample=1, max_debug=max(0, budget - READING_CALLS), rephrasings=0,
                   assess=False, record=(), regen_tests=False)
    try:
        result = solve(load_problem(folder), sub, sandbox, store, mine)
    except OptimusError as exc:
        return {"checked": False, "calls": sub.stats.calls, "message": f"not checked: {exc}"}
    client.stats.add(sub.stats.as_dict())
    return {**outcome(result, "one reformulation with the statement read the other way (a --samples sample)"),
            "calls": sub.stats.calls}


def read_otherwise(statements: list[str], about: str, alternative: str) -> list[str]:
    """The statements with the alternative reading said where it applies: on statement sK, on the statements
    naming the data key, else as a statement of its own."""
    note = f" (Read this as: {alternative.strip().rstrip('.')}.)"
    out = list(statements)
    match = re.fullmatch(r"\(?s(\d+)\)?", about.strip())
    if match and 1 <= int(match.group(1)) <= len(out):
        out[int(match.group(1)) - 1] += note
        return out
    key = about.split("[")[0].split(".")[0]
    naming = [i for i, s in enumerate(out) if re.search(rf"\\param\{{{re.escape(key)}(?:_|\}})", s)]
    for i in naming:
        out[i] += note
    return out if naming else out + [f"Regarding {about}: {alternative.strip()}"]


def outcome(result: Report, how: str) -> dict[str, Any]:
    return {"checked": True, "status": result.status, "objective": result.objective, "verified": result.verified,
            "run_dir": result.run_dir, "how": how, "calls": 0}


def changes(report: Report, entry: dict[str, Any]) -> bool | None:
    """Whether the alternative moves the answer: another status, or an objective beyond the tolerance. None when
    it was not checked."""
    if not entry.get("checked"):
        return None
    if entry["status"] != report.status:
        return True
    return not objective_matches(entry.get("objective"), report.objective, rel=REL_TOL, abs_tol=ABS_TOL)


def said(entry: dict[str, Any]) -> str:
    if not entry.get("checked"):
        return entry["message"]
    answer = number(entry["objective"]) if entry["objective"] is not None else entry["status"]
    return f"{'changes' if entry['changes'] else 'does not change'} the answer ({answer} with the alternative)"
