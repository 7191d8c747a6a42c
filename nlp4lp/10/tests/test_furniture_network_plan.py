"""Supervised tests for nlp4lp/10 (furniture network plan)."""

import pytest


def sizes(data):
    return len(data["hold_cost"]), len(data["regular_hours"]), len(data["timber_supply"])


def tol(eps, *terms):
    """Tolerance scaled by the magnitude of the terms being compared."""
    return eps * max(1.0, sum(abs(x) for x in terms))


def test_output_keys(output):
    want = {"make", "deliver", "stock", "overtime", "total_cost"}
    assert set(output) == want, f"output keys {sorted(output)} != {sorted(want)}"


@pytest.mark.parametrize("key", ["make", "deliver", "stock"])
def test_shape_cubes(data, output, key):
    I, J, T = sizes(data)
    cube = output[key]
    assert len(cube) == I, f"{key}: {len(cube)} products, expected {I}"
    for i, plane in enumerate(cube):
        assert len(plane) == J, f"{key}[{i}]: {len(plane)} plants, expected {J}"
        for j, row in enumerate(plane):
            assert len(row) == T, f"{key}[{i}][{j}]: {len(row)} quarters, expected {T}"


def test_shape_overtime(data, output):
    _, J, T = sizes(data)
    assert len(output["overtime"]) == J and all(len(r) == T for r in output["overtime"]), (
        f"overtime is not {J} x {T}")


@pytest.mark.parametrize("key", ["make", "deliver", "stock"])
def test_s12_nonnegative_cubes(output, eps, key):
    for i, plane in enumerate(output[key]):
        for j, row in enumerate(plane):
            for t, v in enumerate(row):
                assert v >= -eps, f"{key}[{i}][{j}][{t}] = {v:.6g} is negative"


def test_s12_nonnegative_overtime(output, eps):
    for j, row in enumerate(output["overtime"]):
        for t, v in enumerate(row):
            assert v >= -eps, f"overtime[{j}][{t}] = {v:.6g} is negative"


def test_s2_total_cost_consistent(data, output, eps):
    I, J, T = sizes(data)
    cost = sum(data["make_cost"][i][j] * output["make"][i][j][t] + data["hold_cost"][i] * output["stock"][i][j][t]
               for i in range(I) for j in range(J) for t in range(T))
    cost += sum(data["overtime_cost"][j] * output["overtime"][j][t] for j in range(J) for t in range(T))
    assert abs(cost - output["total_cost"]) <= tol(eps, cost), (
        f"total_cost {output['total_cost']:.9g} != {cost:.9g} from the plan")


def test_s3_demand(data, output, eps):
    I, J, T = sizes(data)
    for i in range(I):
        for t in range(T):
            got = sum(output["deliver"][i][j][t] for j in range(J))
            need = data["demand"][i][t]
            assert abs(got - need) <= tol(eps, need), f"product {i}, quarter {t}: delivers {got:.6g} != demand {need}"


def test_s4_stock_balance(data, output, eps):
    I, J, T = sizes(data)
    for i in range(I):
        for j in range(J):
            before = data["initial_stock"][i][j]
            for t in range(T):
                made, sent, after = output["make"][i][j][t], output["deliver"][i][j][t], output["stock"][i][j][t]
                assert abs(before + made - sent - after) <= tol(eps, before, made, sent, after), (
                    f"product {i}, plant {j}, quarter {t}: {before:.6g} + made {made:.6g} - delivered {sent:.6g}"
                    f" != stock {after:.6g}")
                before = after


def test_s5_hours(data, output, eps):
    I, J, T = sizes(data)
    for j in range(J):
        for t in range(T):
            used = sum(data["hours"][i][j] * output["make"][i][j][t] for i in range(I))
            cap = data["regular_hours"][j] + output["overtime"][j][t]
            assert used <= cap + tol(eps, cap), f"plant {j}, quarter {t}: uses {used:.6g} h > {cap:.6g} h available"


def test_s6_overtime_cap(data, output, eps):
    for j, row in enumerate(output["overtime"]):
        for t, v in enumerate(row):
            cap = data["max_overtime"][j]
            assert v <= cap + tol(eps, cap), f"plant {j}, quarter {t}: {v:.6g} overtime h > cap {cap}"


def test_s7_storage(data, output, eps):
    I, J, T = sizes(data)
    for j in range(J):
        for t in range(T):
            used = sum(data["volume"][i] * output["stock"][i][j][t] for i in range(I))
            cap = data["storage"][j]
            assert used <= cap + tol(eps, cap), f"plant {j}, quarter {t}: stores {used:.6g} m3 > {cap} m3"


def test_s8_timber(data, output, eps):
    I, J, T = sizes(data)
    for t in range(T):
        used = sum(data["timber"][i] * output["make"][i][j][t] for i in range(I) for j in range(J))
        cap = data["timber_supply"][t]
        assert used <= cap + tol(eps, cap), f"quarter {t}: uses {used:.6g} m3 of timber > supply {cap}"


def test_s9_final_stock(data, output, eps):
    I, J, T = sizes(data)
    for i in range(I):
        held = sum(output["stock"][i][j][T - 1] for j in range(J))
        need = data["final_stock"][i]
        assert held >= need - tol(eps, need), f"product {i}: ends with {held:.6g} units < {need} required"


def test_s10_min_output(data, output, eps):
    I, J, T = sizes(data)
    for j in range(J):
        for t in range(T):
            made = sum(output["make"][i][j][t] for i in range(I))
            need = data["min_output"][j]
            assert made >= need - tol(eps, need), f"plant {j}, quarter {t}: makes {made:.6g} units < {need} agreed"


def test_s11_tooling(data, output, eps):
    I, J, T = sizes(data)
    for i in range(I):
        for j in range(J):
            if not data["can_make"][i][j]:
                for t in range(T):
                    v = output["make"][i][j][t]
                    assert abs(v) <= eps, f"plant {j} is not tooled for product {i} but makes {v:.6g} in quarter {t}"
