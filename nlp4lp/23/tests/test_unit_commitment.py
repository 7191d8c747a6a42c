"""Supervised tests for nlp4lp/23: island grid unit commitment."""

import pytest


def tol(eps, ref):
    return eps * max(1, abs(ref))


def pmax(data, g):
    return data["pmin"][g] + sum(data["width"][g])


def prev_on(data, output, g, t):
    return output["on"][g][t - 1] if t else data["init_on"][g]


def test_output_keys(output):
    assert set(output) == {"on", "start", "output", "segment", "total_cost"}, f"keys are {sorted(output)}"


@pytest.mark.parametrize("key", ["on", "start", "output"])
def test_matrix_shapes(data, output, key):
    m = output[key]
    assert len(m) == data["G"], f"{key} has {len(m)} rows, expected G = {data['G']}"
    for g, row in enumerate(m):
        assert len(row) == data["T"], f"{key}[{g + 1}] has {len(row)} periods, expected T = {data['T']}"


def test_segment_shape(data, output):
    s = output["segment"]
    assert len(s) == data["G"], f"segment has {len(s)} generators, expected G = {data['G']}"
    for g in range(data["G"]):
        assert len(s[g]) == data["T"], f"segment[{g + 1}] has {len(s[g])} periods, expected T = {data['T']}"
        for t in range(data["T"]):
            assert len(s[g][t]) == data["K"], (
                f"segment[{g + 1}][{t + 1}] has {len(s[g][t])} entries, expected K"
            )


@pytest.mark.parametrize("key", ["on", "start"])
def test_s1_binary(data, output, key):
    for g in range(data["G"]):
        for t in range(data["T"]):
            v = output[key][g][t]
            assert abs(v) <= 1e-6 or abs(v - 1) <= 1e-6, f"{key}[{g + 1}][{t + 1}] = {v!r} is not 0/1"


def test_s2_segment_bounds(data, output, eps):
    for g in range(data["G"]):
        for t in range(data["T"]):
            for k in range(data["K"]):
                v, w = output["segment"][g][t][k], data["width"][g][k] * output["on"][g][t]
                assert -eps <= v <= w + tol(eps, w), (
                    f"generator {g + 1}, period {t + 1}, segment {k + 1}: {v:.6g} MWh outside [0,"
                    f" {w:.6g}] (on = {output['on'][g][t]})"
                )


def test_s2_output_definition(data, output, eps):
    for g in range(data["G"]):
        for t in range(data["T"]):
            want = data["pmin"][g] * output["on"][g][t] + sum(output["segment"][g][t])
            got = output["output"][g][t]
            assert abs(got - want) <= tol(eps, want), (
                f"generator {g + 1}, period {t + 1}: output {got:.6g} != pmin·on + segments = {want:.6g}"
            )


def test_s4_demand(data, output, eps):
    for t in range(data["T"]):
        total, need = sum(output["output"][g][t] for g in range(data["G"])), data["demand"][t]
        assert total >= need - tol(eps, need), f"period {t + 1}: output {total:.6g} MWh < demand {need} MWh"


def test_s5_spinning_reserve(data, output, eps):
    for t in range(data["T"]):
        spare = sum(pmax(data, g) * output["on"][g][t] - output["output"][g][t] for g in range(data["G"]))
        need = data["reserve"][t]
        assert spare >= need - tol(eps, need), (
            f"period {t + 1}: spinning reserve {spare:.6g} MWh < required {need} MWh"
        )


def test_s6_startups_flagged(data, output):
    for g in range(data["G"]):
        for t in range(data["T"]):
            if output["on"][g][t] > 0.5 and prev_on(data, output, g, t) < 0.5:
                assert output["start"][g][t] > 0.5, (
                    f"generator {g + 1} starts in period {t + 1} but start = {output['start'][g][t]}"
                )


@pytest.mark.parametrize("direction", [1, -1])
def test_s7_ramping(data, output, eps, direction):
    for g in range(data["G"]):
        before = data["init_output"][g]
        for t in range(data["T"]):
            now = output["output"][g][t]
            change, r = direction * (now - before), data["ramp"][g]
            assert change <= r + tol(eps, r), (
                f"generator {g + 1}, period {t + 1}: output {before:.6g} -> {now:.6g} exceeds ramp {r} MWh"
            )
            before = now


def test_s8_minimum_up_time(data, output):
    for g in range(data["G"]):
        for t in range(data["T"]):
            if output["on"][g][t] > 0.5 and prev_on(data, output, g, t) < 0.5:
                last = min(data["T"], t + data["min_up"][g])
                run = [output["on"][g][s] for s in range(t, last)]
                assert all(v > 0.5 for v in run), (
                    f"generator {g + 1} starts in period {t + 1} but is not on for periods"
                    f" {t + 1}..{last}: {run}"
                )


def test_s9_start_limit(data, output):
    for g in range(data["G"]):
        starts = sum(
            1 for t in range(data["T"]) if output["on"][g][t] > 0.5 and prev_on(data, output, g, t) < 0.5
        )
        flagged = sum(output["start"][g])
        n = max(starts, flagged)
        assert n <= data["max_starts"][g] + 1e-6, (
            f"generator {g + 1} starts {n:.6g} times > limit {data['max_starts'][g]}"
        )


def test_s10_emission_cap(data, output, eps):
    total = sum(data["emission"][g] * v for g in range(data["G"]) for v in output["output"][g])
    cap = data["emission_cap"]
    assert total <= cap + tol(eps, cap), f"emissions {total:.6g} t > cap {cap} t"


def test_total_cost_consistent(data, output):
    G, T, K = range(data["G"]), range(data["T"]), range(data["K"])
    cost = sum(
        data["noload_cost"][g] * output["on"][g][t] + data["startup_cost"][g] * output["start"][g][t]
        for g in G
        for t in T
    )
    cost += sum(data["seg_cost"][g][k] * output["segment"][g][t][k] for g in G for t in T for k in K)
    rep = output["total_cost"]
    assert abs(cost - rep) <= 1e-6 * max(1, abs(cost)), f"reported cost {rep:.6g} != computed {cost:.6g}"
