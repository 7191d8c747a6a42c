"""industrial/ folders and the prompts (issue 29): every column line of a folder's data/README.md reaches the data
summary, and an offline run's formulate and codegen prompts show them, never a value of a table."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import duckdb
import pytest

from optimus.commands.cli import main
from optimus.core import tabledocs
from optimus.core.datasummary import summarize_problem
from optimus.core.problem import load_problem
from optimus.core.tables import column_names, table_files

INDUSTRIAL = Path(__file__).resolve().parents[1] / "industrial"
FOLDERS = sorted(p for p in INDUSTRIAL.glob("*-1e3") if (p / "snop.json").is_file())


def column_lines(folder: Path) -> list[str]:
    """`- column: words` of the README for every column its table has, as the summary indents them."""
    _, _, docs = tabledocs.read(folder)
    lines = []
    for path in table_files(folder / "data"):
        doc = tabledocs.doc_for(f"data/{path.name}", docs)
        assert doc is not None, f"{folder.name}: data/README.md has no section for {path.name}"
        have = column_names(path)
        lines += [f"  - {name}: {text}" for name, text in doc.columns.items() if name in have]
    return lines


def decimals(folder: Path, per_table: int = 3) -> list[str]:
    """A few numbers of the tables as a program would print them, those with a fraction (distinctive)."""
    found = []
    for path in table_files(folder / "data"):
        if path.suffix == ".csv" and len(column_names(path)) > 200:
            continue  # a transposed table: its one row is read below by the csv module's test, not here
        rel = duckdb.sql(f"SELECT * FROM '{path}' LIMIT 200")
        cells = [v for row in rel.fetchall() for v in row if isinstance(v, float) and v != int(v)
                 and len(repr(v).replace(".", "").lstrip("0-")) >= 3]  # three digits: not a number of the text
        found += [repr(v) for v in cells[:per_table]]
    return found


def in_a_run(line: str, text: str) -> bool:
    """A column line stood for by a run line of the summary, `  - w01 … w24: …`: same prefix, number in range."""
    name = line.strip()[2:].split(":", 1)[0]
    column = re.fullmatch(r"(.*?)(\d+)", name)
    for first, last in re.findall(r"^  - (\S+) … (\S+?):", text, re.MULTILINE):
        lo, hi = re.fullmatch(r"(.*?)(\d+)", first), re.fullmatch(r"(.*?)(\d+)", last)
        if column and lo and hi and column[1] == lo[1] == hi[1] and int(lo[2]) <= int(column[2]) <= int(hi[2]):
            return True
    return False


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda p: p.name)
def test_every_column_line_is_in_the_data_summary(folder):
    text = summarize_problem(load_problem(folder))
    missing = [line for line in column_lines(folder) if line not in text and not in_a_run(line, text)]
    assert not missing, f"{folder.name}: {missing[:3]}"
    assert not [v for v in decimals(folder) if v in text]


@pytest.mark.skipif(not FOLDERS, reason="no industrial/*-1e3 folder yet")
def test_an_offline_run_shows_the_column_lines_in_formulate_and_codegen_and_no_value(tmp_path):
    folder = tmp_path / FOLDERS[0].name
    shutil.copytree(FOLDERS[0], folder, ignore=shutil.ignore_patterns("runs"))
    assert main(["solve", str(folder), "--llm", "reference", "--sandbox", "process", "--mode", "prompt"]) == 0
    transcript = (folder / "runs" / "latest" / "transcript.jsonl").read_text()
    prompts = {}
    for line in transcript.splitlines():
        record = json.loads(line)
        prompts[record["stage"]] = "\n".join(m["content"] for m in record["messages"] if m["role"] == "user")
    for stage in ("formulate", "codegen"):
        missing = [line for line in column_lines(folder) if line not in prompts[stage]]
        assert not missing, f"{stage}: {missing[:3]}"
    values = decimals(folder)
    assert values, "the tables hold no number with a fraction to look for"
    assert not [v for v in values if v in transcript]
