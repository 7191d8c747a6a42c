"""Supervised tests for nlp4lp/25: drought water allocation with quadratic shortage penalty."""



def tol(eps, ref):
    return eps * max(1, abs(ref))


def received(output, data, d):
    return sum(output["flow"][r][d] for r in range(data["R"]))


def test_output_keys(output):
    assert set(output) == {"flow", "received", "total_penalty"}, f"keys are {sorted(output)}"


def test_shapes(data, output):
    assert len(output["flow"]) == data["R"], f"flow has {len(output['flow'])} rows, expected R = {data['R']}"
    for r, row in enumerate(output["flow"]):
        assert len(row) == data["D"], f"flow row {r + 1} has {len(row)} entries, expected D = {data['D']}"
    assert len(output["received"]) == data["D"], f"received has {len(output['received'])} entries, expected D"


def test_s1_flows_nonnegative(data, output, eps):
    for r, row in enumerate(output["flow"]):
        for d, v in enumerate(row):
            assert v >= -eps, f"flow reservoir {r + 1} -> district {d + 1} = {v:.6g} ML < 0"


def test_s2_reservoir_release(data, output, eps):
    for r in range(data["R"]):
        out = sum(output["flow"][r])
        cap = data["available"][r] - data["env_release"][r]
        assert out <= cap + tol(eps, cap), (
            f"reservoir {r + 1}: pipes {out:.6g} ML > {data['available'][r]} held -"
            f" {data['env_release'][r]} environmental = {cap}"
        )


def test_s3_pipeline_capacity(data, output, eps):
    for r in range(data["R"]):
        for d in range(data["D"]):
            v, cap = output["flow"][r][d], data["link_cap"][r][d]
            assert v <= cap + tol(eps, cap), f"pipeline {r + 1} -> {d + 1}: {v:.6g} ML > capacity {cap} ML"


def test_received_consistent(data, output, eps):
    for d in range(data["D"]):
        total, rep = received(output, data, d), output["received"][d]
        assert abs(total - rep) <= tol(eps, total), (
            f"district {d + 1}: received {rep:.6g} != sum of flows {total:.6g}"
        )


def test_s5_request_cap(data, output, eps):
    for d in range(data["D"]):
        got, req = received(output, data, d), data["request"][d]
        assert got <= req + tol(eps, req), f"district {d + 1}: receives {got:.6g} ML > request {req} ML"


def test_s6_emergency_minimum(data, output, eps):
    for d in range(data["D"]):
        got, need = received(output, data, d), data["min_share"] * data["request"][d]
        assert got >= need - tol(eps, need), (
            f"district {d + 1}: receives {got:.6g} ML < {data['min_share']}·request = {need:.6g} ML"
        )


def test_total_penalty_consistent(data, output):
    R, D = range(data["R"]), range(data["D"])
    value = sum(data["weight"][d] * (data["request"][d] - received(output, data, d)) ** 2 for d in D)
    value += sum(data["convey_cost"][r][d] * output["flow"][r][d] for r in R for d in D)
    rep = output["total_penalty"]
    assert abs(value - rep) <= 1e-5 * max(1, abs(value)), f"reported {rep:.8g} != computed {value:.8g}"
