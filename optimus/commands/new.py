"""`optimus new`: a free-text request with inline numbers → a problem folder (snop.json + data.json).

One model call writes the SNOP, the data and the assumptions it made (each tied to the statement or data key it
affects). The harness checks the answer: each \\param names a data key and the folder validates — what fails goes
back to the model, and only when no answer validates is the request refused. The number check (optimus.core.numbers:
every number the request writes reaches data.json or a statement, every number of the model's data.json is
written in the request, counts a list or is an assumption's) is a guess: its findings go back to the model once,
then to the user, with the assumptions first, to confirm (at the terminal, or --yes). Nothing is written without
that; new.json keeps what was confirmed, and every later report shows it.

Data files: a JSON file's object is read by code into data.json; tables (--data costs.csv, --data x.parquet, or
a folder of them) stay tables, copied into the folder's data/ and read by the program through DuckDB. The prompt
sees their column names, row counts and types only, and a request's number found in a table is the user's data.
data/README.md says what each table and column means (optimus.core.tabledocs): the user's own when a --data folder
holds one, else a section per table with the model's words ("tables" in its answer) or a placeholder to fill.
"""

from __future__ import annotations

import json
import re
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from optimus.core.assumptions import (  # NEW_JSON: what the user confirmed; reports show it
    NEW_JSON,
    empty_data,
)
from optimus.core.datasummary import describe
from optimus.core.errors import ConfigError, OptimusError, SpecError
from optimus.core.llm import LLMClient
from optimus.core.numbers import Held, close, derived, list_lengths, numbers_in, numbers_with_paths, source_of
from optimus.core.prompts import messages, render
from optimus.core.runstore import FOLDER_GITIGNORE
from optimus.core.snop import Snop, marked, param_candidates
from optimus.core.tabledocs import readme_in, skeleton
from optimus.core.tables import (
    column_names,
    columns_of,
    describe_inputs,
    holds_number,
    is_table_input,
    place,
    table_inputs,
)
from optimus.core.validate import validate

_JSON_FENCE = re.compile(r"```(?:json)?\s*\n(.*?)```", re.DOTALL)
MAX_ANSWERS = 3  # the first answer and two repairs: a folder that still does not validate is refused
CONTEXT_CHARS = 30  # the request's words shown around a number nothing holds


class RequestRefused(OptimusError):
    """No answer of the model's made a folder that validates: nothing is written."""

    exit_code = 1


class NotConfirmed(OptimusError):
    """The user did not confirm the assumptions and findings (or could not be asked): nothing is written."""

    exit_code = 1


@dataclass
class Draft:
    """What the model answered, with the data files merged in by the harness."""

    snop: dict[str, Any]
    data: dict[str, Any]
    from_files: set[str] = field(default_factory=set)  # data keys read from --data files, not written by the model
    assumptions: list[dict[str, Any]] = field(default_factory=list)  # the model's, each tied to what it affects
    findings: list[dict[str, Any]] = field(default_factory=list)  # the harness's number check, for the user
    tables: list[Path] = field(default_factory=list)  # --data tables, copied into data/ as they are
    columns: set[str] = field(default_factory=set)  # their column names (a \param may name one)
    table_words: dict[str, Any] = field(default_factory=dict)  # the model's words on each table, for data/README.md
    readme: Path | None = None  # the user's own data/README.md, from a --data folder


# ---- the request's numbers ------------------------------------------------------------------------


def check_numbers(request: str, draft: Draft) -> list[dict[str, Any]]:
    """Findings for the user, never a refusal: a number of the request that neither data.json nor a statement
    holds ("not in the folder"), and a number of the model's own data.json (not the files') that the request
    never writes, counts no list and no assumption explains ("not in the request")."""
    written = numbers_in(request)
    extra = derived(written)
    data_values = Held([v for _, v in numbers_with_paths(draft.data)])
    texts = " ".join([*draft.snop.get("problem_info", []), str(draft.snop.get("objective", ""))])
    counts = list_lengths(draft.data)
    # held somewhere: in data.json, in a statement, or as a list's length (a count the request writes)
    elsewhere = Held([r for w in numbers_in(texts) for r in w.readings] + list(counts))
    used = {id(s) for d in extra if data_values.holds(d.value) for s in d.sources}
    findings = []
    for w in written:
        if w.kind == "index" or id(w) in used or any(data_values.holds(r) or elsewhere.holds(r) for r in w.readings):
            continue
        if draft.tables and any(holds_number(draft.tables, r) for r in w.readings):  # the user's own table
            continue
        around = " ".join(request[max(0, w.at - CONTEXT_CHARS): w.at + len(w.text) + CONTEXT_CHARS].split())
        where = f" (…{around}…)" if w.at >= 0 else " (written in words)"
        findings.append({"kind": "not in the folder", "number": w.text,
                         "message": f"the request's {w.text}{where} is in neither data.json nor a statement"})
    model_data = {k: v for k, v in draft.data.items() if k not in draft.from_files}
    invented: dict[str, list[str]] = {}
    for path, v in numbers_with_paths(model_data):
        if v in counts or source_of(v, written, extra) is not None or _explained(path, v, draft.assumptions):
            continue
        invented.setdefault(path.split("[")[0].split(".")[0], []).append(f"{path} = {v:g}")
    for key, places in invented.items():
        shown = ", ".join(places[:5]) + (f" and {len(places) - 5} more" if len(places) > 5 else "")
        findings.append({"kind": "not in the request", "key": key,
                         "message": f"data.json {shown}: the request never writes it and no assumption names it"})
    return findings


