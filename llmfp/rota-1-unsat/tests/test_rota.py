"""Supervised tests for the clinic nurse rota (llmfp/rota-*)."""


def sizes(data):
    return len(data["available"]), len(data["need"]), len(data["need"][0])


def cells(data):
    N, D, K = sizes(data)
    return [(n, t, k) for n in range(N) for t in range(D) for k in range(K)]


def test_output_keys(output):
    assert set(output) == {"work"}, f"output keys {sorted(output)} != ['work']"


def test_shape_and_binary(data, output):
    N, D, K = sizes(data)
    work = output["work"]
    assert len(work) == N and all(len(p) == D and all(len(r) == K for r in p) for p in work), (
        f"work must be {N} nurses x {D} days x {K} shifts")
    for n, t, k in cells(data):
        assert work[n][t][k] in (0, 1), f"work[{n}][{t}][{k}] = {work[n][t][k]} is not 0 or 1"


def test_s2_cover(data, output):
    N, D, K = sizes(data)
    for t in range(D):
        for k in range(K):
            on = sum(output["work"][n][t][k] for n in range(N))
            assert on >= data["need"][t][k], f"day {t} shift {k}: {on} nurses on duty < {data['need'][t][k]} needed"


def test_s3_availability(data, output):
    for n, t, k in cells(data):
        if output["work"][n][t][k]:
            assert data["available"][n][t][k], f"nurse {n} works day {t} shift {k} but is not available"


def test_s4_one_shift_a_day(data, output):
    N, D, _ = sizes(data)
    for n in range(N):
        for t in range(D):
            assert sum(output["work"][n][t]) <= 1, f"nurse {n} works {sum(output['work'][n][t])} shifts on day {t}"


def test_s5_s6_shifts_in_the_week(data, output):
    for n, plan in enumerate(output["work"]):
        total = sum(map(sum, plan))
        assert total <= data["max_shifts"][n], f"nurse {n} works {total} shifts > contract {data['max_shifts'][n]}"
        assert total >= data["min_shifts"], f"nurse {n} works {total} shifts < minimum {data['min_shifts']}"


def test_s7_rest_after_night(data, output):
    N, D, K = sizes(data)
    for n in range(N):
        for t in range(D - 1):
            assert not (output["work"][n][t][K - 1] and output["work"][n][t + 1][0]), (
                f"nurse {n} works the night of day {t} and the first shift of day {t + 1}")


def test_s8_pairs_apart(data, output):
    _, D, K = sizes(data)
    for a, b in data["apart"]:
        for t in range(D):
            for k in range(K):
                assert not (output["work"][a][t][k] and output["work"][b][t][k]), (
                    f"nurses {a} and {b} must be apart but both work day {t} shift {k}")
