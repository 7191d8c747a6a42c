"""Supervised tests for nlp4lp/5 (capacitated transport)."""


def test_output_keys(output):
    assert set(output) == {"ship"}, f"output keys {sorted(output)} != ['ship']"


def test_shape(data, output):
    S, D = len(data["supply"]), len(data["demand"])
    assert len(output["ship"]) == S, f"{len(output['ship'])} rows for {S} origins"
    for s, row in enumerate(output["ship"]):
        assert len(row) == D, f"origin {s}: {len(row)} entries for {D} destinations"


def test_s6_nonnegative(output, eps):
    for s, row in enumerate(output["ship"]):
        for d, q in enumerate(row):
            assert q >= -eps, f"lane ({s}, {d}): quantity {q:.6g} is negative"


def test_s3_supply(data, output, eps):
    for s, (row, cap) in enumerate(zip(output["ship"], data["supply"])):
        sent = sum(row)
        assert sent <= cap + eps * max(1, cap), f"origin {s}: sends {sent:.6g} > supply {cap:.6g}"


def test_s4_demand(data, output, eps):
    for d, need in enumerate(data["demand"]):
        got = sum(row[d] for row in output["ship"])
        assert got >= need - eps * max(1, need), f"destination {d}: receives {got:.6g} < demand {need:.6g}"


def test_s5_lane_capacity(data, output, eps):
    for s, (row, caps) in enumerate(zip(output["ship"], data["lane_cap"])):
        for d, (q, cap) in enumerate(zip(row, caps)):
            assert q <= cap + eps * max(1, cap), f"lane ({s}, {d}): carries {q:.6g} > capacity {cap:.6g}"
