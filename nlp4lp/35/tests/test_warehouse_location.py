"""Supervised tests for nlp4lp/35 (warehouse location, single sourcing)."""

import pytest


@pytest.fixture
def sizes(data):
    return len(data["fixed_cost"]), len(data["demand"])


def test_output_keys(output):
    assert set(output) == {"open", "assign", "total_cost"}, f"output keys are {sorted(output)}"


def test_shapes(output, sizes):
    I, K = sizes
    assert len(output["open"]) == I, f"open has {len(output['open'])} entries, expected {I} sites"
    assert len(output["assign"]) == I, f"assign has {len(output['assign'])} rows, expected {I} sites"
    for i, row in enumerate(output["assign"], 1):
        assert len(row) == K, f"site {i}: {len(row)} entries, expected {K} stores"


def test_binary(output, eps):
    for i, v in enumerate(output["open"], 1):
        assert abs(v) <= eps or abs(v - 1) <= eps, f"open[{i}] = {v!r} is not 0/1"
    for i, row in enumerate(output["assign"], 1):
        for k, v in enumerate(row, 1):
            assert abs(v) <= eps or abs(v - 1) <= eps, f"assign[{i}][{k}] = {v!r} is not 0/1"


def test_s4_single_sourcing(output, eps, sizes):
    I, K = sizes
    for k in range(K):
        n = sum(output["assign"][i][k] for i in range(I))
        assert abs(n - 1) <= eps, f"store {k + 1}: served by {n:.6g} sites, must be exactly 1"


def test_s5_only_open_sites_serve(output, eps):
    for i, (o, row) in enumerate(zip(output["open"], output["assign"]), 1):
        for k, v in enumerate(row, 1):
            assert v <= o + eps, f"site {i} (open = {o:.6g}) serves store {k} (assign = {v:.6g})"


def test_s6_capacity(data, output, eps):
    for i, (row, cap) in enumerate(zip(output["assign"], data["capacity"]), 1):
        load = sum(dm * v for dm, v in zip(data["demand"], row))
        assert load <= cap + eps * max(1, cap), f"site {i}: {load:.6g} pallets/week > capacity {cap:.6g}"


def test_s8_max_open(data, output, eps):
    n = sum(output["open"])
    assert n <= data["max_open"] + eps, f"{n:.6g} sites opened > max_open {data['max_open']}"


def test_total_cost_consistent(data, output, eps, sizes):
    I, K = sizes
    value = sum(f * o for f, o in zip(data["fixed_cost"], output["open"]))
    value += sum(data["weeks"] * data["demand"][k] * data["unit_cost"][i][k] * output["assign"][i][k]
                 for i in range(I) for k in range(K))
    rep = output["total_cost"]
    assert abs(rep - value) <= 1e-6 * max(1, abs(value)) + eps, f"reported cost {rep:.6g} != computed {value:.6g}"
