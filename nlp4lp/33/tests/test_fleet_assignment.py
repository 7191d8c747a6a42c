"""Supervised tests for nlp4lp/33 (fleet assignment with spill)."""

import pytest


@pytest.fixture
def sizes(data):
    return len(data["leg_from"]), len(data["seats"])


def test_output_keys(output):
    assert set(output) == {"assign", "spill", "total_cost"}, f"output keys are {sorted(output)}"


def test_shapes(output, sizes):
    L, F = sizes
    assert len(output["assign"]) == L, f"assign has {len(output['assign'])} rows, expected {L} legs"
    for l, row in enumerate(output["assign"], 1):
        assert len(row) == F, f"leg {l}: {len(row)} entries, expected {F} types"
    assert len(output["spill"]) == L, f"spill has {len(output['spill'])} entries, expected {L}"


def test_assign_binary(output, eps):
    for l, row in enumerate(output["assign"], 1):
        for f, v in enumerate(row, 1):
            assert abs(v) <= eps or abs(v - 1) <= eps, f"leg {l}, type {f}: assign = {v!r} is not 0/1"


def test_spill_nonnegative(output, eps):
    for l, v in enumerate(output["spill"], 1):
        assert v >= -eps, f"leg {l}: spill {v:.6g} < 0"


def test_s1_one_type_per_leg(output, eps):
    for l, row in enumerate(output["assign"], 1):
        assert abs(sum(row) - 1) <= eps, f"leg {l}: {sum(row):.6g} types assigned, must be exactly 1"


def test_s4_block_hours(data, output, eps, sizes):
    L, F = sizes
    for f in range(F):
        used = sum(data["block_hours"][l] * output["assign"][l][f] for l in range(L))
        cap = data["hours_available"][f]
        assert used <= cap + eps * max(1, cap), f"type {f + 1}: flies {used:.6g} block h > available {cap:.6g} h"


def test_s5_compatibility(data, output, eps):
    for l, (row, ok) in enumerate(zip(output["assign"], data["compatible"]), 1):
        for f, (v, c) in enumerate(zip(row, ok), 1):
            if not c:
                assert v <= eps, f"leg {l}: type {f} is not allowed there but assign = {v:.6g}"


def test_s6_spill_covers_excess_demand(data, output, eps, sizes):
    L, F = sizes
    for l in range(L):
        seats = sum(data["seats"][f] * output["assign"][l][f] for f in range(F))
        need = data["demand"][l] - seats
        got = output["spill"][l]
        assert got >= need - eps * max(1, abs(need)), (
            f"leg {l + 1}: {data['demand'][l]} passengers, {seats:.6g} seats, but spill is only {got:.6g}")


def test_s7_station_balance(data, output, eps, sizes):
    L, F = sizes
    for s in sorted(set(data["leg_from"]) | set(data["leg_to"])):
        for f in range(F):
            arr = sum(output["assign"][l][f] for l in range(L) if data["leg_to"][l] == s)
            dep = sum(output["assign"][l][f] for l in range(L) if data["leg_from"][l] == s)
            assert abs(arr - dep) <= eps, f"station {s}, type {f + 1}: {arr:.6g} arrivals but {dep:.6g} departures"


def test_total_cost_consistent(data, output, eps, sizes):
    L, F = sizes
    value = sum(data["op_cost"][l][f] * output["assign"][l][f] for l in range(L) for f in range(F))
    value += sum(data["spill_fare"][l] * output["spill"][l] for l in range(L))
    rep = output["total_cost"]
    assert abs(rep - value) <= 1e-6 * max(1, abs(value)) + eps, f"reported cost {rep:.6g} != computed {value:.6g}"
