"""The re-check at scale and at a time limit: answers a time limit stopped are verified by substitution, with a
gap computed from objective and bound; the vectorised row check and the row-family summary of a large model
agree with the plain per-row computation."""

from __future__ import annotations

import json
import math
from pathlib import Path

import highspy
import numpy as np
import pytest

from optimus.core.diagnose import capture_map
from optimus.core.errors import SandboxError
from optimus.core.families.pulp.resolve.check import check_values
from optimus.core.families.pulp.resolve.model import load, row_families
from optimus.core.families.pulp.verify import capture, verify_attempt
from optimus.core.sandbox import Limits
from optimus.core.sandbox.files import copy_result_file
from tests.helpers import NLP4LP

LIMITS = Limits(wall_s=120, cpu_s=120, memory_mb=4096)
ROTA = "18"  # ward rota: a small MILP (14 integer variables), minimised


def statements(name: str) -> list[str]:
    from optimus.core.problem import load_problem

    return load_problem(NLP4LP / name).snop.problem_info


def solve_mps(path: Path, relax: bool = False, extra_row: tuple[str, float] | None = None) -> tuple[float, dict]:
    """HiGHS on model.mps in this process: the objective and the values by name; `relax` drops integrality,
    `extra_row` (column, lower bound) adds a row x >= lb that the captured model does not have."""
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.readModel(str(path))
    lp = h.getLp()
    n = lp.num_col_
    if relax:
        h.changeColsIntegrality(n, np.arange(n, dtype=np.int32), np.zeros(n, dtype=np.uint8))
    if extra_row:
        j = list(lp.col_names_).index(extra_row[0])
        h.addRow(extra_row[1], math.inf, 1, np.array([j], dtype=np.int32), np.array([1.0]))
    h.run()
    assert h.getModelStatus() == highspy.HighsModelStatus.kOptimal
    return h.getInfo().objective_function_value, dict(zip(lp.col_names_, h.getSolution().col_value))


@pytest.fixture(scope="module")
def rota(tmp_path_factory, sandbox):
    """The rota's reference program run once: model.mps, its optimum, a worse feasible incumbent (the optimum
    with one more row) and a valid bound (the LP relaxation)."""
    work = tmp_path_factory.mktemp("rota")
    (work / "solver.py").write_text((NLP4LP / ROTA / "reference" / "solver.py").read_text())
    result = sandbox.run(["python", "solver.py"], workdir=work, readonly={"data.json": NLP4LP / ROTA / "data.json"},
                         limits=LIMITS)
    assert result.exit_code == 0, result.stderr[-2000:]
    best, _ = solve_mps(work / "model.mps")
    incumbent, values = solve_mps(work / "model.mps", extra_row=("ft_7", 5))
    bound, _ = solve_mps(work / "model.mps", relax=True)
    assert bound < best < incumbent, "the incumbent must be worse than the optimum, and the bound below both"
    return {"work": work, "best": best, "incumbent": incumbent, "values": values, "bound": bound}


def answer(rota, tmp_path: Path, **changes) -> Path:
    """An attempt folder holding the rota's model.mps and a time-limit solution.json (changed by `changes`)."""
    work = tmp_path / "a"
    work.mkdir()
    (work / "model.mps").write_bytes((rota["work"] / "model.mps").read_bytes())
    obj, bound = rota["incumbent"], rota["bound"]
    solution = {"status": "time_limit", "objective": obj, "bound": bound, "gap": (obj - bound) / obj,
                "values": dict(rota["values"])}
    solution.update(changes)
    (work / "solution.json").write_text(json.dumps(solution))
    return work


def test_a_time_limit_answer_is_verified_with_its_gap(rota, tmp_path, sandbox):
    verdict = verify_attempt(answer(rota, tmp_path), statements(ROTA), sandbox, LIMITS)
    assert verdict.outcome == "agrees", verdict.summary
    gap = (rota["incumbent"] - rota["bound"]) / rota["incumbent"]
    assert verdict.incumbent["gap"] == pytest.approx(gap, rel=1e-9)
    assert verdict.incumbent["objective"] == pytest.approx(rota["incumbent"])
    assert verdict.incumbent["bound"] == pytest.approx(rota["bound"])
    assert f"substitution into the captured model: feasible within {100 * gap:.3g} % of optimal (time limit)" \
        in verdict.summary
    check = verdict.values_check
    assert check["columns_given"] == check["columns"] == 14 and check["rows_checked"] == check["rows"]
    assert "values" not in verdict.claimed and verdict.claimed["values_given"] == 14  # report.json stays small


def test_a_time_limit_answer_without_a_bound_is_feasible_gap_unknown(rota, tmp_path, sandbox):
    verdict = verify_attempt(answer(rota, tmp_path, bound=None, gap=None), statements(ROTA), sandbox, LIMITS)
    assert verdict.outcome == "agrees", verdict.summary
    assert verdict.incumbent["gap"] is None and "optimality not proven" in verdict.summary


