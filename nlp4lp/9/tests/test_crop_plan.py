"""Supervised tests for nlp4lp/9 (crop plan)."""


def cells(output):
    return [(c, f, x) for c, row in enumerate(output["area"]) for f, x in enumerate(row)]


def test_output_keys(output):
    assert set(output) == {"area", "profit"}, f"output keys {sorted(output)} != ['area', 'profit']"


def test_shape(data, output):
    C, F = len(data["price"]), len(data["land"])
    assert len(output["area"]) == C, f"{len(output['area'])} rows for {C} crops"
    for c, row in enumerate(output["area"]):
        assert len(row) == F, f"crop {c}: {len(row)} entries for {F} fields"


def test_s9_nonnegative(output, eps):
    for c, f, x in cells(output):
        assert x >= -eps, f"crop {c} on field {f}: area {x:.6g} ha is negative"


def test_s2_s3_profit_consistent(data, output, eps):
    profit = sum((data["price"][c] * data["yield"][c][f] - data["cost"][c]) * x for c, f, x in cells(output))
    assert abs(profit - output["profit"]) <= eps * max(1, abs(profit)), (
        f"reported profit {output['profit']:.6g} != {profit:.6g} from the areas")


def test_s4_land(data, output, eps):
    for f, land in enumerate(data["land"]):
        sown = sum(row[f] for row in output["area"])
        assert sown <= land + eps * max(1, land), f"field {f}: sows {sown:.6g} ha > {land:.6g} ha"


def test_s5_water(data, output, eps):
    used = sum(data["water"][c] * x for c, f, x in cells(output))
    cap = data["water_limit"]
    assert used <= cap + eps * max(1, cap), f"uses {used:.6g} ML of water > licence {cap:.6g} ML"


def test_s6_labour(data, output, eps):
    used = sum(data["labour"][c] * x for c, f, x in cells(output))
    cap = data["labour_limit"]
    assert used <= cap + eps * max(1, cap), f"needs {used:.6g} h of labour > {cap:.6g} h available"


def test_s7_sales(data, output, eps):
    for c, cap in enumerate(data["max_sales"]):
        grown = sum(data["yield"][c][f] * x for f, x in enumerate(output["area"][c]))
        assert grown <= cap + eps * max(1, cap), f"crop {c}: grows {grown:.6g} t > buyers take {cap:.6g} t"


def test_s8_legume_share(data, output, eps):
    sown = sum(x for _, _, x in cells(output))
    legumes = sum(data["legume"][c] * x for c, f, x in cells(output))
    need = data["min_legume_share"] * sown
    assert legumes >= need - eps * max(1, need), f"legumes cover {legumes:.6g} ha < {need:.6g} ha required"
