"""Supervised tests for nlp4lp/17: capacitated min-cost flow."""



def test_output_keys(output):
    assert set(output) == {"flow", "total_cost"}, f"keys are {sorted(output)}"


def test_flow_length(data, output):
    assert len(output["flow"]) == data["A"], (
        f"flow has {len(output['flow'])} entries, expected A = {data['A']}"
    )


def test_flow_nonnegative(output, eps):
    for a, f in enumerate(output["flow"]):
        assert f >= -eps, f"arc {a + 1}: flow {f:.6g} < 0"


def test_s4_arc_capacity(data, output, eps):
    for a, f in enumerate(output["flow"]):
        cap = data["capacity"][a]
        assert f <= cap + eps * max(1, cap), (
            f"arc {a + 1} ({data['tail'][a]}->{data['head'][a]}): flow {f:.6g} > capacity {cap:.6g}"
        )


def test_s5_flow_balance(data, output, eps):
    for n in range(1, data["N"] + 1):
        out_f = sum(f for a, f in enumerate(output["flow"]) if data["tail"][a] == n)
        in_f = sum(f for a, f in enumerate(output["flow"]) if data["head"][a] == n)
        b = data["supply"][n - 1]
        assert abs(out_f - in_f - b) <= eps * max(1, abs(b), out_f, in_f), (
            f"node {n}: out {out_f:.6g} - in {in_f:.6g} = {out_f - in_f:.6g} != supply {b:.6g}"
        )


def test_total_cost_consistent(data, output):
    cost = sum(c * f for c, f in zip(data["cost"], output["flow"]))
    rep = output["total_cost"]
    assert abs(cost - rep) <= 1e-6 * max(1, abs(cost)), f"reported cost {rep:.6g} != computed {cost:.6g}"
