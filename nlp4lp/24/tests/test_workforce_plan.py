"""Supervised tests for nlp4lp/24: support-centre workforce plan with hiring and layoffs."""

import pytest

SERIES = ["staff", "hire", "fire", "overtime"]


def tol(eps, ref):
    return eps * max(1, abs(ref))


def test_output_keys(output):
    assert set(output) == set(SERIES) | {"total_cost"}, f"keys are {sorted(output)}"


@pytest.mark.parametrize("key", SERIES)
def test_lengths(data, output, key):
    assert len(output[key]) == data["T"], f"{key} has {len(output[key])} entries, expected T = {data['T']}"


@pytest.mark.parametrize("key", SERIES)
def test_nonnegative(output, key, eps):
    for t, v in enumerate(output[key]):
        assert v >= -eps, f"{key}[{t + 1}] = {v:.6g} < 0"


def test_s2_staff_balance(data, output, eps):
    before = data["initial_staff"]
    for t in range(data["T"]):
        want = (1 - data["attrition"]) * before + output["hire"][t] - output["fire"][t]
        got = output["staff"][t]
        assert abs(got - want) <= tol(eps, want), (
            f"month {t + 1}: staff {got:.6g} != (1-{data['attrition']})·{before:.6g} + hire"
            f" {output['hire'][t]:.6g}"
            f" - fire {output['fire'][t]:.6g} = {want:.6g}"
        )
        before = got


def test_s4_overtime_limit(data, output, eps):
    for t in range(data["T"]):
        cap = data["ot_share"] * data["hours_per_fte"] * output["staff"][t]
        v = output["overtime"][t]
        assert v <= cap + tol(eps, cap), (
            f"month {t + 1}: overtime {v:.6g} h > {data['ot_share']} of regular hours = {cap:.6g} h"
        )


def test_s5_workload_covered(data, output, eps):
    h = data["hours_per_fte"]
    for t in range(data["T"]):
        hours = (
            h * (output["staff"][t] - (1 - data["new_productivity"]) * output["hire"][t])
            + output["overtime"][t]
        )
        need = data["workload"][t]
        assert hours >= need - tol(eps, need), f"month {t + 1}: {hours:.6g} support hours < workload {need} h"


@pytest.mark.parametrize("key,limit", [("hire", "max_hire"), ("fire", "max_fire")])
def test_s6_monthly_limits(data, output, eps, key, limit):
    for t, v in enumerate(output[key]):
        cap = data[limit]
        assert v <= cap + tol(eps, cap), f"month {t + 1}: {key} {v:.6g} FTE > {limit} {cap}"


def test_s8_final_staff(data, output, eps):
    v, need = output["staff"][-1], data["final_min_staff"]
    assert v >= need - tol(eps, need), f"final staff {v:.6g} FTE < required {need}"


def test_total_cost_consistent(data, output):
    cost = sum(
        data["salary"] * output["staff"][t]
        + data["hire_cost"] * output["hire"][t]
        + data["fire_cost"] * output["fire"][t]
        + data["ot_cost"] * output["overtime"][t]
        for t in range(data["T"])
    )
    rep = output["total_cost"]
    assert abs(cost - rep) <= 1e-6 * max(1, abs(cost)), f"reported cost {rep:.6g} != computed {cost:.6g}"
