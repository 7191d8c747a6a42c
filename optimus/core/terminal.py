"""How the terminal shows a run: numbers rounded for reading, one line of timings, the decisions as a table,
statements as the user wrote them. report.json and output.json keep full precision; this is only the view."""

from __future__ import annotations

import math
import re
from typing import Any

# Digits a terminal number keeps: 17711.200000000004 reads 17711.2, 5.3999999999999995 reads 5.4.
SIGNIFICANT = 8
# Decisions shown after the objective unless --show all.
TOP_DECISIONS = 20
# Below this a solver's value is zero (its own tolerances leave 1e-12 where it means 0).
ZERO = 1e-9
_MARKUP = re.compile(r"\\(?:param|var|set)\{((?:[^{}]|\{[^{}]*\})*)\}")


def number(value: Any) -> str:
    """A value as a person reads it: floats to SIGNIFICANT digits without float noise, never `None`."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        if not math.isfinite(value):
            return "NaN" if math.isnan(value) else ("∞" if value > 0 else "−∞")
        text = f"{value:.{SIGNIFICANT}g}"
        return "0" if text == "-0" else text
    if value is None:
        return "none"
    return str(value)


def solution_line(solution: dict) -> str:
    """`status optimal, objective 17711.2`: what a run's solution.json says, with no objective when it has none."""
    objective = solution.get("objective")
    shown = f", objective {number(objective)}" if objective is not None else ""
    if solution.get("status") == "time_limit" and objective is not None:
        shown += f" — {gap_words(solution.get('gap'))}"
    return f"status {solution.get('status') or 'not given'}{shown}"


def gap_words(gap: Any) -> str:
    """`feasible within 0.8 % of optimal (time limit)`: a solution a time limit stopped, with the gap its solver
    proved (a fraction); without a finite gap only that it is feasible."""
    if isinstance(gap, (int, float)) and not isinstance(gap, bool) and math.isfinite(gap) and gap >= 0:
        return f"feasible within {100 * gap:.3g} % of optimal (time limit)"
    return "feasible, optimality not proven (time limit)"


def verdict_words(report: dict) -> str:
    """`solved, objective 641647.06`, or the status and why when there is no objective (never `None`)."""
    objective = report.get("objective")
    if objective is not None:
        gap = f" — {gap_words(report.get('gap'))}" if report.get("solver_status") == "time_limit" else ""
        return f"{report.get('status') or 'no status'}, objective {number(objective)}{gap}"
    return f"{report.get('status') or 'no status'} — {report.get('message') or 'no objective'}"


def plain(statement: str) -> str:
    """A statement as the user reads it: `\\param{sulfur_max}` shows as sulfur_max."""
    return _MARKUP.sub(lambda m: m.group(1), statement)


def unnest(text: str) -> str:
    """Parentheses inside parentheses read as brackets: a message quoting a message stays one level deep."""
    out, depth = [], 0
    for ch in text:
        if ch == "(":
            out.append("(" if depth == 0 else "[")
            depth += 1
        elif ch == ")" and depth:
            depth -= 1
            out.append(")" if depth == 0 else "]")
        else:
            out.append(ch)
    return "".join(out)


def timings(seconds: dict[str, Any], samples: int = 1) -> str:
    """One line: wall time, time waiting on the model, time in the sandbox. Samples run side by side, so their
    sandbox seconds are a sum that can exceed the wall time: the line says so."""
    def s(key: str) -> str:
        value = seconds.get(key)
        return f"{value:.1f} s" if isinstance(value, (int, float)) else "not measured"

    sandbox = f"sandbox {s('sandbox')}" + (f" summed over {samples} samples run side by side" if samples > 1 else "")
    return f"time {s('total')} in all; model {s('llm')}, {sandbox}"


def decisions(output: Any, limit: int | None = TOP_DECISIONS,
              zeros: bool = False) -> tuple[list[tuple[str, str]], int]:
    """output.json's non-zero entries (every entry with `zeros`) as (name, value) rows in output order,
    `ship[2][0]` style, the first `limit` (None: all); and how many non-zero entries there are in all.
    Iterative: the file is the program's."""
    rows: list[tuple[str, str]] = []
    count = 0
    stack: list[tuple[str, Any]] = [("", output)]
    while stack:
        name, value = stack.pop()
        if isinstance(value, dict):
            stack.extend((f"{name}.{k}" if name else str(k), v) for k, v in reversed(list(value.items())))
        elif isinstance(value, list):
            stack.extend((f"{name}[{i}]", v) for i, v in reversed(list(enumerate(value))))
        else:
            count += _nonzero(value)
            if (zeros or _nonzero(value)) and (limit is None or len(rows) < limit):
                rows.append((name or "value", number(value)))
    return rows, count


def _nonzero(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)):
        return not (math.isfinite(value) and abs(value) < ZERO)
    return isinstance(value, str) and value.strip() != ""


def table(rows: list[tuple[str, str]], indent: str = "    ") -> list[str]:
    """Two aligned columns: name, value."""
    width = max((len(n) for n, _ in rows), default=0)
    return [f"{indent}{n.ljust(width)}  {v}" for n, v in rows]


QUOTE_CHARS = 240  # a statement quoted in a diagnosis or a repair proposal, at most


def quote(k: int, statements: list[str]) -> str:
    if not 1 <= k <= len(statements):
        return f'(s{k}) [no statement s{k}: the SNOP has {len(statements)}]'
    text = " ".join(plain(statements[k - 1]).split())
    return f'(s{k}) "{text if len(text) <= QUOTE_CHARS else text[:QUOTE_CHARS] + "…"}"'