def _explained(path: str, value: float, assumptions: list[dict[str, Any]]) -> bool:
    """A value an assumption names: by its data key, or by the value it says it chose."""
    key = path.split("[")[0].split(".")[0]
    for a in assumptions:
        chosen = [v for _, v in numbers_with_paths(a.get("value"))]
        if a.get("about") in (key, path) or any(close(value, c) for c in chosen):
            return True
    return False


def check_params(draft: Draft) -> list[str]:
    """Each \\param{x} or \\param{x_{i}} must name a top-level key of data.json."""
    problems = []
    for i, statement in enumerate(draft.snop.get("problem_info", []), 1):
        for param in marked(statement, "param"):
            if not set(param_candidates(param)) & (draft.data.keys() | draft.columns):
                problems.append(f"(s{i}) \\param{{{param}}} names no key of data.json (keys: "
                                + ", ".join(draft.data) + ")")
    return problems


# ---- data files -----------------------------------------------------------------------------------


def read_data_file(path: Path) -> dict[str, Any]:
    """A JSON object, read by code: the values never meet a prompt."""
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
    raise SpecError(path, "", "expected a table (.csv, .parquet, or a folder of them) or a .json data file")


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


def parse_answer(text: str) -> tuple[dict, dict, list[dict], dict]:
    """The SNOP, the data, the assumptions and the words on each table of a fenced or bare JSON answer."""
    match = _JSON_FENCE.search(text)
    body = match.group(1) if match else text[text.find("{"): text.rfind("}") + 1]
    try:
        value = json.loads(body)
    except json.JSONDecodeError as exc:
        raise ValueError(f"the answer is not one JSON object: {exc.msg} (line {exc.lineno})") from None
    if not (isinstance(value, dict) and isinstance(value.get("snop"), dict) and isinstance(value.get("data"), dict)):
        raise ValueError('expected a JSON object with an object "snop" and an object "data"')  # noqa: TRY004
    assumptions = value.get("assumptions", [])
    if not isinstance(assumptions, list) or not all(
            isinstance(a, dict) and isinstance(a.get("about"), str) and isinstance(a.get("assumption"), str)
            and a["assumption"].strip() for a in assumptions):
        raise ValueError('"assumptions" must be a list of objects, each with "about" (the statement sN or the data '
                         'key it affects) and "assumption" (what you assumed), and "value" when you chose one')
    words = value.get("tables", {})
    return value["snop"], value["data"], assumptions, words if isinstance(words, dict) else {}


def draft_problems(draft: Draft, staging: Path) -> list[str]:
    """What makes a draft unusable, checked by the harness; writes it into `staging` to validate it there."""
    try:
        Snop.from_dict(draft.snop, "snop.json")
    except SpecError as exc:
        return [f"the SNOP does not validate: {exc}"]
    problems = check_params(draft)
    write_folder(staging, draft, link=True)
    problems += [f"{f.where or f.file}: {f.message}" for f in validate(staging) if f.level == "error"]
    return problems


def check_about(draft: Draft) -> list[dict[str, Any]]:
    """Each assumption names a statement (s1 … sN) or a data key, so the user sees what it affects; one that
    names neither is a finding, like the number check's (the folder itself is fine)."""
    names = {f"s{i}" for i in range(1, len(draft.snop.get("problem_info", [])) + 1)} | set(draft.data)
    return [{"kind": "about", "message": f'the assumption "{a["assumption"]}" is about {a["about"]!r}, which is no '
             f'statement (s1 … s{len(draft.snop.get("problem_info", []))}) and no key of data.json'}
            for a in draft.assumptions if a["about"].split("[")[0].split(".")[0] not in names]


