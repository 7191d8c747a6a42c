"""Supervised tests for the bean roaster's supply chain (llmfp/supply-*)."""


def sizes(data):
    return len(data["harvest"]), len(data["roast_capacity"]), len(data["demand"])


def test_output_keys(output):
    assert set(output) == {"buy", "send", "total_cost"}, f"output keys {sorted(output)} != ['buy', 'send', 'total_cost']"


def test_shape(data, output):
    S, R, C = sizes(data)
    assert len(output["buy"]) == S and all(len(row) == R for row in output["buy"]), (
        f"buy must be {S} rows of {R}: got {[len(row) for row in output['buy']]}")
    assert len(output["send"]) == R and all(len(row) == C for row in output["send"]), (
        f"send must be {R} rows of {C}: got {[len(row) for row in output['send']]}")


def test_s9_whole_nonnegative_bags(output):
    for key in ("buy", "send"):
        for i, row in enumerate(output[key]):
            for j, q in enumerate(row):
                assert q >= 0 and float(q).is_integer(), f"{key}[{i}][{j}] = {q} is not a non-negative whole number"


def test_s2_s3_total_cost(data, output, eps):
    S, R, C = sizes(data)
    cost = sum((data["bean_cost"][s][r] + data["roast_cost"][r]) * output["buy"][s][r] for s in range(S) for r in range(R))
    cost += sum(data["delivery_cost"][r][c] * output["send"][r][c] for r in range(R) for c in range(C))
    assert abs(cost - output["total_cost"]) <= eps * max(1.0, cost), (
        f"total_cost {output['total_cost']} != {cost} computed from buy and send")


def test_s4_harvest(data, output):
    for s, row in enumerate(output["buy"]):
        assert sum(row) <= data["harvest"][s], f"grower {s} sells {sum(row)} bags > harvest {data['harvest'][s]}"


def test_s5_roast_capacity(data, output):
    for r, cap in enumerate(data["roast_capacity"]):
        bought = sum(row[r] for row in output["buy"])
        assert bought <= cap, f"roastery {r} roasts {bought} bags > capacity {cap}"


def test_s6_deliver_what_is_roasted(output):
    for r, sent in enumerate(output["send"]):
        bought = sum(row[r] for row in output["buy"])
        assert sum(sent) == bought, f"roastery {r} delivers {sum(sent)} bags but bought {bought}"


def test_s7_demand(data, output):
    for c, need in enumerate(data["demand"]):
        got = sum(row[c] for row in output["send"])
        assert got >= need, f"café {c} receives {got} bags < demand {need}"


def test_s8_closed_growers_sell_nothing(data, output):
    for s, closed in enumerate(data["closed"]):
        if closed:
            assert sum(output["buy"][s]) == 0, f"grower {s} is closed but sells {sum(output['buy'][s])} bags"
