"""Supervised tests for nlp4lp/31 (cement transshipment)."""

import pytest


@pytest.fixture
def sizes(data):
    return len(data["supply"]), len(data["throughput"]), len(data["demand"])


def test_output_keys(output):
    assert set(output) == {"inbound", "outbound", "total_cost"}, f"output keys are {sorted(output)}"


def test_shapes(output, sizes):
    I, J, K = sizes
    assert len(output["inbound"]) == I, f"inbound has {len(output['inbound'])} rows, expected {I}"
    assert all(len(r) == J for r in output["inbound"]), f"inbound rows must have {J} entries"
    assert len(output["outbound"]) == J, f"outbound has {len(output['outbound'])} rows, expected {J}"
    assert all(len(r) == K for r in output["outbound"]), f"outbound rows must have {K} entries"


def test_nonnegative(output, eps):
    for name in ("inbound", "outbound"):
        for a, row in enumerate(output[name], 1):
            for b, v in enumerate(row, 1):
                assert v >= -eps, f"{name}[{a}][{b}] = {v:.6g} t < 0"


def test_s2_supply(data, output, eps):
    for i, (row, cap) in enumerate(zip(output["inbound"], data["supply"]), 1):
        s = sum(row)
        assert s <= cap + eps * max(1, cap), f"plant {i}: ships {s:.6g} t > supply {cap:.6g} t"


def test_s3_demand(data, output, eps, sizes):
    _, J, K = sizes
    for k in range(K):
        got, want = sum(output["outbound"][j][k] for j in range(J)), data["demand"][k]
        assert abs(got - want) <= eps * max(1, want), f"customer {k + 1}: receives {got:.6g} t, demand {want:.6g} t"


def test_s4_throughput(data, output, eps, sizes):
    I, J, _ = sizes
    for j in range(J):
        got, cap = sum(output["inbound"][i][j] for i in range(I)), data["throughput"][j]
        assert got <= cap + eps * max(1, cap), f"depot {j + 1}: handles {got:.6g} t > throughput {cap:.6g} t"


def test_s5_depot_balance(output, eps, sizes):
    I, J, _ = sizes
    for j in range(J):
        tin, tout = sum(output["inbound"][i][j] for i in range(I)), sum(output["outbound"][j])
        assert abs(tin - tout) <= eps * max(1, tin), f"depot {j + 1}: {tin:.6g} t in but {tout:.6g} t out"


def test_s6_closed_lanes(data, output, eps):
    for name, cost in (("inbound", "cost_in"), ("outbound", "cost_out")):
        for a, (row, crow) in enumerate(zip(output[name], data[cost]), 1):
            for b, (v, c) in enumerate(zip(row, crow), 1):
                if c == -1:
                    assert abs(v) <= eps, f"{name} lane {a}->{b} does not exist but carries {v:.6g} t"


def test_total_cost_consistent(data, output, eps, sizes):
    I, J, K = sizes
    value = 0.0
    for i in range(I):
        for j in range(J):
            if data["cost_in"][i][j] != -1:
                value += (data["cost_in"][i][j] + data["handling"][j]) * output["inbound"][i][j]
    for j in range(J):
        for k in range(K):
            if data["cost_out"][j][k] != -1:
                value += data["cost_out"][j][k] * output["outbound"][j][k]
    rep = output["total_cost"]
    assert abs(rep - value) <= 1e-6 * max(1, abs(value)) + eps, f"reported cost {rep:.6g} != computed {value:.6g}"
