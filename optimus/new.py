"""`optimus new`: a free-text request with inline numbers → a problem folder (snop.json + data.json).

One model call writes the SNOP and the data; the harness, not the model, checks the result: every number the
request writes appears in data.json (or in a statement, as a constant), every number in the model's data.json
appears in the request (or counts a list), each \\param names a data key, and the folder validates. A failed
check goes back to the model once with the findings; a second failure refuses the request with the list.

Data files (--data costs.csv, --data table.json) are read by code: each CSV column becomes a top-level list in
data.json, a JSON file's object its keys. The prompt sees their column names, row counts and types only.
"""

from __future__ import annotations

import csv
import json
import math
import re
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from optimus.datasummary import describe
from optimus.errors import ConfigError, OptimusError, SpecError
from optimus.llm import LLMClient
from optimus.prompts import messages, render
from optimus.snop import Snop
from optimus.validate import marked, param_candidates, validate

# Numbers the check ignores: digits glued to a letter or underscore before them (statement ids s4, names x2,
# CO2) and ordinals (1st, 2nd, 3rd, 4th). Everything else written in digits is a number the user gave.
_NUMBER = re.compile(r"(?<![\w.])(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?!\d)(st|nd|rd|th\b)?(\s*%|\s*percent)?")
_JSON_FENCE = re.compile(r"```(?:json)?\s*\n(.*?)```", re.DOTALL)
REL_TOL = 1e-9


class RequestRefused(OptimusError):
    """The model's folder does not hold the request's numbers (or holds others): nothing is written."""

    exit_code = 1


@dataclass
class Draft:
    """What the model answered, with the data files merged in by the harness."""

    snop: dict[str, Any]
    data: dict[str, Any]
    from_files: set[str] = field(default_factory=set)  # data keys read from --data files, not written by the model


# ---- the request's numbers ------------------------------------------------------------------------


@dataclass(frozen=True)
class Written:
    """A number as the request writes it; `percent` when followed by % or 'percent'."""

    text: str
    value: float
    percent: bool


def numbers_in(text: str) -> list[Written]:
    found = []
    for m in _NUMBER.finditer(text):
        if m.group(3):  # an ordinal: 2nd
            continue
        digits = m.group(1).replace(",", "") + (m.group(2) or "")
        found.append(Written(m.group(0).strip(), float(digits), bool(m.group(4))))
    return found


def flat_numbers(value: Any) -> list[float]:
    if isinstance(value, bool):
        return []
    if isinstance(value, (int, float)):
        return [float(value)]
    if isinstance(value, list):
        return [x for v in value for x in flat_numbers(v)]
    if isinstance(value, dict):
        return [x for v in value.values() for x in flat_numbers(v)]
    return []


def list_lengths(value: Any) -> set[float]:
    if isinstance(value, list):
        return {float(len(value))} | {n for v in value for n in list_lengths(v)}
    if isinstance(value, dict):
        return {n for v in value.values() for n in list_lengths(v)}
    return set()


def _close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=REL_TOL, abs_tol=1e-12)


def check_numbers(request: str, draft: Draft) -> list[str]:
    """Missing: a number of the request found neither in data.json nor in a statement. Invented: a number of
    the model's own data.json (not the files') that the request never writes and that counts no list."""
    written = numbers_in(request)
    data_values = flat_numbers(draft.data)
    model_values = flat_numbers({k: v for k, v in draft.data.items() if k not in draft.from_files})
    texts = " ".join([*draft.snop.get("problem_info", []), str(draft.snop.get("objective", ""))])
    stated = [w.value for w in numbers_in(texts)]
    problems = []
    missing = [w.text for w in written
               if not any(_close(v, w.value) or (w.percent and _close(v, w.value / 100)) for v in data_values)
               and not any(_close(s, w.value) for s in stated)]
    if missing:
        problems.append("numbers of the request missing from data.json and from the statements: "
                        + ", ".join(dict.fromkeys(missing)))
    counts = list_lengths(draft.data)
    allowed = [w.value for w in written] + [w.value / 100 for w in written if w.percent]
    invented = [v for v in model_values if not any(_close(v, a) for a in allowed) and v not in counts]
    if invented:
        problems.append("numbers in data.json that the request never writes: "
                        + ", ".join(f"{v:g}" for v in dict.fromkeys(invented)))
    return problems


def check_params(draft: Draft) -> list[str]:
    """Each \\param{x} or \\param{x_{i}} must name a top-level key of data.json."""
    problems = []
    for i, statement in enumerate(draft.snop.get("problem_info", []), 1):
        for param in marked(statement, "param"):
            if not set(param_candidates(param)) & draft.data.keys():
                problems.append(f"(s{i}) \\param{{{param}}} names no key of data.json (keys: "
                                + ", ".join(draft.data) + ")")
    return problems


