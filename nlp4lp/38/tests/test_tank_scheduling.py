"""Supervised tests for nlp4lp/38 (batch plant: reactor campaigns and tank dedication)."""

import pytest


@pytest.fixture
def dims(data):
    return len(data["min_batch"]), len(data["tank_capacity"]), len(data["demand"][0])


def _binary(v, eps):
    return abs(v) <= eps or abs(v - 1) <= eps


def test_output_keys(output):
    assert set(output) == {"make", "run", "hold", "stock", "clean", "total_cost"}, f"output keys are {sorted(output)}"


def test_shapes(output, dims):
    P, K, T = dims
    for key in ("make", "run"):
        assert len(output[key]) == P and all(len(r) == T for r in output[key]), f"{key} must be {P}x{T}"
    for key in ("hold", "stock"):
        ok = len(output[key]) == P and all(len(r) == K and all(len(c) == T for c in r) for r in output[key])
        assert ok, f"{key} must be {P}x{K}x{T}"
    assert len(output["clean"]) == K and all(len(r) == T for r in output["clean"]), f"clean must be {K}x{T}"


def test_binaries(output, eps, dims):
    P, K, T = dims
    for p in range(P):
        for t in range(T):
            assert _binary(output["run"][p][t], eps), f"run[{p + 1}][{t + 1}] = {output['run'][p][t]!r} is not 0/1"
            for k in range(K):
                v = output["hold"][p][k][t]
                assert _binary(v, eps), f"hold[{p + 1}][{k + 1}][{t + 1}] = {v!r} is not 0/1"
    for k in range(K):
        for t in range(T):
            assert _binary(output["clean"][k][t], eps), f"clean[{k + 1}][{t + 1}] = {output['clean'][k][t]!r} is not 0/1"


def test_nonnegative(output, eps, dims):
    P, K, T = dims
    for p in range(P):
        for t in range(T):
            assert output["make"][p][t] >= -eps, f"make[{p + 1}][{t + 1}] = {output['make'][p][t]:.6g} < 0"
            for k in range(K):
                v = output["stock"][p][k][t]
                assert v >= -eps, f"stock[{p + 1}][{k + 1}][{t + 1}] = {v:.6g} < 0"


def test_s2_one_product_per_period(output, eps, dims):
    P, _, T = dims
    for t in range(T):
        n = sum(output["run"][p][t] for p in range(P))
        assert n <= 1 + eps, f"period {t + 1}: reactor set up for {n:.6g} products"


def test_s3_batch_size(data, output, eps, dims):
    P, _, T = dims
    cap = data["reactor_capacity"]
    for p in range(P):
        lo = data["min_batch"][p]
        for t in range(T):
            m, r = output["make"][p][t], output["run"][p][t]
            assert m <= cap * r + eps * max(1, cap), f"product {p + 1}, period {t + 1}: makes {m:.6g} t, run = {r}"
            assert m >= lo * r - eps * max(1, lo), f"product {p + 1}, period {t + 1}: batch {m:.6g} t < min {lo} t"


def test_s5_one_product_per_tank(output, eps, dims):
    P, K, T = dims
    for k in range(K):
        for t in range(T):
            n = sum(output["hold"][p][k][t] for p in range(P))
            assert n <= 1 + eps, f"tank {k + 1}, period {t + 1}: dedicated to {n:.6g} products"


def test_s5_tank_capacity(data, output, eps, dims):
    P, K, T = dims
    for k in range(K):
        cap = data["tank_capacity"][k]
        for t in range(T):
            s = sum(output["stock"][p][k][t] for p in range(P))
            assert s <= cap + eps * max(1, cap), f"tank {k + 1}, period {t + 1}: {s:.6g} t > capacity {cap} t"


def test_s5_only_dedicated_product(data, output, eps, dims):
    P, K, T = dims
    for p in range(P):
        for k in range(K):
            cap = data["tank_capacity"][k]
            for t in range(T):
                s, h = output["stock"][p][k][t], output["hold"][p][k][t]
                assert s <= cap * h + eps * max(1, cap), (
                    f"tank {k + 1}, period {t + 1}: holds {s:.6g} t of product {p + 1} but hold = {h}")


def test_s6_compatibility(data, output, eps, dims):
    P, K, T = dims
    for p in range(P):
        for k in range(K):
            if not data["compatible"][p][k]:
                for t in range(T):
                    h = output["hold"][p][k][t]
                    assert h <= eps, f"product {p + 1} may not use tank {k + 1}, but hold = {h} in period {t + 1}"


def test_s8_stock_balance(data, output, eps, dims):
    P, K, T = dims
    for p in range(P):
        before = data["initial_stock"][p]
        for t in range(T):
            now = sum(output["stock"][p][k][t] for k in range(K))
            want = before + output["make"][p][t] - data["demand"][p][t]
            assert abs(now - want) <= eps * max(1, abs(want)), (
                f"product {p + 1}, period {t + 1}: stock {now:.6g} t, but {before:.6g} + made "
                f"{output['make'][p][t]:.6g} - demand {data['demand'][p][t]} = {want:.6g} t")
            before = now


def test_s9_safety_stock(data, output, eps, dims):
    P, K, T = dims
    for p in range(P):
        need = data["safety_stock"][p]
        for t in range(T):
            s = sum(output["stock"][p][k][t] for k in range(K))
            assert s >= need - eps * max(1, need), f"product {p + 1}, period {t + 1}: stock {s:.6g} t < safety {need} t"


def test_s10_cleaning_before_new_product(output, eps, dims):
    P, K, T = dims
    for k in range(K):
        for t in range(1, T):
            for p in range(P):
                new = output["hold"][p][k][t] - output["hold"][p][k][t - 1]
                c = output["clean"][k][t]
                assert c >= new - eps, f"tank {k + 1} switches to product {p + 1} in period {t + 1} without cleaning"


def test_s10_cleaning_crew(data, output, eps, dims):
    _, K, T = dims
    for t in range(T):
        n = sum(output["clean"][k][t] for k in range(K))
        assert n <= data["max_cleanings"] + eps, f"period {t + 1}: {n:.6g} cleanings > crew limit {data['max_cleanings']}"


def test_s11_no_cleaning_in_the_first_period(output, eps, dims):
    _, K, _ = dims
    for k in range(K):
        c = output["clean"][k][0]
        assert c <= eps, f"tank {k + 1} is cleaned in period 1 ({c:.6g}), but the opening stock needs no cleaning"


def test_total_cost_consistent(data, output, eps, dims):
    P, K, T = dims
    value = sum(data["setup_cost"][p] * output["run"][p][t] for p in range(P) for t in range(T))
    value += sum(data["clean_cost"] * output["clean"][k][t] for k in range(K) for t in range(T))
    value += sum(data["holding_cost"][p] * output["stock"][p][k][t] for p in range(P) for k in range(K) for t in range(T))
    rep = output["total_cost"]
    assert abs(rep - value) <= 1e-6 * max(1, abs(value)) + eps, f"reported cost {rep:.6g} != computed {value:.6g}"
