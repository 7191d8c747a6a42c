"""What a verdict rests on: the assumptions a result holds under, and the stages of a problem with ordered goals.

A result is "solved under N assumptions" (report.json `assumptions` and `status_detail`, the terminal's result
line), never plain "solved", when
- the folder was written by `optimus new` and its new.json lists assumptions the model made (data the request
  does not give, a wording resolved, a statement added, integrality chosen);
- a data key the SNOP names holds an empty list or map (or entries of it are empty): the result holds as if
  there were none of those things, which the request may not mean.
The status word itself stays (`solved` still exits 0): the detail says what it rests on. Findings are not
assumptions: the number check's (new.json `findings`, as the user confirmed them) are report.json `findings`,
listed beneath the result line and never counted in it; so are the data nothing read (`warnings`).

A lexicographic (preemptive) goal program solves its goals in priority order; solution.json's `stages` lists
each stage's value, first priority first, and the report names the first stage's value as the objective.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from optimus.core.outcomes import stages_of
from optimus.core.problem import Problem
from optimus.core.report import Report, label_abs_tol, objective_matches

if TYPE_CHECKING:
    from optimus.core.outcomes import Execution
from optimus.core.snop import marked, param_candidates

NEW_JSON = "new.json"  # written by `optimus new` into the folder
MAX_SHOWN = 3  # assumptions quoted in the terminal's result line; report.json has them all


def folder_assumptions(problem: Problem) -> list[dict[str, Any]]:
    """The assumptions the folder's data and new.json carry, each {"about", "assumption", "source", …}."""
    return confirmed(problem) + empty_data(problem.snop.problem_info, problem.snop.input_format, problem.data)


def confirmed(problem: Problem, part: str = "assumptions") -> list[dict[str, Any]]:
    """new.json's `assumptions` (the model's: a value, a reading, integrality; each with its `alternative` when
    the model gave one) or its `findings` (the number check's), as the user confirmed them; empty data is left to
    `empty_data`, which reads the folder's data as it is now. An unreadable new.json is said as one assumption
    rather than dropped: the verdict must not look cleaner than it is."""
    path = problem.root / NEW_JSON
    if not path.is_file():
        return []
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
        return [{"about": str(a.get("about") or a.get("key") or a.get("number") or "the data"),
                 "assumption": str(a.get("assumption") or a.get("message")), "source": str(a.get("source", "new.json")),
                 **{k: a[k] for k in ("value", "alternative") if k in a}}
                for a in record.get(part, []) if isinstance(a, dict) and a.get("kind") != "empty"]
    except (json.JSONDecodeError, UnicodeDecodeError, AttributeError, TypeError) as exc:
        if part != "assumptions":
            return []
        return [{"about": NEW_JSON, "assumption": f"{NEW_JSON} cannot be read ({exc}); what optimus new recorded "
                 "as assumed is unknown", "source": NEW_JSON}]


def named_keys(statements: list[str], input_format: str, data: Any) -> list[str]:
    """Top-level data keys the SNOP names: by a \\param in a statement, or in input_format."""
    if not isinstance(data, dict):
        return []
    params = {c for s in statements for p in marked(s, "param") for c in param_candidates(p)}
    return [k for k in data if k in params or f'"{k}"' in input_format]


def empty_data(statements: list[str], input_format: str, data: Any) -> list[dict[str, Any]]:
    """A named key whose list or map is empty, or whose entries are partly empty (towers listed for 1 of 33
    areas): an assumption that there are none of those things."""
    out = []
    for key in named_keys(statements, input_format, data):
        value = data[key]
        if isinstance(value, (list, dict)) and not value:
            out.append({"about": key, "source": "data.json",
                        "assumption": f"data.json gives {key} as empty ({json.dumps(value)}): solved as if there "
                                      f"were none"})
            continue
        entries = list(value.values()) if isinstance(value, dict) else value if isinstance(value, list) else []
        empty = [e for e in entries if isinstance(e, (list, dict)) and not e]
        if empty:
            out.append({"about": key, "source": "data.json",
                        "assumption": f"{len(empty)} of the {len(entries)} entries of {key} in data.json are empty: "
                                      f"solved as if those had none"})
    return out


