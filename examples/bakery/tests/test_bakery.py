"""The bakery's tests: each checks one statement against output.json, with the numbers in its message."""


def test_output_keys(output):
    assert set(output) == {"loaves", "cakes", "profit"}, f"output keys {sorted(output)}"


def test_s1_whole_and_not_negative(output):
    for name in ("loaves", "cakes"):
        assert output[name] >= 0 and float(output[name]).is_integer(), f"{name} = {output[name]}"


def test_s2_profit_is_what_the_plan_earns(data, output, eps):
    earned = data["profit_loaf"] * output["loaves"] + data["profit_cake"] * output["cakes"]
    assert abs(earned - output["profit"]) <= eps * max(1, earned), f"profit {output['profit']} != {earned}"


def test_s3_oven(data, output, eps):
    used = data["oven_loaf"] * output["loaves"] + data["oven_cake"] * output["cakes"]
    assert used <= data["oven_minutes"] + eps, f"oven {used} min > {data['oven_minutes']}"


def test_s4_flour(data, output, eps):
    used = data["flour_loaf"] * output["loaves"] + data["flour_cake"] * output["cakes"]
    assert used <= data["flour_kg"] + eps, f"flour {used} kg > {data['flour_kg']}"


def test_s5_cafe(data, output):
    assert output["cakes"] <= data["max_cakes"], f"{output['cakes']} cakes > {data['max_cakes']}"
