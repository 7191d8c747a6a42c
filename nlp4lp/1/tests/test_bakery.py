"""Supervised tests for nlp4lp/1 (bakery)."""


def test_output_keys(output):
    assert set(output) == {"sourdough", "rye"}, f"output keys {sorted(output)} != ['rye', 'sourdough']"


def test_nonnegative(output, eps):
    for key in ("sourdough", "rye"):
        assert output[key] >= -eps, f"{key} = {output[key]:.6g} is negative"


def test_s3_oven(data, output, eps):
    used = data["oven_sourdough"] * output["sourdough"] + data["oven_rye"] * output["rye"]
    cap = data["oven_minutes"]
    assert used <= cap + eps * max(1, abs(cap)), f"oven: uses {used:.6g} min > available {cap:.6g} min"


def test_s4_flour(data, output, eps):
    used = data["flour_sourdough"] * output["sourdough"] + data["flour_rye"] * output["rye"]
    stock = data["flour_stock"]
    assert used <= stock + eps * max(1, abs(stock)), f"flour: uses {used:.6g} kg > stock {stock:.6g} kg"


def test_s5_rye_demand(data, output, eps):
    cap = data["rye_demand"]
    assert output["rye"] <= cap + eps * max(1, cap), f"rye: {output['rye']:.6g} loaves > demand {cap:.6g}"
