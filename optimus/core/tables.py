"""Tables in a problem folder's `data/` (*.csv, *.parquet), read through DuckDB without loading them whole.

What a prompt may know of a table is its schema: file, column names and types, the row count, and for text
columns of few values how many distinct values they hold — never a value. The summary of 10 rows and of 10^7
rows differ only in those figures. Which tables and columns the problem relies on is written in the SNOP's
input_format or in `data/README` as `data/flights.parquet(origin, dest, day, price)` (or `data/x.csv: a, b`);
`missing()` checks each against the files. What the tables mean, in the user's words, is data/README.md's
(optimus.core.tabledocs): the summary shows it under each table's schema line.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field, replace
from pathlib import Path

from optimus.core.tabledocs import NUMBERED, RUN_MIN

TABLES_DIR = "data"
TABLE_SUFFIXES = (".csv", ".parquet")
# A text column with at most this many distinct values is a category (a city, a cuisine): its count is shown.
LOW_CARDINALITY = 50
# A CSV of more columns than this is streamed by the csv module, not sniffed by DuckDB (see read_schema): measured
# on 1,000 rows, DuckDB took 6.2 s and 219 MB at 200 columns and ran out of 512 MB at 1,000; the stream 0.24 s. Its
# types come from its first SAMPLE_ROWS rows.
WIDE = 200
SAMPLE_ROWS = 1000
# A table of more columns than this is summarised by runs of columns (runs()).
MAX_SHOWN = 60
_NAMED = re.compile(r"data/([\w.-]+\.(?:csv|parquet))\b(?:\s*\(([^)\n]*)\)|\s*:([^\n]*))?")
_COLUMN = re.compile(r"[A-Za-z_]\w*")


@dataclass
class Table:
    file: str  # relative to the problem folder, e.g. data/flights.parquet
    columns: list[tuple[str, str]]  # (name, DuckDB type)
    rows: int
    distinct: dict[str, int] = field(default_factory=dict)  # low-cardinality text columns only

    def line(self) -> str:
        if len(self.columns) > MAX_SHOWN:
            return f"- {self.file}: {self.rows} rows; {len(self.columns)} columns: {runs(self.columns)}"
        return f"- {self.file}: {self.rows} rows; columns {runs(self.columns, RUN_MIN, self.distinct)}"


def runs(columns: list[tuple[str, str]], shortest: int = 2, distinct: dict[str, int] | None = None) -> str:
    """Many columns in few words: numbered columns in a row, at least `shortest` of them, are one run
    (`x1 … x7823 DOUBLE`; numbers of both kinds make `BIGINT or DOUBLE`: a sampled column of whole numbers reads
    as BIGINT); other columns stand alone, with their `distinct` counts. Past MAX_SHOWN runs the rest are
    counted by type, so a line stays short whatever the table's width."""
    groups: list[dict] = []
    for name, kind in columns:
        match = NUMBERED.match(name)
        prefix, number = (match.group(1), int(match.group(2))) if match else (None, None)
        last = groups[-1] if groups else None
        if last and prefix is not None and last["prefix"] == prefix and last["number"] == number - 1 and (
                last["kinds"] == {kind} or last["kinds"] | {kind} <= _NUMERIC):
            last["members"].append((name, kind))
            last.update(number=number)
            last["kinds"].add(kind)
        else:
            groups.append({"prefix": prefix, "members": [(name, kind)], "kinds": {kind}, "number": number})
    groups = [g for group in groups for g in ([group] if len(group["members"]) >= shortest else
                                              [{"members": [m], "kinds": {m[1]}} for m in group["members"]])]
    shown = [_shown(g, distinct or {}) for g in groups[:MAX_SHOWN]]
    rest: dict[str, int] = {}
    for g in groups[MAX_SHOWN:]:
        rest[_kinds(g)] = rest.get(_kinds(g), 0) + len(g["members"])
    if rest:
        shown.append(f"and {sum(rest.values())} more ({', '.join(f'{n} {k}' for k, n in rest.items())})")
    return ", ".join(shown)


def _shown(group: dict, distinct: dict[str, int]) -> str:
    (first, _), (last, _) = group["members"][0], group["members"][-1]
    if len(group["members"]) > 1:
        return f"{first} … {last} {_kinds(group)} ({len(group['members'])} columns)"
    return f"{first} {_kinds(group)}" + (f" ({distinct[first]} distinct)" if first in distinct else "")


_NUMERIC = {"BIGINT", "DOUBLE"}


def _kinds(group: dict) -> str:
    return " or ".join(sorted(group["kinds"]))


