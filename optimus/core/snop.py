"""The SNOP: one in-memory model, two on-disk forms (snop.json and the NLP4LP plain-text description.txt)."""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from optimus.core.errors import SpecError
from optimus.core.files import read_json, read_text

if TYPE_CHECKING:
    import jsonschema

_TYPE_ALIASES = {"MIP": "MILP", "ILP": "MILP", "IP": "MILP", "LP or MILP": "MILP", "MILP or LP": "MILP"}

# Text-form headers, in the order they are written, and the SNOP field each one holds.
HEADERS = {
    "PROBLEM TYPE": "problem_type",
    "PROBLEM INFO": "problem_info",
    "INPUT FORMAT": "input_format",
    "OBJECTIVE": "objective",
    "OUTPUT INFO": "output_info",
    "OUTPUT FORMAT": "output_format",
    "SOLVER": "solver",
    "NEGOTIABLE": "negotiable",
    "NAME": "name",
    "SOURCE": "source",
    "NOTES": "notes",
    "EXTENSIONS": "extensions",
}
_LIST_FIELDS = ("problem_info", "output_info", "negotiable")
_HEADER_LINE = re.compile(rf"^({'|'.join(HEADERS)}):(.*)$", re.MULTILINE)


@cache
def schema(name: str = "snop") -> dict:
    # Package data, so an installed wheel has them too (snop_schemas/ in the repo links here for people).
    return json.loads(resources.files("optimus.core.schemas").joinpath(f"{name}.schema.json").read_text())


@cache
def _fast(name: str):
    import jsonschema_rs

    return jsonschema_rs.Draft202012Validator(schema(name))


def schema_errors(value: Any, name: str = "snop") -> list[jsonschema.ValidationError]:
    """The schema's errors for `value`, as jsonschema words them (with the path of the field). A valid value is
    passed by jsonschema-rs, compiled and quick to load; jsonschema (~60 ms to import, a third of a solve's
    start-up) is loaded only to explain a value that is not valid."""
    if _fast(name).is_valid(value):
        return []
    import jsonschema

    return list(jsonschema.Draft202012Validator(schema(name)).iter_errors(value))


@dataclass
class Snop:
    problem_type: str
    problem_info: list[str]
    input_format: str
    objective: str
    output_info: list[str]
    output_format: str
    solver: str = "ANY"
    name: str | None = None
    source: str | None = None
    notes: str | None = None
    extensions: dict[str, Any] = field(default_factory=dict)
    negotiable: list[str] | None = None  # what `optimus repair` may change: statement ids, \param{…} names

    def to_dict(self) -> dict[str, Any]:
        """The snop.json form: optional fields only when set, x-… extensions at the top level."""
        out = {k: v for k, v in asdict(self).items() if k != "extensions" and v is not None}
        out.update(self.extensions)
        return out

    @classmethod
    def from_dict(cls, raw: Any, file: str | Path = "snop.json") -> Snop:
        """Validate against snop.schema.json and normalise. Errors name the file and the field."""
        if not isinstance(raw, dict):
            raise SpecError(file, "$", f"expected a JSON object, found {type(raw).__name__}")
        raw = {k: (v if k.startswith("x-") else _strip(v)) for k, v in raw.items()}
        errors = sorted(schema_errors(raw), key=lambda e: list(e.path))
        if errors:
            raise SpecError(file, _where(errors[0]), _message(errors[0]))
        snop = cls(
            **{k: v for k, v in raw.items() if not k.startswith("x-")},
            extensions={k: v for k, v in raw.items() if k.startswith("x-")},
        )
        snop.problem_type = _TYPE_ALIASES.get(snop.problem_type, snop.problem_type)
        _check_text_form_safe(snop, file)
        return snop


def _strip(value: Any) -> Any:
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, list):
        return [v.strip() if isinstance(v, str) else v for v in value]
    return value


def _where(error: jsonschema.ValidationError) -> str:
    if error.validator == "required":
        return "$"
    if error.validator == "additionalProperties":
        return "$"
    return "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.path)


