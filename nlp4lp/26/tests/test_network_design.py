"""Supervised tests for nlp4lp/26: chilled delivery network design with fixed lane costs."""

import pytest


def test_output_keys(output):
    assert set(output) == {"lease", "flow", "total_cost"}, f"keys are {sorted(output)}"


@pytest.mark.parametrize("key", ["lease", "flow"])
def test_lengths(data, output, key):
    assert len(output[key]) == data["A"], f"{key} has {len(output[key])} entries, expected A = {data['A']}"


def test_s3_lease_binary(output):
    for a, v in enumerate(output["lease"]):
        assert abs(v) <= 1e-6 or abs(v - 1) <= 1e-6, f"lease[{a + 1}] = {v!r} is not 0/1"


def test_s4_flow_nonnegative(output, eps):
    for a, v in enumerate(output["flow"]):
        assert v >= -eps, f"lane {a + 1}: flow {v:.6g} < 0"


def test_s3_lane_capacity(data, output, eps):
    for a in range(data["A"]):
        v, cap = output["flow"][a], data["capacity"][a] * output["lease"][a]
        assert v <= cap + eps * max(1, cap), (
            f"lane {a + 1} ({data['origin'][a]}->{data['dest'][a]}): flow {v:.6g} > capacity"
            f" {data['capacity'][a]}"
            f" x lease {output['lease'][a]}"
        )


def test_s5_flow_balance(data, output, eps):
    for n in range(1, data["N"] + 1):
        out_f = sum(v for a, v in enumerate(output["flow"]) if data["origin"][a] == n)
        in_f = sum(v for a, v in enumerate(output["flow"]) if data["dest"][a] == n)
        b = data["net_supply"][n - 1]
        assert abs(out_f - in_f - b) <= eps * max(1, abs(b), out_f, in_f), (
            f"location {n}: out {out_f:.6g} - in {in_f:.6g} = {out_f - in_f:.6g} != net supply {b}"
        )


def test_s6_lane_limit(data, output):
    n = sum(output["lease"])
    assert n <= data["max_lanes"] + 1e-6, f"{n} lanes leased > limit {data['max_lanes']}"


def test_total_cost_consistent(data, output):
    cost = sum(
        data["fixed_cost"][a] * output["lease"][a] + data["unit_cost"][a] * output["flow"][a]
        for a in range(data["A"])
    )
    rep = output["total_cost"]
    assert abs(cost - rep) <= 1e-6 * max(1, abs(cost)), f"reported cost {rep:.6g} != computed {cost:.6g}"
