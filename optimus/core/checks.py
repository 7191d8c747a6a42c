"""The harness's own checks of a run's result, independent of any model and of any generated test.

They read only what the SNOP, data.json and the tables of data/ fix: output.json must have the keys of
`output_format`, with list lengths the templates and the data imply (where they can be read: a bound N of
data.json, or a level `for s in facilities` over a table data/facilities.csv, which holds one item per row), and solution.json's objective must be a finite
number when it claims optimal. A check that cannot be read from the templates says "not checked: …" rather than
guess. Failures go to the repair prompt as evidence, like failing tests; report.json lists every check.
"""

from __future__ import annotations

import math
import re
from dataclasses import asdict, dataclass
from typing import Any

from optimus.core.outcomes import FOUND
from optimus.core.template import Entry, TemplateError, parse_template

_RANGE = re.compile(r"\bfor\s+\w+\s+in\s+([^\]]*?)\s*\]")
_ONE_TO = re.compile(r"^1\s*(?:,\s*(?:\.\.\.|…)\s*,?|\.\.)\s*(?P<n>\w+)$")
_RANGE_OF = re.compile(r"^range\(\s*(?P<n>\w+)\s*\)$")
# Problems listed per check, at most: the repair prompt must not grow with the output.
MAX_LISTED = 5


@dataclass
class Check:
    name: str
    passed: bool | None  # None: not checked (the message says why)
    message: str

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def run_checks(output_format: str, input_format: str, data: Any, output: dict, solution: dict,
               table_rows: dict[str, int] | None = None) -> list[Check]:
    """Every harness check of one run: objective, output keys, output list lengths. `table_rows` maps each
    table's name without its suffix (`facilities` for data/facilities.csv) to its row count."""
    checks = [objective_check(solution)]
    status = solution.get("status")
    if status not in FOUND and not output:
        why = f"not checked: status {status}, so output.json holds no solution"
        return checks + [Check("output keys", None, why), Check("output lengths", None, why)]
    try:
        entries = parse_template(output_format)
    except TemplateError as exc:
        why = f"not checked: output_format cannot be read ({exc})"
        return checks + [Check("output keys", None, why), Check("output lengths", None, why)]
    checks.append(keys_check(entries, output))
    checks.append(lengths_check(entries, output, known_sizes(input_format, data, table_rows), set(table_rows or ())))
    return checks


def failed(checks: list[Check]) -> list[Check]:
    return [c for c in checks if c.passed is False]


def evidence(checks: list[Check]) -> str:
    """What the repair prompt gets: each failed check, one line."""
    return "\n".join(f"- harness check {c.name!r} failed: {c.message}" for c in failed(checks))


def objective_check(solution: dict) -> Check:
    status, objective = solution.get("status"), solution.get("objective")
    if isinstance(objective, float) and not math.isfinite(objective):
        return Check("objective", False, f"solution.json has status {status!r} and objective {objective}, "
                                         "which is not a finite number")
    if status != "optimal":
        return Check("objective", True, f"status {status!r}: no objective value required")
    if isinstance(objective, bool) or not isinstance(objective, (int, float)):
        return Check("objective", False, f"solution.json says optimal, but its objective is {_short(objective)}, "
                                         "not a number")
    return Check("objective", True, "status optimal with a finite objective")


def keys_check(entries: list[Entry], output: dict) -> Check:
    missing = _missing_keys(entries, output, "")
    if missing:
        extra = [k for k in output if k not in {e.key for e in entries}]
        also = f"; it has key(s) output_format does not name: {_listed(extra)}" if extra else ""
        return Check("output keys", False, f"output.json lacks key(s) that output_format names: "
                                           f"{_listed(missing)}{also}")
    return Check("output keys", True, f"output.json has all {_count(entries)} key(s) of output_format")


def _missing_keys(entries: list[Entry], value: dict, where: str) -> list[str]:
    missing = []
    for e in entries:
        if e.key not in value:
            missing.append(where + e.key)
        elif e.kind == "object" and e.children and isinstance(value[e.key], dict):
            missing += _missing_keys(e.children, value[e.key], f"{where}{e.key}.")
    return missing


def _listed(names: list[str]) -> str:
    more = f" (+{len(names) - MAX_LISTED} more)" if len(names) > MAX_LISTED else ""
    return ", ".join(str(n)[:60] for n in names[:MAX_LISTED]) + more


def _count(entries: list[Entry]) -> int:
    return sum(1 + (_count(e.children) if e.kind == "object" else 0) for e in entries)


def lengths_check(entries: list[Entry], output: dict, sizes: dict[str, int], tables: set[str] = frozenset()) -> Check:
    """Each list (and each map over a table's rows) of output.json against the sizes the data gives its bounds."""
    problems: list[str] = []
    checked, unread = [], []
    for e, value, where in _lists(entries, output, ""):
        wanted = [_size(b, sizes) for b in _bounds(e, tables)]
        if all(n is None for n in wanted):
            unread.append(where)
            continue
        checked.append(where)
        labels = [f"the rows of table {b}" if b in tables else b for b in e.bounds]
        problems += _shape_problems(value, wanted, labels, where, [level.kind for level in e.levels])
    if problems:
        more = f" (+{len(problems) - MAX_LISTED} more)" if len(problems) > MAX_LISTED else ""
        return Check("output lengths", False, "; ".join(problems[:MAX_LISTED]) + more)
    if not checked:
        why = f"no list length can be read from the templates and data ({', '.join(unread)})" if unread \
            else "output_format has no lists"
        return Check("output lengths", None, f"not checked: {why}")
    note = f"; not read: {', '.join(unread)}" if unread else ""
    return Check("output lengths", True, f"list lengths agree with the data: {', '.join(checked)}{note}")


