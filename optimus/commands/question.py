"""A question put to a solved model, as one typed request the harness can solve (optimus.commands.ask).

The model's answer to the ask prompt names data keys, statements and variables, never values: a data change is
an operation over keys ("multiply fixed_cost by 1.1"), whose new values the harness computes from data.json.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Any

from optimus.core.changes import (
    EVERY,
    Candidate,
    Edit,
    get_at,
    matching_paths,
    positions,
    statements_of_key,
    where,
)
from optimus.core.errors import SpecError
from optimus.core.problem import Problem

KINDS = ("what-if", "why", "why-not", "sensitivity")
OPS = ("set", "add", "multiply")
_SID = re.compile(r"^s\d+$")
_INDEX_PART = re.compile(r"(?:_\d+)+$")
WHERE = "ask answer"


@dataclass
class Request:
    kind: str
    data: list[dict] = field(default_factory=list)  # {"key", "index", op: number}
    statements: dict[str, str] = field(default_factory=dict)  # s<k> → reworded
    add_statements: list[str] = field(default_factory=list)
    drop: list[str] = field(default_factory=list)
    bounds: list[dict] = field(default_factory=list)  # {"variable", "lower", "upper"}
    rows: list[str] = field(default_factory=list)  # statements whose rows a sensitivity reads
    variables: list[str] = field(default_factory=list)
    delta: float = 1.0
    reading: str = ""

    @property
    def changes_statements(self) -> bool:
        return bool(self.statements or self.add_statements or self.drop)

    def to_dict(self) -> dict:
        return {k: v for k, v in asdict(self).items() if v not in ([], {}, "")}


def parse(raw: Any, problem: Problem) -> Request:
    """The model's JSON answer → a Request, checked against the problem's keys and statements (SpecError
    naming the field otherwise)."""
    if not isinstance(raw, dict):
        raise SpecError(WHERE, "$", "expected a JSON object")
    kind = raw.get("kind")
    if kind not in KINDS:
        raise SpecError(WHERE, "kind", f"expected one of {', '.join(KINDS)}, found {kind!r}")
    n = len(problem.snop.problem_info)
    req = Request(kind, reading=str(raw.get("reading") or ""))
    for i, item in enumerate(_list(raw, "data")):
        if not isinstance(item, dict) or item.get("key") not in problem.data:
            raise SpecError(WHERE, f"data[{i}].key", f"no key {item.get('key') if isinstance(item, dict) else item!r}"
                            " in data.json")
        ops = [o for o in OPS if o in item]
        if len(ops) != 1 or not _number(item[ops[0]]):
            raise SpecError(WHERE, f"data[{i}]", "expected one number under set, add or multiply")
        index = item.get("index") or []
        if not isinstance(index, list) or any(isinstance(p, bool) or not isinstance(p, (int, str)) for p in index):
            raise SpecError(WHERE, f"data[{i}].index", "expected a list of list positions, map keys or \"*\"")
        req.data.append({"key": item["key"], "index": index, ops[0]: item[ops[0]]})
    statements = raw.get("statements") or {}
    if not isinstance(statements, dict):
        raise SpecError(WHERE, "statements", "expected {\"s<k>\": text}")
    req.statements = {s: t for s, t in statements.items() if _sid(s, n) and isinstance(t, str) and t.strip()}
    req.add_statements = [t for t in _list(raw, "add_statements") if isinstance(t, str) and t.strip()]
    req.drop = [s for s in _list(raw, "drop") if _sid(s, n)]
    for i, b in enumerate(_list(raw, "bounds")):
        if not isinstance(b, dict) or not isinstance(b.get("variable"), str) or not any(
                _number(b.get(k)) for k in ("lower", "upper")):
            raise SpecError(WHERE, f"bounds[{i}]", "expected {\"variable\": name, \"lower\"/\"upper\": number}")
        req.bounds.append({"variable": b["variable"], "lower": b.get("lower"), "upper": b.get("upper")})
    # a statement (its every row), or a row name or pattern of one: s5_capacity_w2, s5_capacity_*
    req.rows = [r for r in _list(raw, "rows") if isinstance(r, str) and _sid(r.split("_")[0], n)]
    req.variables = [v for v in _list(raw, "variables") if isinstance(v, str)]
    if _number(raw.get("delta")) and raw["delta"] != 0:
        req.delta = float(raw["delta"])
    if kind == "sensitivity" and not (req.rows or req.variables):
        raise SpecError(WHERE, "rows", "a sensitivity question names the statements (s<k>) or variables it asks about")
    if kind != "sensitivity" and not (req.data or req.changes_statements or req.bounds):
        raise SpecError(WHERE, "$", "the answer changes nothing: no data, statement or bound")
    return req


def _list(raw: dict, key: str) -> list:
    value = raw.get(key) or []
    if not isinstance(value, list):
        raise SpecError(WHERE, key, "expected a list")
    return value


def _sid(s: Any, n: int) -> bool:
    return isinstance(s, str) and bool(_SID.match(s)) and 1 <= int(s[1:]) <= n


def _number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def data_candidate(req: Request, problem: Problem) -> Candidate:
    """The data and statement changes as a repair Candidate (optimus.commands.repair.apply writes it to a variant): the
    new values computed here from data.json, each number under key[index] changed."""
    data, statements = problem.data, problem.snop.problem_info
    edits, touched = [], set()
    for i, item in enumerate(req.data):
        key, index = item["key"], item["index"]
        try:  # "*" in the index: every position or key at that level ("every cost" over a map of costs)
            places = matching_paths(data[key], index)
        except (IndexError, TypeError, KeyError):
            raise SpecError(WHERE, f"data[{i}].index", f"no place {where(key, index)} in data.json"
                            + _keys_near(data[key], index)) from None
        found = [p for place in places for p in positions(get_at(data, key, place), place)]
        if not found:
            raise SpecError(WHERE, f"data[{i}]", f"{where(key, index)} holds no number")
        op = next(o for o in OPS if o in item)
        for path, old in found:
            new = {"set": item[op], "add": old + item[op], "multiply": old * item[op]}[op]
            raw = get_at(data, key, path)
            new = float(f"{new:.12g}")
            edits.append(Edit(key, path, old, int(new) if isinstance(raw, int) and new.is_integer() else new))
        touched |= set(statements_of_key(key, statements, data))
    return Candidate("text", "; ".join(op_text(item) for item in req.data) or "statements", sorted(touched),
                     edits, list(req.drop), dict(req.statements), source=req.reading)


def _keys_near(value: Any, index: list) -> str:
    """The keys of the map where an index stops finding anything, for the user to pick from (never sent to a model)."""
    for part in index:
        if isinstance(part, bool) or not value or not isinstance(value, (dict, list)):
            break
        if part == EVERY:  # every entry has the same keys, as a map of maps does: look at the first
            part = next(iter(value)) if isinstance(value, dict) else 0
        try:
            value = value[part]
        except (KeyError, IndexError, TypeError):
            break
    if not isinstance(value, dict):
        return f" (a list of {len(value)} there)" if isinstance(value, list) else ""
    shown = ", ".join(map(str, list(value)[:8])) + (", …" if len(value) > 8 else "")
    return f" (the keys there: {shown})"


def op_text(item: dict) -> str:
    """`multiply cost by 0.8`, `set min_need.vitc to 55`: one data change of a request."""
    op = next(o for o in OPS if o in item)
    return f"{op} {where(item['key'], item['index'])} {'by' if op != 'set' else 'to'} {item[op]:g}"


def variable_families(names: list[str]) -> str:
    """`ship_{…} (72, e.g. ship_1_2)`: the model's variable names grouped by the part before their indices —
    names only, so the prompt does not grow with the model."""
    if not names:
        return "(no captured model: a why / why-not question must be a statement)"
    counts, example = Counter(), {}
    for name in names:
        stem = _INDEX_PART.sub("", name) or name
        counts[stem] += 1
        example.setdefault(stem, name)
    return "\n".join(f"- {stem}{'_…' if example[stem] != stem else ''} ({n}, e.g. {example[stem]})"
                     for stem, n in counts.most_common(40))


def rows_text(capture: dict | None, examples: dict[str, str] | None = None) -> str:
    """Which statements own rows of the captured model (from the run's verification), one row name per family."""
    per = (capture or {}).get("statements") or {}
    if not per:
        return "(no captured model)"
    examples = examples or {}
    return "\n".join(f"- {sid}: {v['rows']} row(s), " + ", ".join(
        f"{f} (e.g. {examples[f]})" if examples.get(f, f) != f else f for f in v["families"]) for sid, v in per.items())


def row_examples(mps: str) -> dict[str, str]:
    """The first row name of each constraint family, from the ROWS section of a captured model.mps."""
    from optimus.core.diagnose import family

    found: dict[str, str] = {}
    rows = False
    for line in mps.splitlines():
        if not line[:1].isspace():  # a section header
            if rows:
                break
            rows = line.strip().upper() == "ROWS"
            continue
        parts = line.split()
        if rows and len(parts) == 2 and parts[0].upper() in ("L", "G", "E"):
            found.setdefault(family(parts[1]), parts[1])
    return found