def tables_dir(root: Path) -> Path | None:
    """The folder's data/ when it holds tables, else None."""
    path = Path(root) / TABLES_DIR
    return path if path.is_dir() and table_files(path) else None


def table_files(directory: Path) -> list[Path]:
    return sorted(p for p in directory.iterdir() if p.suffix.lower() in TABLE_SUFFIXES and p.is_file())


def scan_sql(path: Path | str) -> str:
    """The DuckDB table function that streams the file: no load into memory."""
    quoted = str(path).replace("'", "''")
    return f"read_parquet('{quoted}')" if str(path).lower().endswith(".parquet") else f"read_csv('{quoted}')"


def connect():
    """A DuckDB connection bounded like a sandboxed program: one thread, a modest memory limit."""
    import duckdb

    return duckdb.connect(config={"threads": 1, "memory_limit": "512MB"})


def read_schema(path: Path, root: Path) -> Table:
    """One table's schema, its row count and the distinct counts of its few-valued text columns. Each version
    of a file is scanned once per process (the summary, the checks, the sizing and the number check all ask)."""
    info = Path(path).stat()
    table = _scanned(str(path), info.st_size, info.st_mtime_ns)
    return replace(table, file=Path(path).relative_to(root).as_posix())


@functools.lru_cache(maxsize=256)
def _scanned(path: str, size: int, mtime_ns: int) -> Table:  # size and mtime: a changed file is scanned again
    return _scan(Path(path), Path(path).parent, connect())


def _scan(path: Path, root: Path, con) -> Table:
    """The scan behind read_schema. A CSV wider than WIDE columns is read by _wide_csv instead: DuckDB's sniffer
    holds a vector per column and runs out of its memory limit on thousands of columns."""
    header = csv_header(path) if path.suffix.lower() == ".csv" else None
    if header is not None and len(header) > WIDE:
        return _wide_csv(path, root, header)
    source = scan_sql(path)
    columns = [(row[0], row[1]) for row in con.sql(f"DESCRIBE SELECT * FROM {source}").fetchall()]
    texts = [name for name, kind in columns if kind == "VARCHAR"][:WIDE]
    parts = ["count(*)"] + [f"approx_count_distinct({q(name)})" for name in texts]
    counts = con.sql(f"SELECT {', '.join(parts)} FROM {source}").fetchone()
    # The estimate picks the few-valued columns (an exact count of a column of names would hold every name);
    # their counts are then exact, from a second pass over those columns only.
    few = [name for name, n in zip(texts, counts[1:]) if n <= 2 * LOW_CARDINALITY]
    exact = con.sql(f"SELECT {', '.join(f'count(DISTINCT {q(n)})' for n in few)} FROM {source}").fetchone() if few else ()
    distinct = {name: int(n) for name, n in zip(few, exact) if n <= LOW_CARDINALITY}
    return Table(path.relative_to(root).as_posix(), columns, int(counts[0]), distinct)


def csv_header(path: Path) -> list[str] | None:
    """The column names of a CSV's first line, read by the csv module (one line in memory); None when the
    file cannot be read so (DuckDB then says why)."""
    import csv

    try:
        with open(path, newline="", encoding="utf-8", errors="replace") as fh:
            return next(csv.reader(fh), [])
    except (OSError, csv.Error):
        return None


def _wide_csv(path: Path, root: Path, header: list[str]) -> Table:
    """A wide CSV streamed row by row: the types from the first SAMPLE_ROWS rows (BIGINT, DOUBLE or VARCHAR,
    as DuckDB would name them), the row count from every row; memory holds one row and a code per column."""
    import csv

    kinds = [0] * len(header)  # 0 no value seen, 1 integers, 2 numbers, 3 text
    rows = 0
    with open(path, newline="", encoding="utf-8", errors="replace") as fh:
        reader = csv.reader(fh)
        next(reader, None)
        for row in reader:
            if rows < SAMPLE_ROWS:
                for i, cell in enumerate(row[:len(kinds)]):
                    if kinds[i] < 3 and cell:
                        kinds[i] = max(kinds[i], _kind(cell))
            rows += 1
    names = ("VARCHAR", "BIGINT", "DOUBLE", "VARCHAR")
    return Table(path.relative_to(root).as_posix(), [(n, names[k]) for n, k in zip(header, kinds)], rows)


def _kind(cell: str) -> int:
    try:
        int(cell)
        return 1
    except ValueError:
        pass
    try:
        float(cell)
        return 2
    except ValueError:
        return 3


