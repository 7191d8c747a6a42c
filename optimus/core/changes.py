"""Candidate changes that make an infeasible (or unbounded) problem feasible, for `optimus repair`.

A candidate is a limit moved (a data.json value: from the elastic relaxation of the diagnosis, mapped from row
`s<k>_…` to statement k and from its \\param{…} to a data key; or found by re-running the run's program with the
value moved), an assertion relaxed (a Z3 core row made for one item of a list of pairs: the item taken out), or a
statement dropped. Data candidates are checked by re-running the program on the changed data (Prober) before
they are shown; where a mapping is a guess, the candidate says so.
"""

from __future__ import annotations

import copy
import json
import math
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from optimus.core.problem import Problem
from optimus.core.sandbox import Limits
from optimus.core.sandbox.base import Backend as SandboxBackend
from optimus.core.sandbox.files import read_object
from optimus.core.snop import marked, param_candidates
from optimus.core.tables import sandbox_inputs
from optimus.core.terminal import quote

_ROW = re.compile(r"^s(\d+)_(.*)$")
FEASIBLE = ("optimal", "feasible")
MAX_PROBES = 12  # program runs per probed value (bracket, then bisection)


EVERY = "*"  # in a request's index: every position or key at that level


def where(key: str, path: list) -> str:
    """`cost.oats`, `min_need.vitc`, `ship[1][4]`, `foods[2].price`: a value's place in data.json."""
    return key + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path)


@dataclass
class Edit:
    """One data.json value moved (`path` of list positions, 0-based, and map keys; empty for a scalar), or with
    `remove`, one item of a list of tuples taken out (the assertion made for it is relaxed)."""

    key: str
    path: list
    old: Any
    new: Any
    remove: bool = False

    def text(self) -> str:
        if self.remove:
            return f"remove {where(self.key, self.path)} = {json.dumps(self.old)}"
        return f"{where(self.key, self.path)}: {self.old:g} → {self.new:g}"


@dataclass
class Candidate:
    kind: str  # "limit" (data values moved) | "drop" (a statement dropped) | "text" (from the user's words)
    what: str
    statements: list[str]  # the statements it touches (protection applies to them)
    edits: list[Edit] = field(default_factory=list)
    drop: list[str] = field(default_factory=list)
    rewrite: dict[str, str] = field(default_factory=dict)  # statement id → new text
    size: float = 0.0
    source: str = ""  # where it came from, and whether the mapping is a guess
    checked: str = ""  # what re-running the program said

    def line(self) -> str:
        notes = "; ".join(n for n in (self.source, self.checked) if n)
        return f"{self.what}" + (f"  [{notes}]" if notes else "")


# ---- where a statement's parameters live in data.json --------------------------------------------------------


def param_keys(statement: str, data: dict) -> list[str]:
    keys = []
    for param in marked(statement, "param"):
        for key in param_candidates(param):
            if key in data and key not in keys:
                keys.append(key)
                break
    return keys


def statements_of_key(key: str, statements: list[str], data: dict) -> list[str]:
    return [f"s{i}" for i, s in enumerate(statements, 1) if key in param_keys(s, data)]


def positions(value: Any, path: list | None = None) -> list[tuple[list, float]]:
    """Every number under `value` with its path: through lists (positions), maps and records (keys)."""
    path = path or []
    if isinstance(value, bool):
        return []
    if isinstance(value, (int, float)):
        return [(path, float(value))]
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in positions(v, path + [i])]
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in positions(v, path + [k])]
    return []


def matching_paths(value: Any, index: list, path: list | None = None) -> list[list]:
    """The places `index` names under `value`: each part a list position, a map key, or EVERY (each item or
    entry at that level: `["*", "price"]` is every record's price, `["*", "vitc"]` a column of a map of maps).
    KeyError / IndexError / TypeError when a part names nothing."""
    path = path or []
    if not index:
        return [path]
    part, rest = index[0], index[1:]
    if part == EVERY:
        keys = range(len(value)) if isinstance(value, list) else list(value) if isinstance(value, dict) else None
        if keys is None:
            raise TypeError(f"{EVERY} over a single value")
        return [p for k in keys for p in matching_paths(value[k], rest, path + [k])]
    if isinstance(value, list) and (isinstance(part, bool) or not isinstance(part, int)):
        raise TypeError("a list is indexed by position")
    return matching_paths(value[part], rest, path + [part])


def get_at(data: dict, key: str, path: list) -> Any:
    value = data[key]
    for i in path:
        value = value[i]
    return value


def apply_edit(data: dict, e: Edit) -> None:
    if e.remove:
        target = data[e.key]
        for i in e.path[:-1]:
            target = target[i]
        del target[e.path[-1]]
    else:
        set_at(data, e.key, e.path, e.new)


def set_at(data: dict, key: str, path: list, new: float) -> None:
    if not path:
        data[key] = new
        return
    target = data[key]
    for i in path[:-1]:
        target = target[i]
    target[path[-1]] = new


