"""The model-level faults on programs that build the model as numpy arrays for highspy (the codegen rules'
"Large data" shape): each statement's rows are one tuple (rows, columns, coefficients, lower, upper, names)
in a list of blocks stacked into one h.addRows; integrality is one h.changeColsIntegrality call; the sense
is h.changeObjectiveSense. The general faults of edits.py call these helpers, which find nothing in other
programs (they need `import highspy`), so pulp, pyoptinterface, cvxpy and z3 programs are edited as before.
"""

from __future__ import annotations

import ast
import re

from optimus.bench.faults.surgery import in_source_order, seg, span, splice

# A block tuple: rows, columns, coefficients, lower, upper, names.
BLOCK_ITEMS = 6
LOWER, UPPER, NAMES = 3, 4, 5

# An infinite bound as programs write it (np.inf, highspy.kHighsInf, float("inf")), with the sign before it.
_INF = re.compile(r"(?P<sign>-\s*)?(?:\b(?:np|numpy|math)\.inf\b|(?:\b\w+\.)?\bkHighsInf\b"
                  r"|\bfloat\(\s*[\"'](?P<quoted>[+-]?)inf[\"']\s*\))")


def module_alias(tree: ast.AST, module: str) -> str | None:
    """The name `import module` binds in the program (None: the program does not import it)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == module:
                    return alias.asname or module
    return None


def highs_objects(tree: ast.AST) -> list[str]:
    """Names bound to a Highs() instance (h = highspy.Highs()), in a program that imports highspy."""
    if module_alias(tree, "highspy") is None:
        return []
    assigned = [n for n in ast.walk(tree) if isinstance(n, ast.Assign) and isinstance(n.value, ast.Call)]
    return sorted({t.id for node in assigned if re.fullmatch(r"(?:\w+\.)?Highs", ast.unparse(node.value.func))
                   for t in node.targets if isinstance(t, ast.Name)})


def array_blocks(source: str, tree: ast.AST) -> list[tuple[ast.AST, ast.AST, str]]:
    """(element, element, label) for each statement's block in a list of row blocks: a list literal holding
    6-tuples (a block built by a helper call counts too). Lists of one block are left alone: without it the
    program has no rows to stack and only crashes."""
    if module_alias(tree, "highspy") is None:
        return []
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.List) or len(node.elts) < 2 or not any(_is_block(e) for e in node.elts):
            continue
        for elt in node.elts:
            names = elt.elts[NAMES] if _is_block(elt) else elt.args[-1] if _is_call_block(elt) else None
            if names is not None:
                found.append((elt, elt, _label(source, names)))
    return found


def _is_block(node: ast.AST) -> bool:
    return isinstance(node, ast.Tuple) and len(node.elts) == BLOCK_ITEMS


def _is_call_block(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and bool(node.args) and not isinstance(node.args[-1], ast.Starred)


def _label(source: str, names: ast.AST) -> str:
    """What a block's row names start with ("s4_demand_…"): its statement id and words for the repair
    evidence, without the identifiers of the name parts (customer_part) that would match any feedback."""
    texts = in_source_order([n for n in ast.walk(names) if _is_text(n)])
    if not texts:
        return seg(source, names)
    whole = isinstance(names, (ast.Constant, ast.List, ast.Tuple)) and len(texts) == 1
    return texts[0].value + ("" if whole else "…")


def _infinity(text: str) -> int:
    """-1 when the bound's text holds minus infinity, +1 plus infinity, 0 neither (a finite limit)."""
    match = _INF.search(text)
    if match is None:
        return 0
    return -1 if match.group("sign") or match.group("quoted") == "-" else 1


def _negated(text: str) -> str:
    """The bound's text with the sign of its (first) infinity turned round."""
    match = _INF.search(text)
    if match.group("sign"):
        return splice(text, *match.span("sign"), "")
    if match.group("quoted") is not None:
        start, end = match.span("quoted")
        return splice(text, start, end, "" if match.group("quoted") == "-" else "-")
    return splice(text, match.start(), match.start(), "-")


