"""`optimus import-nlp4lp SRC DEST`: the public NLP4LP v0.1 layout → problem folders.

Source layout: <source>/<problem>/ with description.txt, data.json, obj.txt, test-human.py, output.json.
Each becomes DEST/<source>--<problem>/ with description.txt, data.json, expected.json (from obj.txt: the value,
its written precision as abs_tol, the sense read from the whole SNOP or null; without obj.txt "objective": null,
so the problem is judged by its tests and status), tests/test_human.py (the run()-style test, run by the harness
as one failure per error string) and reference/output.json. What could not be mapped is reported, never guessed
silently.
"""

from __future__ import annotations

import re
import shutil
from dataclasses import asdict, dataclass, field
from pathlib import Path

from optimus.core.errors import SpecError
from optimus.core.files import read_json, read_text, write_json
from optimus.core.snop import parse_text, render_text, snop_sense
from optimus.core.validate import loose_key, validate

_NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
_LABEL = re.compile(r"^\s*[A-Za-z][A-Za-z _-]*\s*[:=]")  # `OBJ:`, `Objective value =`, `optimal:`
_THOUSANDS = re.compile(r"[-+]?\d{1,3}(?:,\d{3})+(?:\.\d+)?")
_STATUS_WORDS = ("infeasible", "unbounded")  # obj.txt words that are expected.json statuses


@dataclass
class Imported:
    source: str
    dest: str
    mapped: list[str] = field(default_factory=list)  # changes made to fit our checks, each said
    unmapped: list[str] = field(default_factory=list)  # what could not be carried over
    findings: list[str] = field(default_factory=list)  # optimus validate, after import


@dataclass
class Label:
    """What obj.txt says: the value (None when it gives none), the precision it is written with, the status."""

    objective: float | None
    abs_tol: float | None = None
    status: str = "optimal"
    note: str | None = None  # what was read loosely or not at all, for the import report


def read_obj(text: str) -> Label:
    """obj.txt → Label. Reads `OBJ: 78.64`, ` OBJ:1.0e+03`, `Objective value = 12`, a bare number, `1,234.5`,
    a tuple (first element taken, said in the note), and the words infeasible / unbounded."""
    body = _LABEL.sub("", text.strip(), count=1).strip()
    if _THOUSANDS.fullmatch(body):
        token = body.replace(",", "")
        return Label(float(token), written_precision(token), note=f"obj.txt {body!r} read as {token}")
    numbers = re.findall(_NUMBER, body)
    if not numbers:
        for status in _STATUS_WORDS:
            if status in body.lower():
                return Label(None, status=status)
        return Label(None, note=f"obj.txt holds no number: {text.strip()[:40]!r}")
    note = None
    if len(numbers) > 1 or body.startswith(("(", "[")):
        note = f"obj.txt holds several numbers {body[:40]!r}; took the first"
    return Label(float(numbers[0]), written_precision(numbers[0]), note=note)


def written_precision(token: str) -> float | None:
    """Half a unit of the last digit written: `0.333` → 0.0005, `1.0e+03` → 50. None for an integer written
    without a point or exponent (`15`): it is as likely exact as rounded, and the relative tolerance covers it."""
    mantissa, _, exponent = token.lower().lstrip("+-").partition("e")
    if "." not in mantissa and not exponent:
        return None
    decimals = len(mantissa.split(".", 1)[1]) if "." in mantissa else 0
    return 0.5 * 10.0 ** (int(exponent or 0) - decimals)


def import_problem(src: Path, dest: Path) -> Imported:
    result = Imported(str(src), str(dest))
    snop = parse_text(read_text(src / "description.txt"), src / "description.txt")
    data_path = src / "data.json"
    data = read_json(data_path) if data_path.exists() else None
    dest.mkdir(parents=True, exist_ok=True)
    if data is None:
        result.unmapped.append("no data.json")
    elif isinstance(data, dict):
        snop.input_format = _match_keys(snop.input_format, data, result)
        shutil.copy(data_path, dest / "data.json")
    (dest / "description.txt").write_text(render_text(snop))

    obj_path = src / "obj.txt"
    if obj_path.exists():
        label = read_obj(obj_path.read_text(errors="replace"))
    else:
        label = Label(None, note="no obj.txt: expected.json says objective null (judged by tests and status)")
    if label.note:
        (result.mapped if label.objective is not None else result.unmapped).append(label.note)
    sense = snop_sense(snop)
    if sense is None and label.status == "optimal":
        result.unmapped.append(f"objective sense unclear from {snop.objective[:60]!r}: expected.json says sense null")
    expected = {"objective": label.objective, "sense": sense, "status": label.status}
    if label.abs_tol is not None:
        expected["abs_tol"] = label.abs_tol
    write_json(dest / "expected.json", expected)
    if (src / "test-human.py").exists():
        (dest / "tests").mkdir(exist_ok=True)
        shutil.copy(src / "test-human.py", dest / "tests" / "test_human.py")
    else:
        result.unmapped.append("no test-human.py: no supervised test")
    if (src / "output.json").exists():
        (dest / "reference").mkdir(exist_ok=True)
        shutil.copy(src / "output.json", dest / "reference" / "output.json")
    result.findings = [str(f) for f in validate(dest)]
    return result


def _match_keys(input_format: str, data: dict, result: Imported) -> str:
    """A key of input_format missing from data.json but equal to one of its keys up to case and
    punctuation (officers_needed ~ OfficersNeeded) is renamed to the data's key, and the change reported."""
    loose = {loose_key(k): k for k in data}
    for key in re.findall(r'"([^"\n]+)"\s*:', input_format):
        if key in data:
            continue
        match = loose.get(loose_key(key))
        if match:
            input_format = input_format.replace(f'"{key}"', f'"{match}"')
            result.mapped.append(f"input_format key {key!r} → data.json key {match!r}")
    return input_format


def import_tree(src: Path, dest: Path) -> list[Imported]:
    if not src.is_dir():
        raise SpecError(src, "", "expected the NLP4LP folder (holding <source>/<problem>/description.txt)")
    folders = sorted(p.parent for p in src.rglob("description.txt"))
    if not folders:
        raise SpecError(src, "", "no <source>/<problem>/description.txt below this folder")
    results = []
    for folder in folders:
        rel = folder.relative_to(src)
        name = "--".join(rel.parts) if rel.parts else folder.name
        try:
            results.append(import_problem(folder, dest / name))
        except SpecError as exc:
            results.append(Imported(str(folder), str(dest / name), unmapped=[f"not imported: {exc}"]))
    write_json(dest / "import-report.json", [asdict(r) for r in results])
    return results