def outward(old: Any, new: float) -> float:
    """The new value in the data's own kind: an integer rounded away from the old value (so that the limit
    moves at least as far as the relaxation asks), a float to 6 significant digits."""
    if isinstance(old, int) and not isinstance(old, bool):
        return math.ceil(new - 1e-9) if new > old else math.floor(new + 1e-9)
    return float(f"{new:.6g}")


# ---- candidates -----------------------------------------------------------------------------------------------


def from_relaxation(diagnosis: dict, statements: list[str], data: dict) -> list[Candidate]:
    """A limit moved, for each relaxation change whose row's limit is a value of its statement's parameters."""
    relax = diagnosis.get("relaxation") or {}
    groups = [relax.get("changes") or []] + [[c] for c in relax.get("alternatives") or []]
    found = []
    for changes in groups:
        edits, notes, touched = [], [], set()
        for change in changes:
            mapped = map_change(change, statements, data)
            if mapped is None:
                edits = []
                break
            edit, note = mapped
            edits.append(edit)
            notes.append(note)
            touched |= set(statements_of_key(edit.key, statements, data))
        if edits:
            size = sum(abs(e.new - e.old) / max(1.0, abs(e.old)) for e in edits)  # relative: 9000 → 8500 is 0.056
            found.append(Candidate("limit", "set " + ", ".join(e.text() for e in edits), sorted(touched), edits,
                                   size=size, source="; ".join(dict.fromkeys(notes))))
    return found


def map_change(change: dict, statements: list[str], data: dict) -> tuple[Edit, str] | None:
    """Row `s<k>_…` → statement k → a value of its parameters equal to the row's limit; None when none is."""
    match = _ROW.match(change.get("row", ""))
    if not match or not 1 <= int(match.group(1)) <= len(statements):
        return None
    k, suffix = int(match.group(1)), match.group(2)
    hits = [(key, path, v) for key in param_keys(statements[k - 1], data)
            for path, v in positions(data[key]) if math.isclose(v, change["from"], rel_tol=1e-9, abs_tol=1e-9)]
    if not hits:
        return None
    note = f"row {change['row']}: its limit {change['from']:g} is data.json's value"
    if len(hits) > 1:  # several values equal the limit: the row's keys or index numbers pick one, else a guess
        numbers = [int(n) - 1 for n in re.findall(r"\d+", suffix)]
        named = [h for h in hits if named_in(suffix, h[1])]
        picked = [h for h in hits if h[1] == numbers[-len(h[1]):]] if numbers else []
        if len(named) == 1:
            hits, note = named, note + " (entry from the row name)"
        elif len(picked) == 1:
            hits, note = picked, note + " (position from the row name)"
        else:
            note = f"a guess: {len(hits)} values equal row {change['row']}'s limit {change['from']:g}"
    key, path, old = hits[0]
    raw = get_at(data, key, path)
    return Edit(key, path, old, outward(raw, change["to"])), note


def named_in(row_suffix: str, path: list) -> bool:
    """Does a row name (`need_vitc`) carry every map key of the path (`["vitc"]`), spelt as PuLP spells names?"""
    keys = [re.sub(r"[^a-z0-9]+", "_", p.lower()).strip("_") for p in path if isinstance(p, str)]
    row = f"_{re.sub(r'[^a-z0-9]+', '_', row_suffix.lower())}_"
    return bool(keys) and all(k and f"_{k}_" in row for k in keys)


def removals(diagnosis: dict, statements: list[str], data: dict) -> list[Candidate]:
    """An assertion of the conflict relaxed: row `s<k>_…_<n>` made for item n of a list of tuples (pairs that
    must differ, precede, …) of statement k's parameters; that item taken out of data.json. Whether n counts
    from 0 or 1 is a guess, so both are tried (the program's re-run decides)."""
    found, seen = [], set()
    for row in diagnosis.get("rows", []):
        match = _ROW.match(row)
        numbers = re.findall(r"\d+", match.group(2)) if match else []
        if not numbers or not 1 <= int(match.group(1)) <= len(statements):
            continue
        k, n = int(match.group(1)), int(numbers[-1])
        for key in param_keys(statements[k - 1], data):
            items = data[key]
            if not (isinstance(items, list) and items and all(isinstance(x, list) for x in items)):
                continue
            for i in dict.fromkeys((n, n - 1)):
                if 0 <= i < len(items) and (key, i) not in seen:
                    seen.add((key, i))
                    edit = Edit(key, [i], items[i], None, remove=True)
                    found.append(Candidate("limit", edit.text(), statements_of_key(key, statements, data), [edit],
                                           size=1.0 / len(items), source=f"relaxes assertion {row} (a guess: "
                                           f"item {i} counted from {'0' if i == n else '1'})"))
    return found


def drops(conflict: list[str], statements: list[str]) -> list[Candidate]:
    return [Candidate("drop", f"drop {sid} {quote(int(sid[1:]), statements)}", [sid], drop=[sid], size=1.0,
                      source="the program must be rewritten without it (not checked)") for sid in conflict]


