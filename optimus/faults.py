"""Fault injection for the offline `reference` backend: does the loop feed back the evidence a model needs?

Each fault in CATALOGUE is a source transformation of a problem's reference solver.py (or, for `wrong_test`,
of its tests) plus a predicate over a repair prompt. A FaultPlan, handed to ReferenceBackend, makes the
backend's code answers carry the fault until a debug or fix prompt carries the evidence the fault's
predicate asks for (the traceback names the key, a failing check names the constraint, the time-out is
reported…); then it answers the correct reference program. So a benchmark with faults measures the loop's
feedback, not the oracle: without the evidence, the "model" keeps answering the same faulty code.

A fault lists every way it applies to a program (`candidates`, in source order; empty: it does not apply).
Which candidate is used, and whether it really breaks the program, is the benchmark's business (it runs it).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from optimus.errors import ConfigError
from optimus.prompts import template

CODE_STAGES = ("codegen", "debug", "fix")
_COMPOUND = (ast.For, ast.While, ast.If, ast.With, ast.Try, ast.FunctionDef, ast.ClassDef)
REPAIR_STAGES = ("debug", "fix")


@dataclass(frozen=True)
class Injected:
    """One concrete fault: the faulty artifact and what was changed (the predicate reads `detail`)."""

    fault: str
    target: str  # "code" (solver.py) or "tests" (the generated test module)
    text: str
    where: str  # one line for reports: what was changed
    detail: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Info:
    """What a fault may look at besides the source: the problem's data keys, output keys and tests."""

    data_keys: frozenset[str] = frozenset()
    output_keys: frozenset[str] = frozenset()
    tests: str = ""  # the reference testgen answer (the supervised test modules, joined)


@dataclass(frozen=True)
class Fault:
    name: str
    target: str
    summary: str  # what the fault is
    needs: str  # the evidence a repair needs: what the predicate looks for
    candidates: Callable[[str, Info], list[Injected]]
    evidence: Callable[[Injected, str], bool]


# ---- source surgery: splice text at AST node positions, keeping everything else (comments too) intact ----


def _offsets(source: str) -> list[int]:
    starts, total = [], 0
    for line in source.splitlines(keepends=True):
        starts.append(total)
        total += len(line)
    return starts + [total]


def _pos(source: str, starts: list[int], lineno: int, col: int) -> int:
    line = source[starts[lineno - 1] : starts[lineno]] if lineno <= len(starts) - 1 else ""
    return starts[lineno - 1] + len(line.encode()[:col].decode(errors="ignore"))  # col is in UTF-8 bytes


def span(source: str, node: ast.AST) -> tuple[int, int]:
    starts = _offsets(source)
    return (
        _pos(source, starts, node.lineno, node.col_offset),
        _pos(source, starts, node.end_lineno, node.end_col_offset),
    )


def splice(source: str, start: int, end: int, text: str) -> str:
    return source[:start] + text + source[end:]


def replace_node(source: str, node: ast.AST, text: str) -> str:
    return splice(source, *span(source, node), text)


def seg(source: str, node: ast.AST) -> str:
    start, end = span(source, node)
    return source[start:end]


def _parse(source: str) -> ast.Module | None:
    try:
        return ast.parse(source)
    except SyntaxError:
        return None


