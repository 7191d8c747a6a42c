"""Tables in data/ (issue 22): a schema-only summary, the validator naming a missing column, folders whose data
is only CSV or only Parquet solving offline, data/ read-only in the sandbox, the travel ground truth."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

from optimus.commands.cli import main
from optimus.core.datasummary import summarize_problem
from optimus.core.problem import load_problem
from optimus.core.sandbox import get_backend
from optimus.core.sandbox.bwrap import BwrapBackend
from optimus.core.tables import sandbox_inputs, summary

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "travel"))

from check import best_trip
from generate import generate

# A product mix whose every number is in two tables, no data.json: make at most `hours` of work.
PRODUCTS = [("gear", 30.0, 3.0), ("shaft", 24.0, 4.0), ("valve", 20.0, 1.0), ("pump", 55.0, 5.0)]
LIMIT, CAP = 12.0, 4.0  # hours available; at most CAP of each product
SOLVER = """import json, duckdb, pulp
rows = duckdb.sql("select name, profit, hours from 'data/products.EXT' order by name").fetchall()
hours = duckdb.sql("select available from 'data/limits.EXT' where resource = 'hours'").fetchone()[0]
cap = duckdb.sql("select available from 'data/limits.EXT' where resource = 'per_product'").fetchone()[0]
prob = pulp.LpProblem("mix", pulp.LpMaximize)
x = {n: prob.add_variable(f"make_{n}", 0, cap) for n, _, _ in rows}
prob += pulp.lpSum(p * x[n] for n, p, _ in rows)
prob += pulp.lpSum(h * x[n] for n, _, h in rows) <= hours, "s1_hours"
prob.writeMPS("model.mps")
prob.solve(pulp.HiGHS(msg=False))
ok = pulp.LpStatus[prob.status] == "Optimal"
json.dump({"make": {n: x[n].varValue for n, _, _ in rows}} if ok else {}, open("output.json", "w"))
json.dump({"status": "optimal" if ok else "infeasible", "objective": pulp.value(prob.objective),
           "values": {v.name: v.varValue for v in prob.variables()}}, open("solution.json", "w"))
"""


def mix_folder(root: Path, ext: str) -> Path:
    (root / "data").mkdir(parents=True)
    (root / "reference").mkdir()
    con = duckdb.connect()
    con.execute("create table products (name varchar, profit double, hours double)")
    con.executemany("insert into products values (?, ?, ?)", PRODUCTS)
    con.execute("create table limits (resource varchar, available double)")
    con.executemany("insert into limits values (?, ?)", [("hours", LIMIT), ("per_product", CAP)])
    fmt = "(format parquet)" if ext == "parquet" else "(format csv, header true)"
    for name in ("products", "limits"):
        con.execute(f"copy {name} to '{root / 'data' / f'{name}.{ext}'}' {fmt}")
    snop = {"problem_type": "LP", "solver": "pulp",
            "problem_info": ["At most \\param{hours} hours of work are used, each product taking its hours per unit.",
                             "At most \\param{per_product} units of each product are made."],
            "input_format": f"data/products.{ext}(name, profit, hours)\ndata/limits.{ext}(resource, available)",
            "objective": "Maximize the total profit.", "output_info": ["units made of each product"],
            "output_format": '{"make": {name: units for name in products}}'}
    (root / "snop.json").write_text(json.dumps(snop))
    (root / "reference" / "solver.py").write_text(SOLVER.replace("EXT", ext))
    (root / "reference" / "formulation.md").write_text("Family: pulp\nmax Σ profit x s.t. Σ hours x ≤ H, 0 ≤ x ≤ cap")
    return root


def greedy_optimum() -> float:
    """The LP's optimum the second way: a fractional knapsack is solved by taking the best profit per hour first."""
    left, total = LIMIT, 0.0
    for _, profit, hours in sorted(PRODUCTS, key=lambda p: -p[1] / p[2]):
        units = min(CAP, left / hours)
        total, left = total + units * profit, left - units * hours
    return total


@pytest.mark.parametrize("ext", ["csv", "parquet"])
def test_a_folder_with_only_tables_solves_offline(tmp_path, ext):
    folder = mix_folder(tmp_path / ext, ext)
    assert not (folder / "data.json").exists()
    code = main(["solve", str(folder), "--llm", "reference", "--sandbox", "process", "--mode", "debug"])
    report = json.loads((folder / "runs" / "latest" / "report.json").read_text())
    assert code == 0, report.get("message")
    assert report["status"] == "solved" and report["objective"] == pytest.approx(greedy_optimum(), abs=1e-6)


