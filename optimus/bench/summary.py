"""summary.md and summary.png from results.jsonl: the paper's ablation table, and the fault table."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

from optimus.bench.agreement import samples_section
from optimus.bench.faults import CATALOGUE
from optimus.bench.tally import modes_of, pct
from optimus.core.stages import MODES


def mode_stats(rows: list[dict], mode: str, prices: tuple[float, float] | None = None) -> dict:
    """`prices`: money per 1M prompt and per 1M completion tokens, for the cost per solved problem."""
    these = [r for r in rows if r["mode"] == mode]
    solved = [r for r in these if r["success"]]
    calls = sum(r["llm_calls"] for r in these)
    tokens = sum(r["prompt_tokens"] + r["completion_tokens"] for r in these)
    cost = None
    if prices is not None:
        cost = sum(r["prompt_tokens"] * prices[0] + r["completion_tokens"] * prices[1] for r in these) / 1e6
    return {
        "n": len(these),
        "success": len(solved),
        "executed": sum(r["executed"] for r in these),
        "claimed": sum(r["verified"] for r in these),
        "false_claims": sum(r["verified"] and not r["success"] for r in these),
        "calls_per_solved": calls / len(solved) if solved else None,
        "tokens_per_solved": tokens / len(solved) if solved else None,
        "cost_per_solved": cost / len(solved) if solved and cost is not None else None,
        "seconds": sum(r["seconds"]["total"] for r in these) / len(these) if these else 0.0,
    }


def planning_section(rows: list[dict]) -> list[str]:
    """LLM+P's measures for planning problems: success (a valid plan), the optimal-length rate, planner time."""
    plans = [r for r in rows if r.get("planning")]
    if not plans:
        return []
    lines = ["", "### Planning problems", "",
             "| mode | problems | success (valid plan) | optimal length | s in the sandbox / problem |",
             "| --- | --- | --- | --- | --- |"]
    for m in modes_of(plans):
        these = [r for r in plans if r["mode"] == m]
        solvable = [r for r in these if (r.get("expected") or {}).get("objective") is not None]
        optimal = sum(bool(r.get("objective_match")) for r in solvable)
        sandbox = sum(r["seconds"].get("sandbox") or 0 for r in these) / len(these)
        lines.append(f"| {m} | {len(these)} | {pct(sum(r['success'] for r in these), len(these))} | "
                     f"{pct(optimal, len(solvable))} | {sandbox:.1f} |")
    return lines + ["", ("Optimal length: of the problems that have a plan, those whose plan is as short as the "
                         "computed optimum. Sandbox time holds the planner's search, its validation and the tests.")]


def rightness_section(rows: list[dict]) -> list[str]:
    """Right, right under a named assumption (the expected objective is the answer under an assumption's
    alternative, which the run solved too), feasible within gap (a time limit stopped it with a solution whose
    bound and objective hold the known optimum: an answer with a gap, optimus.bench.judge), wrong: per mode."""
    word = lambda r: r.get("verdict") or ("right" if r["success"] else "wrong")  # rows written before the word
    lines = ["", "### Right, right under a named assumption, feasible within gap, wrong", "",
             "| mode | right | right under a named assumption | feasible within gap | wrong |",
             "| --- | --- | --- | --- | --- |"]
    for m in modes_of(rows):
        words = [word(r) for r in rows if r["mode"] == m]
        lines.append(f"| {m} | {words.count('right')} | {words.count('right under a named assumption')} | "
                     f"{words.count('feasible within gap')} | {words.count('wrong')} |")
    under = [f"- {r['problem']} ({r['mode']}): {r['under_assumption']}" for r in rows if r.get("under_assumption")]
    return lines + (["", "Right under a named assumption:", *under] if under else [])


def ordering(rows: list[dict]) -> tuple[bool, str]:
    """Does success not decrease along prompt → debug → autotests → supervised → full?"""
    stats = [(m, sum(r["success"] for r in rows if r["mode"] == m)) for m in modes_of(rows) if m in MODES]
    broken = [f"{a} {x} > {b} {y}" for (a, x), (b, y) in itertools.pairwise(stats) if x > y]
    chain = " ≤ ".join(f"{m} {k}" for m, k in stats)
    return (not broken, chain if not broken else f"{chain}; violated: {', '.join(broken)}")


def fault_cell(rows: list[dict]) -> str:
    served = [r for r in rows if r["fault_detail"]["served"]]
    if not served:
        return "n/a"
    det = sum(r["detected"] for r in served)
    rep = sum(r["success"] for r in served)
    return f"{det}/{len(served)} · {rep}/{len(served)}"


