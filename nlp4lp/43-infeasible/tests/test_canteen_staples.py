"""Supervised tests for nlp4lp/43 (canteen staples: whole packs of food, nutrient needs, map-shaped data)."""


def tol(eps, *terms):
    """Tolerance scaled by the magnitude of the terms being compared."""
    return eps * max(1.0, sum(abs(x) for x in terms))


def test_output_keys(output):
    assert set(output) == {"packs", "total_cost"}, f"output keys {sorted(output)} != ['packs', 'total_cost']"


def test_one_count_per_food(data, output):
    assert set(output["packs"]) == set(data["cost"]), (
        f"packs are given for {sorted(output['packs'])}, the foods are {sorted(data['cost'])}")


def test_s1_s6_whole_nonnegative_packs(output, eps):
    for f, q in output["packs"].items():
        assert q >= -eps, f"{f}: {q:.6g} packs is negative"
        assert abs(q - round(q)) <= 1e-6, f"{f}: {q:.6g} packs is not a whole number"


def test_s3_supply(data, output, eps):
    for f, q in output["packs"].items():
        assert q <= data["max_packs"][f] + eps, f"{f}: {q:.6g} packs > {data['max_packs'][f]} the wholesaler delivers"


def test_s4_needs(data, output, eps):
    for n, need in data["min_need"].items():
        got = sum(data["content"][f][n] * q for f, q in output["packs"].items())
        assert got >= need - tol(eps, need), f"nutrient {n}: the packs supply {got:.6g} units < the need {need}"


def test_s2_s5_total_cost_consistent(data, output, eps):
    bill = sum(data["cost"][f] * q for f, q in output["packs"].items()) + data["delivery_fee"]
    assert abs(bill - output["total_cost"]) <= tol(eps, bill), (
        f"total_cost {output['total_cost']:.9g} != {bill:.9g} from the packs and the delivery fee")