def column_names(path: Path, con=None) -> list[str]:
    """A table's column names, in bounded memory whatever its width."""
    header = csv_header(path) if path.suffix.lower() == ".csv" else None
    if header is not None and len(header) > WIDE:
        return header
    con = con or connect()
    return [row[0] for row in con.sql(f"DESCRIBE SELECT * FROM {scan_sql(path)}").fetchall()]


def q(name: str) -> str:
    """A column name quoted for SQL."""
    return '"' + name.replace('"', '""') + '"'


def schemas(root: Path) -> list[Table]:
    directory = tables_dir(root)
    if directory is None:
        return []
    return [read_schema(path, Path(root)) for path in table_files(directory)]


def summary(root: Path) -> str:
    """The tables part of the data summary: how a program reads them (prompts/tables.txt), then each table's
    schema line with the user's words from data/README.md under it (optimus.core.tabledocs), never a value."""
    tables = schemas(root)
    if not tables:
        return ""
    from optimus.core import tabledocs
    from optimus.core.prompts import render

    _, preamble, docs = tabledocs.read(root)
    lines = [render("tables").text.rstrip()]
    if any(len(t.columns) > MAX_SHOWN for t in tables):  # how to read a transposed table, only beside one
        lines.append(render("tables_wide").text.rstrip())
    if preamble:
        lines.append("About the tables (data/README.md): " + " ".join(preamble))
    for table in tables:
        lines.append(table.line())
        lines += tabledocs.lines_for(tabledocs.doc_for(table.file, docs), [n for n, _ in table.columns])
    return "\n".join(lines)


def named(text: str) -> dict[str, list[str]]:
    """Tables a text names, `data/x.parquet(a, b)` or `data/x.csv: a, b`, each with the columns it lists."""
    found: dict[str, list[str]] = {}
    for match in _NAMED.finditer(text or ""):
        listed = match.group(2) if match.group(2) is not None else (match.group(3) or "")
        columns = found.setdefault(f"{TABLES_DIR}/{match.group(1)}", [])
        columns += [m.group(0) for item in listed.split(",") if (m := _COLUMN.search(item))
                    and m.group(0) not in columns]
    return found


def without_tables(template: str) -> str:
    """A template without its lines naming tables (they are no part of data.json's layout)."""
    return "\n".join(line for line in (template or "").splitlines() if not _NAMED.match(line.strip()))


def readme_text(root: Path) -> str:
    """data/README's text, the file tabledocs reads (README.md first), so both read the same one."""
    from optimus.core.tabledocs import readme_path

    readme = readme_path(root)
    return readme.read_text(errors="replace") if readme else ""


def missing(root: Path, input_format: str) -> list[tuple[str, str, str]]:
    """(file, column or "", what is wrong) for every table or column input_format or data/README names that
    the files lack; a table DuckDB cannot read is missing too."""
    import duckdb

    wanted = named(input_format)
    # a heading of data/README.md names a table to describe, not one the problem relies on (tabledocs warns)
    listed = "\n".join(line for line in readme_text(root).splitlines() if not line.lstrip().startswith("#"))
    for file, columns in named(listed).items():
        wanted.setdefault(file, []).extend(c for c in columns if c not in wanted.get(file, []))
    problems, con = [], None
    for file, columns in wanted.items():
        path = Path(root) / file
        if not path.is_file():
            problems.append((file, "", "the table is named but the file does not exist"))
            continue
        con = con or connect()
        try:
            have = column_names(path, con)
        except duckdb.Error as exc:
            problems.append((file, "", f"cannot be read as a table: {str(exc).splitlines()[0]}"))
            continue
        problems += [(file, column, (f"column {column!r} is named but the table has no such column "
                                     f"(it has {', '.join(have)})")) for column in columns if column not in have]
    return problems


def sandbox_inputs(data_json: Path, tables: Path | None = None) -> dict[str, Path]:
    """What a sandboxed run gets read-only: data.json when there is one, and the tables folder (`tables`, or
    the data/ beside data.json) as data/."""
    inputs = {"data.json": data_json} if data_json.is_file() or data_json.is_symlink() else {}
    tables = tables or tables_dir(data_json.parent)
    return inputs | ({TABLES_DIR: tables} if tables else {})


# ---- `optimus new --data`: tables stay tables --------------------------------------------------------


def is_table_input(path: Path) -> bool:
    """A --data argument kept as a table: a CSV or Parquet file, or a folder of them."""
    return path.is_dir() or path.suffix.lower() in TABLE_SUFFIXES


