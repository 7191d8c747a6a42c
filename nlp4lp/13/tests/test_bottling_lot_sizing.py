"""Supervised tests for nlp4lp/13 (bottling lot sizing)."""

import pytest


def sizes(data):
    return len(data["hold_cost"]), len(data["line_hours"]), len(data["crew_hours"])


def tol(eps, *terms):
    """Tolerance scaled by the magnitude of the terms being compared."""
    return eps * max(1.0, sum(abs(x) for x in terms))


def cells(data):
    P, L, T = sizes(data)
    return [(p, l, t) for p in range(P) for l in range(L) for t in range(T)]


def test_output_keys(output):
    want = {"make", "setup", "stock", "total_cost"}
    assert set(output) == want, f"output keys {sorted(output)} != {sorted(want)}"


@pytest.mark.parametrize("key", ["make", "setup"])
def test_shape_cubes(data, output, key):
    P, L, T = sizes(data)
    cube = output[key]
    assert len(cube) == P, f"{key}: {len(cube)} products, expected {P}"
    for p, plane in enumerate(cube):
        assert len(plane) == L, f"{key}[{p}]: {len(plane)} lines, expected {L}"
        for l, row in enumerate(plane):
            assert len(row) == T, f"{key}[{p}][{l}]: {len(row)} weeks, expected {T}"


def test_shape_stock(data, output):
    P, _, T = sizes(data)
    assert len(output["stock"]) == P and all(len(r) == T for r in output["stock"]), f"stock is not {P} x {T}"


def test_s12_nonnegative(data, output, eps):
    for p, l, t in cells(data):
        v = output["make"][p][l][t]
        assert v >= -eps, f"make[{p}][{l}][{t}] = {v:.6g} is negative"
    for p, row in enumerate(output["stock"]):
        for t, v in enumerate(row):
            assert v >= -eps, f"stock[{p}][{t}] = {v:.6g} is negative"


def test_s12_setup_binary(data, output):
    for p, l, t in cells(data):
        v = output["setup"][p][l][t]
        assert min(abs(v), abs(v - 1)) <= 1e-6, f"setup[{p}][{l}][{t}] = {v:.6g} is not 0 or 1"


def test_s2_total_cost_consistent(data, output, eps):
    cost = sum(data["unit_cost"][p][l] * output["make"][p][l][t] + data["setup_cost"][p][l] * output["setup"][p][l][t]
               for p, l, t in cells(data))
    # s2 does not say which stocks "a week in stock" charges: the T end-of-week stocks, or the T stocks the weeks
    # start with (the stock before week 1, then the end stocks of weeks 1..T-1; reference/alternative/). Either.
    ends = sum(h * v for h, row in zip(data["hold_cost"], output["stock"]) for v in row)
    starts = sum(h * (s0 + sum(row[:-1])) for h, s0, row in zip(data["hold_cost"], data["initial_stock"], output["stock"]))
    costs = [cost + ends, cost + starts]
    assert min(abs(c - output["total_cost"]) for c in costs) <= tol(eps, max(costs)), (
        f"total_cost {output['total_cost']:.9g} is neither {costs[0]:.9g} (holding on end-of-week stocks) nor "
        f"{costs[1]:.9g} (holding on the stocks the weeks start with) from the plan")


def test_s3_stock_balance(data, output, eps):
    P, L, T = sizes(data)
    for p in range(P):
        before = data["initial_stock"][p]
        for t in range(T):
            filled = sum(output["make"][p][l][t] for l in range(L))
            need, after = data["demand"][p][t], output["stock"][p][t]
            assert abs(before + filled - need - after) <= tol(eps, before, filled, need, after), (
                f"product {p}, week {t}: {before:.6g} + filled {filled:.6g} - demand {need} != stock {after:.6g}")
            before = after


def test_s4_line_hours(data, output, eps):
    P, L, T = sizes(data)
    for l in range(L):
        for t in range(T):
            used = sum(data["fill_time"][p][l] * output["make"][p][l][t]
                       + data["setup_time"][p][l] * output["setup"][p][l][t] for p in range(P))
            cap = data["line_hours"][l]
            assert used <= cap + tol(eps, cap), f"line {l}, week {t}: uses {used:.6g} h > {cap} h"


def test_s5_fill_only_when_set_up(data, output, eps):
    for p, l, t in cells(data):
        v = output["make"][p][l][t]
        if round(output["setup"][p][l][t]) == 0:
            assert abs(v) <= eps, f"line {l} fills {v:.6g} of product {p} in week {t} without a setup"


def test_s6_min_lot(data, output, eps):
    for p, l, t in cells(data):
        if round(output["setup"][p][l][t]) == 1:
            v, lot = output["make"][p][l][t], data["min_lot"][p]
            assert v >= lot - tol(eps, lot), f"line {l}, week {t}: lot of {v:.6g} of product {p} < minimum {lot}"


def test_s7_allowed(data, output):
    for p, l, t in cells(data):
        if not data["allowed"][p][l]:
            assert round(output["setup"][p][l][t]) == 0, f"line {l} is set up for product {p} in week {t}, not allowed"


def test_s8_max_setups(data, output):
    P, L, T = sizes(data)
    for l in range(L):
        for t in range(T):
            n = sum(round(output["setup"][p][l][t]) for p in range(P))
            assert n <= data["max_setups"][l], f"line {l}, week {t}: {n} setups > {data['max_setups'][l]}"


def test_s9_warehouse(data, output, eps):
    P, _, T = sizes(data)
    for t in range(T):
        used = sum(data["space"][p] * output["stock"][p][t] for p in range(P))
        cap = data["warehouse"]
        assert used <= cap + tol(eps, cap), f"week {t}: stock takes {used:.6g} pallet places > {cap}"


def test_s10_safety_stock(data, output, eps):
    for p, row in enumerate(output["stock"]):
        for t, v in enumerate(row):
            need = data["safety"][p]
            assert v >= need - tol(eps, need), f"product {p}, week {t}: stock {v:.6g} < safety {need}"


def test_s11_crew(data, output, eps):
    P, L, T = sizes(data)
    for t in range(T):
        used = sum(data["crew"][p] * output["make"][p][l][t] for p in range(P) for l in range(L))
        cap = data["crew_hours"][t]
        assert used <= cap + tol(eps, cap), f"week {t}: needs {used:.6g} operator-hours > {cap} rostered"
