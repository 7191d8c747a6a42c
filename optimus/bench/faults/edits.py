"""The faults' source transformations: each lists every way it applies to a program, in source order."""

from __future__ import annotations

import ast
import re

from optimus.bench.faults.array_edits import (
    array_blocks,
    flipped_block,
    flipped_sense,
    highs_objects,
    integrality_statements,
    tighter_block,
    without_element,
)
from optimus.bench.faults.base import Info, Injected
from optimus.bench.faults.surgery import (
    data_names,
    data_subscripts,
    in_source_order,
    library,
    other_name,
    parse,
    replace_node,
    seg,
    span,
    splice,
    statement_id,
    words,
)

# Statements that hold other statements: a fault never deletes one of these whole.
COMPOUND = (ast.For, ast.While, ast.If, ast.With, ast.Try, ast.FunctionDef, ast.ClassDef)


def syntax_error(source: str, info: Info) -> list[Injected]:
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


def wrong_key(source: str, info: Info) -> list[Injected]:
    tree = parse(source)
    if tree is None:
        return []
    out, seen = [], []
    for node in in_source_order(data_subscripts(tree)):
        key = node.slice.value
        if key in seen:
            continue
        seen.append(key)
        wrong = other_name(key, info.data_keys)
        text = source
        for n in sorted(
            (n for n in data_subscripts(tree) if n.slice.value == key),
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


def key_as_int(source: str, info: Info) -> list[Injected]:
    """An object indexed with an int where JSON keys are strings (KeyError: 3); in data without
    numeric-keyed objects, the mirror mix-up: a list indexed with a str key (TypeError)."""
    tree = parse(source)
    if tree is None:
        return []
    out = []
    for node in in_source_order([n for n in ast.walk(tree) if isinstance(n, ast.Subscript)]):
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
            and node.value in data_subscripts(tree)
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


def sum_over_generator(source: str, info: Info) -> list[Injected]:
    """cvxpy.sum over a generator. cvxpy 1.9's cp.sum falls back to builtins.sum on a generator, so the
    form that still breaks is numpy's: np.sum(x[i] for i in …) raises TypeError."""
    tree = parse(source)
    if (
        tree is None
        or library(tree) != "cvxpy"
        or not re.search(r"^import numpy as np\b", source, re.MULTILINE)
    ):
        return []
    out = []
    for node in in_source_order([n for n in ast.walk(tree) if isinstance(n, ast.Call)]):
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
        elif _poi_constraint(node):  # pyoptinterface: m.add_linear_constraint(expr, poi.Leq, rhs, name=...)
            call = node.value
            named = [k.value for k in call.keywords if k.arg == "name"]
            first = call.args[0]
            found.append((node, first if isinstance(first, ast.Compare) else call, seg(source, named[0]) if named else ""))
        elif (isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) and len(node.value.args) >= 2
              and isinstance(node.value.func, ast.Attribute) and node.value.func.attr == "assert_and_track"):
            found.append((node, node.value.args[0], seg(source, node.value.args[1])))  # z3: s.assert_and_track(e, name)
        elif isinstance(node, ast.List) and library(tree) == "cvxpy":  # cvxpy: constraints = [a <= b, ...]
            lines = source.splitlines()
            for elt in node.elts:
                if isinstance(elt, ast.Compare):
                    comment = (
                        lines[elt.end_lineno - 1].partition("#")[2] if elt.end_lineno == elt.lineno else ""
                    )
                    found.append((elt, elt, comment))
    found += array_blocks(source, tree)  # highspy: blocks = [(rows, columns, coefficients, lo, up, names)]
    return sorted(found, key=lambda f: (f[0].lineno, f[0].col_offset))


def _poi_constraint(node: ast.AST) -> bool:
    """A statement `m.add_linear_constraint(...)` (or quadratic) of pyoptinterface (the LP/MILP layer of issue 30)."""
    return (isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) and bool(node.value.args)
            and isinstance(node.value.func, ast.Attribute)
            and node.value.func.attr in ("add_linear_constraint", "add_quadratic_constraint"))


# pyoptinterface's senses, each with its opposite (poi.Leq is ConstraintSense.LessEqual)
_POI_FLIP = {"Leq": "Geq", "Geq": "Leq", "LessEqual": "GreaterEqual", "GreaterEqual": "LessEqual"}
_POI_SENSE = re.compile(r"\b(Leq|Geq|LessEqual|GreaterEqual)\b")


def _poi_sense(source: str, call: ast.Call) -> ast.AST | None:
    """The sense argument of an add_linear_constraint call when it is <= or >= (never Eq)."""
    given = call.args[1:2] + [k.value for k in call.keywords if k.arg == "sense"]
    return next((a for a in given if _POI_SENSE.search(seg(source, a))), None)