def block_sense(source: str, block: ast.AST) -> str | None:
    """'<=' for a block of rows lower -inf, upper finite; '>=' for lower finite, upper +inf; None otherwise
    (equalities, ranges, rows of both kinds, helper calls)."""
    if not _is_block(block):
        return None
    lower, upper = (_infinity(seg(source, block.elts[i])) for i in (LOWER, UPPER))
    return "<=" if (lower, upper) == (-1, 0) else ">=" if (lower, upper) == (0, 1) else None


def flipped_block(source: str, block: ast.AST) -> tuple[str, str] | None:
    """(program, sense) with the block's rows turned round: `<=` rows get their limit as the lower bound and
    +inf above (the mistake of writing >=), `>=` rows the reverse; None when the block is no inequality."""
    sense = block_sense(source, block)
    if sense is None:
        return None
    lower, upper = block.elts[LOWER], block.elts[UPPER]
    if sense == "<=":
        new_lower, new_upper = seg(source, upper), _negated(seg(source, lower))
    else:
        new_lower, new_upper = _negated(seg(source, upper)), seg(source, lower)
    text = splice(source, *span(source, upper), new_upper)  # the later one first: offsets stay right
    return splice(text, *span(source, lower), new_lower), sense


def tighter_block(source: str, tree: ast.AST, block: ast.AST, factor: float) -> tuple[str, str] | None:
    """(program, added block) with a copy of a `<=` block beside it, its limit cut to `factor` of itself and
    its row names prefixed reserve_; None for other blocks and limits of 0 (cutting 0 changes nothing)."""
    np_name = module_alias(tree, "numpy")
    if np_name is None or block_sense(source, block) != "<=" or _is_zero(block.elts[UPPER]):
        return None
    items = [_one_line(seg(source, e)) for e in block.elts]
    items[UPPER] = f"{factor} * {np_name}.asarray({items[UPPER]}, dtype=float)"
    items[NAMES] = _reserve_names(source, block.elts[NAMES], np_name)
    added = "(" + ", ".join(items) + ")"
    return _insert_after_element(source, block, added), added


def _one_line(text: str) -> str:
    """An item of the copy on one line (the added line is quoted whole as the evidence), unless a comment in
    it would swallow the rest."""
    return text if "#" in text else re.sub(r"\s*\n\s*", " ", text)


def _reserve_names(source: str, names: ast.AST, np_name: str) -> str:
    """The copy's row names: reserve_ in front of the leading literal ("s4_cap_" + part) or of each literal of
    a list (["s7_max"]); else in front of each name of the array of names."""
    if isinstance(names, (ast.List, ast.Tuple)) and names.elts and all(_is_text(e) for e in names.elts):
        literals = names.elts
    else:
        leftmost = names
        while isinstance(leftmost, ast.BinOp) and isinstance(leftmost.op, ast.Add):
            leftmost = leftmost.left
        literals = [leftmost] if _is_text(leftmost) else []
    text, (first, _) = seg(source, names), span(source, names)
    if not literals:
        return _one_line(f'"reserve_" + {np_name}.asarray({text}, dtype=object)')
    for literal in reversed(literals):  # the later one first: offsets stay right
        start, _ = span(source, literal)
        at = start - first + re.match(r"[a-zA-Z]*[\"']+", source[start:]).end()  # after the prefix and quote
        text = splice(text, at, at, "reserve_")
    return _one_line(text)


