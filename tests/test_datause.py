"""Unused data: the sandbox records which data.json keys a program reads; what nothing reads is a warning."""

from __future__ import annotations

import json
import shutil
import textwrap
from pathlib import Path

import pytest

from optimus.commands.cli import main
from optimus.core.datause import findings, prepare
from optimus.core.sandbox import Limits
from tests.sandbox_fixtures import BACKEND_NAMES, backend_or_skip

DATA = {"cost": [3, 4, 5], "budget": 12, "max_length": 15,
        "cap": {"north": 7, "south": 9},
        "items": [{"w": 1, "v": 2}, {"w": 3, "v": 4}]}
# Reads cost, budget, cap["north"] and every item's w (through a json.loads of the text, the other way in);
# never max_length, cap["south"] or an item's v.
PROGRAM = textwrap.dedent("""
    import json, pathlib
    data = json.loads(pathlib.Path("data.json").read_text())
    total = sum(data["cost"]) + data.get("budget") + data["cap"]["north"] + sum(i["w"] for i in data["items"])
    json.dump({"total": total}, open("output.json", "w"))
""")


def run_traced(backend_name: str, tmp_path: Path, program: str) -> Path:
    backend = backend_or_skip(backend_name)
    work = tmp_path / "work"
    work.mkdir()
    (work / "solver.py").write_text(program)
    data = tmp_path / "folder" / "data.json"
    data.parent.mkdir(exist_ok=True)
    data.write_text(json.dumps(DATA))
    result = backend.run(["python", "solver.py"], work, readonly={"data.json": data},
                         limits=Limits(wall_s=60, cpu_s=30), env=prepare(work))
    assert result.exit_code == 0, result.stderr
    return work


@pytest.mark.parametrize("backend_name", BACKEND_NAMES)
def test_the_sandbox_records_the_keys_read_and_names_the_rest(backend_name, tmp_path):
    work = run_traced(backend_name, tmp_path, PROGRAM)
    assert json.loads((work / "output.json").read_text()) == {"total": 3 + 4 + 5 + 12 + 7 + 1 + 3}
    (tmp_path / "folder" / "new").mkdir()
    (tmp_path / "folder" / "new" / "request.txt").write_text(
        "Each part costs 3, 4 or 5 with a budget of 12; north holds 7, south 9; items weigh 1 and 3 and are worth "
        "2 and 4. A part cannot be longer than 15 meters.")
    warnings = findings(tmp_path / "folder", DATA, work)
    assert warnings[0]["name"] == "unused data"
    message = warnings[0]["message"]
    assert "max_length" in message and "cap.south" in message and "items[].v" in message
    assert "cost" not in message and "budget" not in message and "cap.north" not in message
    # The request's 15 is held only by max_length, which nothing reads; 9 only by cap.south.
    numbers = warnings[1]["message"]
    assert "15 (in max_length)" in numbers and "9 (in cap.south)" in numbers and "12" not in numbers


def test_a_program_that_reads_data_json_another_way_is_not_checked(tmp_path):
    work = run_traced("process", tmp_path, 'import ast\nast.literal_eval(open("data.json").read())\n')
    (warning,) = findings(tmp_path / "folder", DATA, work)
    assert warning["message"].startswith("not checked:")


def test_a_program_that_reads_every_key_has_no_warning(tmp_path):
    work = run_traced("process", tmp_path, 'import json\nd = json.load(open("data.json"))\nprint(dict(d), '
                      '[dict(i) for i in d["items"]], dict(d["cap"]))\n')
    assert findings(tmp_path / "folder", DATA, work) == []


def test_a_solve_whose_program_ignores_a_key_warns_in_report_and_terminal(tmp_path, capsys):
    folder = tmp_path / "p"
    shutil.copytree(Path(__file__).parent.parent / "nlp4lp" / "12", folder, ignore=shutil.ignore_patterns("runs"))
    data = json.loads((folder / "data.json").read_text())
    data["overtime_rate"] = 42.5  # a key the reference program never reads
    (folder / "data.json").write_text(json.dumps(data))
    assert main(["solve", str(folder), "--llm", "reference", "--sandbox", "process", "--mode", "prompt"]) == 0
    report = json.loads((folder / "runs" / "latest" / "report.json").read_text())
    assert report["status"] == "solved"  # a warning, never a failed check
    (warning,) = report["warnings"]
    assert "overtime_rate" in warning["message"] and "capacity" not in warning["message"]
    assert "warning: the program never reads overtime_rate" in capsys.readouterr().err


# ---- tables of data/ (issue 29) ----------------------------------------------------------------------

TABLES = {"plants.csv": "plant,capacity,region\np1,40,north\np2,55,south\n",
          "orders.csv": "order_id,qty\n1,3\n2,4\n", "weights.csv": "item,kg\nbolt,2\nnut,1\n"}
