"""Supervised tests for nlp4lp/20: archive reels onto drives (bin packing)."""



def is_binary(v):
    return abs(v) <= 1e-6 or abs(v - 1) <= 1e-6


def test_output_keys(output):
    assert set(output) == {"put", "used", "num_used"}, f"keys are {sorted(output)}"


def test_shapes(data, output):
    assert len(output["put"]) == data["N"], f"put has {len(output['put'])} rows, expected N = {data['N']}"
    for i, row in enumerate(output["put"]):
        assert len(row) == data["K"], f"put row {i + 1} has {len(row)} entries, expected K = {data['K']}"
    assert len(output["used"]) == data["K"], (
        f"used has {len(output['used'])} entries, expected K = {data['K']}"
    )


def test_binary(output):
    for i, row in enumerate(output["put"]):
        for k, v in enumerate(row):
            assert is_binary(v), f"put[{i + 1}][{k + 1}] = {v!r} is not 0/1"
    for k, v in enumerate(output["used"]):
        assert is_binary(v), f"used[{k + 1}] = {v!r} is not 0/1"


def test_s3_each_file_once(data, output, eps):
    for i, row in enumerate(output["put"]):
        assert abs(sum(row) - 1) <= eps, f"file {i + 1} is on {sum(row):.6g} drives, expected exactly 1"


def test_s4_capacity(data, output, eps):
    for k in range(data["K"]):
        load = sum(data["size"][i] * output["put"][i][k] for i in range(data["N"]))
        cap = data["capacity"]
        assert load <= cap + eps * cap, f"drive {k + 1}: {load:.6g} GB > capacity {cap} GB"


def test_s5_catalogue_limit(data, output, eps):
    for k in range(data["K"]):
        n = sum(output["put"][i][k] for i in range(data["N"]))
        assert n <= data["max_files"] + eps, (
            f"drive {k + 1}: {n:.6g} files > catalogue limit {data['max_files']}"
        )


def test_s6_used_flags(data, output):
    for k in range(data["K"]):
        n = sum(output["put"][i][k] for i in range(data["N"]))
        flag = output["used"][k]
        assert (n > 0.5) == (flag > 0.5), f"drive {k + 1}: holds {n:.6g} files but used = {flag}"


def test_num_used_consistent(output):
    n = sum(output["used"])
    assert abs(output["num_used"] - n) <= 1e-6, (
        f"num_used = {output['num_used']} but {n} drives are flagged used"
    )
