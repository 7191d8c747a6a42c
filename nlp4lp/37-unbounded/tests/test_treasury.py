"""Supervised tests for nlp4lp/37 (monthly treasury plan)."""

import pytest


@pytest.fixture
def sizes(data):
    return len(data["net_flow"]), len(data["deposit_term"])


def returning(data, output, t):
    """Deposits plus interest coming back in month t (0-based; t == T is the end of the horizon)."""
    T = len(data["net_flow"])
    total = 0.0
    for k, (term, rate) in enumerate(zip(data["deposit_term"], data["deposit_rate"])):
        if 0 <= t - term < T:
            total += (1 + rate) * output["invest"][k][t - term]
    return total


def test_output_keys(output):
    assert set(output) == {"cash", "borrow", "invest", "final_wealth"}, f"output keys are {sorted(output)}"


def test_shapes(output, sizes):
    T, D = sizes
    assert len(output["cash"]) == T, f"cash has {len(output['cash'])} entries, expected {T} months"
    assert len(output["borrow"]) == T, f"borrow has {len(output['borrow'])} entries, expected {T} months"
    assert len(output["invest"]) == D, f"invest has {len(output['invest'])} rows, expected {D} products"
    for k, row in enumerate(output["invest"], 1):
        assert len(row) == T, f"product {k}: {len(row)} entries, expected {T} months"


def test_nonnegative(output, eps):
    for t, v in enumerate(output["borrow"], 1):
        assert v >= -eps, f"month {t}: borrow {v:.6g} < 0"
    for k, row in enumerate(output["invest"], 1):
        for t, v in enumerate(row, 1):
            assert v >= -eps, f"product {k}, month {t}: invest {v:.6g} < 0"


def test_s3_min_cash(data, output, eps):
    need = data["min_cash"]
    for t, c in enumerate(output["cash"], 1):
        assert c >= need - eps * max(1, abs(need)), f"month {t}: balance {c:.6g} < minimum {need:.6g}"


def test_s5_credit_limit(data, output, eps):
    cap = data["credit_limit"]
    if cap == -1:
        return
    for t, b in enumerate(output["borrow"], 1):
        assert b <= cap + eps * max(1, cap), f"month {t}: draws {b:.6g} > credit limit {cap:.6g}"


def test_s7_deposits_mature_in_horizon(data, output, eps, sizes):
    T, D = sizes
    for k in range(D):
        for t in range(T):
            if t + 1 + data["deposit_term"][k] > T + 1:
                v = output["invest"][k][t]
                assert abs(v) <= eps, (
                    f"product {k + 1} placed in month {t + 1} ({v:.6g}) would come back after the horizon")


def test_s8_cash_balance(data, output, eps, sizes):
    T, D = sizes
    r = data["credit_rate"]
    for t in range(T):
        prev = output["cash"][t - 1] if t else data["initial_cash"]
        repay = (1 + r) * output["borrow"][t - 1] if t else 0.0
        placed = sum(output["invest"][k][t] for k in range(D))
        want = prev + data["net_flow"][t] + output["borrow"][t] - repay - placed + returning(data, output, t)
        got = output["cash"][t]
        assert abs(got - want) <= eps * max(1, abs(want)), (
            f"month {t + 1}: closing balance {got:.6g}, but the cash flows give {want:.6g}")


def test_final_wealth_consistent(data, output, eps, sizes):
    T, _ = sizes
    value = output["cash"][T - 1] + returning(data, output, T) - (1 + data["credit_rate"]) * output["borrow"][T - 1]
    rep = output["final_wealth"]
    assert abs(rep - value) <= 1e-6 * max(1, abs(value)) + eps, f"reported wealth {rep:.6g} != computed {value:.6g}"
