"""Supervised tests for nlp4lp/30 (least-cost layer mash)."""



def test_output_keys(output):
    assert set(output) == {"amount", "total_cost"}, f"output keys are {sorted(output)}"


def test_shapes(data, output):
    assert len(output["amount"]) == len(data["cost"]), (
        f"amount has {len(output['amount'])} entries, expected {len(data['cost'])} ingredients")


def test_nonnegative(output, eps):
    for i, v in enumerate(output["amount"], 1):
        assert v >= -eps, f"ingredient {i}: amount {v:.6g} kg < 0"


def test_s1_batch_weight(data, output, eps):
    total, want = sum(output["amount"]), data["batch_kg"]
    assert abs(total - want) <= eps * max(1, want), f"batch weighs {total:.6g} kg, must be {want:.6g} kg"


def test_s3_stock(data, output, eps):
    for i, (a, s) in enumerate(zip(output["amount"], data["stock"]), 1):
        assert a <= s + eps * max(1, s), f"ingredient {i}: uses {a:.6g} kg > stock {s:.6g} kg"


def test_s4_max_share(data, output, eps):
    for i, (a, share) in enumerate(zip(output["amount"], data["max_share"]), 1):
        cap = share * data["batch_kg"]
        assert a <= cap + eps * max(1, cap), f"ingredient {i}: {a:.6g} kg > {share:.6g} of batch = {cap:.6g} kg"


def _levels(data, output):
    amount = output["amount"]
    N = len(data["min_level"])
    return [sum(row[n] * a for row, a in zip(data["content"], amount)) for n in range(N)]


def test_s6_min_level(data, output, eps):
    for n, (got, lo) in enumerate(zip(_levels(data, output), data["min_level"]), 1):
        need = lo * data["batch_kg"]
        assert got >= need - eps * max(1, abs(need)), f"nutrient {n}: {got:.6g} units < minimum {need:.6g}"


def test_s6_max_level(data, output, eps):
    for n, (got, hi) in enumerate(zip(_levels(data, output), data["max_level"]), 1):
        cap = hi * data["batch_kg"]
        assert got <= cap + eps * max(1, abs(cap)), f"nutrient {n}: {got:.6g} units > maximum {cap:.6g}"


def test_total_cost_consistent(data, output, eps):
    value = sum(c * a for c, a in zip(data["cost"], output["amount"]))
    rep = output["total_cost"]
    assert abs(rep - value) <= 1e-6 * max(1, abs(value)) + eps, f"reported cost {rep:.6g} != computed {value:.6g}"