def test_a_missing_column_exits_2_naming_file_and_column(tmp_path, capsys):
    folder = mix_folder(tmp_path / "p", "csv")
    snop = json.loads((folder / "snop.json").read_text())
    snop["input_format"] = snop["input_format"].replace("hours)", "hours, weight)")
    (folder / "snop.json").write_text(json.dumps(snop))
    assert main(["validate", str(folder)]) == 2
    out = capsys.readouterr().out
    assert "data/products.csv" in out and "'weight'" in out and "name, profit, hours" in out
    assert main(["solve", str(folder), "--llm", "reference", "--sandbox", "process"]) == 2
    assert "'weight'" in capsys.readouterr().err  # solve's error goes to stderr
    (folder / "snop.json").write_text(json.dumps({**snop, "input_format": "{}"}))
    (folder / "data" / "README.md").write_text("Tables:\n- data/limits.csv: resource, amount (hours)\n")
    assert main(["validate", str(folder)]) == 2
    out = capsys.readouterr().out
    assert "data/limits.csv: amount: column 'amount' is named" in out and "products" not in out
    (folder / "data" / "limits.csv").unlink()
    assert main(["validate", str(folder)]) == 2
    assert "limits.csv" in capsys.readouterr().out


def test_the_summary_is_the_schema_and_does_not_grow_with_rows(tmp_path):
    texts = []
    for rows in (10, 20_000):
        generate(tmp_path / str(rows) / "data", flights=rows)
        texts.append(summary(tmp_path / str(rows)))
    small, big = texts
    assert "flights.parquet: 10 rows" in small and "flights.parquet: 20000 rows" in big
    assert "origin VARCHAR" in big and "price INTEGER" in big and "room_type VARCHAR (3 distinct)" in big
    for value in ("Ambermoor", "entire home", "seafood"):  # values of the tables never appear
        assert value not in big
    assert abs(len(big) - len(small)) <= 12  # the row counts' and distinct counts' digits only


def test_the_problem_summary_has_data_json_and_tables():
    text = summarize_problem(load_problem(ROOT / "travel" / "1"))
    assert '"budget": int' in text and "data/hotels.parquet: 240 rows" in text and "duckdb" in text


@pytest.mark.parametrize("name", ["process", "bwrap"])
def test_data_is_read_only_and_not_copied_back(tmp_path, name):
    if name == "bwrap" and BwrapBackend.check() is not None:
        pytest.skip(f"bwrap: {BwrapBackend.check()}")
    folder = mix_folder(tmp_path / "p", "csv")
    work = tmp_path / "work"
    work.mkdir()
    probe = ("import duckdb, os\nprint(duckdb.sql(\"select count(*) from 'data/products.csv'\").fetchone()[0])\n"
             "try:\n    open('data/products.csv', 'a').write('x')\nexcept OSError:\n    print('refused')\n")
    result = get_backend(name).run(["python", "-c", probe], work, readonly=sandbox_inputs(folder / "data.json"))
    # bwrap mounts data/ read-only; the process backend gives a copy (root may write to it, the user's file stays)
    assert result.stdout.split()[:1] == ["4"], result.stderr
    assert name == "process" or result.stdout.split()[1:] == ["refused"]
    assert (folder / "data" / "products.csv").read_text().endswith("\n")
    assert not (work / "data").exists()  # the mount point (or copy) is gone


def test_travel_folders_keep_one_source():
    """Every folder's program, tests and formulation are travel/'s own (build.py copies them), its tables the
    generator's."""
    for folder in travel_folders():
        for copy, source in (("reference/solver.py", "solver.py"), ("tests/test_trip.py", "test_trip.py"),
                             ("reference/formulation.md", "formulation.md")):
            assert (folder / copy).read_text() == (ROOT / "travel" / source).read_text(), f"{folder.name}/{copy}"


def test_committed_travel_tables_are_the_generators(tmp_path):
    generate(tmp_path)
    for name in ("flights", "hotels", "restaurants", "attractions"):
        fresh = duckdb.sql(f"select * from '{tmp_path / name}.parquet' order by 1").fetchall()
        for folder in travel_folders():
            path = next((folder / "data").glob(f"{name}.*"))
            assert duckdb.sql(f"select * from '{path}' order by 1").fetchall() == fresh, str(path)


def travel_folders():
    return sorted(p for p in (ROOT / "travel").iterdir() if (p / "snop.json").is_file())


@pytest.mark.slow
@pytest.mark.parametrize("folder", travel_folders(), ids=lambda p: p.name)
def test_travel_ground_truth_two_ways(tmp_path, folder):
    """expected.json, the brute force of travel/check.py and the MILP of reference/solver.py all agree."""
    expected = json.loads((folder / "expected.json").read_text())
    best = best_trip(folder)
    assert (best is None) == (expected["status"] == "infeasible")
    work = tmp_path / "w"
    shutil.copytree(folder, work, ignore=shutil.ignore_patterns("runs", "variants"))
    subprocess.run([sys.executable, "reference/solver.py"], cwd=work, check=True, timeout=300)
    solution = json.loads((work / "solution.json").read_text())
    assert solution["status"] == expected["status"]
    if best is not None:
        assert solution["objective"] == pytest.approx(best, abs=1e-6) == expected["objective"]
