"""Supervised tests for nlp4lp/4 (compost blend)."""


def batch_weight(output):
    return sum(output["tonnes"])


def average(data, output, p):
    total = batch_weight(output)
    return sum(row[p] * t for row, t in zip(data["level"], output["tonnes"])) / total if total > 0 else 0.0


def test_output_keys(output):
    assert set(output) == {"tonnes", "total_cost"}, f"output keys {sorted(output)} != ['tonnes', 'total_cost']"


def test_shape(data, output):
    assert len(output["tonnes"]) == len(data["cost"]), (
        f"{len(output['tonnes'])} tonnages for {len(data['cost'])} components")


def test_s9_nonnegative(output, eps):
    for c, t in enumerate(output["tonnes"]):
        assert t >= -eps, f"component {c}: {t:.6g} t is negative"


def test_s2_total_cost_consistent(data, output, eps):
    cost = sum(c * t for c, t in zip(data["cost"], output["tonnes"]))
    assert abs(cost - output["total_cost"]) <= eps * max(1, abs(cost)), (
        f"total_cost {output['total_cost']:.6g} != cost of the blend {cost:.6g}")


def test_s3_batch(data, output, eps):
    total = batch_weight(output)
    assert abs(total - data["batch"]) <= eps * max(1, data["batch"]), (
        f"batch weighs {total:.6g} t, must be {data['batch']:.6g} t")


def test_s4_available(data, output, eps):
    for c, (t, cap) in enumerate(zip(output["tonnes"], data["available"])):
        assert t <= cap + eps * max(1, cap), f"component {c}: uses {t:.6g} t > {cap:.6g} t in the yard"


def test_s6_min_level(data, output, eps):
    for p, low in enumerate(data["min_level"]):
        got = average(data, output, p)
        assert got >= low - eps * max(1, abs(low)), f"property {p}: batch level {got:.6g} < minimum {low:.6g}"


def test_s7_max_level(data, output, eps):
    for p, high in enumerate(data["max_level"]):
        got = average(data, output, p)
        assert got <= high + eps * max(1, abs(high)), f"property {p}: batch level {got:.6g} > maximum {high:.6g}"


def test_s8_recycled_share(data, output, eps):
    recycled = sum(r * t for r, t in zip(data["recycled"], output["tonnes"]))
    need = data["min_recycled"] * batch_weight(output)
    assert recycled >= need - eps * max(1, need), f"recycled material {recycled:.6g} t < required {need:.6g} t"
