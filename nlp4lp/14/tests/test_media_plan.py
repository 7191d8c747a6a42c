"""Supervised tests for nlp4lp/14 (media plan)."""


def total_spend(output):
    return sum(sum(row) for row in output["spend"])


def test_output_keys(output):
    assert set(output) == {"spend", "impressions"}, f"output keys {sorted(output)} != ['impressions', 'spend']"


def test_shape(data, output):
    C, R = len(data["channel_cap"]), len(data["region_cap"])
    assert len(output["spend"]) == C, f"{len(output['spend'])} rows for {C} channels"
    for c, row in enumerate(output["spend"]):
        assert len(row) == R, f"channel {c}: {len(row)} entries for {R} regions"


def test_s9_nonnegative(output, eps):
    for c, row in enumerate(output["spend"]):
        for r, v in enumerate(row):
            assert v >= -eps, f"channel {c}, region {r}: spend {v:.6g} is negative"


def test_s2_impressions_consistent(data, output, eps):
    got = sum(a * v for arow, vrow in zip(data["reach"], output["spend"]) for a, v in zip(arow, vrow))
    assert abs(got - output["impressions"]) <= eps * max(1, abs(got)), (
        f"reported impressions {output['impressions']:.9g} != {got:.9g} from the spend")


def test_s3_budget(data, output, eps):
    spent = total_spend(output)
    assert spent <= data["budget"] + eps * data["budget"], f"spends {spent:.6g} $ > budget {data['budget']} $"


def test_s4_channel_cap(data, output, eps):
    for c, (row, cap) in enumerate(zip(output["spend"], data["channel_cap"])):
        assert sum(row) <= cap + eps * max(1, cap), f"channel {c}: spends {sum(row):.6g} $ > cap {cap} $"


def test_s5_channel_commitment(data, output, eps):
    for c, (row, low) in enumerate(zip(output["spend"], data["channel_min"])):
        assert sum(row) >= low - eps * max(1, low), f"channel {c}: spends {sum(row):.6g} $ < committed {low} $"


def test_s6_regional_reach(data, output, eps):
    for r, need in enumerate(data["min_impressions"]):
        got = sum(data["reach"][c][r] * row[r] for c, row in enumerate(output["spend"]))
        assert got >= need - eps * max(1, need), f"region {r}: {got:.6g} impressions < required {need}"


def test_s7_region_cap(data, output, eps):
    for r, cap in enumerate(data["region_cap"]):
        spent = sum(row[r] for row in output["spend"])
        assert spent <= cap + eps * max(1, cap), f"region {r}: spends {spent:.6g} $ > cap {cap} $"


def test_s8_digital_share(data, output, eps):
    digital = sum(f * sum(row) for f, row in zip(data["digital"], output["spend"]))
    need = data["min_digital_share"] * total_spend(output)
    assert digital >= need - eps * max(1, need), f"digital spend {digital:.6g} $ < required {need:.6g} $"
