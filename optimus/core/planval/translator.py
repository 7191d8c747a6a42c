"""PDDL read by Fast Downward's own translator (the `fast-downward.translate` package, the one up-fast-downward's
planner runs): whether a domain and problem read, and their objects, types, actions and goal, are the
translator's — so "Fast Downward reads it" means "optimus reads it" by construction.

Two shapes older planners read and the current translator refuses are read as they did, each with a warning
that names the line and the fix, never refused:
- a name the domain's actions use but never declare, declared by the problem (IPC's tyreworld: `wrench`): read
  as a constant of the domain, of the problem's type for it;
- a problem object that repeats a domain constant of the same type: read as that one object.
Errors name the file and the line (the translator's lists carry no lines: the words it quotes are found in the
text). Imports nothing from optimus: it runs in the sandbox as part of planval.
"""

from __future__ import annotations

import io
import re
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass, field
from pathlib import Path

MAX_FIXES = 50  # undeclared names read as constants, at most (each costs one more parse)
_TOKEN = re.compile(r"\(|\)|[^\s()]+")
_UNDEFINED = re.compile(r"Undefined object\nGot: (\S+)\s*$")
_DUPLICATE = re.compile(r"Found the following duplicate objects: (.+)$")
_GOT = re.compile(r"\nGot: (.+)$", re.DOTALL)
_ACTION = re.compile(r"Parsing action '([^']+)'")


class TranslatorError(Exception):
    """The translator refuses the file: the message names it, its line when found, and the translator's words;
    `file` and `line` say the same for callers that place it."""

    def __init__(self, message: str, file: str | None = None, line: int | None = None) -> None:
        super().__init__(message)
        self.file, self.line = file, line


@dataclass
class Reading:
    task: object  # fast_downward.translate.pddl.Task
    domain: list  # the nested lists the translator read (with the fixes below), for the planner's own files
    problem: list
    warnings: list[str] = field(default_factory=list)


def read_pair(domain: str | Path, problem: str | Path) -> Reading:
    """The translator's Task for the pair; TranslatorError naming the file (and line) it refuses."""
    from fast_downward.translate.pddl_parser import parsing_functions
    from fast_downward.translate.pddl_parser.parse_error import ParseError

    texts = {"domain": _text(domain), "problem": _text(problem)}
    names = {"domain": Path(domain).name, "problem": Path(problem).name}
    lists = {kind: _nested(text, names[kind]) for kind, text in texts.items()}
    warnings: list[str] = []
    for _ in range(MAX_FIXES):
        _quiet_options()
        try:
            with redirect_stderr(io.StringIO()):  # its notes on what it reads fine ("name clash … interpreting")
                task = parsing_functions.parse_task(lists["domain"], lists["problem"])
        except ParseError as exc:
            said = str(exc)
            fixed = _read_as_older_planners(said, lists, texts, names)
            if fixed is None and (match := _UNDEFINED.search(said)) and said.startswith("Parsing domain"):
                name = match.group(1)
                line = find_line(texts["domain"], [name], after="(:action")
                raise TranslatorError(f"{names['domain']} line {line} uses {name}, which neither the domain's "
                                      f":constants nor {names['problem']}'s :objects declares: declare it in "
                                      f"{names['problem']}'s :objects (older planners read it so)",
                                      names["problem"], None) from None
            if fixed is None:
                raise _in_words(said, texts, names) from None
            warnings.append(fixed)
            continue
        except (AssertionError, ValueError, KeyError, TypeError, IndexError) as exc:  # the translator's own checks
            raise TranslatorError(f"Fast Downward's translator cannot read the pair: {type(exc).__name__}: {exc}")
        return Reading(task, lists["domain"], lists["problem"], warnings)
    raise TranslatorError(f"{names['domain']}: more than {MAX_FIXES} names used but never declared")


