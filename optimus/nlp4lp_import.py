"""`optimus import-nlp4lp SRC DEST`: the public NLP4LP v0.1 layout → problem folders.

Source layout: <source>/<problem>/ with description.txt, data.json, obj.txt, test-human.py, output.json.
Each becomes DEST/<source>--<problem>/ with description.txt, data.json, expected.json (from obj.txt),
tests/test_human.py (the run()-style test, run by the harness as one failure per error string) and
reference/output.json. What could not be mapped is reported, never guessed silently.
"""

from __future__ import annotations

import json
import re
import shutil
from dataclasses import asdict, dataclass, field
from pathlib import Path

from optimus.errors import SpecError
from optimus.files import read_text, write_json
from optimus.snop import objective_sense, parse_text, render_text
from optimus.validate import loose_key, validate

_NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"


@dataclass
class Imported:
    source: str
    dest: str
    mapped: list[str] = field(default_factory=list)  # changes made to fit our checks, each said
    unmapped: list[str] = field(default_factory=list)  # what could not be carried over
    findings: list[str] = field(default_factory=list)  # optimus validate, after import


def parse_obj(text: str) -> tuple[float | None, str | None]:
    """obj.txt → (objective, note). Handles `OBJ: 78.64`, ` OBJ:1.0e+03`, a bare number, and a tuple
    (first element taken, said in the note)."""
    body = re.sub(r"^\s*OBJ\s*:", "", text.strip(), flags=re.IGNORECASE).strip()
    numbers = re.findall(_NUMBER, body)
    if not numbers:
        return None, f"obj.txt holds no number: {text.strip()[:40]!r}"
    if len(numbers) > 1 or body.startswith(("(", "[")):
        return float(numbers[0]), f"obj.txt holds several numbers {body[:40]!r}; took the first"
    return float(numbers[0]), None


def import_problem(src: Path, dest: Path) -> Imported:
    result = Imported(str(src), str(dest))
    dest.mkdir(parents=True, exist_ok=True)
    snop = parse_text(read_text(src / "description.txt"), src / "description.txt")
    data_path = src / "data.json"
    data = json.loads(read_text(data_path)) if data_path.exists() else None
    if data is None:
        result.unmapped.append("no data.json")
    elif isinstance(data, dict):
        snop.input_format = _match_keys(snop.input_format, data, result)
        shutil.copy(data_path, dest / "data.json")
    (dest / "description.txt").write_text(render_text(snop))

    obj_path = src / "obj.txt"
    if not obj_path.exists():
        result.unmapped.append("no obj.txt: no expected.json written")
    else:
        objective, note = parse_obj(obj_path.read_text(errors="replace"))
        if note:
            (result.mapped if objective is not None else result.unmapped).append(note)
        sense = objective_sense(snop.objective, loose=True)
        if objective is not None and sense is None:
            result.unmapped.append(f"objective sense unclear from {snop.objective[:60]!r}: no expected.json written")
        elif objective is not None:
            write_json(dest / "expected.json", {"objective": objective, "sense": sense, "status": "optimal"})
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
