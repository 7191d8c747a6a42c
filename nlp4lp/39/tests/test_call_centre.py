"""Supervised tests for nlp4lp/39 (call-centre staffing)."""



def test_output_keys(output):
    assert set(output) == {"agents", "total_cost"}, f"output keys are {sorted(output)}"


def test_shape(data, output):
    S = len(data["shift_start"])
    assert len(output["agents"]) == S, f"agents has {len(output['agents'])} entries, expected {S} patterns"


def test_agents_whole_nonnegative(output, eps):
    for s, v in enumerate(output["agents"], 1):
        assert v >= -eps, f"pattern {s}: {v:.6g} agents < 0"
        assert abs(v - round(v)) <= 1e-6, f"pattern {s}: {v!r} agents is not a whole number"


def test_s4_max_agents(data, output, eps):
    for s, (v, cap) in enumerate(zip(output["agents"], data["max_agents"]), 1):
        assert v <= cap + eps, f"pattern {s}: {v:.6g} agents > {cap} available"


def test_s2_hourly_cover(data, output, eps):
    H = len(data["required"])
    on = [0.0] * H
    for s, v in enumerate(output["agents"]):
        for h in range(data["shift_start"][s] - 1, data["shift_start"][s] - 1 + data["shift_length"][s]):
            on[h] += v
    for h, (got, need) in enumerate(zip(on, data["required"]), 1):
        assert got >= need - eps * max(1, need), f"hour {h}: {got:.6g} agents on the phones < required {need}"


def test_s6_part_time_share(data, output, eps):
    total = sum(output["agents"])
    part = sum(v for v, pt in zip(output["agents"], data["part_time"]) if pt)
    cap = data["max_part_time_share"] * total
    assert part <= cap + eps * max(1, cap), (
        f"{part:.6g} part-time agents of {total:.6g} > share {data['max_part_time_share']} ({cap:.6g})")


def test_total_cost_consistent(data, output, eps):
    value = sum(c * v for c, v in zip(data["shift_cost"], output["agents"]))
    rep = output["total_cost"]
    assert abs(rep - value) <= 1e-6 * max(1, abs(value)) + eps, f"reported cost {rep:.6g} != computed {value:.6g}"
