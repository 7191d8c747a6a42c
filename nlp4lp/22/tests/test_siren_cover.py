"""Supervised tests for nlp4lp/22: flood-warning sirens (set multicover)."""



def test_output_keys(output):
    assert set(output) == {"build", "total_cost"}, f"keys are {sorted(output)}"


def test_build_length(data, output):
    assert len(output["build"]) == data["S"], (
        f"build has {len(output['build'])} entries, expected S = {data['S']}"
    )


def test_s5_binary(output):
    for s, v in enumerate(output["build"]):
        assert abs(v) <= 1e-6 or abs(v - 1) <= 1e-6, f"build[{s + 1}] = {v!r} is not 0/1"


def test_s4_coverage(data, output, eps):
    for k in range(data["D"]):
        heard = sum(data["covers"][k][s] * output["build"][s] for s in range(data["S"]))
        need = data["required"][k]
        assert heard >= need - eps, f"district {k + 1} hears {heard:.6g} sirens < required {need}"


def test_total_cost_consistent(data, output):
    cost = sum(c * b for c, b in zip(data["cost"], output["build"]))
    rep = output["total_cost"]
    assert abs(cost - rep) <= 1e-6 * max(1, abs(cost)), f"reported cost {rep:.6g} != computed {cost:.6g}"
