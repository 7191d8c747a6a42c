"""Supervised tests for nlp4lp/44 (print shop week: whole batches under press hours and ink, records-shaped data)."""


def tol(eps, *terms):
    """Tolerance scaled by the magnitude of the terms being compared."""
    return eps * max(1.0, sum(abs(x) for x in terms))


def planned(data, output):
    """The batches of each product record, by its position in data.json's products."""
    by_name = {row["name"]: row["batches"] for row in output["batches"]}
    return [(p, by_name[p["name"]]) for p in data["products"]]


def test_output_keys(output):
    assert set(output) == {"batches", "profit"}, f"output keys {sorted(output)} != ['batches', 'profit']"


def test_one_record_per_product(data, output):
    names = [row.get("name") for row in output["batches"]]
    assert names == [p["name"] for p in data["products"]], (
        f"batches are listed for {names}, the products are {[p['name'] for p in data['products']]}")


def test_s1_whole_batches(data, output):
    for p, q in planned(data, output):
        assert abs(q - round(q)) <= 1e-6, f"{p['name']}: {q:.6g} batches is not a whole number"


def test_s5_standing_orders_and_paper(data, output, eps):
    for p, q in planned(data, output):
        assert q >= p["min_batches"] - eps, f"{p['name']}: {q:.6g} batches < the standing orders' {p['min_batches']}"
        assert q <= p["max_batches"] + eps, f"{p['name']}: {q:.6g} batches > the paper for {p['max_batches']}"


def test_s3_press_hours(data, output, eps):
    used = sum(p["press_hours"] * q for p, q in planned(data, output))
    limit = data["press_hours_available"]
    assert used <= limit + tol(eps, limit), f"the press runs {used:.6g} hours > the {limit} it has"


def test_s4_ink(data, output, eps):
    used = sum(p["ink_litres"] * q for p, q in planned(data, output))
    limit = data["ink_available"]
    assert used <= limit + tol(eps, limit), f"the batches use {used:.6g} litres of ink > the {limit} in stock"


def test_s2_s6_profit_consistent(data, output, eps):
    profit = sum(p["profit"] * q for p, q in planned(data, output)) - data["weekly_rent"]
    assert abs(profit - output["profit"]) <= tol(eps, profit), (
        f"profit {output['profit']:.9g} != {profit:.9g} from the batches after the rent")
