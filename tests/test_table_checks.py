"""Output checks at scale (issue 29): a level of output_format over a table's rows (`for s in facilities`) has
as many items as data/facilities.csv has rows."""

from __future__ import annotations

import json
from pathlib import Path

from optimus.commands.cli import main
from optimus.core.checks import run_checks
from optimus.core.tables import row_counts
from tests.test_tables import PRODUCTS, mix_folder

FORMAT = '{"open": [open_{s} for s in facilities], "serve": {c: site_{c} for c in customers}, "n": N}'
SOLVED = {"status": "optimal", "objective": 1.0}


def lengths(output: dict, rows: dict[str, int]) -> dict:
    check = next(c for c in run_checks(FORMAT, "{}", {}, output, SOLVED, rows) if c.name == "output lengths")
    return {"passed": check.passed, "message": check.message}


def test_lists_and_maps_over_a_table_have_one_item_per_row(tmp_path):
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "facilities.csv").write_text("site,cost\n" + "".join(f"f{i},{i}\n" for i in range(3)))
    (tmp_path / "data" / "customers.parquet").write_bytes(b"")  # unreadable: no length is read from it
    (tmp_path / "data" / "customers.csv").write_text("name\nann\nbob\n")
    rows = row_counts(tmp_path)
    assert rows == {"facilities": 3, "customers": 2}
    good = {"open": [1, 0, 1], "serve": {"ann": "f0", "bob": "f2"}, "n": 3}
    assert lengths(good, rows)["passed"] is True
    short = lengths({**good, "open": [1, 0]}, rows)
    assert short["passed"] is False and "open has 2 items, but the rows of table facilities = 3" in short["message"]
    extra = lengths({**good, "serve": {"ann": "f0", "bob": "f2", "cy": "f1"}}, rows)
    assert extra["passed"] is False and "serve has 3 items, but the rows of table customers = 2" in extra["message"]
    assert lengths({**good, "open": [1, 0]}, {})["passed"] is None  # no table: not checked, as before


def test_a_solve_checks_a_map_over_a_tables_rows(tmp_path):
    folder = mix_folder(tmp_path / "p", "csv")  # output_format: {"make": {name: units for name in products}}
    snop = json.loads((folder / "snop.json").read_text())
    snop["output_format"] = '{"make": {name: units for name in products}}'
    (folder / "snop.json").write_text(json.dumps(snop))
    assert main(["solve", str(folder), "--llm", "reference", "--sandbox", "process", "--mode", "prompt"]) == 0
    checks = {c["name"]: c for c in report_of(folder)["checks"]}
    assert checks["output lengths"]["passed"] is True and "make" in checks["output lengths"]["message"]
    # a program that leaves a product out fails the check: products.csv has len(PRODUCTS) rows
    solver = folder / "reference" / "solver.py"
    text = solver.read_text()
    assert "for n, _, _ in rows}} if ok" in text
    solver.write_text(text.replace("for n, _, _ in rows}} if ok", "for n, _, _ in rows[1:]}} if ok"))
    main(["solve", str(folder), "--llm", "reference", "--sandbox", "process", "--mode", "prompt"])
    checks = {c["name"]: c for c in report_of(folder)["checks"]}
    assert checks["output lengths"]["passed"] is False
    assert f"make has {len(PRODUCTS) - 1} items, but the rows of table products = {len(PRODUCTS)}" in \
        checks["output lengths"]["message"]


def report_of(folder: Path) -> dict:
    return json.loads((folder / "runs" / "latest" / "report.json").read_text())