class Prober:
    """Runs the run's program on changed data in the sandbox: is the model feasible then?"""

    def __init__(self, attempt: Path, sandbox: SandboxBackend, limits: Limits, tables: Path | None = None):
        self.code = (attempt / "solver.py").read_text() if (attempt / "solver.py").is_file() else None
        self.sandbox, self.limits, self.runs, self.tables = sandbox, limits, 0, tables  # tables: the data/ folder

    def feasible(self, data: dict) -> bool | None:
        """True/False by the program's solution.json; None when the program did not say."""
        if self.code is None:
            return None
        with tempfile.TemporaryDirectory(prefix="optimus-probe-") as tmp:
            work, data_path = Path(tmp) / "work", Path(tmp) / "data.json"
            work.mkdir()
            data_path.write_text(json.dumps(data))
            (work / "solver.py").write_text(self.code)
            self.runs += 1
            result = self.sandbox.run(["python", "solver.py"], workdir=work,
                                      readonly=sandbox_inputs(data_path, self.tables), limits=self.limits)
            # Read as every result file is: never through a link or FIFO the program left there.
            solution = read_object(work, "solution.json")[0] if result.ok else None
            status = solution.get("status") if solution else None
        return None if status is None else status in FEASIBLE

    def check(self, cand: Candidate, data: dict) -> bool | None:
        trial = copy.deepcopy(data)
        for e in cand.edits:
            apply_edit(trial, e)
        ok = self.feasible(trial)
        cand.checked = {True: "checked: the program finds a solution with it", False: "checked: not enough alone",
                        None: "not checked"}[ok]
        return ok

    def search(self, key: str, data: dict, statements: list[str]) -> Candidate | None:
        """The smallest move of a scalar value that makes the program feasible: a bracket, then bisection."""
        old = data[key]
        if isinstance(old, bool) or not isinstance(old, (int, float)):
            return None
        trial = copy.deepcopy(data)

        def ok(value: float) -> bool:
            trial[key] = outward(old, value)
            return bool(self.feasible(trial))

        scale = max(abs(old), 1.0)
        far = next((old + sign * f * scale for f in (0.5, 2.0) for sign in (1, -1)
                    if (old + sign * f * scale >= 0 or old < 0) and ok(old + sign * f * scale)), None)
        if far is None:
            return None
        near, runs = float(old), 0
        while runs < MAX_PROBES - 4 and abs(far - near) > 5e-3 * scale:
            mid = (near + far) / 2
            if isinstance(old, int) and outward(old, mid) in (outward(old, near), outward(old, far)):
                break
            near, far = (near, mid) if ok(mid) else (mid, far)
            runs += 1
        edit = Edit(key, [], float(old), outward(old, far))
        return Candidate("limit", f"set {edit.text()}", statements_of_key(key, statements, data), [edit],
                         size=abs(edit.new - edit.old) / scale, source=f"found by re-running the program with "
                         f"{key} moved", checked="checked: the program finds a solution with it")


def allowed(cand: Candidate, protected: set[str], negotiable: list[str] | None) -> bool:
    if set(cand.statements) & protected:
        return False
    if negotiable is None:
        return True
    listed = set(negotiable)
    if cand.drop or cand.rewrite:
        return set(cand.drop) | set(cand.rewrite) <= listed
    return all(f"\\param{{{e.key}}}" in listed or set(cand.statements) <= listed for e in cand.edits)


def candidates(diagnosis: dict, problem: Problem, protected: set[str], prober: Prober | None, k: int,
               negotiable: list[str] | None = None) -> list[Candidate]:
    """Up to k changes that keep the protected statements, smallest first; data changes checked by the program."""
    statements, data = problem.snop.problem_info, problem.data
    conflict = [s for s in diagnosis.get("statements", []) if re.fullmatch(r"s\d+", s)]
    found: list[Candidate] = []
    seen: set[str] = set()
    for cand in from_relaxation(diagnosis, statements, data) + removals(diagnosis, statements, data):
        if cand.what in seen or not allowed(cand, protected, negotiable):
            continue
        seen.add(cand.what)
        checked = prober.check(cand, data) if prober is not None else None
        # A removal's mapping is a guess: only one the program's re-run confirms is shown.
        if checked is True or (checked is None and not any(e.remove for e in cand.edits)):
            found.append(cand)
    if prober is not None and len(found) < k:
        covered = {e.key for c in found for e in c.edits}
        for sid in conflict:
            for key in param_keys(statements[int(sid[1:]) - 1], data) if int(sid[1:]) <= len(statements) else []:
                if key in covered or isinstance(data[key], (list, dict)):
                    continue
                covered.add(key)
                cand = Candidate("limit", "", statements_of_key(key, statements, data),
                                 [Edit(key, [], 0.0, 0.0)])
                if not allowed(cand, protected, negotiable):
                    continue
                cand = prober.search(key, data, statements)
                if cand is not None and cand.what not in seen:
                    seen.add(cand.what)
                    found.append(cand)
    found.sort(key=lambda c: c.size)
    if diagnosis.get("kind") == "infeasible":  # dropping a statement never bounds an unbounded model
        found += [c for c in drops(conflict, statements) if allowed(c, protected, negotiable)]
    return found[:k]
