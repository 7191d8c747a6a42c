"""The two reference programs of an industrial/ class build one model two ways: reference/solver.py through
pyoptinterface, one call per variable and row, and reference/solver_arrays.py (what the codegen rules teach for
large data, and the reference of the 1e5 and 1e6 folders) as numpy arrays handed to highspy. On the committed 1e3
folder both must write the same model under the same names (every column's cost, bounds and integrality, every
row's bounds, every coefficient, read back from model.mps by HiGHS), reach the same optimum, and the array
program's output must pass the folder's supervised tests."""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path

import numpy as np
import pytest

from tests.test_industrial import ROOT, build, groundtruth, supervised

MAKE = ROOT / "industrial" / "_make"
ARRAYS = sorted(c for c in build.classes() if (MAKE / c / build.LARGE).is_file())


def named_model(path: Path) -> dict:
    """A model file as HiGHS reads it, keyed by names: columns, rows and coefficients."""
    import highspy

    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.readModel(str(path))
    lp = h.getLp()
    cols, rows = list(lp.col_names_), list(lp.row_names_)
    integer = [str(t) for t in lp.integrality_] or ["continuous"] * len(cols)
    a = lp.a_matrix_  # each attribute read once: every read copies the whole array
    start, index, value = np.asarray(a.start_), np.asarray(a.index_), np.asarray(a.value_)
    cost, lower, upper = (np.asarray(x).tolist() for x in (lp.col_cost_, lp.col_lower_, lp.col_upper_))
    row_lower, row_upper = np.asarray(lp.row_lower_).tolist(), np.asarray(lp.row_upper_).tolist()
    coefficients = {}
    for j, col in enumerate(cols):  # HiGHS reads MPS column-wise
        for k in range(start[j], start[j + 1]):
            coefficients[rows[index[k]], col] = (float(value[k]),)
    return {"columns": {c: (cost[j], lower[j], upper[j], integer[j]) for j, c in enumerate(cols)},
            "rows": {r: (row_lower[i], row_upper[i]) for i, r in enumerate(rows)},
            "coefficients": coefficients, "sense": str(lp.sense_), "offset": lp.offset_}


def same(a: tuple, b: tuple) -> bool:
    """Equal, numbers to 1e-12 relative: pyoptinterface ships its own HiGHS (highsbox), whose MPS writer keeps 15
    significant digits where highspy's keeps 17, so a sum like 5.880000000000001 reads back as 5.88 from one."""
    return len(a) == len(b) and all(
        x == y if isinstance(x, str) or isinstance(y, str) else math.isclose(x, y, rel_tol=1e-12, abs_tol=0)
        for x, y in zip(a, b))


def differences(a: dict, b: dict, what: str) -> list[str]:
    """What differs between two name-keyed maps of tuples (at most 5, for the message)."""
    found = [f"{what} {k!r} only in the pyoptinterface model" for k in sorted(a.keys() - b.keys(), key=str)]
    found += [f"{what} {k!r} only in the array model" for k in sorted(b.keys() - a.keys(), key=str)]
    found += [f"{what} {k!r}: {a[k]} vs {b[k]}" for k in sorted(a.keys() & b.keys(), key=str) if not same(a[k], b[k])]
    return found[:5]


@pytest.fixture(scope="module", params=ARRAYS)
def both(request):
    """Both programs run on the class's committed 1e3 folder: {program: (solution.json, output.json, model)}."""
    folder = ROOT / "industrial" / f"{request.param}-1e3"
    found = {}
    for program in (folder / "reference" / "solver.py", MAKE / request.param / build.LARGE):
        solution, work = groundtruth.run_reference(folder, program=program)
        try:
            output = json.loads((work / "output.json").read_text())
            found[program.name] = (solution, output, named_model(work / "model.mps"))
        finally:
            shutil.rmtree(work, ignore_errors=True)
    return request.param, folder, found


def test_there_is_an_array_program_to_compare():
    assert "facility-location" in ARRAYS


def test_both_programs_write_the_same_named_model(both):
    cls, _, found = both
    poi, arrays = found["solver.py"][2], found["solver_arrays.py"][2]
    assert (poi["sense"], poi["offset"]) == (arrays["sense"], arrays["offset"]), cls
    wrong = [d for part in ("columns", "rows", "coefficients") for d in differences(poi[part], arrays[part], part)]
    assert not wrong, f"{cls}: the two programs' models differ:\n" + "\n".join(wrong)


def test_both_programs_reach_the_same_optimum_and_report_every_column(both):
    cls, _, found = both
    (poi, _, model), (arrays, _, _) = found["solver.py"], found["solver_arrays.py"]
    assert poi["status"] == arrays["status"] == "optimal", cls
    assert math.isclose(poi["objective"], arrays["objective"], rel_tol=1e-9, abs_tol=1e-6), cls
    assert set(arrays["values"]) == set(model["columns"]), f"{cls}: solution.json's values are not the model's"
    assert set(arrays["seconds"]) >= {"build", "write", "solve"}, cls


def test_the_array_programs_output_passes_the_supervised_tests(both, tmp_path):
    cls, folder, found = both
    solution, output, _ = found["solver_arrays.py"]
    done = supervised(folder, output, solution, tmp_path / "arrays")
    assert done.returncode == 0, f"{cls}: the array program's output fails its tests:\n{done.stdout[-2000:]}"


def test_folders_above_the_committed_sizes_get_the_array_program(tmp_path):
    chosen = build.template_files("facility-location", "1e5")
    assert chosen[Path("reference/solver.py")] == MAKE / "facility-location" / build.LARGE
    assert build.LARGE not in chosen
    small = build.template_files("facility-location", "1e3")
    assert small[Path("reference/solver.py")] == MAKE / "facility-location" / "reference" / "solver.py"
    assert build.LARGE not in small
