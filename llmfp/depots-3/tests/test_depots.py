"""Supervised tests for the drinks wholesaler's depots (llmfp/depots-*)."""


def sizes(data):
    return len(data["lease"]), len(data["crates"])


def test_output_keys(output):
    assert set(output) == {"open", "depot_of", "total_cost"}, (
        f"output keys {sorted(output)} != ['depot_of', 'open', 'total_cost']")


def test_shape(data, output):
    W, S = sizes(data)
    assert len(output["open"]) == W, f"{len(output['open'])} open flags for {W} depots"
    assert all(v in (0, 1) for v in output["open"]), f"open flags {output['open']} are not all 0 or 1"
    assert len(output["depot_of"]) == S, f"{len(output['depot_of'])} depot numbers for {S} shops"


def test_s4_each_shop_has_one_real_depot(data, output):
    W, _ = sizes(data)
    for s, w in enumerate(output["depot_of"]):
        assert isinstance(w, int) and 0 <= w < W, f"shop {s}: depot {w!r} is not a depot number 0..{W - 1}"


def test_s2_s3_total_cost(data, output, eps):
    cost = sum(lease for lease, on in zip(data["lease"], output["open"]) if on)
    cost += sum(data["serve_cost"][w][s] for s, w in enumerate(output["depot_of"]))
    assert abs(cost - output["total_cost"]) <= eps * max(1.0, cost), (
        f"total_cost {output['total_cost']} != {cost} from the leases and the assignment")


def test_s5_only_leased_depots_serve(output):
    for s, w in enumerate(output["depot_of"]):
        assert output["open"][w], f"shop {s} is served by depot {w}, which is not leased"


def test_s5_capacity(data, output):
    for w, cap in enumerate(data["capacity"]):
        load = sum(c for c, dep in zip(data["crates"], output["depot_of"]) if dep == w)
        assert load <= cap, f"depot {w} handles {load} crates a week > capacity {cap}"


def test_s6_drive_limit(data, output):
    for s, w in enumerate(output["depot_of"]):
        assert data["drive"][w][s] <= data["max_drive"], (
            f"shop {s} is {data['drive'][w][s]} minutes from depot {w} > {data['max_drive']}")


def test_s7_max_open(data, output):
    assert sum(output["open"]) <= data["max_open"], f"{sum(output['open'])} depots leased > {data['max_open']}"