def read_domain_alone(domain: str | Path) -> list[str]:
    """The domain as the translator reads it, before any problem exists; its warnings. A name its actions use
    but never declare is said (the problem file must declare it), not refused."""
    from fast_downward.translate.pddl_parser import parsing_functions
    from fast_downward.translate.pddl_parser.parse_error import ParseError

    text, name = _text(domain), Path(domain).name
    nested = _nested(text, name)
    warnings: list[str] = []
    for _ in range(MAX_FIXES):
        _quiet_options()
        try:
            with redirect_stderr(io.StringIO()):
                list(parsing_functions.parse_domain_pddl(parsing_functions.Context(), nested))
            return warnings
        except ParseError as exc:
            said = str(exc)
            match = _UNDEFINED.search(said)
            if not match or not said.startswith("Parsing domain"):
                raise _in_words(said, {"domain": text}, {"domain": name}) from None
            _add_constant(nested, match.group(1), "object")
            warnings.append(f"{name} line {find_line(text, [match.group(1)])}: {match.group(1)} is used but not "
                            f"declared; the problem file must declare it (the fix, in {name}: "
                            f"(:constants {match.group(1)} - TYPE))")
    raise TranslatorError(f"{name}: more than {MAX_FIXES} names used but never declared")


def relaxed_unreachable_goals(task) -> list[str] | None:
    """The goal atoms Fast Downward's own relaxed exploration (its grounding: normalize, pddl_to_prolog,
    build_model, on a copy of the task) never reaches, as "(pred a b)"; None when the goal is no conjunction of
    atoms or the exploration fails. Ignoring deletes only adds facts, so an atom missing here is unreachable."""
    import copy

    from fast_downward.translate import build_model, normalize, pddl_to_prolog

    goal = task.goal
    parts = goal.parts if type(goal).__name__ == "Conjunction" else (goal,)
    atoms = [(p.predicate, *p.args) for p in parts if type(p).__name__ == "Atom"]
    if len(atoms) != len([p for p in parts if type(p).__name__ != "NegatedAtom"]):
        return None
    try:
        work = copy.deepcopy(task)
        with redirect_stderr(io.StringIO()), redirect_stdout(io.StringIO()):  # its timers and notes
            normalize.normalize(work)
            model = build_model.compute_model(pddl_to_prolog.translate(work))
    except Exception:  # noqa: BLE001 — an explanation only; the caller falls back to its own
        return None
    reached = {(a.predicate, *a.args) for a in model if isinstance(a.predicate, str)}
    reached |= {(a.predicate, *a.args) for a in task.init if type(a).__name__ == "Atom"}
    return [f"({' '.join(a)})" for a in atoms if a not in reached]


def lisp(nested) -> str:
    """The translator's lists written back as PDDL text (what Fast Downward's driver gets when a fix applied)."""
    if isinstance(nested, list):
        return "(" + " ".join(lisp(item) for item in nested) + ")"
    return str(nested)


def _read_as_older_planners(said: str, lists: dict, texts: dict, names: dict) -> str | None:
    """Apply the one fix an older planner made implicitly; its warning, or None when none applies."""
    match = _UNDEFINED.search(said)
    if match and said.startswith("Parsing domain"):
        name = match.group(1)
        kind = _declared(lists["problem"], name)
        if kind is None:
            return None
        _add_constant(lists["domain"], name, kind)
        _drop_object(lists["problem"], name)
        line = find_line(texts["domain"], [name], after="(:action")
        return (f"{names['domain']} line {line}: {name} is used but never declared in the domain; "
                f"{names['problem']} declares it ({name} - {kind}), so it is read as a constant of the domain, as "
                f"older planners read it. The fix, in {names['domain']}: (:constants {name} - {kind})")
    match = _DUPLICATE.search(said.strip())
    if match:
        constants = dict(_typed(_section(lists["domain"], ":constants")))
        for name in (n.strip() for n in match.group(1).split(",")):
            if constants.get(name) != _declared(lists["problem"], name):
                return None  # the same name with another type: two objects, refused
            _drop_object(lists["problem"], name)
        repeated = ", ".join(n.strip() for n in match.group(1).split(","))
        line = find_line(texts["problem"], [repeated.split(", ")[0]], after="(:objects")
        return (f"{names['problem']} line {line}: {repeated} is declared both as a constant of the domain and as an "
                f"object of the problem (same type); read as one object. The fix: delete it from "
                f"{names['problem']}'s :objects")
    return None


