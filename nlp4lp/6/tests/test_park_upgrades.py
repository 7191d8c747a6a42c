"""Supervised tests for nlp4lp/6 (park upgrades)."""


def chosen(output):
    return [j for j, s in enumerate(output["select"]) if s > 0.5]


def test_output_keys(output):
    assert set(output) == {"select", "total_value"}, f"output keys {sorted(output)} != ['select', 'total_value']"


def test_shape(data, output):
    assert len(output["select"]) == len(data["value"]), (
        f"{len(output['select'])} decisions for {len(data['value'])} upgrades")


def test_s1_binary(output):
    for j, s in enumerate(output["select"]):
        assert min(abs(s), abs(s - 1)) <= 1e-6, f"upgrade {j}: select = {s:.6g} is not 0 or 1"


def test_s2_total_value_consistent(data, output, eps):
    value = sum(data["value"][j] for j in chosen(output))
    assert abs(value - output["total_value"]) <= eps * max(1, value), (
        f"total_value {output['total_value']:.6g} != value of the funded upgrades {value:.6g}")


def test_s3_yearly_budget(data, output, eps):
    for t, budget in enumerate(data["budget"]):
        spent = sum(data["spend"][j][t] for j in chosen(output))
        assert spent <= budget + eps * max(1, budget), f"year {t}: spends {spent:.6g} M$ > budget {budget:.6g} M$"


def test_s4_crews(data, output, eps):
    used = sum(data["crew"][j] for j in chosen(output))
    assert used <= data["crews"] + eps, f"needs {used} crews > {data['crews']} available"


def test_s5_min_accessible(data, output, eps):
    count = sum(data["accessible"][j] for j in chosen(output))
    assert count >= data["min_accessible"] - eps, f"{count} accessibility upgrades < required {data['min_accessible']}"


def test_s6_max_projects(data, output, eps):
    count = len(chosen(output))
    assert count <= data["max_projects"] + eps, f"{count} upgrades > oversight limit {data['max_projects']}"
