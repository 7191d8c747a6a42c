"""The cbc binary on MPS files written by HiGHS (as every pyoptinterface program writes model.mps): LI/UI bounds,
free and negative-lower-bound integers, OBJSENSE, an objective constant as the objective row's RHS. Ground truth:
a value by hand, and HiGHS solving the same file."""

from __future__ import annotations

import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import highspy
import pytest

from optimus.core.families.pulp.resolve.cbc import read_result, solve_mps

ROOT = Path(__file__).resolve().parents[1]
# pyoptinterface loads its own libhighs (highsbox): in a process where highspy's has run, that crashes, so each
# model is built and written in a child process, as the generated programs are.
PRELUDE = """
import random
import pyoptinterface as poi
from pyoptinterface import highs
highs.autoload_library()
m = highs.Model()
m.set_model_attribute(poi.ModelAttribute.Silent, True)
INF = float("inf")
"""


def written_by_highs(path: Path, body: str) -> Path:
    """Run `body` (pyoptinterface statements on `m`) in a child, then m.write(path): HiGHS's MPS writer."""
    code = PRELUDE + textwrap.dedent(body) + f"\nm.write({str(path)!r})\n"
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, timeout=120)
    return path


def every_kind(path: Path, sense: str) -> Path:
    """max 3b + 2g - n + 0.5f + x + c + 7.25 over b binary, g integer in [2, 7], n integer in [-5, 3], f a free
    integer, x free, c in [0, 4.5]; r1: f - 2n >= 1.5, r2: f + g + b <= 9, r3: x - c >= -2.25, r4: x + f <= 12.5.
    By hand: x = 12.5 - f, so the objective is 3b + 2g - n - 0.5f + c + 19.75; c = 4.5; n = -5 lets f = -8
    (f >= -8.5), each step up of n costs 1 + 1; then g + b <= 17: g = 7, b = 1.
    3 + 14 + 5 + 4 + 4.5 + 19.75 = 50.25. sense "min" minimises the negation: -50.25."""
    return written_by_highs(path, f"""
        b = m.add_variable(domain=poi.VariableDomain.Binary, name="b")
        g = m.add_variable(domain=poi.VariableDomain.Integer, lb=2, ub=7, name="g")
        n = m.add_variable(domain=poi.VariableDomain.Integer, lb=-5, ub=3, name="n")
        f = m.add_variable(domain=poi.VariableDomain.Integer, lb=-INF, name="f")
        x = m.add_variable(lb=-INF, name="x")
        c = m.add_variable(lb=0, ub=4.5, name="c")
        m.add_linear_constraint(f - 2 * n, poi.Geq, 1.5, name="r1")
        m.add_linear_constraint(f + g + b, poi.Leq, 9, name="r2")
        m.add_linear_constraint(x - c, poi.Geq, -2.25, name="r3")
        m.add_linear_constraint(x + f, poi.Leq, 12.5, name="r4")
        objective = 3 * b + 2 * g - n + 0.5 * f + x + c + 7.25
        if {sense!r} == "max":
            m.set_objective(objective, poi.ObjectiveSense.Maximize)
        else:
            m.set_objective(-1 * objective, poi.ObjectiveSense.Minimize)
        """)


def highs_on(path: Path) -> tuple[str, float | None]:
    """The second way: HiGHS reads the same file (its OBJSENSE and constant included) and solves it."""
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.readModel(str(path))
    h.run()
    status = h.getModelStatus().name
    return status, float(h.getInfo().objective_function_value) if status == "kOptimal" else None


@pytest.mark.parametrize("sense, by_hand", [("max", 50.25), ("min", -50.25)])
def test_every_column_kind_and_the_constant_are_read(tmp_path, sense, by_hand):
    path = every_kind(tmp_path / "model.mps", sense)
    text = path.read_text()
    assert " LI " in text and " UI " in text and " FR " in text  # the shapes PuLP refused
    assert ("OBJSENSE" in text) == (sense == "max") and "RHS_V     Obj" in text  # the constant as the RHS
    cbc = solve_mps(str(path), sense, 20)
    assert cbc["status"] == "optimal" and cbc["solver"] == "CBC"
    assert cbc["objective"] == pytest.approx(by_hand, abs=1e-6) and cbc["bound"] == pytest.approx(by_hand, abs=1e-6)
    assert highs_on(path) == ("kOptimal", pytest.approx(by_hand, abs=1e-6))


def test_a_continuous_model_with_a_constant(tmp_path):
    """An LP: min 2x + 3y + 10, x + y >= 4, x <= 3, y >= 0: x = 3, y = 1 gives 6 + 3 + 10 = 19."""
    written_by_highs(tmp_path / "lp.mps", """
        x, y = m.add_variable(lb=0, ub=3, name="x"), m.add_variable(lb=0, name="y")
        m.add_linear_constraint(x + y, poi.Geq, 4, name="need")
        m.set_objective(2 * x + 3 * y + 10, poi.ObjectiveSense.Minimize)
        """)
    cbc = solve_mps(str(tmp_path / "lp.mps"), "min", 20)
    assert (cbc["status"], cbc["objective"]) == ("optimal", pytest.approx(19))
    assert highs_on(tmp_path / "lp.mps") == ("kOptimal", pytest.approx(19))