# ---- data files -----------------------------------------------------------------------------------


def read_data_file(path: Path) -> dict[str, Any]:
    """A CSV (header row, one column per key) or a JSON object, read by code: the values never meet a prompt."""
    if not path.is_file():
        raise SpecError(path, "", "no such data file")
    if path.suffix.lower() == ".json":
        try:
            value = json.loads(path.read_text(encoding="utf-8"))
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise SpecError(path, "", f"not JSON: {exc}") from None
        if not isinstance(value, dict):
            raise SpecError(path, "$", "expected a JSON object of named values")
        return value
    if path.suffix.lower() != ".csv":
        raise SpecError(path, "", "expected a .csv or .json data file")
    with path.open(newline="", encoding="utf-8") as fh:
        rows = list(csv.reader(fh))
    if not rows or not any(h.strip() for h in rows[0]):
        raise SpecError(path, "line 1", "expected a header row naming the columns")
    header = [h.strip() for h in rows[0]]
    if len(set(header)) != len(header) or not all(re.fullmatch(r"[A-Za-z_]\w*", h) for h in header):
        raise SpecError(path, "line 1", f"column names must be distinct identifiers, seen {header}")
    columns: dict[str, list] = {h: [] for h in header}
    for n, row in enumerate(rows[1:], 2):
        if not any(cell.strip() for cell in row):
            continue
        if len(row) != len(header):
            raise SpecError(path, f"line {n}", f"expected {len(header)} fields, seen {len(row)}")
        for name, cell in zip(header, row):
            columns[name].append(_cell(cell.strip()))
    return columns


def _cell(text: str) -> Any:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def describe_files(files: dict[Path, dict[str, Any]]) -> str:
    """Names, row counts and types: what the prompt may know about the files."""
    if not files:
        return "(none)"
    lines = []
    for path, columns in files.items():
        kind = "CSV" if path.suffix.lower() == ".csv" else "JSON"
        lines.append(f"- {path.name} ({kind}): " + "; ".join(f'"{k}": {describe(v)}' for k, v in columns.items()))
    return "\n".join(lines)


# ---- the model call -------------------------------------------------------------------------------


def parse_answer(text: str) -> tuple[dict, dict]:
    match = _JSON_FENCE.search(text)
    body = match.group(1) if match else text[text.find("{"): text.rfind("}") + 1]
    try:
        value = json.loads(body)
    except json.JSONDecodeError as exc:
        raise ValueError(f"the answer is not one JSON object: {exc.msg} (line {exc.lineno})") from None
    if not (isinstance(value, dict) and isinstance(value.get("snop"), dict) and isinstance(value.get("data"), dict)):
        raise ValueError('expected a JSON object with an object "snop" and an object "data"')  # noqa: TRY004
    return value["snop"], value["data"]


def draft_problems(request: str, draft: Draft, staging: Path) -> list[str]:
    """Everything wrong with a draft, checked by the harness; writes it into `staging` to validate it there."""
    try:
        Snop.from_dict(draft.snop, "snop.json")
    except SpecError as exc:
        return [f"the SNOP does not validate: {exc}"]
    problems = check_params(draft) + check_numbers(request, draft)
    write_folder(staging, draft)
    problems += [f"{f.where or f.file}: {f.message}" for f in validate(staging) if f.level == "error"]
    return problems


def draft_from_model(client: LLMClient, request: str, files: dict[Path, dict[str, Any]], staging: Path) -> Draft:
    """One call, plus one repair call carrying the findings when the harness's checks fail."""
    prompt = render("new", request=request.strip(), data_files=describe_files(files))
    convo = messages(prompt)
    from_files = {k for columns in files.values() for k in columns}
    problems: list[str] = []
    for _ in range(2):
        answer = client.chat("new", convo, prompt.name, prompt.template_hash).text
        try:
            snop, data = parse_answer(answer)
            clash = sorted(from_files & data.keys())
            if clash:
                raise ValueError(f"data repeats keys the data files supply: {', '.join(clash)}")
            draft = Draft(snop, {**data, **{k: v for cols in files.values() for k, v in cols.items()}}, from_files)
            problems = draft_problems(request, draft, staging)
        except ValueError as exc:
            problems = [str(exc)]
        if not problems:
            return draft
        convo = convo + [{"role": "assistant", "content": answer},
                         {"role": "user", "content": "The harness checked your answer and found:\n"
                          + "\n".join(f"- {p}" for p in problems) + "\nAnswer again with the whole corrected "
                          "JSON object."}]
    raise RequestRefused("the request was refused: the model's problem folder failed the harness's checks "
                         "twice:\n" + "\n".join(f"  - {p}" for p in problems))