def _data_names(tree: ast.AST) -> set[str]:
    """Names bound to json.load(...)/json.loads(...): the data dict."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
            func = node.value.func
            if isinstance(func, ast.Attribute) and func.attr in ("load", "loads"):
                names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
    return names


def _data_subscripts(tree: ast.AST) -> list[ast.Subscript]:
    names = _data_names(tree)
    return [
        n
        for n in ast.walk(tree)
        if isinstance(n, ast.Subscript)
        and isinstance(n.value, ast.Name)
        and n.value.id in names
        and isinstance(n.slice, ast.Constant)
        and isinstance(n.slice.value, str)
    ]


def _sorted(nodes: list) -> list:
    return sorted(nodes, key=lambda n: (n.lineno, n.col_offset))


def _other_name(key: str, taken: frozenset[str]) -> str:
    """A plausible wrong spelling of `key` that is not a real key: plural/singular, then a suffix."""
    for name in (key[:-1] if key.endswith("s") else key + "s", key + "_value", key + "_data"):
        if name and name not in taken:
            return name
    return key + "_x"


def _library(tree: ast.AST) -> str:
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            mods = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            if any(m.split(".")[0] == "cvxpy" for m in mods):
                return "cvxpy"
    return "pulp"


def _statement_id(text: str) -> str | None:
    match = re.search(r"\b(s\d+)(?:_|\b)", text)
    return match.group(1) if match else None


def _words(text: str) -> list[str]:
    return [w for w in re.split(r"[^a-z]+", text.lower()) if len(w) >= 4 and not re.fullmatch(r"s\d+", w)]


# ---- the evidence a repair prompt carries ----

_PLACEHOLDER = re.compile(r"\{\{(\w+)\}\}")


def repair_evidence(stage: str, prompt: str) -> str:
    """The `evidence` part of a debug or fix prompt, cut out by matching the prompt's own template (so the
    program and the statements, which mention every key and constraint, do not count as evidence)."""
    try:
        text = template(stage)
    except OSError:
        return prompt
    parts = _PLACEHOLDER.split(text)
    pattern = "".join(
        re.escape(p) if i % 2 == 0 else ("(?P<evidence>.*)" if p == "evidence" else ".*?")
        for i, p in enumerate(parts)
    )
    match = re.fullmatch(pattern, prompt, re.DOTALL)
    return match.group("evidence") if match else prompt


def _status_reported(evidence: str) -> bool:
    return bool(
        re.search(
            r"reported the model (infeasible|unbounded)|\b(infeasible|unbounded)\b", evidence, re.IGNORECASE
        )
    )


def _names_constraint(inj: Injected, evidence: str) -> bool:
    sid, words = inj.detail.get("statement"), inj.detail.get("words", [])
    # test names join words with "_" (test_s5_flow_balance): a word starts after anything but a letter or digit
    if sid and re.search(rf"(?<![A-Za-z0-9]){sid}(?!\d)", evidence):
        return True
    return any(re.search(rf"(?<![A-Za-z]){w}", evidence, re.IGNORECASE) for w in words) or _status_reported(
        evidence
    )


# ---- the catalogue ----


def _syntax_error(source: str, info: Info) -> list[Injected]:
    out = []
    for i, line in enumerate(source.splitlines(keepends=True)):
        match = re.match(r"^(\s*(?:for|if|while|with|def|try|else|elif)\b.*?):(\s*(?:#.*)?\n?)$", line)
        if match:
            lines = source.splitlines(keepends=True)
            lines[i] = match.group(1) + match.group(2)
            out.append(
                Injected(
                    "syntax_error",
                    "code",
                    "".join(lines),
                    f"line {i + 1}: the colon dropped",
                    {"line": i + 1},
                )
            )
    return out


def _wrong_key(source: str, info: Info) -> list[Injected]:
    tree = _parse(source)
    if tree is None:
        return []
    out, seen = [], []
    for node in _sorted(_data_subscripts(tree)):
        key = node.slice.value
        if key in seen:
            continue
        seen.append(key)
        wrong = _other_name(key, info.data_keys)
        text = source
        for n in sorted(
            (n for n in _data_subscripts(tree) if n.slice.value == key),
            key=lambda n: (n.lineno, n.col_offset),
            reverse=True,
        ):
            text = replace_node(text, n.slice, repr(wrong).replace("'", '"'))
        out.append(
            Injected(
                "wrong_key", "code", text, f'data key "{key}" read as "{wrong}"', {"key": key, "wrong": wrong}
            )
        )
    return out


def _key_as_int(source: str, info: Info) -> list[Injected]:
    """An object indexed with an int where JSON keys are strings (KeyError: 3); in data without
    numeric-keyed objects, the mirror mix-up: a list indexed with a str key (TypeError)."""
    tree = _parse(source)
    if tree is None:
        return []
    out = []
    for node in _sorted([n for n in ast.walk(tree) if isinstance(n, ast.Subscript)]):
        sl = node.slice
        if (
            isinstance(sl, ast.Call)
            and isinstance(sl.func, ast.Name)
            and sl.func.id == "str"
            and len(sl.args) == 1
        ):
            text = replace_node(source, sl, seg(source, sl.args[0]))
            out.append(
                Injected(
                    "key_as_int",
                    "code",
                    text,
                    f"object key {seg(source, sl)} read as an int",
                    {"kind": "int"},
                )
            )
        elif (
            isinstance(sl, ast.Name)
            and isinstance(node.value, ast.Subscript)
            and node.value in _data_subscripts(tree)
        ):
            text = replace_node(source, sl, f"str({sl.id})")
            out.append(
                Injected(
                    "key_as_int",
                    "code",
                    text,
                    f"{seg(source, node)} indexed with str({sl.id})",
                    {"kind": "str"},
                )
            )
    return out


def _sum_over_generator(source: str, info: Info) -> list[Injected]:
    """cvxpy.sum over a generator. cvxpy 1.9's cp.sum falls back to builtins.sum on a generator, so the
    form that still breaks is numpy's: np.sum(x[i] for i in …) raises TypeError."""
    tree = _parse(source)
    if (
        tree is None
        or _library(tree) != "cvxpy"
        or not re.search(r"^import numpy as np\b", source, re.MULTILINE)
    ):
        return []
    out = []
    for node in _sorted([n for n in ast.walk(tree) if isinstance(n, ast.Call)]):
        f = node.func
        if (
            isinstance(f, ast.Attribute)
            and f.attr == "sum"
            and isinstance(f.value, ast.Name)
            and f.value.id in ("cp", "cvxpy")
            and len(node.args) == 1
            and not node.keywords
        ):
            arg = seg(source, node.args[0])
            text = replace_node(source, node, f"np.sum(({arg})[i] for i in range(({arg}).shape[0]))")
            out.append(
                Injected(
                    "sum_over_generator",
                    "code",
                    text,
                    f"{seg(source, node)} as a sum over a generator",
                    {"expr": arg},
                )
            )
    return out