def _in_words(said: str, texts: dict, names: dict) -> TranslatorError:
    """The translator's complaint with the file it is about and, when its quoted words are found (in the action,
    or the problem's section, the translator was reading), the line."""
    about_problem = said.startswith(("Parsing problem", "Error: Could not parse problem"))
    kind = "problem" if "problem" in texts and (about_problem or "domain" not in texts) else "domain"
    lines = [line.strip() for line in said.strip().splitlines() if line.strip()]
    reason = " ".join(x for x in lines if not x.startswith("->") and not x.startswith("Parsing "))
    got = _GOT.search(said)
    action = _ACTION.search(said)
    after = f"(:action {action.group(1)}" if action else next(
        (f"(:{key}" for key in ("init", "goal", "objects") if f"in {key} block" in said or f"Parsing {key}" in said),
        None)
    line = find_line(texts[kind], _TOKEN.findall(got.group(1).strip().lower()), after=after) if got else None
    where = f" line {line}: {texts[kind].splitlines()[line - 1].strip()[:160]} —" if line else ""
    return TranslatorError(f"cannot read {names[kind]}:{where} {reason} (Fast Downward's translator)",
                           names[kind], line)


def find_line(text: str, tokens: list[str], after: str | None = None) -> int | None:
    """The line where the token sequence first occurs (comments left out), from the first `after` on."""
    seq, lines = [], []
    start = 0
    for number, line in enumerate(text.splitlines(), 1):
        words = _TOKEN.findall(line.split(";", 1)[0].lower())
        if after and not start and after.lower() in line.lower():
            start = len(seq)
        seq += words
        lines += [number] * len(words)
    for i in range(start, len(seq) - len(tokens) + 1):
        if tokens and seq[i:i + len(tokens)] == tokens:
            return lines[i]
    return None


def _quiet_options() -> None:
    """The translator reads its options once (keep actions without effects: a plan may name one)."""
    from fast_downward.translate import options

    if options.options is None:
        options.set_options(["domain.pddl", "problem.pddl", "--keep-no-ops"])


def _text(path: str | Path) -> str:
    try:
        return Path(path).read_text(encoding="latin-1")
    except OSError as exc:
        raise TranslatorError(f"cannot read {Path(path).name}: {exc.strerror}") from None


def _nested(text: str, name: str) -> list:
    from fast_downward.translate.pddl_parser import lisp_parser
    from fast_downward.translate.pddl_parser.parse_error import ParseError

    try:
        return lisp_parser.parse_nested_list(text.splitlines(keepends=True))
    except ParseError as exc:
        raise TranslatorError(f"cannot read {name}: {exc} (Fast Downward's translator)") from None


def _section(root: list, key: str) -> list:
    return next((part[1:] for part in root if isinstance(part, list) and part and part[0] == key), [])


def _typed(items: list) -> list[tuple[str, str]]:
    out, pending, i = [], [], 0
    while i < len(items):
        if items[i] == "-" and i + 1 < len(items) and isinstance(items[i + 1], str):
            out += [(p, items[i + 1]) for p in pending]
            pending, i = [], i + 2
            continue
        if isinstance(items[i], str):
            pending.append(items[i])
        i += 1
    return out + [(p, "object") for p in pending]


def _declared(problem: list, name: str) -> str | None:
    return dict(_typed(_section(problem, ":objects"))).get(name)


def _add_constant(domain: list, name: str, kind: str) -> None:
    for part in domain:
        if isinstance(part, list) and part and part[0] == ":constants":
            part += [name, "-", kind]
            return
    order = (":requirements", ":types")  # :constants comes after these (the translator warns otherwise)
    at = 2 + sum(1 for part in domain[2:] if isinstance(part, list) and part and part[0] in order)
    domain.insert(at, [":constants", name, "-", kind])


def _drop_object(problem: list, name: str) -> None:
    """The problem's :objects without `name` (written back as `a b - t c - u`, the order kept)."""
    for part in problem:
        if isinstance(part, list) and part and part[0] == ":objects":
            items: list = []
            for obj, kind in _typed(part[1:]):
                if obj != name:
                    items += [obj, "-", kind]
            part[1:] = items
            return