# Each program reads plants.csv and orders.csv its own way, and never weights.csv.
TABLE_READERS = {
    "duckdb": """import duckdb
con = duckdb.connect()
caps = con.execute("select plant, capacity from read_csv('data/plants.csv')").fetchall()
qty = duckdb.sql("SELECT sum(o.qty) FROM 'data/orders.csv' AS o").fetchone()
""",
    "csv": """import csv
rows = list(csv.DictReader(open("data/plants.csv")))
with open("data/orders.csv", newline="") as fh:
    orders = list(csv.reader(fh))
""",
    "pandas": """import pandas as pd
plants = pd.read_csv("data/plants.csv")
orders = pd.read_csv("data/orders.csv")
""",
    "numpy": """import numpy as np
caps = np.genfromtxt("data/plants.csv", delimiter=",", skip_header=1, usecols=1)
qty = np.loadtxt("data/orders.csv", delimiter=",", skiprows=1)
""",
}


def run_on_tables(tmp_path: Path, program: str, backend_name: str = "process") -> Path:
    folder = tmp_path / "folder"
    (folder / "data").mkdir(parents=True)
    for name, text in TABLES.items():
        (folder / "data" / name).write_text(text)
    backend = backend_or_skip(backend_name)
    work = tmp_path / "work"
    work.mkdir()
    (work / "solver.py").write_text(program + 'open("output.json", "w").write("{}")\n')
    result = backend.run(["python", "solver.py"], work, readonly={"data": folder / "data"},
                         limits=Limits(wall_s=120, cpu_s=60), env=prepare(work))
    assert result.exit_code == 0, result.stderr
    return folder


@pytest.mark.parametrize("reader", list(TABLE_READERS))
def test_a_table_nothing_reads_is_named_whatever_reads_the_others(reader, tmp_path):
    if reader == "pandas":  # not a dependency of optimus: a program may import it where the user installed it
        pytest.importorskip("pandas")
    folder = run_on_tables(tmp_path, TABLE_READERS[reader])
    messages = [w["message"] for w in findings(folder, {}, tmp_path / "work")]
    unread = [m for m in messages if "never reads" in m]
    assert unread == [("the program never reads data/weights.csv: is a statement left out, or is the table not "
                       "needed?")], messages
    # columns: DuckDB queries name theirs (never order_id of orders.csv nor region of plants.csv); a file opened
    # from Python is read whole
    columns = [m for m in messages if "column" in m]
    expected = ("the program never names column(s) order_id of data/orders.csv; region of data/plants.csv: is a "
                "statement left out, or is the column not needed?")
    assert columns == ([expected] if reader == "duckdb" else []), messages


@pytest.mark.parametrize("backend_name", BACKEND_NAMES)
def test_tables_are_recorded_on_every_backend(backend_name, tmp_path):
    folder = run_on_tables(tmp_path, "import duckdb\nduckdb.sql(\"select * from read_csv('data/*.csv', union_by_name=true)\").fetchall()\n",
                           backend_name)
    assert findings(folder, {}, tmp_path / "work") == []  # a glob with `*` reads every table whole


def test_a_reader_outside_the_record_makes_tables_not_checked(tmp_path):
    # polars reads files outside Python's open; the recorder sees it loaded (here a module of that name)
    folder = run_on_tables(tmp_path, "import sys, types\nsys.modules['polars'] = types.ModuleType('polars')\n")
    (warning,) = findings(folder, {}, tmp_path / "work")
    assert warning["message"].startswith("not checked: the program loaded polars")


def test_a_solve_whose_program_ignores_a_table_names_it(tmp_path):
    from tests.test_tabledocs import described_folder

    folder = described_folder(tmp_path / "p")  # three tables; the reference program queries two of them
    assert main(["solve", str(folder), "--llm", "reference", "--sandbox", "process", "--mode", "prompt"]) == 0
    report = json.loads((folder / "runs" / "latest" / "report.json").read_text())
    assert report["status"] == "solved"
    (warning,) = report["warnings"]
    assert "never reads data/suppliers.csv" in warning["message"]
    assert "products" not in warning["message"] and "limits" not in warning["message"]


def test_a_querys_values_never_name_a_column(tmp_path):
    """The recorder reads a query's text and files, not its parameters: a value that spells a column's name
    (`region`, passed as a parameter, as executemany passes rows) does not count as the program naming it."""
    program = """import duckdb
con = duckdb.connect()
con.execute("select plant, capacity from read_csv('data/plants.csv')").fetchall()
con.execute("select sum(qty), max(order_id) from 'data/orders.csv'").fetchall()
con.execute("select ? as label", ["region"]).fetchall()
con.executemany("select ?", [["region"], ["weights"]])
"""
    folder = run_on_tables(tmp_path, program)
    messages = [w["message"] for w in findings(folder, {}, tmp_path / "work")]
    assert any("region of data/plants.csv" in m for m in messages), messages
