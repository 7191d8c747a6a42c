"""Supervised tests for nlp4lp/27: press-line maintenance schedule."""



def is_down(data, output, m, w):
    """Week w (1-based) falls inside press m's overhaul."""
    s = output["start_week"][m]
    return s <= w < s + data["duration"][m]


def test_output_keys(output):
    assert set(output) == {"start_week", "total_cost"}, f"keys are {sorted(output)}"


def test_start_week_length(data, output):
    assert len(output["start_week"]) == data["M"], (
        f"start_week has {len(output['start_week'])} entries, expected M = {data['M']}"
    )


def test_s1_start_weeks_are_integer_weeks(data, output):
    for m, s in enumerate(output["start_week"]):
        assert abs(s - round(s)) <= 1e-6, f"press {m + 1}: start week {s!r} is not an integer"
        assert 1 <= round(s) <= data["W"], f"press {m + 1}: start week {s} outside 1..{data['W']}"


def test_s3_window(data, output):
    for m, s in enumerate(output["start_week"]):
        end = s + data["duration"][m] - 1
        assert s >= data["earliest"][m], (
            f"press {m + 1}: starts week {s} before earliest {data['earliest'][m]}"
        )
        assert end <= data["latest"][m], (
            f"press {m + 1}: overhaul weeks {s}..{end} end after latest {data['latest'][m]}"
        )


def test_s5_technicians(data, output):
    for w in range(1, data["W"] + 1):
        busy = sum(data["crew"][m] for m in range(data["M"]) if is_down(data, output, m, w))
        cap = data["crew_avail"][w - 1]
        assert busy <= cap, f"week {w}: overhauls need {busy} technicians > {cap} available"


def test_s6_weekly_output(data, output):
    for w in range(1, data["W"] + 1):
        made = sum(data["capacity"][m] for m in range(data["M"]) if not is_down(data, output, m, w))
        need = data["demand"][w - 1]
        assert made >= need, f"week {w}: running presses make {made} t < demand {need} t"


def test_total_cost_consistent(data, output):
    cost = sum(
        data["base_cost"][m] * data["week_factor"][round(s) - 1] for m, s in enumerate(output["start_week"])
    )
    rep = output["total_cost"]
    assert abs(cost - rep) <= 1e-6 * max(1, abs(cost)), f"reported cost {rep:.6g} != computed {cost:.6g}"
