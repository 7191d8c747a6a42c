"""Supervised tests for nlp4lp/32 (multi-commodity flow)."""



def test_output_keys(output):
    assert set(output) == {"flow", "total_cost"}, f"output keys are {sorted(output)}"


def test_shapes(data, output):
    K, A = len(data["volume"]), len(data["arc_from"])
    assert len(output["flow"]) == K, f"flow has {len(output['flow'])} rows, expected {K} commodities"
    for k, row in enumerate(output["flow"], 1):
        assert len(row) == A, f"commodity {k}: {len(row)} arc flows, expected {A}"


def test_nonnegative(output, eps):
    for k, row in enumerate(output["flow"], 1):
        for a, v in enumerate(row, 1):
            assert v >= -eps, f"commodity {k}, arc {a}: flow {v:.6g} < 0"


def test_s2_arc_capacity(data, output, eps):
    for a, cap in enumerate(data["arc_capacity"]):
        used = sum(row[a] for row in output["flow"])
        assert used <= cap + eps * max(1, cap), f"arc {a + 1}: carries {used:.6g} > capacity {cap:.6g}"


def test_s6_conservation(data, output, eps):
    V = data["num_nodes"]
    for k, row in enumerate(output["flow"]):
        net = [0.0] * (V + 1)
        for a, x in enumerate(row):
            net[data["arc_from"][a]] += x
            net[data["arc_to"][a]] -= x
        want = [0.0] * (V + 1)
        want[data["origin"][k]] += data["volume"][k]
        want[data["destination"][k]] -= data["volume"][k]
        tol = eps * max(1, data["volume"][k])
        for v in range(1, V + 1):
            assert abs(net[v] - want[v]) <= tol, (
                f"commodity {k + 1}, node {v}: net outflow {net[v]:.6g}, must be {want[v]:.6g}")


def test_total_cost_consistent(data, output, eps):
    value = sum(c * x for crow, frow in zip(data["unit_cost"], output["flow"]) for c, x in zip(crow, frow))
    rep = output["total_cost"]
    assert abs(rep - value) <= 1e-6 * max(1, abs(value)) + eps, f"reported cost {rep:.6g} != computed {value:.6g}"