def _constraints(source: str, tree: ast.Module) -> list[tuple[ast.AST, ast.AST, str]]:
    """(node to remove, its comparison, its name or comment) for each constraint of the program."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.AugAssign) and isinstance(
            node.op, ast.Add
        ):  # PuLP: prob += lhs <= rhs, "name"
            value = node.value
            first = value.elts[0] if isinstance(value, ast.Tuple) and value.elts else value
            if isinstance(first, ast.Compare):
                name = (
                    seg(source, value.elts[1]) if isinstance(value, ast.Tuple) and len(value.elts) > 1 else ""
                )
                found.append((node, first, name))
            elif isinstance(value, ast.Call) and seg(source, value.func).endswith("LpConstraint"):
                named = [k.value for k in value.keywords if k.arg == "name"] + value.args[2:3]
                found.append((node, value, seg(source, named[0]) if named else ""))
        elif isinstance(node, ast.List) and _library(tree) == "cvxpy":  # cvxpy: constraints = [a <= b, ...]
            lines = source.splitlines()
            for elt in node.elts:
                if isinstance(elt, ast.Compare):
                    comment = (
                        lines[elt.end_lineno - 1].partition("#")[2] if elt.end_lineno == elt.lineno else ""
                    )
                    found.append((elt, elt, comment))
    return sorted(found, key=lambda f: (f[0].lineno, f[0].col_offset))


def _constraint_detail(name: str) -> dict:
    return {
        "name": name.strip(),
        "statement": _statement_id(name),
        "words": _words(re.sub(r"\{.*?\}", " ", name)),
    }


def _drop_constraint(source: str, info: Info) -> list[Injected]:
    tree = _parse(source)
    if tree is None:
        return []
    out = []
    for node, _, name in _constraints(source, tree):
        if isinstance(node, ast.stmt):
            text = replace_node(source, node, "pass")
        else:
            start, end = span(source, node)
            rest = re.match(r"\s*,[ \t]*(#[^\n]*)?\n?[ \t]*", source[end:])
            text = splice(source, start, end + (rest.end() if rest else 0), "")
        out.append(
            Injected(
                "drop_constraint",
                "code",
                text,
                f"constraint {name.strip() or seg(source, node)} dropped",
                _constraint_detail(name),
            )
        )
    return out


def _flip_constraint(source: str, info: Info) -> list[Injected]:
    tree = _parse(source)
    if tree is None:
        return []
    out = []
    flip = {ast.LtE: ">=", ast.GtE: "<=", ast.Lt: ">", ast.Gt: "<"}
    for _, cmp, name in _constraints(source, tree):
        if isinstance(cmp, ast.Call):  # pulp.LpConstraint(expr, pulp.LpConstraintLE, name, rhs)
            sense = re.search(r"LpConstraint(LE|GE)\b", seg(source, cmp))
            if sense:
                start, _ = span(source, cmp)
                other = {"LE": "GE", "GE": "LE"}[sense.group(1)]
                text = splice(source, start + sense.start(1), start + sense.end(1), other)
                out.append(
                    Injected(
                        "flip_constraint",
                        "code",
                        text,
                        f"constraint {name.strip()}: {sense.group(1)} flipped",
                        _constraint_detail(name),
                    )
                )
            continue
        if len(cmp.ops) != 1 or type(cmp.ops[0]) not in flip:
            continue
        _, left_end = span(source, cmp.left)
        right_start, _ = span(source, cmp.comparators[0])
        gap = source[left_end:right_start]
        op = re.search(r"<=|>=|<|>", gap)
        if not op:
            continue
        text = splice(source, left_end + op.start(), left_end + op.end(), flip[type(cmp.ops[0])])
        out.append(
            Injected(
                "flip_constraint",
                "code",
                text,
                f"constraint {name.strip() or seg(source, cmp)}: {op.group()} flipped",
                _constraint_detail(name),
            )
        )
    return out


def _flip_objective(source: str, info: Info) -> list[Injected]:
    swaps = {
        "LpMaximize": "LpMinimize",
        "LpMinimize": "LpMaximize",
        "Maximize": "Minimize",
        "Minimize": "Maximize",
    }
    for match in re.finditer(r"\b(?:pulp|cp|cvxpy)\.(LpMaximize|LpMinimize|Maximize|Minimize)\b", source):
        word = match.group(1)
        text = splice(source, match.start(1), match.end(1), swaps[word])
        return [
            Injected("flip_objective", "code", text, f"objective sense {word} → {swaps[word]}", {"was": word})
        ]
    return []


def _drop_integrality(source: str, info: Info) -> list[Injected]:
    tree = _parse(source)
    if tree is None:
        return []
    out = []
    for node in _sorted([n for n in ast.walk(tree) if isinstance(n, ast.Call)]):
        for kw in node.keywords:
            value = seg(source, kw.value) if kw.arg == "cat" else ""
            if kw.arg == "cat" and re.search(r"Binary|Integer", value):
                start, end = span(source, kw)
                text = splice(
                    source, start, end, "lowBound=0, upBound=1" if "Binary" in value else "cat='Continuous'"
                )
                if "Binary" in value and any(k.arg in ("lowBound", "upBound") for k in node.keywords):
                    text = splice(source, start, end, "cat='Continuous'")
                out.append(
                    Injected(
                        "drop_integrality", "code", text, f"{value} variables made continuous", {"cat": value}
                    )
                )
    return out


def _output_dicts(source: str, tree: ast.Module, info: Info) -> list[ast.Dict]:
    dicts = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict) and node.keys and all(isinstance(k, ast.Constant) for k in node.keys):
            keys = {k.value for k in node.keys}
            if info.output_keys and keys <= info.output_keys:
                dicts.append(node)
    return _sorted(dicts)


def _misspell_output_key(source: str, info: Info) -> list[Injected]:
    tree = _parse(source)
    if tree is None:
        return []
    out = []
    for d in _output_dicts(source, tree, info):
        for key in d.keys:
            wrong = _other_name(key.value, info.output_keys)
            text = replace_node(source, key, f'"{wrong}"')
            out.append(
                Injected(
                    "misspell_output_key",
                    "code",
                    text,
                    f'output key "{key.value}" written as "{wrong}"',
                    {"key": key.value, "wrong": wrong},
                )
            )
    return out


def _output_wrong_length(source: str, info: Info) -> list[Injected]:
    tree = _parse(source)
    if tree is None:
        return []
    out = []
    for d in _output_dicts(source, tree, info):
        for key, value in zip(d.keys, d.values):
            listy = isinstance(value, (ast.ListComp, ast.List)) or (
                isinstance(value, ast.Call)
                and isinstance(value.func, ast.Attribute)
                and value.func.attr == "tolist"
            )
            if listy:
                text = replace_node(source, value, f"({seg(source, value)})[:-1]")
                out.append(
                    Injected(
                        "output_wrong_length",
                        "code",
                        text,
                        f'output "{key.value}" one element short',
                        {"key": key.value},
                    )
                )
    return out


def _infinite_loop(source: str, info: Info) -> list[Injected]:
    tree = _parse(source)
    if tree is None:
        return []
    for stmt in _sorted(
        [n for n in ast.walk(tree) if isinstance(n, ast.stmt) and not isinstance(n, _COMPOUND)]
    ):
        if re.search(r"\.solve\(", seg(source, stmt)):
            start, _ = span(source, stmt)
            indent = " " * stmt.col_offset
            text = splice(
                source, start, start, f"while True:  # wait for the model\n{indent}    pass\n{indent}"
            )
            return [Injected("infinite_loop", "code", text, f"an endless loop before line {stmt.lineno}", {})]
    return []


def _solution_statements(source: str, tree: ast.Module) -> list[ast.stmt]:
    simple = (n for n in ast.walk(tree) if isinstance(n, ast.stmt) and not isinstance(n, _COMPOUND))
    withs = (n for n in ast.walk(tree) if isinstance(n, ast.With))
    return [n for n in (*simple, *withs) if "solution.json" in seg(source, n)]


def _solution_missing(source: str, info: Info) -> list[Injected]:
    tree = _parse(source)
    if tree is None:
        return []
    writes = [n for n in _solution_statements(source, tree) if re.search(r"write|dump", seg(source, n))]
    return [
        Injected(
            "solution_missing", "code", replace_node(source, n, "pass"), "solution.json never written", {}
        )
        for n in _sorted(writes)[:1]
    ]


def _solution_wrong_objective(source: str, info: Info) -> list[Injected]:
    tree = _parse(source)
    if tree is None:
        return []
    for stmt in _sorted(_solution_statements(source, tree)):
        for d in [n for n in ast.walk(stmt) if isinstance(n, ast.Dict)]:
            for key, value in zip(d.keys, d.values):
                if isinstance(key, ast.Constant) and key.value == "objective":
                    text = replace_node(
                        source, value, f"(lambda v: v if v is None else -v)({seg(source, value)})"
                    )
                    return [
                        Injected(
                            "solution_wrong_objective", "code", text, "solution.json objective negated", {}
                        )
                    ]
    return []


def _wrong_test(source: str, info: Info) -> list[Injected]:
    """A generated test that rejects the correct answer: a comparison turned round, or a wrong key set."""
    tree = _parse(info.tests)
    if tree is None:
        return []
    text, out = info.tests, []
    flip = {ast.LtE: ">", ast.GtE: "<"}
    for node in _sorted([n for n in ast.walk(tree) if isinstance(n, ast.Assert)]):
        cmp = node.test
        if isinstance(cmp, ast.Compare) and len(cmp.ops) == 1:
            op = cmp.ops[0]
            if isinstance(op, ast.Eq) and isinstance(cmp.comparators[0], ast.Set) and cmp.comparators[0].elts:
                elt = cmp.comparators[0].elts[0]
                if isinstance(elt, ast.Constant) and isinstance(elt.value, str):
                    out.append(
                        Injected(
                            "wrong_test",
                            "tests",
                            replace_node(text, elt, f'"{elt.value}s"'),
                            f"generated test expects output key {elt.value}s",
                            {},
                        )
                    )
            elif type(op) in flip:
                _, left_end = span(text, cmp.left)
                right_start, _ = span(text, cmp.comparators[0])
                m = re.search(r"<=|>=", text[left_end:right_start])
                if m:
                    new = splice(text, left_end + m.start(), left_end + m.end(), flip[type(op)])
                    out.append(
                        Injected(
                            "wrong_test",
                            "tests",
                            new,
                            f"generated test line {node.lineno}: {m.group()} turned round",
                            {},
                        )
                    )
    return out


def _traceback_names(*patterns: str) -> Callable[[Injected, str], bool]:
    return lambda inj, ev: any(re.search(p.format(**inj.detail), ev) for p in patterns)


CATALOGUE: dict[str, Fault] = {
    f.name: f
    for f in [
        Fault(
            "syntax_error",
            "code",
            "a colon dropped from a compound statement",
            "the SyntaxError from the run",
            _syntax_error,
            _traceback_names(r"SyntaxError"),
        ),
        Fault(
            "wrong_key",
            "code",
            "a data key read under a wrong name",
            "the KeyError naming the wrong key",
            _wrong_key,
            _traceback_names(r"KeyError: '{wrong}'"),
        ),
        Fault(
            "key_as_int",
            "code",
            "a JSON key's type mixed up (int for a string key, or the reverse on a list)",
            "the KeyError/TypeError about the index type",
            _key_as_int,
            _traceback_names(r"KeyError: \d+", r"indices must be integers"),
        ),
        Fault(
            "sum_over_generator",
            "code",
            "a sum over a generator (np.sum(x[i] for i …)) in a cvxpy model",
            "the TypeError naming the generator",
            _sum_over_generator,
            _traceback_names(r"generator"),
        ),
        Fault(
            "drop_constraint",
            "code",
            "one constraint (family) left out",
            "a failed check naming the constraint (its statement id or words), or a wrong status",
            _drop_constraint,
            _names_constraint,
        ),
        Fault(
            "flip_constraint",
            "code",
            "one constraint's inequality turned round",
            "a failed check naming the constraint (its statement id or words), or a wrong status",
            _flip_constraint,
            _names_constraint,
        ),
        Fault(
            "flip_objective",
            "code",
            "minimize and maximize swapped",
            "a wrong objective or status reported (or cvxpy's DCP error)",
            _flip_objective,
            lambda inj, ev: bool(re.search(r"DCP|objective|\bunbounded\b|\binfeasible\b", ev, re.IGNORECASE)),
        ),
        Fault(
            "drop_integrality",
            "code",
            "integer or binary variables made continuous",
            "a failed check about integrality",
            _drop_integrality,
            lambda inj, ev: bool(re.search(r"integ|binary|fraction|whole number|0 or 1", ev, re.IGNORECASE)),
        ),
        Fault(
            "misspell_output_key",
            "code",
            "an output.json key misspelled",
            "a failed check naming the key",
            _misspell_output_key,
            lambda inj, ev: (
                inj.detail["wrong"] in ev or bool(re.search(rf"KeyError: '{inj.detail['key']}'", ev))
            ),
        ),
        Fault(
            "output_wrong_length",
            "code",
            "an output list one element short",
            "a failed check about the list's length or shape",
            _output_wrong_length,
            lambda inj, ev: bool(
                re.search(r"length|len\(|shape|\brows?\b|entries|IndexError|out of range", ev, re.IGNORECASE)
            ),
        ),
        Fault(
            "infinite_loop",
            "code",
            "an endless loop before the solve",
            "the time-out reported",
            _infinite_loop,
            lambda inj, ev: bool(
                re.search(r"time limit|timed out|CPU limit|endless loop", ev, re.IGNORECASE)
            ),
        ),
        Fault(
            "solution_missing",
            "code",
            "solution.json never written",
            "the missing solution.json reported",
            _solution_missing,
            _traceback_names(r"solution\.json"),
        ),
        Fault(
            "solution_wrong_objective",
            "code",
            "solution.json's objective negated",
            "a failed check comparing the reported objective",
            _solution_wrong_objective,
            lambda inj, ev: bool(re.search(r"objective", ev, re.IGNORECASE)),
        ),
        Fault(
            "wrong_test",
            "tests",
            "a generated test that rejects the correct answer",
            "nothing a code repair can use: only regenerated or supervised tests help",
            _wrong_test,
            lambda inj, ev: False,
        ),
    ]
}


def parse_spec(spec: str | None) -> list[str]:
    """`all`, `none` (or empty) or a comma list of fault names → the names, in catalogue order."""
    spec = (spec or "none").strip()
    if spec == "none":
        return []
    if spec == "all":
        return list(CATALOGUE)
    names = [n.strip() for n in spec.split(",") if n.strip()]
    unknown = [n for n in names if n not in CATALOGUE]
    if unknown:
        raise ConfigError(
            f"--faults: unknown fault {', '.join(unknown)}; choose all, none or some of "
            f"{', '.join(CATALOGUE)}"
        )
    return [n for n in CATALOGUE if n in names]


@dataclass
class FaultPlan:
    """The hook ReferenceBackend calls on every answer: serve the faulty artifact until repaired.

    Records what happened: `served` (faulty answers given), `repair_prompts` (debug/fix prompts seen while
    the fault was live) and `evidence` (whether each of those carried the evidence), `repaired`."""

    injected: Injected
    served: int = 0
    repaired: bool = False
    repair_prompts: int = 0
    evidence: list[bool] = field(default_factory=list)

    @property
    def fault(self) -> Fault:
        return CATALOGUE[self.injected.fault]

    def answer(self, stage: str, messages: list[dict], text: str) -> str:
        from optimus.llm.reference import fence

        if self.injected.target == "tests":
            if stage == "testgen":
                self.served += 1
                return fence("python", self.injected.text)
            return text
        if stage not in CODE_STAGES or self.repaired:
            return text
        if stage in REPAIR_STAGES:
            prompt = next((m["content"] for m in reversed(messages) if m["role"] == "user"), "")
            seen = self.fault.evidence(self.injected, repair_evidence(stage, prompt))
            self.repair_prompts += 1
            self.evidence.append(seen)
            if seen:
                self.repaired = True
                return text
        self.served += 1
        return fence("python", self.injected.text)

    def to_dict(self) -> dict:
        return {
            "fault": self.injected.fault,
            "where": self.injected.where,
            "served": self.served,
            "repair_prompts": self.repair_prompts,
            "evidence": self.evidence,
            "repaired": self.repaired,
        }
