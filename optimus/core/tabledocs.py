"""What the tables of data/ mean, in the user's words: data/README.md (contract C2).

    # anything (a title, a preamble)
    ## facilities.csv
    One row per candidate facility site.
    - site: the site's identifier
    - fixed_cost: the yearly cost of opening the site, in euros

A section per table (the heading is the file's name inside data/), a sentence or more on what a row is, a line
per column. Every prompt that sees the data summary sees these words beside the schema (optimus.core.tables);
they are the user's descriptions, never read from the tables. A section or column line naming no table or column
of data/ is a warning (`unknown`); the columns a text names with `data/x.csv(a, b)` stay errors (tables.missing).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

README = "README.md"
_HEADING = re.compile(r"^##\s+(.+?)\s*#*\s*$")
_COLUMN_LINE = re.compile(r"^[-*]\s+`?(?P<name>[^`:\n]+?)`?\s*:\s*(?P<text>.*)$")
_SUFFIXES = (".csv", ".parquet")
# What `optimus new` writes where the user has words to add: never shown to a model, and validate names each table
# that still has one.
PLACEHOLDER = "TODO:"
# Numbered columns in a row (w01, w02, …), at least this many, are one run in the summary (`w01 … w48`), their
# descriptions one line where they differ only in numbers: a horizon twice as long leaves the prompt as it is.
RUN_MIN = 4
NUMBERED = re.compile(r"^(.*?)(\d+)$")  # a name ending in a number: its prefix and number


@dataclass
class TableDoc:
    """One section: the table's file name inside data/, what a row is, and each column's description."""

    file: str
    line: int  # the heading's line in the README, for messages
    about: list[str] = field(default_factory=list)
    columns: dict[str, str] = field(default_factory=dict)


def readme_path(root: Path) -> Path | None:
    """data/README.md (or any data/README*) when the folder has one."""
    return readme_in(Path(root) / "data")


def readme_in(directory: Path) -> Path | None:
    """A folder's README.md, else its first README* file; None when there is none."""
    if not directory.is_dir():
        return None
    exact = directory / README
    return exact if exact.is_file() else next((p for p in sorted(directory.glob("README*")) if p.is_file()), None)


def parse(text: str) -> tuple[list[str], list[TableDoc]]:
    """The preamble's lines (without a `# title`) and the sections, in the order written."""
    preamble: list[str] = []
    docs: list[TableDoc] = []
    last_column: str | None = None
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if heading := _HEADING.match(line):
            docs.append(TableDoc(_file_name(heading.group(1)), number))
            last_column = None
        elif not docs:
            if line and not line.startswith("# "):
                preamble.append(line)
        elif (column := _COLUMN_LINE.match(line)) and "/" not in column.group("name"):
            last_column = column.group("name").strip()
            docs[-1].columns[last_column] = column.group("text").strip()
        elif line and last_column is not None and raw[:1].isspace():  # a column line's continuation
            docs[-1].columns[last_column] = f"{docs[-1].columns[last_column]} {line}".strip()
        elif line:
            docs[-1].about.append(line)
            last_column = None
    return preamble, docs


def _file_name(heading: str) -> str:
    return heading.strip().strip("`").strip().removeprefix("data/")


def read(root: Path) -> tuple[Path | None, list[str], list[TableDoc]]:
    path = readme_path(root)
    if path is None:
        return None, [], []
    preamble, docs = parse(path.read_text(encoding="utf-8", errors="replace"))
    return path, preamble, docs


def doc_for(file: str, docs: list[TableDoc]) -> TableDoc | None:
    """The section of a table (`data/x.csv`): headed by its file name, or by its name without the suffix."""
    name = file.split("/", 1)[-1]
    stem = name.rsplit(".", 1)[0]
    return next((d for d in docs if d.file == name), None) or next((d for d in docs if d.file == stem), None)


def numbered_runs(names: list[str]) -> list[list[str]]:
    """The names in order, grouped: consecutive numbered names of one prefix (w01, w02, …) make one group when
    there are at least RUN_MIN of them; every other name is a group of its own."""
    groups: list[list[str]] = []
    last = None  # (prefix, number) of the previous name
    for name in names:
        match = NUMBERED.match(name)
        key = (match.group(1), int(match.group(2))) if match else None
        if key and last and groups and key == (last[0], last[1] + 1):
            groups[-1].append(name)
        else:
            groups.append([name])
        last = key
    return [g for group in groups for g in ([group] if len(group) >= RUN_MIN else [[n] for n in group])]


