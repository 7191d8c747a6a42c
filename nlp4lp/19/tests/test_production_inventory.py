"""Supervised tests for nlp4lp/19: two-plant production and inventory plan."""

import pytest


def tol(eps, ref):
    return eps * max(1, abs(ref))


def machine_hours(data, output, f, t):
    return sum(data["hours"][p][f] * output["make"][p][f][t] for p in range(data["P"]))


def test_output_keys(output):
    assert set(output) == {"make", "overtime", "inventory", "total_cost"}, f"keys are {sorted(output)}"


def test_make_shape(data, output):
    m = output["make"]
    assert len(m) == data["P"], f"make has {len(m)} products, expected P = {data['P']}"
    for p, by_plant in enumerate(m):
        assert len(by_plant) == data["F"], (
            f"make[{p + 1}] has {len(by_plant)} plants, expected F = {data['F']}"
        )
        for f, series in enumerate(by_plant):
            assert len(series) == data["T"], (
                f"make[{p + 1}][{f + 1}] has {len(series)} months, expected {data['T']}"
            )


@pytest.mark.parametrize("key,rows", [("overtime", "F"), ("inventory", "P")])
def test_matrix_shapes(data, output, key, rows):
    m = output[key]
    assert len(m) == data[rows], f"{key} has {len(m)} rows, expected {rows} = {data[rows]}"
    for i, row in enumerate(m):
        assert len(row) == data["T"], f"{key}[{i + 1}] has {len(row)} months, expected T = {data['T']}"


def test_nonnegative(data, output, eps):
    for p in range(data["P"]):
        for f in range(data["F"]):
            for t in range(data["T"]):
                v = output["make"][p][f][t]
                assert v >= -eps, f"make[{p + 1}][{f + 1}][{t + 1}] = {v:.6g} < 0"
    for key in ("overtime", "inventory"):
        for i, row in enumerate(output[key]):
            for t, v in enumerate(row):
                assert v >= -eps, f"{key}[{i + 1}][{t + 1}] = {v:.6g} < 0"


def test_s3_line_capacity(data, output, eps):
    for p in range(data["P"]):
        for f in range(data["F"]):
            cap = data["line_cap"][p][f]
            for t in range(data["T"]):
                v = output["make"][p][f][t]
                assert v <= cap + tol(eps, cap), (
                    f"product {p + 1}, plant {f + 1}, month {t + 1}: {v:.6g} > line cap {cap}"
                )


def test_s4_machine_hours(data, output, eps):
    for f in range(data["F"]):
        for t in range(data["T"]):
            used = machine_hours(data, output, f, t)
            avail = data["reg_hours"][f] + output["overtime"][f][t]
            assert used <= avail + tol(eps, avail), (
                f"plant {f + 1}, month {t + 1}: {used:.6g} h used > {data['reg_hours'][f]} regular + "
                f"{output['overtime'][f][t]:.6g} overtime"
            )


def test_s5_overtime_limit(data, output, eps):
    for f in range(data["F"]):
        for t in range(data["T"]):
            v, cap = output["overtime"][f][t], data["ot_max"][f]
            assert v <= cap + tol(eps, cap), f"plant {f + 1}, month {t + 1}: overtime {v:.6g} h > limit {cap}"


def test_s6_minimum_load(data, output, eps):
    for f in range(data["F"]):
        for t in range(data["T"]):
            used, need = machine_hours(data, output, f, t), data["min_load"][f]
            assert used >= need - tol(eps, need), (
                f"plant {f + 1}, month {t + 1}: {used:.6g} h < minimum load {need}"
            )


def test_s7_alloy_supply(data, output, eps):
    for t in range(data["T"]):
        use = sum(
            data["material"][p] * output["make"][p][f][t] for p in range(data["P"]) for f in range(data["F"])
        )
        cap = data["material_supply"][t]
        assert use <= cap + tol(eps, cap), f"month {t + 1}: alloy use {use:.6g} kg > supply {cap} kg"


def test_s8_stock_balance(data, output, eps):
    for p in range(data["P"]):
        before = data["init_inv"][p]
        for t in range(data["T"]):
            made = sum(output["make"][p][f][t] for f in range(data["F"]))
            want = before + made - data["demand"][p][t]
            got = output["inventory"][p][t]
            assert abs(got - want) <= tol(eps, max(want, made)), (
                f"product {p + 1}, month {t + 1}: stock {got:.6g} != {before:.6g} + {made:.6g} -"
                f" {data['demand'][p][t]} = {want:.6g}"
            )
            before = got


def test_s10_safety_stock(data, output, eps):
    for p in range(data["P"]):
        for t in range(data["T"]):
            v, need = output["inventory"][p][t], data["min_stock"][p]
            assert v >= need - tol(eps, need), (
                f"product {p + 1}, month {t + 1}: stock {v:.6g} < safety level {need}"
            )


def test_s11_warehouse(data, output, eps):
    for t in range(data["T"]):
        vol = sum(data["space"][p] * output["inventory"][p][t] for p in range(data["P"]))
        cap = data["warehouse_cap"]
        assert vol <= cap + tol(eps, cap), f"month {t + 1}: stock occupies {vol:.6g} m3 > warehouse {cap} m3"


def test_s12_final_stock(data, output, eps):
    for p in range(data["P"]):
        v, need = output["inventory"][p][-1], data["final_stock"][p]
        assert v >= need - tol(eps, need), f"product {p + 1}: final stock {v:.6g} < required {need}"


def test_total_cost_consistent(data, output):
    P, F, T = range(data["P"]), range(data["F"]), range(data["T"])
    cost = (
        sum(data["prod_cost"][p][f] * output["make"][p][f][t] for p in P for f in F for t in T)
        + sum(data["ot_cost"][f] * output["overtime"][f][t] for f in F for t in T)
        + sum(data["hold_cost"][p] * output["inventory"][p][t] for p in P for t in T)
    )
    rep = output["total_cost"]
    assert abs(cost - rep) <= 1e-6 * max(1, abs(cost)), f"reported cost {rep:.6g} != computed {cost:.6g}"