def _message(error: jsonschema.ValidationError) -> str:
    if error.validator == "required":
        missing = [r for r in error.validator_value if r not in error.instance]
        return f"missing required field {missing[0]!r}"
    if error.validator == "additionalProperties":
        extra = sorted(set(error.instance) - set(schema()["properties"]))
        extra = [k for k in extra if not k.startswith("x-")]
        return f"unknown field {extra[0]!r} (extensions must be named 'x-…')"
    if error.validator == "enum":
        return f"{error.instance!r} is not one of {', '.join(map(str, error.validator_value))}"
    if error.validator == "minItems":
        return "must hold at least one statement"
    if error.validator == "minLength":
        return "must not be empty"
    if error.validator == "pattern":
        return "must be one line of text (no line breaks)"
    if error.validator == "type":
        return f"expected {error.validator_value}, found {type(error.instance).__name__}"
    return error.message


def _check_text_form_safe(snop: Snop, file: str | Path) -> None:
    """A line starting with a header would be read as a new section in description.txt."""
    for name in ("input_format", "objective", "output_format", "notes"):
        text = getattr(snop, name) or ""
        match = _HEADER_LINE.search(text)
        if match:
            raise SpecError(file, name, f"a line starts with {match.group(1) + ':'!r}, which reads as a header")


_EXPLICIT_SENSE = re.compile(r"\b(minimi[sz]|maximi[sz])", re.IGNORECASE)
_LOOSE_MAX = re.compile(
    r"\b(maximum|maximal|largest|highest|greatest|biggest|most)\b|\bmax\b", re.IGNORECASE)
_LOOSE_MIN = re.compile(
    r"\b(minimum|minimal|smallest|lowest|least|fewest|cheapest|shortest)\b|\bmin\b", re.IGNORECASE)
# Limits, not goals: "at most 5 trucks" says nothing of the sense.
_LIMIT_PHRASE = re.compile(r"\bat (most|least)\b|\bno (more|less|fewer) than\b", re.IGNORECASE)


def objective_sense(objective: str, loose: bool = False) -> str | None:
    """"min" or "max" when the objective's wording says so (minimize / maximize), else None. `loose` also
    reads words like "largest", "cheapest" or "most profitable" — fine for importing, too weak to flag a model
    as wrong."""
    words = {m.lower()[:3] for m in _EXPLICIT_SENSE.findall(objective)}
    if len(words) == 1:
        return words.pop()
    if loose and not words:
        goal = _LIMIT_PHRASE.sub(" ", objective)
        found = {"max"} if _LOOSE_MAX.search(goal) else set()
        found |= {"min"} if _LOOSE_MIN.search(goal) else set()
        if len(found) == 1:
            return found.pop()
    return None


def snop_sense(snop: Snop) -> str | None:
    """The sense read from the whole SNOP: the objective (loosely), else the one explicit minimize/maximize
    of the statements and output info. None when still unclear."""
    found = objective_sense(snop.objective, loose=True)
    if found is None:
        found = objective_sense(" ".join([*snop.problem_info, *snop.output_info]))
    return found


# ---- the plain-text form -------------------------------------------------------------------------


def parse_text(text: str, file: str | Path = "description.txt") -> Snop:
    """Read the NLP4LP plain-text form into a Snop (validated like snop.json)."""
    matches = list(_HEADER_LINE.finditer(text))
    if not matches:
        raise SpecError(file, "", "no section headers found (expected 'PROBLEM TYPE:', 'PROBLEM INFO:', …)")
    if text[: matches[0].start()].strip():
        raise SpecError(file, "line 1", "text before the first header 'PROBLEM TYPE:'")
    raw: dict[str, Any] = {}
    for match, nxt in zip(matches, matches[1:] + [None]):
        header, name = match.group(1), HEADERS[match.group(1)]
        body = text[match.start(2) : nxt.start() if nxt else len(text)].strip()
        if name in raw:
            raise SpecError(file, header, "the header appears twice")
        if name in _LIST_FIELDS:
            raw[name] = _bullets(body)
        elif name == "extensions":
            raw.update(_extensions(body, file))
        else:
            raw[name] = body
    return Snop.from_dict(raw, file)


