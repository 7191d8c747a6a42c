"""Supervised tests for nlp4lp/8 (checkpoint screeners)."""


def test_output_keys(output):
    assert set(output) == {"screeners", "total_cost"}, f"output keys {sorted(output)} != ['screeners', 'total_cost']"


def test_shape(data, output):
    assert len(output["screeners"]) == len(data["cost"]), (
        f"{len(output['screeners'])} counts for {len(data['cost'])} shifts")


def test_s1_s6_nonnegative_integer(output, eps):
    for k, n in enumerate(output["screeners"]):
        assert n >= -eps, f"shift {k}: {n:.6g} screeners is negative"
        assert abs(n - round(n)) <= 1e-6, f"shift {k}: {n:.6g} screeners is not a whole number"


def test_s2_total_cost_consistent(data, output, eps):
    cost = sum(c * n for c, n in zip(data["cost"], output["screeners"]))
    assert abs(cost - output["total_cost"]) <= eps * max(1, abs(cost)), (
        f"total_cost {output['total_cost']:.6g} != cost of the roster {cost:.6g}")


def test_s3_coverage(data, output, eps):
    for p, need in enumerate(data["required"]):
        on_duty = sum(row[p] * n for row, n in zip(data["covers"], output["screeners"]))
        assert on_duty >= need - eps, f"period {p}: {on_duty:.6g} screeners on duty < required {need}"


def test_s4_availability(data, output, eps):
    for k, (n, cap) in enumerate(zip(output["screeners"], data["max_screeners"])):
        assert n <= cap + eps, f"shift {k}: {n:.6g} screeners > {cap} available"


def test_s5_part_time_share(data, output, eps):
    part = sum(f * n for f, n in zip(data["part_time"], output["screeners"]))
    cap = data["max_part_share"] * sum(output["screeners"])
    assert part <= cap + eps * max(1, cap), (
        f"{part:.6g} part-time screeners > {data['max_part_share']:.6g} of {sum(output['screeners']):.6g} scheduled")