def fault_section(rows: list[dict], modes: list[str]) -> list[str]:
    faulted = [r for r in rows if r.get("fault")]
    if not faulted:
        return []
    names = [n for n in CATALOGUE if any(r["fault"] == n for r in faulted)]
    lines = [
        "## Faults: detection and repair per mode",
        "",
        (
            "Each cell: detected/served · solved/served. *Detected*: the loop did not accept the faulty program "
            "(it asked for a repair, or ended unverified; a wrong generated test is never detected — the loop "
            "cannot doubt its tests and fails the right program instead). *Solved*: the bench's verdict at the "
            "end. *n/a*: the mode never asked for the faulty artifact (e.g. no tests are generated in "
            "prompt/debug). Last column: repair prompts that carried the evidence the fault needs / all repair "
            "prompts sent while it was live."
        ),
        "",
        "| fault | problems | " + " | ".join(modes) + " | evidence in repair prompts |",
        "| --- | --- | " + " | ".join("---" for _ in modes) + " | --- |",
    ]
    uncaught, unrepaired = [], []
    for name in names:
        these = [r for r in faulted if r["fault"] == name]
        problems = sorted({r["problem"] for r in these})
        seen = [e for r in these for e in r["fault_detail"]["evidence"]]
        cells = [fault_cell([r for r in these if r["mode"] == m]) for m in modes]
        lines.append(f"| {name} | {len(problems)} | " + " | ".join(cells) + f" | {sum(seen)}/{len(seen)} |")
        served = [r for r in these if r["fault_detail"]["served"]]
        if served and not any(r["detected"] for r in served):
            uncaught.append((name, problems))
        elif served and not any(r["fault_detail"]["repaired"] for r in served):
            unrepaired.append((name, problems))
    missing = [n for n in CATALOGUE if n not in names]
    lines += ["", "### Not caught by any mode", ""]
    lines += [uncaught_line(n, p, faulted) for n, p in uncaught] or ["- none"]
    lines += ["", "### Caught but never repaired (the repair prompt lacked the evidence)", ""]
    lines += [f"- **{n}** ({', '.join(p)}): a repair needs {CATALOGUE[n].needs}." for n, p in unrepaired] or [
        "- none"
    ]
    if missing:
        lines += [
            "",
            (
                f"Not drawn in this run (no problem where it applies and breaks, or too few problems): "
                f"{', '.join(missing)}."
            ),
        ]
    return lines + [""]


def uncaught_line(name: str, problems: list[str], faulted: list[dict]) -> str:
    fault = CATALOGUE[name]
    head = f"- **{name}** ({', '.join(problems)}): {fault.summary}."
    if fault.target == "tests":
        spent = [r for r in faulted if r["fault"] == name and r["fault_detail"]["served"]]
        wasted = sum(r["attempts"].get("fix", 0) for r in spent)
        return (
            f"{head} The loop cannot tell a wrong test from a wrong program: it spent {wasted} fix call(s) on "
            f"right programs and reported {sum(not r['verified'] for r in spent)} of {len(spent)} as failed "
            "(the bench's verdict, by the supervised tests, is success; the reference never bends the program "
            "to the wrong test, a model might). Only regenerated tests (--regen-tests) or supervised tests help."
        )
    return (
        f"{head} A repair needs {fault.needs}; no mode produced it — the loop accepted the faulty program "
        f"({sum(r['verified'] and not r['success'] for r in faulted if r['fault'] == name)} runs said verified)."
    )


