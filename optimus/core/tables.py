"""Tables in a problem folder's `data/` (*.csv, *.parquet), read through DuckDB without loading them whole.

What a prompt may know of a table is its schema: file, column names and types, the row count, and for text
columns of few values how many distinct values they hold — never a value. The summary of 10 rows and of 10^7
rows differ only in those figures. Which tables and columns the problem relies on is written in the SNOP's
input_format or in `data/README` as `data/flights.parquet(origin, dest, day, price)` (or `data/x.csv: a, b`);
`missing()` checks each against the files.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from pathlib import Path

TABLES_DIR = "data"
TABLE_SUFFIXES = (".csv", ".parquet")
# A text column with at most this many distinct values is a category (a city, a cuisine): its count is shown.
LOW_CARDINALITY = 50
_NAMED = re.compile(r"data/([\w.-]+\.(?:csv|parquet))\b(?:\s*\(([^)\n]*)\)|\s*:([^\n]*))?")
_COLUMN = re.compile(r"[A-Za-z_]\w*")


@dataclass
class Table:
    file: str  # relative to the problem folder, e.g. data/flights.parquet
    columns: list[tuple[str, str]]  # (name, DuckDB type)
    rows: int
    distinct: dict[str, int] = field(default_factory=dict)  # low-cardinality text columns only

    def line(self) -> str:
        cols = ", ".join(f"{name} {kind}" + (f" ({self.distinct[name]} distinct)" if name in self.distinct else "")
                         for name, kind in self.columns)
        return f"- {self.file}: {self.rows} rows; columns {cols}"


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


def read_schema(path: Path, root: Path, con=None) -> Table:
    """One table's schema, its row count and the distinct counts of its few-valued text columns."""
    con = con or connect()
    source = scan_sql(path)
    columns = [(row[0], row[1]) for row in con.sql(f"DESCRIBE SELECT * FROM {source}").fetchall()]
    texts = [name for name, kind in columns if kind == "VARCHAR"]
    parts = ["count(*)"] + [f"approx_count_distinct({q(name)})" for name in texts]
    counts = con.sql(f"SELECT {', '.join(parts)} FROM {source}").fetchone()
    # The estimate picks the few-valued columns (an exact count of a column of names would hold every name);
    # their counts are then exact, from a second pass over those columns only.
    few = [name for name, n in zip(texts, counts[1:]) if n <= 2 * LOW_CARDINALITY]
    exact = con.sql(f"SELECT {', '.join(f'count(DISTINCT {q(n)})' for n in few)} FROM {source}").fetchone() if few else ()
    distinct = {name: int(n) for name, n in zip(few, exact) if n <= LOW_CARDINALITY}
    return Table(path.relative_to(root).as_posix(), columns, int(counts[0]), distinct)


def q(name: str) -> str:
    """A column name quoted for SQL."""
    return '"' + name.replace('"', '""') + '"'


def schemas(root: Path) -> list[Table]:
    directory = tables_dir(root)
    if directory is None:
        return []
    con = connect()
    return [read_schema(path, Path(root), con) for path in table_files(directory)]


def summary(root: Path) -> str:
    """The tables part of the data summary: schema lines and how a program reads them (prompts/tables.txt)."""
    tables = schemas(root)
    if not tables:
        return ""
    from optimus.core.prompts import render

    return render("tables").text.rstrip() + "\n" + "\n".join(t.line() for t in tables)


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
    readme = next((p for p in (Path(root) / TABLES_DIR).glob("README*") if p.is_file()), None)
    return readme.read_text(errors="replace") if readme else ""


def missing(root: Path, input_format: str) -> list[tuple[str, str, str]]:
    """(file, column or "", what is wrong) for every table or column input_format or data/README names that
    the files lack; a table DuckDB cannot read is missing too."""
    import duckdb

    wanted = named(input_format)
    for file, columns in named(readme_text(root)).items():
        wanted.setdefault(file, []).extend(c for c in columns if c not in wanted.get(file, []))
    problems, con = [], None
    for file, columns in wanted.items():
        path = Path(root) / file
        if not path.is_file():
            problems.append((file, "", "the table is named but the file does not exist"))
            continue
        con = con or connect()
        try:
            have = [row[0] for row in con.sql(f"DESCRIBE SELECT * FROM {scan_sql(path)}").fetchall()]
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
        connect().sql(f"SELECT count(*) FROM {scan_sql(path)}").fetchone()
    except duckdb.Error as exc:
        raise SpecError(path, "", f"cannot be read as a table: {str(exc).splitlines()[0]}") from None


def describe_inputs(paths: list[Path]) -> str:
    """The schema lines of tables about to be copied into data/ (what the prompt may know of them)."""
    con = connect()
    return "\n".join(replace(read_schema(p, p.parent, con), file=f"{TABLES_DIR}/{p.name}").line() for p in paths)


def columns_of(paths: list[Path]) -> set[str]:
    con = connect()
    return {row[0] for p in paths for row in con.sql(f"DESCRIBE SELECT * FROM {scan_sql(p)}").fetchall()}


def holds_number(paths: list[Path], value: float) -> bool:
    """Whether some numeric cell of the tables equals `value` (a request's number that is the tables' data)."""
    con = connect()
    for path in paths:
        numeric = [row[0] for row in con.sql(f"DESCRIBE SELECT * FROM {scan_sql(path)}").fetchall()
                   if any(k in row[1] for k in ("INT", "DOUBLE", "FLOAT", "DECIMAL"))]
        if numeric and con.sql(f"SELECT count(*) FROM {scan_sql(path)} WHERE "
                               + " OR ".join(f"abs({q(c)} - ?) <= 1e-9 * greatest(1, abs(?))" for c in numeric),
                               params=[value, value] * len(numeric)).fetchone()[0]:
            return True
    return False


def place(paths: list[Path], dest: Path, link: bool = False) -> None:
    """Put the tables into dest/data/: copies (or links, for a throwaway staging folder)."""
    import shutil

    (dest / TABLES_DIR).mkdir(parents=True, exist_ok=True)
    for path in paths:
        target = dest / TABLES_DIR / path.name
        target.unlink(missing_ok=True)
        target.symlink_to(path.resolve()) if link else shutil.copyfile(path, target)
