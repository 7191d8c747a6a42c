"""model.smt2 read back: declarations, assertions (tracked ones by name), objectives, and values substituted.

A program captures its model with the solver's sexpr(). `assert_and_track(e, "s4_x")` prints as
`(assert (=> s4_x e))` with s4_x a declared Bool that the solver assumes true; Optimize's objectives print as
`(minimize e)` / `(maximize e)`. We split the text into top-level commands ourselves, so each objective is read
as an expression with its sense (z3's own reader negates maximised objectives internally).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction

import z3

TRACK_NAME = re.compile(r"^s\d+_\w*$")
DECLARATION = re.compile(r"^\(declare-fun (\S+) \(\) (\w+)\)$", re.MULTILINE)  # a constant, as sexpr() prints it
KNOWN = {"declare-fun", "declare-const", "define-fun", "declare-datatypes", "declare-datatype", "declare-sort",
         "define-sort", "assert", "minimize", "maximize", "check-sat", "set-option", "set-info", "set-logic",
         "get-model", "exit"}


class SmtError(Exception):
    pass


@dataclass
class Captured:
    tracked: dict[str, z3.BoolRef] = field(default_factory=dict)  # name → the assertion it tracks
    plain: list[z3.BoolRef] = field(default_factory=list)  # assertions tracked under no statement name
    objectives: list[tuple[str, z3.ExprRef]] = field(default_factory=list)  # ("min"|"max", expression)
    constants: dict[str, z3.ExprRef] = field(default_factory=dict)  # declared constants (not track names)
    ignored: list[str] = field(default_factory=list)  # commands we do not re-check (assert-soft, …)
    duplicates: list[str] = field(default_factory=list)  # track names used twice
    boolean: bool = False  # every declared constant a Bool: z3's SAT solver (logic QF_FD) can decide it


def commands(text: str) -> list[str]:
    """Top-level s-expressions, comments and strings respected."""
    out, depth, start, i, n = [], 0, None, 0, len(text)
    while i < n:
        ch = text[i]
        if ch == ";":
            while i < n and text[i] != "\n":
                i += 1
            continue
        if ch in "\"|":
            end = text.find(ch, i + 1)
            i = n if end < 0 else end + 1
            continue
        if ch == "(":
            if depth == 0:
                start = i
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth < 0:
                raise SmtError(f"unbalanced ')' at character {i}")
            if depth == 0:
                out.append(text[start:i + 1])
        i += 1
    if depth:
        raise SmtError("the file ends inside an expression (unbalanced parentheses)")
    return out


def head(command: str) -> str:
    match = re.match(r"\(\s*([^\s()]+)", command)
    return match.group(1) if match else ""


def read(text: str, constants: bool = True) -> Captured:
    """The captured model; `constants=False` skips collecting the declared constants (a model only re-solved)."""
    cmds = commands(text)
    base, objectives, ignored = [], [], []
    for c in cmds:
        h = head(c)
        if h in ("minimize", "maximize"):
            objectives.append((h[:3], c[c.index(h) + len(h):-1].strip()))
        elif h in ("check-sat", "get-model", "exit"):
            continue
        elif h in KNOWN:
            base.append(c)
        else:
            ignored.append(h)
    body = "\n".join(base)
    try:
        assertions = list(z3.parse_smt2_string(body))
        # Each objective is read as the argument of a throwaway equality, in the declarations' scope.
        objs = [(sense, z3.parse_smt2_string(body + f"\n(assert (= {e} {e}))")[-1].arg(0))
                for sense, e in objectives]
    except z3.Z3Exception as exc:
        raise SmtError(f"z3 cannot read it: {exc}") from None
    sorts = {sort for _, sort in DECLARATION.findall(body)}
    cap = Captured(objectives=objs, ignored=ignored, boolean=sorts == {"Bool"} and "define-fun" not in body
                   and "declare-datatype" not in body)
    track_names = set()
    for a in assertions:
        if z3.is_implies(a) and _is_const(a.arg(0)) and TRACK_NAME.match(a.arg(0).decl().name()):
            name = a.arg(0).decl().name()
            if name in cap.tracked:  # one name tracking two assertions: the solver assumes both
                cap.tracked[name] = z3.And(cap.tracked[name], a.arg(1))
                cap.duplicates.append(name)
            else:
                cap.tracked[name], track_names = a.arg(1), track_names | {name}
        else:
            cap.plain.append(a)
    for c in constants_in(*cap.tracked.values(), *cap.plain, *(o for _, o in objs)) if constants else ():
        if c.decl().name() not in track_names:
            cap.constants[c.decl().name()] = c
    return cap


def _is_const(e: z3.ExprRef) -> bool:
    return z3.is_const(e) and e.decl().kind() == z3.Z3_OP_UNINTERPRETED


def constants_in(*exprs: z3.ExprRef) -> list[z3.ExprRef]:
    """The uninterpreted constants of the expressions, each shared subterm visited once across all of them (a
    planning model's assertions share most of theirs: one walk per assertion cost seconds)."""
    seen, out, todo = set(), [], list(exprs)
    while todo:
        x = todo.pop()
        if x.get_id() in seen:
            continue
        seen.add(x.get_id())
        if _is_const(x):
            out.append(x)
        elif z3.is_app(x):
            todo.extend(x.children())
        elif z3.is_quantifier(x):
            todo.append(x.body())
    return out


def as_value(const: z3.ExprRef, value) -> z3.ExprRef:
    """A JSON value as a z3 value of the constant's sort; ValueError says why it cannot be."""
    sort = const.sort()
    kind = sort.kind()
    if kind == z3.Z3_BOOL_SORT:
        if isinstance(value, bool):
            return z3.BoolVal(value)
    elif isinstance(value, bool):
        pass
    elif kind == z3.Z3_INT_SORT and isinstance(value, (int, float)):
        if float(value).is_integer():
            return z3.IntVal(int(value))
        raise ValueError(f"{value!r} is not an integer")
    elif kind == z3.Z3_REAL_SORT and isinstance(value, (int, float)):
        f = Fraction(repr(value)) if isinstance(value, float) else Fraction(value)
        return z3.RealVal(f"{f.numerator}/{f.denominator}")
    elif kind == z3.Z3_BV_SORT and isinstance(value, int):
        return z3.BitVecVal(value, sort.size())
    elif kind == z3.Z3_DATATYPE_SORT and isinstance(value, str):
        for k in range(sort.num_constructors()):
            ctor = sort.constructor(k)
            if ctor.arity() == 0 and ctor.name() == value:
                return ctor()
    raise ValueError(f"{value!r} is not a value of sort {sort}")


def py_value(v: z3.ExprRef):
    """A z3 model value as plain JSON: int, float, bool, or a constructor's name."""
    if z3.is_true(v) or z3.is_false(v):
        return z3.is_true(v)
    if z3.is_int_value(v):
        return v.as_long()
    if z3.is_rational_value(v):
        f = v.as_fraction()
        return int(f) if f.denominator == 1 else float(f)
    if z3.is_algebraic_value(v):
        return float(v.approx(20).as_fraction())
    if z3.is_bv_value(v):
        return v.as_long()
    return str(v)


def is_infinite(text: str) -> bool:
    """z3 prints an unbounded optimum as oo, or with epsilon terms."""
    return "oo" in text or "epsilon" in text
