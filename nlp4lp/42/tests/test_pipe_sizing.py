"""Supervised tests for nlp4lp/42 (trunk-main pipe sizing)."""

import pytest


@pytest.fixture
def dims(data):
    return len(data["seg_from"]), len(data["cost_per_km"])


def test_output_keys(output):
    assert set(output) == {"build", "flow", "total_cost"}, f"output keys are {sorted(output)}"


def test_shapes(output, dims):
    E, D = dims
    assert len(output["build"]) == E and all(len(r) == D for r in output["build"]), f"build must be {E}x{D}"
    assert len(output["flow"]) == E, f"flow has {len(output['flow'])} entries, expected {E}"


def test_build_binary(output, eps):
    for e, row in enumerate(output["build"], 1):
        for k, v in enumerate(row, 1):
            assert abs(v) <= eps or abs(v - 1) <= eps, f"segment {e}, size {k}: build = {v!r} is not 0/1"


def test_flow_nonnegative(output, eps):
    for e, v in enumerate(output["flow"], 1):
        assert v >= -eps, f"segment {e}: flow {v:.6g} < 0 (flow runs one way only)"


def test_s2_at_most_one_size(output, eps):
    for e, row in enumerate(output["build"], 1):
        assert sum(row) <= 1 + eps, f"segment {e}: {sum(row):.6g} pipe sizes laid"


def test_s3_pipe_capacity(data, output, eps):
    for e, (row, f) in enumerate(zip(output["build"], output["flow"]), 1):
        cap = sum(m * b for m, b in zip(data["max_flow"], row))
        assert f <= cap + eps * max(1, cap), f"segment {e}: flow {f:.6g} ML/d > capacity {cap:.6g} of the laid size"


def test_s6_node_balance(data, output, eps):
    N, src = len(data["demand"]), data["source_node"]
    for n in range(1, N + 1):
        arrive = sum(f for f, h in zip(output["flow"], data["seg_to"]) if h == n)
        leave = sum(f for f, t in zip(output["flow"], data["seg_from"]) if t == n)
        if n == src:
            cap = data["source_capacity"]
            assert leave - arrive <= cap + eps * max(1, cap), f"source sends {leave - arrive:.6g} ML/d > {cap}"
        else:
            need = data["demand"][n - 1]
            assert abs(arrive - leave - need) <= eps * max(1, need), (
                f"node {n}: receives {arrive:.6g}, passes on {leave:.6g}, but demand is {need}")


def test_s7_river_crossings(data, output, eps):
    for e, (row, river) in enumerate(zip(output["build"], data["river_crossing"]), 1):
        if river:
            for k, (b, ok) in enumerate(zip(row, data["crossing_ok"]), 1):
                if not ok:
                    assert b <= eps, f"segment {e} crosses the river but is laid with size {k}, not allowed there"


def test_total_cost_consistent(data, output, eps, dims):
    E, D = dims
    value = sum(data["cost_per_km"][k] * data["length"][e] * output["build"][e][k] for e in range(E) for k in range(D))
    value += sum(data["pump_cost"] * data["length"][e] * output["flow"][e] for e in range(E))
    rep = output["total_cost"]
    assert abs(rep - value) <= 1e-6 * max(1, abs(value)) + eps, f"reported cost {rep:.6g} != computed {value:.6g}"