def _bounds(e: Entry, tables: set[str]) -> list[str | None]:
    """The bounds that count a level's items: counting_bounds for lists, and a level over a table's rows
    (`for s in facilities`, list or map) counts that table's rows."""
    counted = counting_bounds(e) if e.kind == "list" else [None] * len(e.levels)
    return [b if b is not None else (lv.bound if lv.bound in tables and not lv.offset else None)
            for b, lv in zip(counted, e.levels)]


def _lists(entries: list[Entry], value: dict, where: str):
    """(entry, its value, dotted key) for every list entry present in the output."""
    for e in entries:
        if e.key not in value:
            continue
        if e.kind in ("list", "map") and e.bounds:
            yield e, value[e.key], where + e.key
        elif e.kind == "object" and e.children and isinstance(value[e.key], dict):
            yield from _lists(e.children, value[e.key], f"{where}{e.key}.")


def _shape_problems(value: Any, wanted: list[int | None], bounds: list[str | None], where: str,
                    kinds: list[str]) -> list[str]:
    """Walk the nested lists (and maps) level by level (no recursion) and compare each level's length with its
    bound."""
    problems: list[str] = []
    level = [(value, where)]
    for depth, (n, bound, kind) in enumerate(zip(wanted, bounds, kinds)):
        if kind not in ("list", "map"):  # a record's fields are keys, not a length
            break
        below = []
        for item, path in level:
            if not isinstance(item, dict if kind == "map" else list):
                problems.append(f"{path} must be {'an object' if kind == 'map' else 'a list'} ({depth + 1} of "
                                f"{len(bounds)} levels), found {_short(item)}")
                continue
            if n is not None and len(item) != n:
                problems.append(f"{path} has {len(item)} items, but {bound} = {n}")
            pairs = item.items() if kind == "map" else enumerate(item)
            below += [(x, f"{path}[{k!r}]" if kind == "map" else f"{path}[{k}]") for k, x in pairs]
            if len(problems) > MAX_LISTED:
                return problems
        level = below
    return problems


def known_sizes(input_format: str, data: Any, table_rows: dict[str, int] | None = None) -> dict[str, int]:
    """Bound name → size, from data.json's integer values named like a bound (N), from the lengths of its
    lists at the levels input_format sizes by a bound, and from the tables' row counts (a table's name without
    its suffix). A bound two readings disagree on is left out."""
    seen: dict[str, set[int]] = {name: {rows} for name, rows in (table_rows or {}).items()}
    if isinstance(data, dict):
        for key, value in data.items():
            if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
                seen.setdefault(key, set()).add(value)
    try:
        entries = parse_template(input_format) if input_format.strip() else []
    except TemplateError:
        entries = []
    for e in entries:
        if e.kind != "list" or not isinstance(data, dict) or e.key not in data:
            continue
        level = [data[e.key]]
        for bound in counting_bounds(e):
            if not level or not all(isinstance(x, list) for x in level):
                break
            if bound is not None:
                seen.setdefault(bound, set()).update(len(x) for x in level)
            level = [y for x in level for y in x]
    return {b: next(iter(v)) for b, v in seen.items() if len(v) == 1}


def counting_bounds(e: Entry) -> list[str | None]:
    """The entry's bounds that are its lists' lengths: a level counts `1, ..., N` (or `1..N`, `range(N)`) only;
    `0, ..., N` or `1, ..., N-1` has another length, so that level is not read (None)."""
    bounds = [lv.bound for lv in e.levels if lv.kind != "record"]  # a record (innermost) has no length
    records = [None] * (len(e.levels) - len(bounds))
    ranges = [m.group(1).strip() for m in _RANGE.finditer(e.value)][::-1]  # text order is innermost first
    if "for" not in e.value:  # `[x_1, ..., x_N]`: the first item must be numbered 1
        first = e.value.strip("[] \n").split(",")[0]
        return (bounds if re.search(r"_\{?1\}?\s*$", first) else [None] * len(bounds)) + records
    if len(ranges) != len(bounds):
        return [None] * len(e.levels)
    return [b if b is not None and _counts_to(r) == b else None for b, r in zip(bounds, ranges)] + records


def _counts_to(range_text: str) -> str | None:
    """N when the range has N items (`1, ..., N`, `1..N`, `range(N)`), else None."""
    match = _ONE_TO.match(range_text) or _RANGE_OF.match(range_text)
    return match.group("n") if match else None


def _size(bound: str | None, sizes: dict[str, int]) -> int | None:
    if bound is None:
        return None
    if bound.isdigit():
        return int(bound)
    return sizes.get(bound)


def _short(value: Any) -> str:
    text = repr(value) if not isinstance(value, (list, dict)) else type(value).__name__
    return text if len(text) <= 40 else text[:40] + "…"