@pytest.mark.parametrize("change, words", [
    (lambda r: {"bound": r["incumbent"] * 1.01}, "on the wrong side of its objective"),
    (lambda r: {"bound": (r["best"] + r["incumbent"]) / 2}, "beyond that bound"),
    (lambda r: {"gap": 1e-9}, "says gap"),
    (lambda r: {"objective": r["incumbent"] - 100}, "evaluated at its values"),
    (lambda r: {"values": {**r["values"], "ft_7": 0.0}}, "break constraint"),
])
def test_a_time_limit_answer_that_does_not_hold_is_caught(change, words, rota, tmp_path, sandbox):
    verdict = verify_attempt(answer(rota, tmp_path, **change(rota)), statements(ROTA), sandbox, LIMITS)
    assert verdict.disagrees, verdict.summary
    assert any(words in f for f in verdict.findings), verdict.findings


def test_a_time_limit_answer_without_values_is_not_verified(rota, tmp_path, sandbox):
    work = answer(rota, tmp_path)
    solution = json.loads((work / "solution.json").read_text())
    del solution["values"]
    (work / "solution.json").write_text(json.dumps(solution))
    verdict = verify_attempt(work, statements(ROTA), sandbox, LIMITS)
    assert verdict.outcome == "unconfirmed", verdict.summary