# ---- the folder -----------------------------------------------------------------------------------


def write_folder(dest: Path, draft: Draft) -> None:
    dest.mkdir(parents=True, exist_ok=True)
    snop = Snop.from_dict(draft.snop, dest / "snop.json")
    (dest / "snop.json").write_text(json.dumps(snop.to_dict(), indent=2, ensure_ascii=False) + "\n")
    (dest / "data.json").write_text(json.dumps(draft.data, indent=1) + "\n")


def check_dest(dest: Path, force: bool) -> None:
    if dest.exists() and not dest.is_dir():
        raise SpecError(dest, "", "exists and is not a folder")
    if dest.is_dir() and any(dest.iterdir()) and not force:
        raise SpecError(dest, "", "the folder exists and is not empty; pass --force to write over it")


def read_request(source: str, stdin_text: str | None = None) -> str:
    if source == "-":
        text = stdin_text or ""
        where: Path | str = "<stdin>"
    else:
        where = Path(source)
        if not where.is_file():
            raise SpecError(where, "", "no such request file")
        text = where.read_text(encoding="utf-8")
    if not text.strip():
        raise SpecError(where, "", "the request is empty")
    return text


def create(dest: Path, request: str, client: LLMClient, data_files: list[Path], force: bool = False) -> Draft:
    """Check, ask, check again, then write DEST (snop.json, data.json, new/request.txt)."""
    check_dest(dest, force)
    files = {p: read_data_file(p) for p in data_files}
    keys: dict[str, Path] = {}
    for path, columns in files.items():
        for key in columns:
            if key in keys:
                raise SpecError(path, key, f"the key is also in {keys[key]}; rename one of them")
            keys[key] = path
    with tempfile.TemporaryDirectory(prefix="optimus-new-") as tmp:
        draft = draft_from_model(client, request, files, Path(tmp) / "draft")
    if dest.is_dir() and force:
        for name in ("snop.json", "description.txt", "data.json"):
            (dest / name).unlink(missing_ok=True)
    write_folder(dest, draft)
    (dest / "new").mkdir(exist_ok=True)
    (dest / "new" / "request.txt").write_text(request)
    return draft


def show(draft: Draft) -> str:
    """The statements and a table of parameters with their values, for the user to confirm."""
    lines = ["Statements:"]
    lines += [f"  (s{i}) {s}" for i, s in enumerate(draft.snop["problem_info"], 1)]
    lines.append(f"Objective: {draft.snop['objective']}")
    lines.append("Parameters:")
    width = max((len(k) for k in draft.data), default=4)
    for key, value in draft.data.items():
        where = " (from a data file)" if key in draft.from_files else ""
        lines.append(f"  {key:<{width}}  {_short(value)}{where}")
    return "\n".join(lines)


def _short(value: Any, limit: int = 8) -> str:
    if isinstance(value, list) and len(value) > limit:
        return f"[{', '.join(json.dumps(v) for v in value[:limit])}, … ] ({len(value)} items)"
    text = json.dumps(value)
    return text if len(text) <= 100 else text[:97] + "…"


def make_client(args: Any, request_source: str, transcript: Path | None) -> LLMClient:
    """The model for `new`: the reference backend answers from <request's folder>/reference/new.json."""
    from optimus.llm import LLMConfig, LLMLog

    if args.llm == "reference":
        from optimus.llm.reference import RequestReference

        if request_source == "-":
            raise ConfigError("--llm reference answers from the request file's folder (reference/new.json); "
                              "pass --from FILE, not standard input")
        backend: Any = RequestReference(Path(request_source).parent)
    else:
        from optimus.llm.openai_backend import OpenAIBackend

        backend = OpenAIBackend(LLMConfig.from_env(model=args.model, base_url=args.base_url,
                                                   temperature=args.temperature, max_tokens=args.max_tokens).require())
    return LLMClient(backend, log=LLMLog() if backend.cacheable else None, transcript=transcript,
                     use_cache=not getattr(args, "no_cache", False))


def run_new(args: Any) -> int:
    """The CLI command: prints the statements and the parameter table; exit 0 written, 1 refused."""
    import sys

    request = read_request(args.source, sys.stdin.read() if args.source == "-" else None)
    check_dest(args.dir, args.force)
    transcript = Path(tempfile.mkdtemp(prefix="optimus-new-log-")) / "transcript.jsonl"
    client = make_client(args, args.source, transcript)
    draft = create(args.dir, request, client, list(args.data or []), force=args.force)
    if transcript.is_file():
        shutil.copy(transcript, args.dir / "new" / "transcript.jsonl")
    print(show(draft))
    print(f"wrote {args.dir}/snop.json and data.json; check the statements and values above, then "
          f"`optimus solve {args.dir}`", file=sys.stderr)
    return 0
