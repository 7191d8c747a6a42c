"""Supervised tests for nlp4lp/34 (capital project selection)."""



def test_output_keys(output):
    assert set(output) == {"select", "total_value"}, f"output keys are {sorted(output)}"


def test_shape(data, output):
    assert len(output["select"]) == len(data["value"]), (
        f"select has {len(output['select'])} entries, expected {len(data['value'])} projects")


def test_select_binary(output, eps):
    for j, v in enumerate(output["select"], 1):
        assert abs(v) <= eps or abs(v - 1) <= eps, f"project {j}: select = {v!r} is not 0/1"


def test_s4_yearly_budget(data, output, eps):
    for t, cap in enumerate(data["budget"]):
        used = sum(row[t] * s for row, s in zip(data["spend"], output["select"]))
        assert used <= cap + eps * max(1, cap), f"year {t + 1}: commits {used:.6g} k$ > budget {cap:.6g} k$"


def test_s5_prerequisites(data, output, eps):
    sel = output["select"]
    for j, pre in enumerate(data["prerequisite"]):
        if pre:
            assert sel[j] <= sel[pre - 1] + eps, (
                f"project {j + 1} is funded ({sel[j]:.6g}) but its prerequisite {pre} is not ({sel[pre - 1]:.6g})")


def test_s6_one_per_group(data, output, eps):
    chosen = {}
    for j, (g, s) in enumerate(zip(data["group"], output["select"]), 1):
        if g:
            chosen.setdefault(g, []).append((j, s))
    for g, members in chosen.items():
        total = sum(s for _, s in members)
        assert total <= 1 + eps, f"group {g}: {total:.6g} alternatives funded: {[j for j, s in members if s > 0.5]}"


def test_s7_mandatory(data, output, eps):
    for j, (m, s) in enumerate(zip(data["mandatory"], output["select"]), 1):
        if m:
            assert s >= 1 - eps, f"project {j} is mandatory but select = {s:.6g}"


def test_total_value_consistent(data, output, eps):
    value = sum(v * s for v, s in zip(data["value"], output["select"]))
    rep = output["total_value"]
    assert abs(rep - value) <= 1e-6 * max(1, abs(value)) + eps, f"reported value {rep:.6g} != computed {value:.6g}"
