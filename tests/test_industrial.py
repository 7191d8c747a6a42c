"""industrial/: every class's committed 1e3 folder is what its generator writes, and the reference program and the
class's direct highspy arrays agree on the optimum (and on the model's rows, columns, nonzeros and LP relaxation).

Parametrized over the class registry (industrial/_make/build.py `classes()`): a new class module is tested here
without editing this file."""

from __future__ import annotations

import importlib.util
import json
import math
import shutil
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

ROOT = Path(__file__).resolve().parents[1]
INDUSTRIAL = ROOT / "industrial"


def _load(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


build = _load(INDUSTRIAL / "_make" / "build.py", "industrial_build")
groundtruth = _load(INDUSTRIAL / "_make" / "groundtruth.py", "industrial_groundtruth")
CLASSES = sorted(build.classes())
MUTATED = [c for c in CLASSES if hasattr(build.classes()[c], "wrong")]  # classes that say how to break an output
CONFTEST = ROOT / "optimus" / "core" / "testing" / "conftest.py"
SKIP = {"runs", "__pycache__", ".pytest_cache"}


def files(folder: Path) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*")
            if p.is_file() and not SKIP & set(p.relative_to(folder).parts)}


def rows(path: Path) -> list:
    return duckdb.sql(f"SELECT * FROM read_parquet('{path}')").fetchall()


@pytest.mark.parametrize("cls", CLASSES)
def test_regenerated_1e3_folder_matches_committed(cls, tmp_path):
    committed = INDUSTRIAL / f"{cls}-1e3"
    fresh = build.write_folder(cls, "1e3", tmp_path)
    assert files(fresh) == files(committed), f"{cls}: file lists differ: {files(fresh) ^ files(committed)}"
    for rel in sorted(files(committed)):
        if rel.endswith(".parquet"):  # compared by content: the writer's metadata is not ours to pin
            assert rows(fresh / rel) == rows(committed / rel), f"{cls}-1e3/{rel}: rows differ from the generator's"
        else:
            assert (fresh / rel).read_bytes() == (committed / rel).read_bytes(), (
                f"{cls}-1e3/{rel} differs from what industrial/_make/build.py writes")


@pytest.mark.parametrize("cls", CLASSES)
def test_reference_program_and_direct_arrays_agree_at_1e3(cls):
    folder = INDUSTRIAL / f"{cls}-1e3"
    line, ok = groundtruth.check(build.classes()[cls], folder, "1e3")
    assert ok, line
    expected = json.loads((folder / "expected.json").read_text())
    solved = build.classes()[cls].direct(folder)
    assert expected["status"] == solved["status"] == "optimal", line
    assert math.isclose(expected["objective"], solved["objective"], rel_tol=1e-9, abs_tol=1e-6), (
        f"{cls}-1e3: expected.json says {expected['objective']}, direct() proves {solved['objective']}")


@pytest.mark.parametrize("cls", CLASSES)
def test_committed_folders_are_complete(cls):
    for size in build.COMMITTED:
        folder = INDUSTRIAL / f"{cls}-{size}"
        have = files(folder)
        for rel in ("snop.json", "data.json", "data/README.md", "expected.json", "reference/formulation.md",
                    "reference/solver.py"):
            assert rel in have, f"{folder.name} lacks {rel}"
        assert any(r.startswith("tests/test_") for r in have), f"{folder.name} has no supervised tests"
        tables = [r for r in have if r.startswith("data/") and r.endswith((".csv", ".parquet"))]
        assert len(tables) >= 2, f"{folder.name}: {tables} (a class's data is in several tables)"
        readme = (folder / "data" / "README.md").read_text()
        for t in tables:
            assert f"## {Path(t).name}" in readme, f"{folder.name}/data/README.md has no section for {t}"


def supervised(folder: Path, output: dict, solution: dict, work: Path) -> subprocess.CompletedProcess:
    """The folder's supervised tests on `output`, laid out as the harness lays them out (data/ beside them)."""
    work.mkdir()
    for path in [CONFTEST, folder / "data.json", *(folder / "tests").glob("test_*.py")]:
        shutil.copy(path, work)
    shutil.copytree(folder / "data", work / "data")
    (work / "output.json").write_text(json.dumps(output))
    (work / "solution.json").write_text(json.dumps(solution))
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "."], check=False, cwd=work,
                          capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("cls", MUTATED)
def test_supervised_tests_accept_the_reference_output_and_reject_a_broken_one(cls, tmp_path):
    folder = INDUSTRIAL / f"{cls}-1e3"
    solution, work = groundtruth.run_reference(folder)
    try:
        output = json.loads((work / "output.json").read_text())
    finally:
        shutil.rmtree(work, ignore_errors=True)
    accepted = supervised(folder, output, solution, tmp_path / "accept")
    assert accepted.returncode == 0, f"{cls}: the reference output fails its tests:\n{accepted.stdout[-2000:]}"
    rejected = supervised(folder, build.classes()[cls].wrong(output), solution, tmp_path / "reject")
    assert rejected.returncode == 1 and " failed" in rejected.stdout and " error" not in rejected.stdout, (
        f"{cls}: a broken output is not rejected by a failing test:\n{rejected.stdout[-2000:]}")


def test_transposed_table_is_one_row_of_names_and_one_of_values(tmp_path):
    common = build.common
    common.write_transposed(tmp_path / "t.csv", {"h1": [3], "h2": 4.5, "h3": 0})
    assert (tmp_path / "t.csv").read_text() == "h1,h2,h3\n3,4.5,0\n"
    (tmp_path / "data").mkdir()
    (tmp_path / "t.csv").rename(tmp_path / "data" / "t.csv")
    assert common.read_transposed(tmp_path, "t.csv") == {"h1": 3.0, "h2": 4.5, "h3": 0.0}


def test_array_model_solves_a_known_milp():
    """max 5a + 4b, 6a + 4b <= 24, a + 2b <= 6, a, b integer in [0, 10]: the optimum by enumeration here."""
    best = max(5 * a + 4 * b for a in range(10) for b in range(10) if 6 * a + 4 * b <= 24 and a + 2 * b <= 6)
    m = build.common.ArrayModel("max")
    v = m.add_vars(2, [5, 4], 0, 10, integer=True)
    m.add_rows(-math.inf, [24, 6], [0, 0, 1, 1], [v[0], v[1], v[0], v[1]], [6, 4, 1, 2])
    result = m.solve()
    assert (result["status"], result["rows"], result["cols"], result["nnz"]) == ("optimal", 2, 2, 4)
    assert math.isclose(result["objective"], best), result