def _constraint_detail(name: str) -> dict:
    return {
        "name": name.strip(),
        "statement": statement_id(name),
        "words": words(re.sub(r"\{.*?\}", " ", name)),
    }


def drop_constraint(source: str, info: Info) -> list[Injected]:
    tree = parse(source)
    if tree is None:
        return []
    out = []
    for node, _, name in _constraints(source, tree):
        if isinstance(node, ast.stmt):
            text = replace_node(source, node, "pass")
        elif isinstance(node, (ast.Tuple, ast.Call)):  # a highspy block: an element of the blocks list
            text = without_element(source, node)
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


def flip_constraint(source: str, info: Info) -> list[Injected]:
    tree = parse(source)
    if tree is None:
        return []
    out = []
    flip = {ast.LtE: ">=", ast.GtE: "<=", ast.Lt: ">", ast.Gt: "<"}
    for _, cmp, name in _constraints(source, tree):
        if isinstance(cmp, ast.Tuple) and (flipped := flipped_block(source, cmp)) is not None:
            out.append(Injected("flip_constraint", "code", flipped[0],
                                f"constraint {name}: {flipped[1]} flipped", _constraint_detail(name)))
            continue
        if isinstance(cmp, ast.Call) and (arg := _poi_sense(source, cmp)) is not None:
            start, _ = span(source, arg)
            word = _POI_SENSE.search(seg(source, arg))
            text = splice(source, start + word.start(1), start + word.end(1), _POI_FLIP[word.group(1)])
            out.append(Injected("flip_constraint", "code", text, f"constraint {name.strip()}: {word.group(1)} "
                                f"flipped", _constraint_detail(name)))
            continue
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
        if not isinstance(cmp, ast.Compare) or len(cmp.ops) != 1 or type(cmp.ops[0]) not in flip:
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


def flip_objective(source: str, info: Info) -> list[Injected]:
    swaps = {
        "LpMaximize": "LpMinimize",
        "LpMinimize": "LpMaximize",
        "Maximize": "Minimize",
        "Minimize": "Maximize",
    }
    z3_sense = re.search(r"\.(minimize|maximize)\(", source) if re.search(r"^import z3\b", source, re.MULTILINE) else None
    if z3_sense:  # z3: opt.minimize(e) / opt.maximize(e)
        word = z3_sense.group(1)
        other = "maximize" if word == "minimize" else "minimize"
        text = splice(source, z3_sense.start(1), z3_sense.end(1), other)
        return [Injected("flip_objective", "code", text, f"objective sense {word} → {other}", {"was": word})]
    for match in re.finditer(r"\b(?:pulp\.|cp\.|cvxpy\.|ObjectiveSense\.)(LpMaximize|LpMinimize|Maximize|Minimize)\b",
                             source):  # ObjectiveSense: pyoptinterface
        word = match.group(1)
        text = splice(source, match.start(1), match.end(1), swaps[word])
        return [
            Injected("flip_objective", "code", text, f"objective sense {word} → {swaps[word]}", {"was": word})
        ]
    tree = parse(source)
    flipped = flipped_sense(source, tree) if tree is not None else None  # highspy: h.changeObjectiveSense
    if flipped is None:
        return []
    return [Injected("flip_objective", "code", flipped[0], flipped[1], {"was": flipped[2]})]


def drop_integrality(source: str, info: Info) -> list[Injected]:
    tree = parse(source)
    if tree is None:
        return []
    out = []
    for node in in_source_order([n for n in ast.walk(tree) if isinstance(n, ast.Call)]):
        for kw in node.keywords:
            if kw.arg == "domain" and re.search(r"VariableDomain\.(Binary|Integer)\b", seg(source, kw.value)):
                out.append(_continuous_domain(source, node, kw))  # pyoptinterface
                continue
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
    for stmt in integrality_statements(tree):  # highspy: the columns' integrality set in one call, left out
        call = seg(source, stmt).partition("(")[0]
        out.append(Injected("drop_integrality", "code", replace_node(source, stmt, "pass"),
                            f"{call}(…) left out: integer columns made continuous", {"cat": "kInteger"}))
    return out


def _continuous_domain(source: str, call: ast.Call, kw: ast.keyword) -> Injected:
    """pyoptinterface: domain=...Integer becomes ...Continuous; ...Binary becomes bounds 0..1 (continuous), or
    Continuous when the call sets its own bounds."""
    value = seg(source, kw.value)
    start, end = span(source, kw)
    bounded = any(k.arg in ("lb", "ub") for k in call.keywords)
    new = "lb=0, ub=1" if "Binary" in value and not bounded else "domain=" + re.sub(
        r"\b(Binary|Integer)\b", "Continuous", value)
    return Injected("drop_integrality", "code", splice(source, start, end, new),
                    f"{value} variables made continuous", {"cat": value})


