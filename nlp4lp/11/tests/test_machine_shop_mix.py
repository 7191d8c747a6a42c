"""Supervised tests for nlp4lp/11 (machine shop mix)."""


def test_output_keys(output):
    assert set(output) == {"produce", "extra"}, f"output keys {sorted(output)} != ['extra', 'produce']"


def test_shape(data, output):
    assert len(output["produce"]) == len(data["margin"]), (
        f"{len(output['produce'])} quantities for {len(data['margin'])} products")
    assert len(output["extra"]) == len(data["hours"]), (
        f"{len(output['extra'])} extra-hour values for {len(data['hours'])} machines")


def test_s10_nonnegative(output, eps):
    for key in ("produce", "extra"):
        for i, v in enumerate(output[key]):
            assert v >= -eps, f"{key}[{i}] = {v:.6g} is negative"


def test_s5_machine_hours(data, output, eps):
    for m, regular in enumerate(data["hours"]):
        used = sum(row[m] * x for row, x in zip(data["time"], output["produce"]))
        cap = regular + output["extra"][m]
        assert used <= cap + eps * max(1, cap), f"machine {m}: uses {used:.6g} h > {cap:.6g} h available"


def test_s6_extra_max(data, output, eps):
    for m, (v, cap) in enumerate(zip(output["extra"], data["extra_max"])):
        assert v <= cap + eps * max(1, cap), f"machine {m}: {v:.6g} extra hours > cap {cap}"


def test_s7_material(data, output, eps):
    used = sum(a * x for a, x in zip(data["material"], output["produce"]))
    cap = data["material_stock"]
    assert used <= cap + eps * max(1, cap), f"uses {used:.6g} kg of material > {cap} kg in stock"


def test_s8_contracts(data, output, eps):
    for n, (x, low) in enumerate(zip(output["produce"], data["min_units"])):
        assert x >= low - eps * max(1, low), f"product {n}: {x:.6g} units < contracted {low}"


def test_s9_market(data, output, eps):
    for n, (x, high) in enumerate(zip(output["produce"], data["max_units"])):
        assert x <= high + eps * max(1, high), f"product {n}: {x:.6g} units > market {high}"