def test_an_infeasible_milp(tmp_path):
    """2a + 2b = 7 has no integer solution (the LP relaxation has: a = 3.5)."""
    written_by_highs(tmp_path / "inf.mps", """
        a = m.add_variable(domain=poi.VariableDomain.Integer, lb=0, ub=10, name="a")
        b = m.add_variable(domain=poi.VariableDomain.Integer, lb=0, ub=10, name="b")
        m.add_linear_constraint(2 * a + 2 * b, poi.Eq, 7, name="odd")
        m.set_objective(a + b + 3, poi.ObjectiveSense.Minimize)
        """)
    cbc = solve_mps(str(tmp_path / "inf.mps"), "min", 20)
    assert (cbc["status"], cbc["objective"], cbc["bound"]) == ("infeasible", None, None)
    assert highs_on(tmp_path / "inf.mps")[0] == "kInfeasible"


def test_an_unbounded_milp(tmp_path):
    """max a + b - 1, a integer >= 0, b >= -5, a - b <= 4: a = b + 4 grows without end."""
    written_by_highs(tmp_path / "unb.mps", """
        a = m.add_variable(domain=poi.VariableDomain.Integer, lb=0, name="a")
        b = m.add_variable(lb=-5, name="b")
        m.add_linear_constraint(a - b, poi.Leq, 4, name="r")
        m.set_objective(a + b - 1, poi.ObjectiveSense.Maximize)
        """)
    cbc = solve_mps(str(tmp_path / "unb.mps"), "max", 20)
    assert (cbc["status"], cbc["objective"]) == ("unbounded", None)
    assert highs_on(tmp_path / "unb.mps")[0] in ("kUnbounded", "kUnboundedOrInfeasible")


def test_the_sense_is_passed_not_read(tmp_path):
    """cbc skips OBJSENSE: without "max" it minimises the bakery's profit (0, making nothing)."""
    path = every_kind(tmp_path / "model.mps", "max")
    assert solve_mps(str(path), "max", 20)["objective"] == pytest.approx(50.25)
    assert solve_mps(str(path), "min", 20)["objective"] != pytest.approx(50.25)


def market_split(path: Path, seed: int = 3) -> Path:
    """Split 60 binaries so that six weighted sums each hit half their total; slack costs 1 a unit (Cornuéjols and
    Dawande's shape, known hard for branch and bound): no solver proves it within a second."""
    return written_by_highs(path, f"""
        rng = random.Random({seed})
        xs = [m.add_variable(domain=poi.VariableDomain.Binary, name=f"x{{j}}") for j in range(60)]
        slack = []
        for i in range(6):
            w = [rng.randint(0, 99) for _ in xs]
            over, under = m.add_variable(lb=0, name=f"over{{i}}"), m.add_variable(lb=0, name=f"under{{i}}")
            m.add_linear_constraint(poi.quicksum(wj * x for wj, x in zip(w, xs)) + over - under, poi.Eq,
                                    sum(w) // 2, name=f"split{{i}}")
            slack += [over, under]
        m.set_objective(poi.quicksum(slack), poi.ObjectiveSense.Minimize)
        """)


def test_a_time_limit_is_reported_with_its_bound(tmp_path):
    path = market_split(tmp_path / "hard.mps")
    cbc = solve_mps(str(path), "min", 1.0)
    assert cbc["status"] == "time_limit"
    assert cbc["seconds"] < 15  # wall clock (cbc's default -sec is CPU seconds)
    if cbc["objective"] is not None:  # an incumbent: a slack total, and a lower bound no greater
        assert cbc["objective"] >= 0 and cbc["bound"] is not None and cbc["bound"] <= cbc["objective"] + 1e-9


@pytest.mark.parametrize("first_line, log, expected", [
    # cbc's own words, as its 2.10 binary wrote them in this repository's runs
    ("Stopped on time (no integer solution - continuous used) - objective value 0.00000000",
     "Result - Stopped on time limit\n\nNo feasible solution found\nLower bound:  0.000\n", ("time_limit", None, None)),
    ("Stopped on time - objective value 0.00000000",  # CPU-time mode: no incumbent, yet "objective value 0"
     "Result - Stopped on time limit\n\nObjective value:  100000000000000007629769841091887003294964970946560.0\n",
     ("time_limit", None, None)),
    ("Stopped on iterations - objective value 1947.50000000",
     "Result - Stopped on node limit\n\nObjective value:  1947.50000000\nUpper bound:   1966.917\n",
     ("time_limit", 1947.5, 1966.917)),
    ("Integer infeasible - objective value 6.50000000", "", ("infeasible", None, None)),
    ("Stopped on difficulties - objective value 3", "", ("error", None, None)),
])
def test_the_solution_file_is_read(first_line, log, expected):
    got = read_result(first_line, log)
    assert (got["status"], got["objective"], got["bound"]) == expected


@pytest.mark.skipif(shutil.which("bash") is None, reason="runs the bakery's reference program")
def test_the_bakery_model_written_by_highs(tmp_path):
    """The bakery's reference program writes model.mps through HiGHS (LI bounds, OBJSENSE MAX); its expected.json
    holds the profit worked out by hand."""
    import json

    folder = tmp_path / "bakery"
    shutil.copytree(ROOT / "examples" / "bakery", folder)
    subprocess.run([sys.executable, "reference/solver.py"], cwd=folder, check=True, capture_output=True, timeout=120)
    expected = json.loads((folder / "expected.json").read_text())["objective"]
    cbc = solve_mps(str(folder / "model.mps"), "max", 20)
    assert (cbc["status"], cbc["objective"]) == ("optimal", pytest.approx(expected))
    assert highs_on(folder / "model.mps") == ("kOptimal", pytest.approx(expected))
