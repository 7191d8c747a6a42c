"""Supervised tests for nlp4lp/7 (endowment portfolio, a mean-variance QP)."""

# interior-point and first-order QP solvers land within ~1e-7 of a bound, not exactly on it
TOL = 1e-6


def portfolio_return(data, output):
    return sum(m * w for m, w in zip(data["mean_return"], output["weight"]))


def test_output_keys(output):
    assert set(output) == {"weight", "expected_return", "variance"}, (
        f"output keys {sorted(output)} != ['expected_return', 'variance', 'weight']")


def test_shape(data, output):
    assert len(output["weight"]) == len(data["mean_return"]), (
        f"{len(output['weight'])} weights for {len(data['mean_return'])} funds")


def test_s2_fully_invested(output):
    total = sum(output["weight"])
    assert abs(total - 1) <= TOL, f"weights sum to {total:.9g}, not 1"


def test_s3_no_shorting(output):
    for a, w in enumerate(output["weight"]):
        assert w >= -TOL, f"fund {a}: weight {w:.6g} is a short position"


def test_s4_target_return(data, output):
    got = portfolio_return(data, output)
    need = data["target_return"]
    assert got >= need - TOL * max(1, abs(need)), f"expected return {got:.6g} % < target {need:.6g} %"


def test_s4_expected_return_consistent(data, output):
    got = portfolio_return(data, output)
    assert abs(got - output["expected_return"]) <= TOL * max(1, abs(got)), (
        f"reported expected_return {output['expected_return']:.6g} != {got:.6g} from the weights")


def test_s5_variance_consistent(data, output):
    w = output["weight"]
    var = sum(w[a] * data["cov"][a][b] * w[b] for a in range(len(w)) for b in range(len(w)))
    assert abs(var - output["variance"]) <= 1e-5 * max(1, abs(var)), (
        f"reported variance {output['variance']:.6g} != {var:.6g} from the weights")


def test_s6_position_limits(data, output):
    for a, (w, cap) in enumerate(zip(output["weight"], data["max_weight"])):
        assert w <= cap + TOL, f"fund {a}: weight {w:.6g} > limit {cap:.6g}"


def test_s7_emerging_markets(data, output):
    held = sum(e * w for e, w in zip(data["emerging"], output["weight"]))
    assert held <= data["max_emerging"] + TOL, (
        f"emerging-markets funds hold {held:.6g} > limit {data['max_emerging']:.6g}")
