"""Supervised tests for nlp4lp/29 (board mix with overtime)."""

import pytest


@pytest.fixture
def sizes(data):
    return len(data["margin"]), len(data["regular_hours"])


def test_output_keys(output):
    assert set(output) == {"make", "overtime", "profit"}, f"output keys are {sorted(output)}"


def test_shapes(output, sizes):
    P, M = sizes
    assert len(output["make"]) == P, f"make has {len(output['make'])} entries, expected {P} boards"
    assert len(output["overtime"]) == M, f"overtime has {len(output['overtime'])} entries, expected {M} centres"


def test_nonnegative(output, eps):
    for p, v in enumerate(output["make"], 1):
        assert v >= -eps, f"board {p}: make = {v:.6g} < 0"
    for m, v in enumerate(output["overtime"], 1):
        assert v >= -eps, f"centre {m}: overtime = {v:.6g} < 0"


def test_s5_centre_hours(data, output, eps, sizes):
    P, M = sizes
    for m in range(M):
        used = sum(data["hours"][p][m] * output["make"][p] for p in range(P))
        cap = data["regular_hours"][m] + output["overtime"][m]
        assert used <= cap + eps * max(1, abs(cap)), (
            f"centre {m + 1}: uses {used:.6g} h > regular {data['regular_hours'][m]:.6g} h "
            f"+ overtime {output['overtime'][m]:.6g} h"
        )


def test_s6_overtime_limit(data, output, eps):
    for m, (ot, cap) in enumerate(zip(output["overtime"], data["overtime_max"]), 1):
        if cap != -1:
            assert ot <= cap + eps * max(1, abs(cap)), f"centre {m}: overtime {ot:.6g} h > limit {cap:.6g} h"


def test_s7_market_cap(data, output, eps):
    for p, (x, cap) in enumerate(zip(output["make"], data["demand_max"]), 1):
        if cap != -1:
            assert x <= cap + eps * max(1, abs(cap)), f"board {p}: makes {x:.6g} > market cap {cap:.6g}"


def test_s8_firm_orders(data, output, eps):
    for p, (x, need) in enumerate(zip(output["make"], data["demand_min"]), 1):
        assert x >= need - eps * max(1, abs(need)), f"board {p}: makes {x:.6g} < ordered {need:.6g}"


def test_profit_consistent(data, output, eps):
    value = sum(a * b for a, b in zip(data["margin"], output["make"]))
    value -= sum(a * b for a, b in zip(data["overtime_cost"], output["overtime"]))
    rep = output["profit"]
    assert abs(rep - value) <= 1e-6 * max(1, abs(value)) + eps, f"reported profit {rep:.6g} != computed {value:.6g}"