def lines_for(doc: TableDoc | None, have: list[str], indent: str = "  ") -> list[str]:
    """A table's description as the summary shows it, under its schema line: what a row is, then each
    described column the table has (a described column it lacks is validate's warning, not the model's); a run
    of numbered columns whose descriptions differ only in their numbers is one line."""
    if doc is None:
        return []
    present = set(have)
    shown = {n: t for n, t in doc.columns.items() if n in present and not t.startswith(PLACEHOLDER)}
    merged = {}  # a run's first column → its one line; the run's other columns are left out
    for run in numbered_runs(have):
        line = _run_line(run, shown) if len(run) > 1 else None
        if line:
            merged[run[0]] = line
            merged.update({n: "" for n in run[1:]})
    about = [line for line in doc.about if not line.startswith(PLACEHOLDER)]
    out = [indent + " ".join(about)] if about else []
    return out + [f"{indent}- {merged.get(name) or f'{name}: {text}'}" for name, text in shown.items()
                  if merged.get(name) != ""]


def _run_line(run: list[str], shown: dict[str, str]) -> str | None:
    """`w01 … w48: hours in week 1 … 48` when every column of the run is described alike but for numbers."""
    texts = [shown.get(name) for name in run]
    if None in texts or len({re.sub(r"\d+", "#", t) for t in texts}) != 1:
        return None
    first, last = re.split(r"(\d+)", texts[0]), re.split(r"(\d+)", texts[-1])
    text = "".join(a if a == b else f"{a} … {b}" for a, b in zip(first, last))
    return f"{run[0]} … {run[-1]}: {text}"


def unknown(root: Path, columns: dict[str, list[str]]) -> list[tuple[str, str, str]]:
    """(README file, name, message) for each section naming no table of data/ and each described column its
    table lacks; `columns` maps each table (`data/x.csv`) to its column names."""
    path, _, docs = read(root)
    if path is None:
        return []
    shown = str(path)
    out = []
    for doc in docs:
        file = next((f for f in columns if doc_for(f, [doc]) is doc), None)
        if file is None:
            if doc.file.lower().endswith(_SUFFIXES) or doc.columns:
                held = ", ".join(f.split("/", 1)[-1] for f in columns) or "none"
                why = f"line {doc.line}: a section for a table that data/ does not hold (tables: {held})"
                out.append((shown, doc.file, why))
            continue
        have = set(columns[file])
        out += [(shown, f"{doc.file}: {name}", f"a described column that {file} does not have")
                for name in doc.columns if name not in have]
        blank = [name for name, text in doc.columns.items() if text.startswith(PLACEHOLDER)]
        if blank or any(line.startswith(PLACEHOLDER) for line in doc.about):
            out.append((shown, doc.file, f"line {doc.line}: still a placeholder ({PLACEHOLDER}) for "
                        + (f"column(s) {', '.join(blank)}" if blank else "what a row is") + ": no prompt shows it"))
    return out


def skeleton(tables: dict[str, list[str]], about: dict[str, dict] | None = None) -> str:
    """A data/README.md for `optimus new`: a section per table (file name → its columns), the words of the
    model's draft where it gave them (`about`: file → {"row": ..., "columns": {name: ...}}), else a placeholder
    for the user to fill."""
    about = about or {}
    lines = ["# The tables of data/", "", ("What each table and column means; every prompt shows these words "
                                           "beside the schema, never a value."), ""]
    for file, names in tables.items():
        given = about.get(file) if isinstance(about.get(file), dict) else {}
        words = given.get("columns") if isinstance(given.get("columns"), dict) else {}
        row = given.get("row") if isinstance(given.get("row"), str) and given.get("row").strip() else None
        lines += [f"## {file}", row or f"{PLACEHOLDER} what one row is."]
        lines += [f"- {name}: {str(words.get(name) or f'{PLACEHOLDER} what this column holds, in what unit.').strip()}"
                  for name in names]
        lines.append("")
    return "\n".join(lines)
