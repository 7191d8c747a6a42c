"""Supervised tests for nlp4lp/18: ward rota with consecutive-day shifts."""

import pytest

DAYS = range(7)


def covering(starts, length, day):
    return sum(starts[s] for s in DAYS if (day - s) % 7 < length)


def test_output_keys(output):
    assert set(output) == {"ft", "pt", "on_duty", "total_cost"}, f"keys are {sorted(output)}"


@pytest.mark.parametrize("key", ["ft", "pt", "on_duty"])
def test_lengths(output, key):
    assert len(output[key]) == 7, f"{key} has {len(output[key])} entries, expected 7 days"


@pytest.mark.parametrize("key", ["ft", "pt"])
def test_s8_nonnegative_integers(output, key, eps):
    for t, v in enumerate(output[key]):
        assert v >= -eps, f"{key}[{t + 1}] = {v:.6g} < 0"
        assert abs(v - round(v)) <= 1e-6, f"{key}[{t + 1}] = {v:.6g} is not an integer"


def test_on_duty_consistent(data, output, eps):
    for t in DAYS:
        duty = covering(output["ft"], data["ft_length"], t) + covering(output["pt"], data["pt_length"], t)
        rep = output["on_duty"][t]
        assert abs(duty - rep) <= eps * max(1, duty), (
            f"day {t + 1}: on_duty {rep:.6g} but the starts give {duty:.6g}"
        )


def test_s4_coverage(data, output, eps):
    for t in DAYS:
        duty = covering(output["ft"], data["ft_length"], t) + covering(output["pt"], data["pt_length"], t)
        need = data["demand"][t]
        assert duty >= need - eps, f"day {t + 1}: {duty:.6g} nurses on duty < demand {need}"


def test_s6_part_time_share(data, output, eps):
    for t in DAYS:
        full = covering(output["ft"], data["ft_length"], t)
        part = covering(output["pt"], data["pt_length"], t)
        cap = data["pt_share"] * (full + part)
        assert part <= cap + eps * max(1, cap), (
            f"day {t + 1}: {part:.6g} part-timers > {data['pt_share']} of {full + part:.6g} on duty"
            f" = {cap:.6g}"
        )


def test_s7_headcount(data, output, eps):
    total = sum(output["ft"]) + sum(output["pt"])
    cap = data["max_headcount"]
    assert total <= cap + eps, f"headcount {total:.6g} > budget {cap}"


def test_total_cost_consistent(data, output):
    cost = sum(data["ft_cost"][t] * output["ft"][t] + data["pt_cost"][t] * output["pt"][t] for t in DAYS)
    rep = output["total_cost"]
    assert abs(cost - rep) <= 1e-6 * max(1, abs(cost)), f"reported cost {rep:.6g} != computed {cost:.6g}"