def draft_from_model(client: LLMClient, request: str, files: dict[Path, dict[str, Any]], staging: Path,
                     tables: list[Path] = (), readme: Path | None = None) -> Draft:
    """Ask, check, and send what the checks found back, at most MAX_ANSWERS answers in all. A draft that does
    not validate is repaired or refused; numbers the check cannot trace go back once, and what remains is for
    the user to confirm (`Draft.findings`), never a refusal. `readme`: the user's data/README.md, whose words
    the prompt shows under each table's schema."""
    described = "\n".join(d for d in ((describe_files(files) if files else ""),
                                      describe_inputs(list(tables), readme)) if d)
    prompt = render("new", request=request.strip(), data_files=described or "(none)")
    convo = messages(prompt)
    from_files = {k for columns in files.values() for k in columns}
    usable: Draft | None = None
    asked_about_numbers = False
    for _ in range(MAX_ANSWERS):
        answer = client.chat("new", convo, prompt.name, prompt.template_hash).text
        try:
            snop, data, assumptions, words = parse_answer(answer)
            clash = sorted(from_files & data.keys())
            if clash:
                raise ValueError(f"data repeats keys the data files supply: {', '.join(clash)}")
            draft = Draft(snop, {**data, **{k: v for cols in files.values() for k, v in cols.items()}}, from_files,
                          assumptions, tables=list(tables), columns=columns_of(list(tables)) if tables else set(),
                          table_words=words, readme=readme)
            problems = draft_problems(draft, staging)
        except ValueError as exc:
            problems = [str(exc)]
        if not problems:
            usable = draft
            draft.findings = check_numbers(request, draft) + empty_findings(draft) + check_about(draft)
            if not draft.findings or asked_about_numbers:
                return draft
            asked_about_numbers = True
        findings = problems or [f["message"] for f in draft.findings]
        convo = convo + [{"role": "assistant", "content": answer}, {"role": "user", "content": feedback(findings, bool(problems))}]
    if usable is not None:
        return usable
    raise RequestRefused(f"the request was refused: none of the model's {MAX_ANSWERS} answers made a problem "
                         "folder that validates; the last one:\n" + "\n".join(f"  - {p}" for p in problems))


def feedback(findings: list[str], broken: bool) -> str:
    """The harness's findings, for the model's next answer."""
    head = "The harness checked your answer and found:\n" + "\n".join(f"- {f}" for f in findings)
    if broken:
        return head + "\nAnswer again with the whole corrected JSON object."
    return (head + "\nThese are the harness's guesses about where the numbers went, not errors. Where a finding "
            "shows a mistake, correct it; where your reading is right (a number converted, a value the request does "
            "not give), keep it and say so in \"assumptions\". Answer again with the whole JSON object.")


# ---- the folder -----------------------------------------------------------------------------------


def write_folder(dest: Path, draft: Draft, link: bool = False) -> None:
    dest.mkdir(parents=True, exist_ok=True)
    if draft.tables:
        place(draft.tables, dest, link)
        readme = dest / "data" / "README.md"
        readme.unlink(missing_ok=True)
        if draft.readme is not None:
            shutil.copyfile(draft.readme, readme)
        else:
            readme.write_text(skeleton({p.name: column_names(p) for p in draft.tables}, draft.table_words))
    snop = Snop.from_dict(draft.snop, dest / "snop.json")
    (dest / "snop.json").write_text(json.dumps(snop.to_dict(), indent=2, ensure_ascii=False) + "\n")
    (dest / "data.json").write_text(json.dumps(draft.data, indent=1) + "\n")
    if not (dest / ".gitignore").exists():
        (dest / ".gitignore").write_text(FOLDER_GITIGNORE)


def users_readme(data_files: list[Path]) -> Path | None:
    """The README.md a --data folder holds (what its tables mean, in the user's words), if one does."""
    return next((found for p in data_files if p.is_dir() and (found := readme_in(p)) is not None), None)


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