def table_inputs(paths: list[Path]) -> list[Path]:
    """The table files the --data arguments name (a folder: every table in it)."""
    found = []
    for path in paths:
        found += table_files(path) if path.is_dir() else [path]
    for path in found:
        readable(path)
    names = [p.name for p in found]
    if clash := sorted({n for n in names if names.count(n) > 1}):
        from optimus.core.errors import SpecError

        raise SpecError(found[names.index(clash[0])], "", "two tables of this name; rename one of them")
    return found


def readable(path: Path) -> None:
    """Raise a SpecError naming the file when DuckDB cannot read it whole as a table."""
    import duckdb

    from optimus.core.errors import SpecError

    if not path.is_file():
        raise SpecError(path, "", "no such data file")
    try:
        read_schema(path, path.parent)
    except duckdb.Error as exc:
        raise SpecError(path, "", f"cannot be read as a table: {str(exc).splitlines()[0]}") from None


def describe_inputs(paths: list[Path], readme: Path | None = None) -> str:
    """The schema lines of tables about to be copied into data/ (what the prompt may know of them), each with
    the words of the user's README.md on it (optimus.core.tabledocs)."""
    from optimus.core import tabledocs

    docs = tabledocs.parse(readme.read_text(encoding="utf-8", errors="replace"))[1] if readme else []
    lines = []
    for path in paths:
        table = replace(read_schema(path, path.parent), file=f"{TABLES_DIR}/{path.name}")
        lines += [table.line(), *tabledocs.lines_for(tabledocs.doc_for(table.file, docs), [n for n, _ in table.columns])]
    return "\n".join(lines)


def columns_of(paths: list[Path]) -> set[str]:
    con = connect()
    return {name for p in paths for name in column_names(p, con)}


def holds_number(paths: list[Path], value: float) -> bool:
    """Whether some numeric cell of the tables equals `value` (a request's number that is the tables' data)."""
    con = connect()
    for path in paths:
        table = read_schema(path, path.parent)
        numeric = [n for n, kind in table.columns if any(k in kind for k in ("INT", "DOUBLE", "FLOAT", "DECIMAL"))]
        if len(table.columns) > WIDE and path.suffix.lower() == ".csv":
            if _wide_holds(path, value):
                return True
        elif numeric and con.sql(f"SELECT count(*) FROM {scan_sql(path)} WHERE "
                                 + " OR ".join(f"abs({q(c)} - ?) <= 1e-9 * greatest(1, abs(?))" for c in numeric),
                                 params=[value, value] * len(numeric)).fetchone()[0]:
            return True
    return False


def _wide_holds(path: Path, value: float) -> bool:
    """holds_number for a wide CSV, streamed a row at a time."""
    import csv

    with open(path, newline="", encoding="utf-8", errors="replace") as fh:
        reader = csv.reader(fh)
        next(reader, None)
        for row in reader:
            for cell in row:
                try:
                    if abs(float(cell) - value) <= 1e-9 * max(1.0, abs(value)):
                        return True
                except ValueError:
                    continue
    return False


def place(paths: list[Path], dest: Path, link: bool = False) -> None:
    """Put the tables into dest/data/: copies (or links, for a throwaway staging folder)."""
    import shutil

    (dest / TABLES_DIR).mkdir(parents=True, exist_ok=True)
    for path in paths:
        target = dest / TABLES_DIR / path.name
        target.unlink(missing_ok=True)
        target.symlink_to(path.resolve()) if link else shutil.copyfile(path, target)


def undescribed(root: Path) -> list[tuple[str, str, str]]:
    """(data/README.md, name, message) for each table or column its sections describe that data/ lacks."""
    from optimus.core import tabledocs

    directory = tables_dir(root)
    if tabledocs.readme_path(root) is None:
        return []
    import duckdb

    columns, con = {}, None
    for path in table_files(directory) if directory else []:
        con = con or connect()
        try:
            columns[f"{TABLES_DIR}/{path.name}"] = column_names(path, con)
        except duckdb.Error:
            columns[f"{TABLES_DIR}/{path.name}"] = []  # unreadable: missing() says so when the text names it
    return tabledocs.unknown(root, columns)


def row_counts(root: Path) -> dict[str, int]:
    """Each table's row count by its name without the suffix (`facilities` for data/facilities.csv): what a
    level `for s in facilities` of output_format counts (optimus.core.checks). Read once per file version."""
    directory = tables_dir(root)
    if directory is None:
        return {}
    import duckdb

    out = {}
    for path in table_files(directory):
        try:
            out[path.stem] = read_schema(path, directory).rows
        except duckdb.Error:  # unreadable: validate says so; no length is read from it
            continue
    return out


