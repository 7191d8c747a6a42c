"""Supervised tests for nlp4lp/2 (theatre advertising)."""

import pytest

KEYS = ("spots", "billboards")


def test_output_keys(output):
    assert set(output) == set(KEYS), f"output keys {sorted(output)} != {sorted(KEYS)}"


@pytest.mark.parametrize("key", KEYS)
def test_s1_s7_nonnegative_integer(output, eps, key):
    value = output[key]
    assert value >= -eps, f"{key} = {value:.6g} is negative"
    assert abs(value - round(value)) <= 1e-6, f"{key} = {value:.6g} is not a whole number"


def test_s3_budget(data, output, eps):
    spent = data["cost_spot"] * output["spots"] + data["cost_billboard"] * output["billboards"]
    budget = data["budget"]
    assert spent <= budget + eps * max(1, budget), f"spends {spent:.6g} $ > budget {budget:.6g} $"


def test_s4_max_spots(data, output, eps):
    assert output["spots"] <= data["max_spots"] + eps, (
        f"{output['spots']:.6g} spots > {data['max_spots']} for sale")


def test_s5_min_billboards(data, output, eps):
    assert output["billboards"] >= data["min_billboards"] - eps, (
        f"{output['billboards']:.6g} billboard weeks < sponsor minimum {data['min_billboards']}")


def test_s6_radio_share(data, output, eps):
    radio = data["cost_spot"] * output["spots"]
    cap = data["radio_ratio"] * data["cost_billboard"] * output["billboards"]
    assert radio <= cap + eps * max(1, cap), f"radio spend {radio:.6g} $ > {data['radio_ratio']} x billboard spend"