def _bullets(body: str) -> list[str]:
    """`- ` lines are items; other non-blank lines continue the item above (wrapped text)."""
    items: list[str] = []
    for line in body.split("\n"):
        stripped = line.strip()
        if stripped.startswith("- ") or stripped == "-":
            items.append(stripped[2:].strip())
        elif stripped and items:
            items[-1] = f"{items[-1]} {stripped}"
        elif stripped:
            items.append(stripped)
    return items


def _extensions(body: str, file: str | Path) -> dict[str, Any]:
    try:
        value = json.loads(body)
    except json.JSONDecodeError as exc:
        raise SpecError(file, "EXTENSIONS", f"expected a JSON object: {exc.msg}") from None
    if not isinstance(value, dict) or not all(k.startswith("x-") for k in value):
        raise SpecError(file, "EXTENSIONS", "expected a JSON object whose keys start with 'x-'")
    return value


def render_text(snop: Snop) -> str:
    """Write the plain-text form; parse_text(render_text(s)) == s for every valid Snop."""
    parts = [f"PROBLEM TYPE: {snop.problem_type}", "PROBLEM INFO:\n\n" + _list_text(snop.problem_info)]
    parts.append(f"INPUT FORMAT:\n\n{snop.input_format}")
    parts.append(f"OBJECTIVE:{_inline(snop.objective)}")
    parts.append("OUTPUT INFO:\n\n" + _list_text(snop.output_info))
    parts.append(f"OUTPUT FORMAT:\n\n{snop.output_format}")
    if snop.solver != "ANY":
        parts.append(f"SOLVER: {snop.solver}")
    if snop.negotiable is not None:
        parts.append("NEGOTIABLE:\n\n" + _list_text(snop.negotiable))
    for header, name in (("NAME", "name"), ("SOURCE", "source"), ("NOTES", "notes")):
        value = getattr(snop, name)
        if value is not None:
            parts.append(f"{header}:{_inline(value)}")
    if snop.extensions:
        parts.append("EXTENSIONS:\n\n" + json.dumps(snop.extensions, indent=2, sort_keys=True))
    return "\n\n".join(p.rstrip() for p in parts) + "\n"


def _list_text(items: list[str]) -> str:
    return "\n".join(f"- {item}" for item in items)


def _inline(value: str) -> str:
    return f" {value}" if "\n" not in value else f"\n\n{value}"


# ---- files ---------------------------------------------------------------------------------------


def load_snop(path: Path) -> Snop:
    """Load either form, chosen by the file name's suffix (.json, otherwise text)."""
    if path.suffix == ".json":
        return Snop.from_dict(read_json(path), path)
    return parse_text(read_text(path), path)


def dump_snop(snop: Snop, form: str) -> str:
    """`form` is "json" or "text"."""
    if form == "json":
        return json.dumps(snop.to_dict(), indent=2, ensure_ascii=False) + "\n"
    return render_text(snop)


def marked(text: str, kind: str) -> list[str]:
    """Contents of every `\\kind{…}` in text, nested braces included."""
    found, start = [], 0
    while (pos := text.find(f"\\{kind}{{", start)) != -1:
        depth, i = 0, pos + len(kind) + 1
        for i in range(pos + len(kind) + 1, len(text)):
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            if depth == 0:
                break
        found.append(text[pos + len(kind) + 2 : i].strip())
        start = i + 1
    return found


def param_candidates(param: str) -> list[str]:
    """The names a \\param{…} may go by in data.json: `cost_{i,j}` → cost; `w_k` → w_k, then w."""
    base = re.sub(r"_\{.*\}$", "", param).strip()
    return [base, re.sub(r"_\w+$", "", base)]