def _is_text(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def _is_zero(node: ast.AST) -> bool:
    """A limit of 0: 0, [0], np.zeros(n), np.zeros_like(a), np.full(n, 0)."""
    if isinstance(node, ast.Constant):
        return node.value == 0
    if isinstance(node, (ast.List, ast.Tuple)):
        return bool(node.elts) and all(_is_zero(e) for e in node.elts)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        if node.func.attr in ("zeros", "zeros_like"):
            return True
        return node.func.attr == "full" and len(node.args) == 2 and _is_zero(node.args[1])
    return False


def _insert_after_element(source: str, element: ast.AST, added: str) -> str:
    """`added` as the next element of the list holding `element`: on a line of its own when the element ends
    its line (after its comma and comment), else just after the element's comma."""
    _, end = span(source, element)
    comma = re.match(r"\s*,", source[end:])
    if comma is None:
        source, comma_end = splice(source, end, end, ","), end + 1
    else:
        comma_end = end + comma.end()
    rest = re.match(r"[ \t]*(#[^\n]*)?(?=\n|$)", source[comma_end:])
    if rest is None:
        return splice(source, comma_end, comma_end, f" {added},")
    line_start = source.rfind("\n", 0, span(source, element)[0]) + 1
    indent = re.match(r"[ \t]*", source[line_start:]).group()
    at = comma_end + rest.end()
    return splice(source, at, at, f"\n{indent}{added},")


def _method_statements(tree: ast.AST, objects: list[str], method: str) -> list[ast.Expr]:
    """Statements `h.method(...)` on one of the Highs objects, in source order."""
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Expr) and isinstance(n.value, ast.Call)
             and isinstance(n.value.func, ast.Attribute) and isinstance(n.value.func.value, ast.Name)]
    return in_source_order([n for n in calls if n.value.func.attr == method and n.value.func.value.id in objects])


def integrality_statements(tree: ast.AST) -> list[ast.stmt]:
    """What makes columns integer: h.changeColsIntegrality(...) calls, or `lp.integrality_ = ...`."""
    calls = [s for name in ("changeColsIntegrality", "changeColIntegrality")
             for s in _method_statements(tree, highs_objects(tree), name)]
    assigned = [n for n in ast.walk(tree) if isinstance(n, ast.Assign) and module_alias(tree, "highspy")
                and any(isinstance(t, ast.Attribute) and t.attr == "integrality_" for t in n.targets)]
    return in_source_order(calls + assigned)


def flipped_sense(source: str, tree: ast.AST) -> tuple[str, str, str] | None:
    """(program, what changed, the sense it had) with minimize and maximize swapped: a maximize call left out,
    an explicit sense turned round, or, in a program that minimizes by default, a maximize call written before
    the model is saved (or solved); None when the program has no Highs object."""
    objects, module = highs_objects(tree), module_alias(tree, "highspy")
    if not objects:
        return None
    for stmt in _method_statements(tree, objects, "changeObjectiveSense"):
        if re.search(r"\bkMaximize\b", seg(source, stmt)):
            text = splice(source, *span(source, stmt), "pass")
            return text, f"{seg(source, stmt)} left out: the model minimizes", "kMaximize"
    explicit = re.search(r"\bObjSense\.(kMaximize|kMinimize)\b", source)
    if explicit:
        other = {"kMaximize": "kMinimize", "kMinimize": "kMaximize"}[explicit.group(1)]
        return (splice(source, *explicit.span(1), other), f"objective sense {explicit.group(1)} → {other}",
                explicit.group(1))
    before = [s for method in ("writeModel", "run") for s in _method_statements(tree, objects, method)]
    if not before:
        return None
    stmt = before[0]
    call = f"{stmt.value.func.value.id}.changeObjectiveSense({module}.ObjSense.kMaximize)"
    start, _ = span(source, stmt)
    text = splice(source, start, start, f"{call}\n{' ' * stmt.col_offset}")
    return text, f"{call} written before line {stmt.lineno}", "kMinimize"


def without_element(source: str, element: ast.AST) -> str:
    """The program with a list element left out: its whole lines when it has lines of its own (its comma and
    comment go too), else just the element and its comma."""
    start, end = span(source, element)
    line_start = source.rfind("\n", 0, start) + 1
    tail = re.match(r"[ \t]*,?[ \t]*(#[^\n]*)?(\n|$)", source[end:])
    if tail is not None and not source[line_start:start].strip():
        return splice(source, line_start, end + tail.end(), "")
    comma = re.match(r"\s*,[ \t]*", source[end:])
    return splice(source, start, end + (comma.end() if comma else 0), "")
