"""Supervised tests for nlp4lp/40 (timber harvest scheduling)."""

import pytest


@pytest.fixture
def dims(data):
    return len(data["stand_area"]), len(data["price"]), len(data["mill_capacity"]), len(data["budget"])


def _volume(output, t):
    return sum(r[t] for rows in output["deliver"] for r in rows)


def test_output_keys(output):
    assert set(output) == {"area", "deliver", "npv"}, f"output keys are {sorted(output)}"


def test_shapes(output, dims):
    S, P, M, T = dims
    assert len(output["area"]) == S and all(len(r) == T for r in output["area"]), f"area must be {S}x{T}"
    ok = len(output["deliver"]) == P and all(len(r) == M and all(len(c) == T for c in r) for r in output["deliver"])
    assert ok, f"deliver must be {P}x{M}x{T}"


def test_nonnegative(output, eps):
    for s, row in enumerate(output["area"], 1):
        for t, v in enumerate(row, 1):
            assert v >= -eps, f"stand {s}, period {t}: area {v:.6g} ha < 0"
    for p, rows in enumerate(output["deliver"], 1):
        for m, row in enumerate(rows, 1):
            for t, v in enumerate(row, 1):
                assert v >= -eps, f"product {p}, mill {m}, period {t}: delivery {v:.6g} m3 < 0"


def test_s2_stand_area(data, output, eps):
    for s, (row, cap) in enumerate(zip(output["area"], data["stand_area"]), 1):
        assert sum(row) <= cap + eps * max(1, cap), f"stand {s}: fells {sum(row):.6g} ha > area {cap} ha"


def test_s3_too_young(data, output, eps):
    for s, (row, first) in enumerate(zip(output["area"], data["earliest_period"]), 1):
        for t, v in enumerate(row, 1):
            if t < first:
                assert v <= eps, f"stand {s}: {v:.6g} ha felled in period {t}, before period {first}"


def test_s4_yield(data, output, eps, dims):
    S, P, M, T = dims
    for p in range(P):
        for t in range(T):
            cut = sum(data["yield"][s][p][t] * output["area"][s][t] for s in range(S))
            sent = sum(output["deliver"][p][m][t] for m in range(M))
            assert sent <= cut + eps * max(1, cut), (
                f"product {p + 1}, period {t + 1}: delivers {sent:.6g} m3 but fells only {cut:.6g} m3")


def test_s5_mill_accepts(data, output, eps, dims):
    _, P, M, T = dims
    for p in range(P):
        for m in range(M):
            if not data["accepts"][p][m]:
                for t in range(T):
                    v = output["deliver"][p][m][t]
                    assert v <= eps, f"mill {m + 1} does not buy product {p + 1} but gets {v:.6g} m3 in period {t + 1}"


def test_s6_mill_capacity_and_contract(data, output, eps, dims):
    _, P, M, T = dims
    for m in range(M):
        cap, need = data["mill_capacity"][m], data["contract_min"][m]
        for t in range(T):
            got = sum(output["deliver"][p][m][t] for p in range(P))
            assert got <= cap + eps * max(1, cap), f"mill {m + 1}, period {t + 1}: {got:.6g} m3 > capacity {cap}"
            assert got >= need - eps * max(1, need), f"mill {m + 1}, period {t + 1}: {got:.6g} m3 < contract {need}"


def test_s7_even_flow(data, output, eps, dims):
    T = dims[3]
    tol = data["flow_tolerance"]
    for t in range(1, T):
        prev, now = _volume(output, t - 1), _volume(output, t)
        lo, hi = (1 - tol) * prev, (1 + tol) * prev
        slack = eps * max(1, prev)
        assert lo - slack <= now <= hi + slack, (
            f"period {t + 1}: volume {now:.6g} m3 outside [{lo:.6g}, {hi:.6g}] around period {t}'s {prev:.6g} m3")


def test_s8_crew_area(data, output, eps, dims):
    S, _, _, T = dims
    for t in range(T):
        a = sum(output["area"][s][t] for s in range(S))
        assert a <= data["max_area"] + eps * max(1, data["max_area"]), f"period {t + 1}: fells {a:.6g} ha > {data['max_area']}"


def test_s9_budget(data, output, eps, dims):
    S, _, _, T = dims
    for t in range(T):
        c = sum(data["harvest_cost"][s] * output["area"][s][t] for s in range(S))
        cap = data["budget"][t]
        assert c <= cap + eps * max(1, cap), f"period {t + 1}: felling costs {c:.6g} $ > budget {cap} $"


def test_s10_reserve(data, output, eps):
    left = sum(data["stand_area"]) - sum(sum(r) for r in output["area"])
    need = data["reserve_area"]
    assert left >= need - eps * max(1, need), f"only {left:.6g} ha left standing < reserve {need} ha"


def test_npv_consistent(data, output, eps, dims):
    S, P, M, T = dims
    value = 0.0
    for t in range(T):
        rev = sum(data["price"][p][m] * output["deliver"][p][m][t] for p in range(P) for m in range(M))
        cost = sum(data["harvest_cost"][s] * output["area"][s][t] for s in range(S))
        value += data["discount"][t] * (rev - cost)
    rep = output["npv"]
    assert abs(rep - value) <= 1e-6 * max(1, abs(value)) + eps, f"reported npv {rep:.6g} != computed {value:.6g}"
