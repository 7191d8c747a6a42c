"""Supervised tests for nlp4lp/12 (grocery distribution centres, capacitated facility location)."""


def sizes(data):
    return len(data["fixed_cost"]), len(data["demand"])


def tol(eps, *terms):
    """Tolerance scaled by the magnitude of the terms being compared."""
    return eps * max(1.0, sum(abs(x) for x in terms))


def test_output_keys(output):
    assert set(output) == {"open", "ship", "total_cost"}, (
        f"output keys {sorted(output)} != ['open', 'ship', 'total_cost']")


def test_shape(data, output):
    W, S = sizes(data)
    assert len(output["open"]) == W, f"{len(output['open'])} open flags for {W} centres"
    assert len(output["ship"]) == W, f"{len(output['ship'])} rows of ship for {W} centres"
    for w, row in enumerate(output["ship"]):
        assert len(row) == S, f"centre {w}: {len(row)} entries for {S} stores"


def test_s1_open_binary(output):
    for w, v in enumerate(output["open"]):
        assert min(abs(v), abs(v - 1)) <= 1e-6, f"centre {w}: open = {v:.6g} is not 0 or 1"


def test_s8_nonnegative(output, eps):
    for w, row in enumerate(output["ship"]):
        for s, q in enumerate(row):
            assert q >= -eps, f"centre {w} -> store {s}: {q:.6g} pallets is negative"


def test_s2_s3_total_cost_consistent(data, output, eps):
    W, S = sizes(data)
    cost = sum(data["fixed_cost"][w] * output["open"][w] for w in range(W))
    cost += sum(data["cost"][w][s] * output["ship"][w][s] for w in range(W) for s in range(S))
    assert abs(cost - output["total_cost"]) <= tol(eps, cost), (
        f"total_cost {output['total_cost']:.9g} != {cost:.9g} from the plan")


def test_s4_demand(data, output, eps):
    for s, need in enumerate(data["demand"]):
        got = sum(row[s] for row in output["ship"])
        assert abs(got - need) <= tol(eps, need), f"store {s}: receives {got:.6g} pallets != demand {need}"


def test_s5_capacity_of_open_centres(data, output, eps):
    for w, (row, cap) in enumerate(zip(output["ship"], data["capacity"])):
        sent = sum(row)
        allowed = cap * round(output["open"][w])
        assert sent <= allowed + tol(eps, cap), (
            f"centre {w} (open={round(output['open'][w])}): dispatches {sent:.6g} pallets > {allowed} allowed")


def test_s6_reach(data, output, eps):
    for w, (row, reach) in enumerate(zip(output["ship"], data["reachable"])):
        for s, (q, ok) in enumerate(zip(row, reach)):
            if not ok:
                assert abs(q) <= eps, f"store {s} is out of reach of centre {w} but gets {q:.6g} pallets"


def test_s7_max_open(data, output):
    opened = sum(round(v) for v in output["open"])
    assert opened <= data["max_open"], f"{opened} centres open > {data['max_open']} head office can staff"
