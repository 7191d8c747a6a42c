"""Supervised tests for nlp4lp/41 (data-centre workload placement, QP)."""

import pytest


@pytest.fixture
def dims(data):
    return len(data["demand"]), len(data["capacity"])


def test_output_keys(output):
    assert set(output) == {"place", "load", "total_cost"}, f"output keys are {sorted(output)}"


def test_shapes(output, dims):
    R, D = dims
    assert len(output["place"]) == R and all(len(r) == D for r in output["place"]), f"place must be {R}x{D}"
    assert len(output["load"]) == D, f"load has {len(output['load'])} entries, expected {D}"


def test_nonnegative(output, eps):
    for r, row in enumerate(output["place"], 1):
        for d, v in enumerate(row, 1):
            assert v >= -eps, f"region {r}, data centre {d}: placement {v:.6g} < 0"


def test_s2_demand_placed(data, output, eps):
    for r, (row, need) in enumerate(zip(output["place"], data["demand"]), 1):
        assert abs(sum(row) - need) <= eps * max(1, need), f"region {r}: places {sum(row):.6g} of {need} units"


def test_s3_load_and_capacity(data, output, eps, dims):
    R, D = dims
    for d in range(D):
        load = sum(output["place"][r][d] for r in range(R))
        rep, cap = output["load"][d], data["capacity"][d]
        assert abs(rep - load) <= eps * max(1, load), f"data centre {d + 1}: reported load {rep:.6g} != {load:.6g}"
        assert load <= cap + eps * max(1, cap), f"data centre {d + 1}: load {load:.6g} > capacity {cap}"


def test_s6_data_residency(data, output, eps):
    for r, (row, ok) in enumerate(zip(output["place"], data["allowed"]), 1):
        for d, (v, a) in enumerate(zip(row, ok), 1):
            if not a:
                assert v <= eps, f"region {r} may not use data centre {d} but places {v:.6g} units there"


def test_s7_average_latency(data, output, eps):
    for r, (row, lat) in enumerate(zip(output["place"], data["latency"])):
        weighted = sum(v * l for v, l in zip(row, lat))
        cap = data["max_avg_latency"][r] * data["demand"][r]
        assert weighted <= cap + eps * max(1, cap), (
            f"region {r + 1}: average latency {weighted / data['demand'][r]:.6g} ms > {data['max_avg_latency'][r]} ms")


def test_total_cost_consistent(data, output, eps, dims):
    R, D = dims
    load = [sum(output["place"][r][d] for r in range(R)) for d in range(D)]
    value = sum(data["energy_cost"][d] * load[d] + data["congestion"][d] * load[d] ** 2 for d in range(D))
    value += data["latency_cost"] * sum(output["place"][r][d] * data["latency"][r][d] for r in range(R) for d in range(D))
    rep = output["total_cost"]
    assert abs(rep - value) <= 1e-6 * max(1, abs(value)) + eps, f"reported cost {rep:.6g} != computed {value:.6g}"
