"""Supervised tests for nlp4lp/28: morning school-bus stop assignment."""



def is_binary(v):
    return abs(v) <= 1e-6 or abs(v - 1) <= 1e-6


def test_output_keys(output):
    assert set(output) == {"assign", "used", "total_cost"}, f"keys are {sorted(output)}"


def test_shapes(data, output):
    assert len(output["assign"]) == data["S"], (
        f"assign has {len(output['assign'])} rows, expected S = {data['S']}"
    )
    for s, row in enumerate(output["assign"]):
        assert len(row) == data["B"], f"assign row {s + 1} has {len(row)} entries, expected B = {data['B']}"
    assert len(output["used"]) == data["B"], (
        f"used has {len(output['used'])} entries, expected B = {data['B']}"
    )


def test_binary(output):
    for s, row in enumerate(output["assign"]):
        for b, v in enumerate(row):
            assert is_binary(v), f"assign[{s + 1}][{b + 1}] = {v!r} is not 0/1"
    for b, v in enumerate(output["used"]):
        assert is_binary(v), f"used[{b + 1}] = {v!r} is not 0/1"


def test_s3_one_bus_per_stop(output, eps):
    for s, row in enumerate(output["assign"]):
        assert abs(sum(row) - 1) <= eps, f"stop {s + 1} is served by {sum(row):.6g} buses, expected exactly 1"


def test_s4_seats(data, output, eps):
    for b in range(data["B"]):
        riders = sum(data["students"][s] * output["assign"][s][b] for s in range(data["S"]))
        assert riders <= data["seats"][b] + eps, (
            f"bus {b + 1}: {riders:.6g} pupils > {data['seats'][b]} seats"
        )


def test_s5_stop_limit(data, output, eps):
    for b in range(data["B"]):
        n = sum(output["assign"][s][b] for s in range(data["S"]))
        assert n <= data["max_stops"] + eps, f"bus {b + 1}: {n:.6g} stops > limit {data['max_stops']}"


def test_s6_ride_limit(data, output, eps):
    for s in range(data["S"]):
        for b in range(data["B"]):
            if output["assign"][s][b] > 0.5:
                assert data["ride"][s][b] <= data["max_ride"], (
                    f"stop {s + 1} on bus {b + 1}: ride {data['ride'][s][b]} min > limit"
                    f" {data['max_ride']} min"
                )


def test_s7_used_flags(data, output):
    for b in range(data["B"]):
        n = sum(output["assign"][s][b] for s in range(data["S"]))
        assert (n > 0.5) == (output["used"][b] > 0.5), (
            f"bus {b + 1}: serves {n:.6g} stops but used = {output['used'][b]}"
        )


def test_total_cost_consistent(data, output):
    cost = sum(data["fixed_cost"][b] * output["used"][b] for b in range(data["B"]))
    cost += data["minute_cost"] * sum(
        data["students"][s] * data["ride"][s][b] * output["assign"][s][b]
        for s in range(data["S"])
        for b in range(data["B"])
    )
    rep = output["total_cost"]
    assert abs(cost - rep) <= 1e-6 * max(1, abs(cost)), f"reported cost {rep:.6g} != computed {cost:.6g}"
