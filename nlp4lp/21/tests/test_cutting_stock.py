"""Supervised tests for nlp4lp/21: shelf-board cutting with few saw set-ups."""



def test_output_keys(output):
    assert set(output) == {"boards", "total_boards"}, f"keys are {sorted(output)}"


def test_boards_length(data, output):
    assert len(output["boards"]) == data["J"], (
        f"boards has {len(output['boards'])} entries, expected J = {data['J']}"
    )


def test_s3_nonnegative_integers(output, eps):
    for j, v in enumerate(output["boards"]):
        assert v >= -eps, f"pattern {j + 1}: {v:.6g} boards < 0"
        assert abs(v - round(v)) <= 1e-6, f"pattern {j + 1}: {v:.6g} boards is not an integer"


def test_s4_demand(data, output, eps):
    for i in range(data["L"]):
        made = sum(data["pieces"][j][i] * output["boards"][j] for j in range(data["J"]))
        need = data["demand"][i]
        assert made >= need - eps, (
            f"piece type {i + 1} ({data['length'][i]} cm): {made:.6g} cut < demand {need}"
        )


def test_s5_board_stock(data, output, eps):
    total = sum(output["boards"])
    assert total <= data["board_stock"] + eps, f"{total:.6g} boards cut > {data['board_stock']} in stock"


def test_s6_setup_limit(data, output):
    used = [j + 1 for j, v in enumerate(output["boards"]) if v > 0.5]
    assert len(used) <= data["max_patterns"], (
        f"patterns {used} used: {len(used)} set-ups > limit {data['max_patterns']}"
    )


def test_total_boards_consistent(output):
    total = sum(output["boards"])
    assert abs(output["total_boards"] - total) <= 1e-6, (
        f"total_boards = {output['total_boards']} but boards sum to {total}"
    )
