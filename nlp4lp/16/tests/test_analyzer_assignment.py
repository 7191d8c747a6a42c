"""Supervised tests for nlp4lp/16: night-shift analyzer assignment."""



def test_output_keys(output):
    assert set(output) == {"assign", "total_minutes"}, f"keys are {sorted(output)}"


def test_assign_shape(data, output):
    a = output["assign"]
    assert len(a) == data["N"], f"assign has {len(a)} rows, expected N = {data['N']}"
    for i, row in enumerate(a):
        assert len(row) == data["M"], f"assign row {i + 1} has {len(row)} entries, expected M = {data['M']}"


def test_assign_is_zero_one(output, eps):
    for i, row in enumerate(output["assign"]):
        for j, v in enumerate(row):
            assert abs(v) <= eps or abs(v - 1) <= eps, f"assign[{i + 1}][{j + 1}] = {v:.6g} is not 0 or 1"


def test_s3_each_analyzer_covered(data, output, eps):
    for j in range(data["M"]):
        s = sum(output["assign"][i][j] for i in range(data["N"]))
        assert abs(s - 1) <= eps, f"analyzer {j + 1} is operated by {s:.6g} technicians, expected exactly 1"


def test_s4_technician_at_most_one(data, output, eps):
    for i in range(data["N"]):
        s = sum(output["assign"][i])
        assert s <= 1 + eps, f"technician {i + 1} operates {s:.6g} analyzers > 1"


def test_s5_certification(data, output, eps):
    for i in range(data["N"]):
        for j in range(data["M"]):
            if not data["certified"][i][j]:
                v = output["assign"][i][j]
                assert v <= eps, (
                    f"technician {i + 1} is not certified for analyzer {j + 1} but assign = {v:.6g}"
                )


def test_total_minutes_consistent(data, output):
    total = sum(
        data["minutes"][i][j] * output["assign"][i][j] for i in range(data["N"]) for j in range(data["M"])
    )
    rep = output["total_minutes"]
    assert abs(total - rep) <= 1e-6 * max(1, abs(total)), (
        f"reported {rep:.6g} min != computed {total:.6g} min"
    )
