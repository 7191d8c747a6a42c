"""Supervised tests for nlp4lp/3 (trail rations, a diet LP)."""


def intake(data, output, n):
    return sum(row[n] * s for row, s in zip(data["nutrient"], output["servings"]))


def test_output_keys(output):
    assert set(output) == {"servings", "total_cost"}, f"output keys {sorted(output)} != ['servings', 'total_cost']"


def test_shape(data, output):
    assert len(output["servings"]) == len(data["cost"]), (
        f"{len(output['servings'])} servings for {len(data['cost'])} foods")


def test_s8_nonnegative(output, eps):
    for f, s in enumerate(output["servings"]):
        assert s >= -eps, f"food {f}: {s:.6g} servings is negative"


def test_s2_total_cost_consistent(data, output, eps):
    cost = sum(c * s for c, s in zip(data["cost"], output["servings"]))
    assert abs(cost - output["total_cost"]) <= eps * max(1, abs(cost)), (
        f"total_cost {output['total_cost']:.6g} != cost of the servings {cost:.6g}")


def test_s4_min_intake(data, output, eps):
    for n, low in enumerate(data["min_intake"]):
        got = intake(data, output, n)
        assert got >= low - eps * max(1, abs(low)), f"nutrient {n}: intake {got:.6g} < minimum {low:.6g}"


def test_s5_max_intake(data, output, eps):
    for n, high in enumerate(data["max_intake"]):
        got = intake(data, output, n)
        assert got <= high + eps * max(1, abs(high)), f"nutrient {n}: intake {got:.6g} > maximum {high:.6g}"


def test_s6_variety(data, output, eps):
    for f, (s, cap) in enumerate(zip(output["servings"], data["max_servings"])):
        assert s <= cap + eps * max(1, cap), f"food {f}: {s:.6g} servings > limit {cap:.6g}"


def test_s7_pack_weight(data, output, eps):
    grams = sum(w * s for w, s in zip(data["weight"], output["servings"]))
    cap = data["max_weight"]
    assert grams <= cap + eps * max(1, cap), f"ration weighs {grams:.6g} g > limit {cap:.6g} g"