def random_model(tmp_path: Path, seed: int) -> tuple[Path, dict]:
    """A random MILP with every row sense (=, <=, >=, range), written by HiGHS as MPS; and what was put in it."""
    rng = np.random.default_rng(seed)
    n, m = 40, 60
    lower, upper = rng.uniform(-5, 0, n), rng.uniform(1, 5, n)
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.addVars(n, lower, upper)
    h.changeColsIntegrality(n // 2, np.arange(n // 2, dtype=np.int32), np.ones(n // 2, dtype=np.uint8))
    rows = []
    for i in range(m):
        cols, coefs = rng.choice(n, 4, replace=False).astype(np.int32), rng.uniform(-2, 2, 4)
        a, b = sorted(rng.uniform(-4, 4, 2))
        lo, hi = [(a, a), (-math.inf, b), (a, math.inf), (a, b)][i % 4]
        h.addRow(lo, hi, 4, cols, coefs)
        rows.append((cols, coefs, lo, hi))
    lp = h.getLp()
    lp.col_names_ = [f"x_{j}" for j in range(n)]
    lp.row_names_ = [f"s{i % 3 + 1}_r_{i}" for i in range(m)]
    h.passModel(lp)
    path = tmp_path / f"m{seed}.mps"
    h.writeModel(str(path))
    return path, {"lower": lower, "upper": upper, "integer": n // 2, "rows": rows}


def plain_violations(built: dict, x: list[float]) -> int:
    """The violations counted one column and one row at a time, from what was put into the model."""
    count = 0
    for j, v in enumerate(x):
        tol = 1e-6 + 1e-6 * abs(v)
        fractional = j < built["integer"] and abs(v - round(v)) > 1e-6
        if v < built["lower"][j] - tol or v > built["upper"][j] + tol or fractional:
            count += 1
    for cols, coefs, lo, hi in built["rows"]:
        terms = [a * x[j] for j, a in zip(cols, coefs)]
        scale = max([sum(abs(t) for t in terms)] + [abs(b) for b in (lo, hi) if math.isfinite(b)])
        tol = 1e-6 + 1e-6 * scale
        if sum(terms) < lo - tol or sum(terms) > hi + tol:
            count += 1
    return count


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_vectorised_check_counts_what_a_row_by_row_check_counts(seed, tmp_path):
    path, built = random_model(tmp_path, seed)
    point = np.random.default_rng(100 + seed).uniform(-3, 3, 40).round(1).tolist()
    model = load(str(path))
    assert model.cols == [f"x_{j}" for j in range(40)]
    x = dict(zip(model.cols, point))
    found = check_values(model, x)
    assert found["violations"] == plain_violations(built, point) > 0
    shuffled = dict(sorted(x.items(), key=lambda kv: kv[0][::-1]))  # not the model's order: looked up by name
    assert check_values(model, shuffled)["violations"] == found["violations"]


def test_a_large_models_row_families_give_the_capture_map_of_every_name():
    rows = ([f"s1_demand_c{j}" for j in range(500)] + [f"s2_cap_{i}_{k}" for i in range(30) for k in range(7)]
            + [f"s9_unknown_{i}" for i in range(3)] + ["limit_total", "x_1", "s3_single"])
    words = ["demand", "capacity", "single", "not encoded"]
    whole = capture_map(rows, words)
    assert capture({"row_families": row_families(rows)}, words) == whole
    assert whole["statements"]["s1"]["rows"] == 500 and whole["statements"]["s2"]["rows"] == 210


def test_a_copied_result_file_is_never_a_link_nor_over_its_limit(tmp_path):
    (tmp_path / "secret").write_text("host file")
    (tmp_path / "model.mps").symlink_to(tmp_path / "secret")
    with pytest.raises(SandboxError, match="symlink"):
        copy_result_file(tmp_path, "model.mps", tmp_path / "copy.mps", 1 << 20)
    (tmp_path / "big.mps").write_bytes(b"x" * 2048)
    with pytest.raises(SandboxError, match="over the 1024 limit"):
        copy_result_file(tmp_path, "big.mps", tmp_path / "copy.mps", 1024)
    copy_result_file(tmp_path, "big.mps", tmp_path / "copy.mps", 4096)
    assert (tmp_path / "copy.mps").read_bytes() == b"x" * 2048


def test_a_milp_above_the_cbc_size_is_re_solved_by_highs_alone(tmp_path, sandbox):
    """A path of 10,501 binaries, no two neighbours chosen, most weight (21,000 nonzeros): HiGHS alone re-solves it,
    and agrees with the optimum a dynamic program computes."""
    from optimus.core.families.pulp.resolve.__main__ import CBC_MAX_NONZEROS

    n = 10_501
    weight = np.random.default_rng(7).integers(1, 100, n).astype(float)
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.addVars(n, np.zeros(n), np.ones(n))
    h.changeColsCost(n, np.arange(n, dtype=np.int32), weight)
    h.changeColsIntegrality(n, np.arange(n, dtype=np.int32), np.ones(n, dtype=np.uint8))
    h.changeObjectiveSense(highspy.ObjSense.kMaximize)
    starts = np.arange(0, 2 * (n - 1), 2, dtype=np.int32)
    index = np.stack([np.arange(n - 1), np.arange(1, n)], axis=1).ravel().astype(np.int32)
    h.addRows(n - 1, np.full(n - 1, -np.inf), np.ones(n - 1), 2 * (n - 1), starts, index, np.ones(2 * (n - 1)))
    assert 2 * (n - 1) > CBC_MAX_NONZEROS
    lp = h.getLp()
    lp.col_names_, lp.row_names_ = [f"pick_{j}" for j in range(n)], [f"s1_apart_{j}" for j in range(n - 1)]
    h.passModel(lp)
    h.writeModel(str(tmp_path / "model.mps"))
    h.run()
    x = h.getSolution().col_value
    solution = {"status": "optimal", "objective": h.getInfo().objective_function_value,
                "values": dict(zip(lp.col_names_, x))}
    (tmp_path / "solution.json").write_text(json.dumps(solution))
    take, skip = 0.0, 0.0  # best weight with the last one taken / not taken
    for w in weight:
        take, skip = skip + w, max(take, skip)
    assert solution["objective"] == pytest.approx(max(take, skip))
    verdict = verify_attempt(tmp_path, ["No two neighbours are both picked."], sandbox, LIMITS)
    assert verdict.outcome == "agrees", verdict.summary
    assert [r["solver"] for r in verdict.resolves] == ["HiGHS"]
    assert verdict.capture["statements"]["s1"]["rows"] == n - 1


@pytest.mark.parametrize("request_, share, limit, seconds", [
    ({"claimed_status": "optimal", "solve_s": 127.0}, 300.0, 60.0, 60.0),  # an optimum is re-proved in full
    ({"claimed_status": "time_limit", "solve_s": 127.0}, 300.0, 60.0, 30.0),  # half the limit it overran
    ({"claimed_status": "time_limit", "solve_s": 10.0}, 300.0, None, 5.0),  # half its solve
    ({"claimed_status": "time_limit"}, 40.0, None, 20.0),  # nothing known: half the share
])
def test_the_re_solve_of_a_time_limit_answer_gets_half_the_programs_time(request_, share, limit, seconds):
    from optimus.core.families.pulp.resolve.__main__ import resolve_seconds
    from optimus.core.families.pulp.resolve.model import SolveOptions

    assert resolve_seconds(request_, share, SolveOptions(time_limit=limit)) == pytest.approx(seconds)


def test_row_families_stay_few_when_index_parts_are_words():
    """shift-scheduling's names at 10^6 (`s4_rest_E0387_63_late_early`) left a family per row: the re-check's
    result grew to 117 MB and the harness could not read it. Families fall back to the statement's words, then to
    a count of the rest; every row is still counted once."""
    from optimus.core.families.pulp.resolve.model import FAMILIES_MAX

    shifts = ["early", "late", "night"]
    rows = ([f"s4_rest_E{e:04d}_{d}_{a}_{b}" for e in range(400) for d in range(5) for a in shifts for b in shifts]
            + [f"s3_cover_{d}_{a}" for d in range(30) for a in shifts] + ["s7_budget"])
    found = row_families(rows)
    assert set(found) == {"s4_rest", "s3_cover", "s7_budget"}
    assert found["s4_rest"] == [400 * 5 * 9, "s4_rest_E0000_0_early_early"] and found["s3_cover"][0] == 90
    plain = [f"balance_{a}_{b}_{c}" for a in "abcdefghijklm" for b in "nopqrstuvwxyz" for c in "abcdefghij"]
    capped = row_families(plain)  # no digit anywhere: each name is its own family, 1690 of them
    assert len(capped) == FAMILIES_MAX + 1 and capped["…"][0] == len(plain) - FAMILIES_MAX
    assert sum(count for count, _ in capped.values()) == len(plain)
    assert row_families(rows[:50]) == {r: [1, r] for r in rows[:50]}  # few families: each as before