def create(dest: Path, request: str, client: LLMClient, data_files: list[Path], force: bool = False,
           confirm: Callable[[Draft], str] = lambda draft: "not asked (library call)") -> Draft:
    """Check, ask, check again; `confirm` (which raises NotConfirmed to stop) says how the user agreed; then
    write DEST: snop.json, data.json, new.json (the assumptions and findings confirmed) and new/request.txt."""
    check_dest(dest, force)
    tables = table_inputs([p for p in data_files if is_table_input(p)])
    files = {p: read_data_file(p) for p in data_files if not is_table_input(p)}
    keys: dict[str, Path] = {}
    for path, columns in files.items():
        for key in columns:
            if key in keys:
                raise SpecError(path, key, f"the key is also in {keys[key]}; rename one of them")
            keys[key] = path
    with tempfile.TemporaryDirectory(prefix="optimus-new-") as tmp:
        draft = draft_from_model(client, request, files, Path(tmp) / "draft", tables, users_readme(data_files))
    how = confirm(draft)
    if dest.is_dir() and force:
        for name in ("snop.json", "description.txt", "data.json", NEW_JSON):
            (dest / name).unlink(missing_ok=True)
    write_folder(dest, draft)
    (dest / "new").mkdir(exist_ok=True)
    (dest / "new" / "request.txt").write_text(request)
    record = {"request": "new/request.txt", "confirmed": how,
              "assumptions": [{**a, "source": "model"} for a in draft.assumptions],
              "findings": [{**f, "source": "harness check"} for f in draft.findings]}
    (dest / NEW_JSON).write_text(json.dumps(record, indent=2, ensure_ascii=False) + "\n")
    return draft


def to_confirm(draft: Draft) -> list[str]:
    """What the user must agree to, assumptions first: each the model's, tied to what it affects, then the
    number check's findings."""
    items = [f"assumption about {a['about']}: {a['assumption']}"
             + (f" (value chosen: {json.dumps(a['value'])})" if "value" in a else "")
             + (f" — the solve also tries {json.dumps(a['alternative'])}" if "alternative" in a else "")
             for a in draft.assumptions]
    label = {"empty": "empty data", "about": "unclear assumption"}
    return items + [f"{label.get(f['kind'], 'number check')}: {f['message']}" for f in draft.findings]


def empty_findings(draft: Draft) -> list[dict[str, Any]]:
    """Data the SNOP names but the model left empty: for the user to confirm, like the number check's."""
    return [{"kind": "empty", "key": e["about"], "message": e["assumption"]}
            for e in empty_data(draft.snop.get("problem_info", []), str(draft.snop.get("input_format", "")),
                                draft.data)]


def ask_user(draft: Draft, yes: bool, interactive: bool, ask: Callable[[str], str] | None = None) -> str:
    """How the items were confirmed: nothing to confirm, --yes, or the user's answer at the terminal. Without a
    terminal and without --yes nothing can be confirmed: NotConfirmed says what needs it."""
    items = to_confirm(draft)
    if not items:
        return "nothing to confirm"
    listing = "\n".join(f"  {i}. {item}" for i, item in enumerate(items, 1))
    if yes:
        print(f"Accepted with --yes ({len(items)}):\n{listing}")
        return "--yes"
    if not interactive:
        raise NotConfirmed(f"{len(items)} item(s) need your confirmation before the folder is written:\n{listing}\n"
                           "Nothing was written. Rerun at a terminal to answer, or pass --yes to accept them.")
    print(f"To confirm ({len(items)}):\n{listing}")
    if (ask or input)("Write the folder with these? [y/N] ").strip().lower() not in ("y", "yes"):
        raise NotConfirmed("not confirmed: nothing was written. Reword the request to settle the items above "
                           "and run optimus new again.")
    return "the user, at the terminal"


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
    """The model for `new` (optimus.core.llm.registry): the reference backend answers from <request's
    folder>/reference/new.json."""
    from optimus.core.llm import registry

    if args.llm == "reference" and request_source == "-":
        raise ConfigError("--llm reference answers from the request file's folder (reference/new.json); "
                          "pass --from FILE, not standard input")
    folder = Path(request_source).parent if request_source != "-" else None
    return registry.get_client(args.llm, None, transcript=transcript, use_cache=not getattr(args, "no_cache", False),
                               request_folder=folder, **{k: getattr(args, k, None) for k in registry.SETTINGS})


def run_new(args: Any) -> int:
    """The CLI command: prints the statements, the parameters and what needs confirming; exit 0 written, 1 refused
    or not confirmed (nothing written)."""
    import sys

    request = read_request(args.source, sys.stdin.read() if args.source == "-" else None)
    check_dest(args.dir, args.force)
    transcript = Path(tempfile.mkdtemp(prefix="optimus-new-log-")) / "transcript.jsonl"
    client = make_client(args, args.source, transcript)
    interactive = args.source != "-" and sys.stdin.isatty()

    def confirm(draft: Draft) -> str:
        print(show(draft))
        return ask_user(draft, args.yes, interactive)

    create(args.dir, request, client, list(args.data or []), force=args.force, confirm=confirm)
    if transcript.is_file():
        shutil.copy(transcript, args.dir / "new" / "transcript.jsonl")
    print(f"wrote {args.dir}/snop.json, data.json and {NEW_JSON}; check the statements and values above, then "
          f"`optimus solve {args.dir}`", file=sys.stderr)
    return 0