def qualify(report: Report, problem: Problem, execution: Execution | None) -> None:
    """Finish a report with what it rests on: its assumptions, its status detail, the last run's warnings (data
    nothing read), and with ordered goals the first stage's value as the objective (every stage listed)."""
    report.assumptions = folder_assumptions(problem)
    report.findings = confirmed(problem, "findings")
    report.warnings = list(execution.warnings or []) if execution else []
    stages = stages_of((execution.solution or {}) if execution else {})
    if stages:
        report.stages = stages
        report.objective = stages[0]["objective"]
        expected = report.expected or {}
        if expected.get("objective") is not None:
            report.objective_matches = objective_matches(report.objective, expected["objective"],
                                                         abs_tol=label_abs_tol(expected))
    n = len(report.assumptions)
    answered = report.status in ("solved", "ran", "infeasible", "unbounded")  # an answer that rests on them
    report.status_detail = f"{report.status} under {n} assumption{'s' if n > 1 else ''}" if n and answered \
        else report.status


def result_lines(report: Report) -> list[str]:
    """The terminal's lines after the status: what it rests on, a goal program's stages, the findings and
    warnings (which the result line does not count)."""
    lines = [f"  {result_line(report)}"] if report.status_detail not in ("", report.status) else []
    lines += check_lines(report)
    lines += [f"  finding: {f['about']}: {f['assumption']}" for f in report.findings]
    if report.stages:
        lines.append(f"  objective = stage 1 of {len(report.stages)} (first priority); stages: "
                     + ", ".join(f"{s['name']} {s['objective']}" for s in report.stages))
    return lines + [f"  warning: {w['message']}" for w in report.warnings]


def result_line(report: Report) -> str:
    """The status with what it rests on: "solved under 2 assumptions: (1) …; (2) …"."""
    if report.status_detail in ("", report.status):
        return report.status
    quoted = "; ".join(f"({i}) {a['about']}: {a['assumption']}" for i, a in enumerate(report.assumptions[:MAX_SHOWN], 1))
    more = f"; and {len(report.assumptions) - MAX_SHOWN} more in report.json" if len(report.assumptions) > MAX_SHOWN else ""
    return f"{report.status_detail}: {quoted}{more}"


def check_lines(report: Report) -> list[str]:
    """What the assumption checks found (optimus.commands.assumption_checks): the answer under each assumption
    that moves it, as assumed and with the alternative; the ones that did not; the ones left unchecked."""
    from optimus.core.terminal import number

    checks = report.assumption_checks or []
    lines = []
    for c in (c for c in checks if c.get("changes")):
        assumed = report.assumptions[c["assumption"] - 1] if c["assumption"] <= len(report.assumptions) else {}
        answer = number(c["objective"]) if c.get("objective") is not None else c.get("status")
        lines.append(f"  {report.status}: {number(report.objective)} with {_choice(c, assumed, True)} (as assumed); "
                     f"{answer} with {_choice(c, assumed, False)}")
    same = [f"({c['assumption']}) {c['about']}" for c in checks if c.get("changes") is False]
    if same:
        lines.append(f"  did not change the answer: {', '.join(same)}")
    unchecked = [f"({c['assumption']}) {c['about']} — {c.get('message', '')}" for c in checks if c.get("changes") is None]
    return lines + [f"  assumption not checked: {u}" for u in unchecked]


def _choice(check: dict[str, Any], assumed: dict[str, Any], as_assumed: bool) -> str:
    """`max_dark = 180`, or a reading's words."""
    if check["kind"] == "data":
        value = check["as_assumed"] if as_assumed else check["alternative"]
        return f"{check['about']} = {json.dumps(value)}" if value is not None or not as_assumed else \
            f"{check['about']} as data.json has it"
    return str(assumed.get("assumption", check["about"]) if as_assumed else check["alternative"]).rstrip(".")