def _output_dicts(source: str, tree: ast.Module, info: Info) -> list[ast.Dict]:
    dicts = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict) and node.keys and all(isinstance(k, ast.Constant) for k in node.keys):
            keys = {k.value for k in node.keys}
            if info.output_keys and keys <= info.output_keys:
                dicts.append(node)
    return in_source_order(dicts)


def _output_items(source: str, tree: ast.Module, info: Info) -> list[tuple[ast.Constant, ast.AST]]:
    """(key node, value node) of each output key the program writes: in a dict literal of output keys, or
    assigned one at a time (`output["open_sites"] = [...]`, as programs that fill output.json piecewise do)."""
    items = [(k, v) for d in _output_dicts(source, tree, info) for k, v in zip(d.keys, d.values)]
    data = data_names(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            items += [(t.slice, node.value) for t in node.targets
                      if isinstance(t, ast.Subscript) and isinstance(t.slice, ast.Constant)
                      and t.slice.value in info.output_keys
                      and not (isinstance(t.value, ast.Name) and t.value.id in data)]
    return sorted(items, key=lambda kv: (kv[0].lineno, kv[0].col_offset))


def misspell_output_key(source: str, info: Info) -> list[Injected]:
    tree = parse(source)
    if tree is None:
        return []
    out = []
    for key, _ in _output_items(source, tree, info):
        wrong = other_name(key.value, info.output_keys)
        text = replace_node(source, key, f'"{wrong}"')
        out.append(Injected("misspell_output_key", "code", text, f'output key "{key.value}" written as "{wrong}"',
                            {"key": key.value, "wrong": wrong}))
    return out


def output_wrong_length(source: str, info: Info) -> list[Injected]:
    tree = parse(source)
    if tree is None:
        return []
    out = []
    for key, value in _output_items(source, tree, info):
        listy = isinstance(value, (ast.ListComp, ast.List)) or (
            isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr == "tolist"
        )
        if listy:
            text = replace_node(source, value, f"({seg(source, value)})[:-1]")
            out.append(Injected("output_wrong_length", "code", text, f'output "{key.value}" one element short',
                                {"key": key.value}))
    return out


def infinite_loop(source: str, info: Info) -> list[Injected]:
    tree = parse(source)
    if tree is None:
        return []
    solve = r"\.(solve|optimize)\("  # optimize: pyoptinterface; run: a highspy.Highs object
    solve += "".join(rf"|\b{name}\.run\(" for name in highs_objects(tree))
    for stmt in in_source_order(
        [n for n in ast.walk(tree) if isinstance(n, ast.stmt) and not isinstance(n, COMPOUND)]
    ):
        if re.search(solve, seg(source, stmt)):
            start, _ = span(source, stmt)
            indent = " " * stmt.col_offset
            text = splice(
                source, start, start, f"while True:  # wait for the model\n{indent}    pass\n{indent}"
            )
            return [Injected("infinite_loop", "code", text, f"an endless loop before line {stmt.lineno}", {})]
    return []


def _solution_statements(source: str, tree: ast.Module) -> list[ast.stmt]:
    simple = (n for n in ast.walk(tree) if isinstance(n, ast.stmt) and not isinstance(n, COMPOUND))
    withs = (n for n in ast.walk(tree) if isinstance(n, ast.With))
    return [n for n in (*simple, *withs) if "solution.json" in seg(source, n)]


def solution_missing(source: str, info: Info) -> list[Injected]:
    tree = parse(source)
    if tree is None:
        return []
    writes = [n for n in _solution_statements(source, tree) if re.search(r"write|dump", seg(source, n))]
    return [
        Injected(
            "solution_missing", "code", replace_node(source, n, "pass"), "solution.json never written", {}
        )
        for n in in_source_order(writes)[:1]
    ]


def solution_wrong_objective(source: str, info: Info) -> list[Injected]:
    tree = parse(source)
    if tree is None:
        return []
    for stmt in in_source_order(_solution_statements(source, tree)):
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
    for stmt in in_source_order(_solution_statements(source, tree)):  # json.dump(solution, ...): a dict built before
        for call in [n for n in ast.walk(stmt) if isinstance(n, ast.Call) and seg(source, n.func).endswith("dump")]:
            if call.args and isinstance(call.args[0], ast.Name):
                name = call.args[0].id
                text = replace_node(source, call.args[0], f'{{**{name}, "objective": (lambda v: v if v is None '
                                    f'else -v)({name}.get("objective"))}}')
                return [Injected("solution_wrong_objective", "code", text, "solution.json objective negated", {})]
    return []


def wrong_test(source: str, info: Info) -> list[Injected]:
    """A generated test that rejects the correct answer: a comparison turned round, or a wrong key set."""
    tree = parse(info.tests)
    if tree is None:
        return []
    text, out = info.tests, []
    flip = {ast.LtE: ">", ast.GtE: "<"}
    for node in in_source_order([n for n in ast.walk(tree) if isinstance(n, ast.Assert)]):
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


# The factor of an added restriction: a limit the statements give, tightened to this share of itself.
TIGHTER = 0.8


def added_restriction(source: str, info: Info) -> list[Injected]:
    """A restriction no statement gives: beside a `<=` constraint, a copy with its limit cut to 80%. Tests of
    the statements still pass (the solution stays feasible); only the objective is worse."""
    tree = parse(source)
    if tree is None:
        return []
    out = []
    for node, cmp, name in _constraints(source, tree):
        line = _poi_tighter(source, node, cmp, name) if _poi_constraint(node) else None
        if line is not None:
            out.append(_added(source, node, line, name))
            continue
        tighter = tighter_block(source, tree, cmp, TIGHTER) if isinstance(cmp, ast.Tuple) else None
        if tighter is not None:  # highspy arrays: the block's copy, one more element of the blocks list
            out.append(Injected("added_restriction", "code", tighter[0], f"added: {tighter[1]}",
                                {"line": tighter[1], "constraint": name}))
            continue
        if not (isinstance(node, ast.AugAssign) and isinstance(cmp, ast.Compare) and len(cmp.ops) == 1
                and isinstance(cmp.ops[0], ast.LtE)):
            continue
        quote = re.match(r"[a-zA-Z]*[\"']", name.strip())
        new_name = ""
        if quote:
            new_name = name.strip()[: quote.end()] + "reserve_" + name.strip()[quote.end():]
        elif name.strip():
            new_name = f'"reserve_" + str({name.strip()})'
        line = (f"{seg(source, node.target)} += {seg(source, cmp.left)} <= {TIGHTER} * "
                f"({seg(source, cmp.comparators[0])}){', ' + new_name if new_name else ''}")
        _, end = span(source, node)
        eol = source.find("\n", end)
        eol = len(source) if eol < 0 else eol
        text = splice(source, eol, eol, "\n" + " " * node.col_offset + line)
        out.append(Injected("added_restriction", "code", text, f"added: {line}",
                            {"line": line, "constraint": name.strip()}))
    return out


def _reserve_name(name: str) -> str:
    """The added restriction's name: the original's with reserve_ in front (a string literal or an expression)."""
    quote = re.match(r"[a-zA-Z]*[\"']", name.strip())
    if quote:
        return name.strip()[: quote.end()] + "reserve_" + name.strip()[quote.end():]
    return f'"reserve_" + str({name.strip()})' if name.strip() else ""


def _poi_tighter(source: str, node: ast.Expr, cmp: ast.AST, name: str) -> str | None:
    """pyoptinterface: the call again with its limit cut to TIGHTER of itself; None when the constraint is not
    `<=` or its limit is 0 (cutting 0 changes nothing)."""
    call = node.value
    target = seg(source, call.func)
    named = f", name={_reserve_name(name)}" if name.strip() else ""
    if isinstance(cmp, ast.Compare):
        if len(cmp.ops) != 1 or not isinstance(cmp.ops[0], ast.LtE) or _is_zero(cmp.comparators[0]):
            return None
        return f"{target}({seg(source, cmp.left)} <= {TIGHTER} * ({seg(source, cmp.comparators[0])}){named})"
    sense = _poi_sense(source, call)
    if sense is None or "Leq" not in seg(source, sense) and "LessEqual" not in seg(source, sense) \
            or len(call.args) < 3 or _is_zero(call.args[2]):
        return None
    return (f"{target}({seg(source, call.args[0])}, {seg(source, sense)}, {TIGHTER} * ({seg(source, call.args[2])})"
            f"{named})")


def _is_zero(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and node.value == 0


def _added(source: str, node: ast.stmt, line: str, name: str) -> Injected:
    _, end = span(source, node)
    eol = source.find("\n", end)
    eol = len(source) if eol < 0 else eol
    text = splice(source, eol, eol, "\n" + " " * node.col_offset + line)
    return Injected("added_restriction", "code", text, f"added: {line}", {"line": line, "constraint": name.strip()})
