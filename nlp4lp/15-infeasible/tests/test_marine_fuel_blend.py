"""Supervised tests for nlp4lp/15: two-crude marine fuel blend."""

import math


def test_output_keys(output):
    assert set(output) == {"light", "heavy", "total_cost"}, f"keys are {sorted(output)}"


def test_values_are_finite_numbers(output):
    for key in ("light", "heavy", "total_cost"):
        v = output[key]
        assert isinstance(v, (int, float)) and math.isfinite(v), f"{key} = {v!r} is not a finite number"


def test_nonnegative(output, eps):
    for key in ("light", "heavy"):
        assert output[key] >= -eps, f"{key} = {output[key]:.6g} barrels is negative"


def test_s3_min_batch(data, output, eps):
    total, need = output["light"] + output["heavy"], data["min_batch"]
    assert total >= need - eps * max(1, need), f"batch {total:.6g} bbl < minimum {need:.6g} bbl"


def test_s4_light_supply(data, output, eps):
    light, cap = output["light"], data["light_supply"]
    assert light <= cap + eps * max(1, cap), f"light crude {light:.6g} bbl > supply {cap:.6g} bbl"


def test_s5_sulfur_average(data, output, eps):
    light, heavy = output["light"], output["heavy"]
    sulfur = data["sulfur_light"] * light + data["sulfur_heavy"] * heavy
    limit = data["sulfur_max"] * (light + heavy)
    assert sulfur <= limit + eps * max(1, limit), (
        f"sulfur {sulfur:.6g} %·bbl > {data['sulfur_max']}% of {light + heavy:.6g} bbl = {limit:.6g}"
    )


def test_s6_tank_capacity(data, output, eps):
    total, cap = output["light"] + output["heavy"], data["tank_capacity"]
    assert total <= cap + eps * max(1, cap), f"batch {total:.6g} bbl > tank {cap:.6g} bbl"


def test_total_cost_consistent(data, output, eps):
    cost = data["cost_light"] * output["light"] + data["cost_heavy"] * output["heavy"]
    rep = output["total_cost"]
    assert abs(cost - rep) <= 1e-6 * max(1, abs(cost)), f"reported cost {rep:.6g} != computed {cost:.6g}"