def write_summary(
    out: Path, rows: list[dict], title: str = "", wall_s: float | None = None, skipped: dict | None = None,
    prices: tuple[float, float] | None = None,
) -> Path:
    """`prices` (per 1M prompt / completion tokens) adds the money spent per solved problem to the table."""
    modes = modes_of(rows)
    settings = json.loads((out / "bench.json").read_text()) if (out / "bench.json").exists() else {}
    faults = settings.get("faults") or []
    head = [
        f"# optimus bench — {title or out.name}",
        "",
        f"LLM {settings.get('llm', '?')} ({settings.get('model', '?')}); faults: "
        f"{', '.join(faults) if faults else 'none'}"
        + (f" (seed {settings.get('seed')})" if faults else "")
        + f"; {len({r['problem'] for r in rows})} problems; objective tolerance rel {settings.get('rel_tol')} / "
        f"abs {settings.get('abs_tol')}."
        + (f" Wall time of the last invocation: {wall_s:.0f} s." if wall_s else ""),
        "",
        "## Success and execution rate per mode",
        "",
        (
            "| mode | problems | success | execution | loop said verified | of those wrong | "
            "LLM calls / solved | tokens / solved | s / problem |" + (" cost / solved |" if prices else "")
        ),
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |" + (" --- |" if prices else ""),
    ]
    for m in modes:
        s = mode_stats(rows, m, prices)
        per = lambda v: f"{v:.1f}" if v is not None else "–"
        cost = s["cost_per_solved"]
        head.append(
            f"| {m} | {s['n']} | {pct(s['success'], s['n'])} | {pct(s['executed'], s['n'])} | "
            f"{s['claimed']} | {s['false_claims']} | {per(s['calls_per_solved'])} | "
            f"{per(s['tokens_per_solved'])} | {s['seconds']:.1f} |"
            + ((f" {cost:.4f} |" if cost is not None else " – |") if prices else "")
        )
    if prices:
        head += ["", (f"Cost at {prices[0]:g} per 1M prompt tokens and {prices[1]:g} per 1M completion tokens "
                      "(--price-in/--price-out): all of the mode's tokens ÷ problems solved.")]
    if settings.get("llm") == "reference":
        head += [
            "",
            (
                "Offline (`--llm reference`): the backend cannot rephrase (it returns the statements unchanged) "
                "and its generated tests are the supervised tests, so without faults every mode solves what the "
                "references solve, and full ≈ supervised; with faults, what differs between modes is what the "
                "loop feeds back. It measures the harness, not a language model."
            ),
        ]
    if settings.get("ablation", "independent") == "nested" and len([m for m in modes if m in MODES]) > 1:
        head += ["", (
            "Nested ablation (the default): one trajectory per problem in the richest mode; each lesser mode's row "
            "is the verdict it would have reached where it would have stopped (prompt: the first run; debug: after "
            "execution repairs; autotests: after fixes against generated tests; supervised: after fixes against "
            "the folder's tests; full: after self-assessment and rephrasings), judged as always. The modes share "
            "their samples, so their differences are the loop's alone; a mode's calls and tokens are those spent "
            "until it stopped, including the lesser modes' (e.g. supervised's include the generated tests'). "
            "`--ablation independent` runs every mode from scratch."
        )]
    head += rightness_section(rows)
    head += planning_section(rows)
    head += samples_section(rows)
    holds, chain = ordering(rows)
    head += [
        "",
        (
            "*Success*: supervised tests pass on the final output and the objective matches expected.json "
            "(status only for infeasible/unbounded problems). *Execution*: the final program wrote an output.json "
            "that parses. Calls and tokens per solved problem: all of the mode's calls ÷ problems solved."
        ),
        "",
        f"Ordering {'holds' if holds else 'does NOT hold'}: {chain}.",
        "",
    ]
    failures = [r for r in rows if not r["success"]]
    body = fault_section(rows, modes)
    if failures:
        body += [
            "## Rows that did not succeed",
            "",
            "| problem | mode | fault | why |",
            "| --- | --- | --- | --- |",
        ]
        body += [
            f"| {r['problem']} | {r['mode']} | {r.get('fault') or ''} | "
            f"{(r.get('error') or r['reason']).replace('|', '/')[:140]} |"
            for r in failures
        ]
        body.append("")
    if skipped:
        body += ["## Skipped problems", ""] + [f"- {k}: {v}" for k, v in skipped.items()] + [""]
    path = out / "summary.md"
    path.write_text("\n".join(head + body))
    plot(out / "summary.png", rows, modes, title or out.name)
    return path


def plot(path: Path, rows: list[dict], modes: list[str], title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    stats = [mode_stats(rows, m) for m in modes]
    xs = range(len(modes))
    fig, ax = plt.subplots(figsize=(7, 4))
    width = 0.38
    for offset, key, label in (
        (-width / 2, "success", "success rate"),
        (width / 2, "executed", "execution rate"),
    ):
        values = [100 * s[key] / s["n"] if s["n"] else 0 for s in stats]
        bars = ax.bar([x + offset for x in xs], values, width, label=label)
        ax.bar_label(bars, fmt="%.0f", fontsize=8)
    ax.set_xticks(list(xs), modes)
    ax.set_ylim(0, 118)
    ax.set_ylabel("% of problems")
    ax.set_title(f"optimus bench — {title}")
    ax.legend(loc="upper center", ncol=2, frameon=False)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
