"""Supervised tests for the print shop's makespan (llmfp/makespan-*)."""


def busy(data, output):
    M = len(data["minutes"][0])
    times = [0] * M
    for j, m in enumerate(output["press_of"]):
        times[m] += data["minutes"][j][m]
    return times


def test_output_keys(output):
    assert set(output) == {"press_of", "makespan"}, f"output keys {sorted(output)} != ['makespan', 'press_of']"


def test_s1_s2_every_job_on_one_press(data, output):
    J, M = len(data["minutes"]), len(data["minutes"][0])
    assert len(output["press_of"]) == J, f"{len(output['press_of'])} press numbers for {J} jobs"
    for j, m in enumerate(output["press_of"]):
        assert isinstance(m, int) and 0 <= m < M, f"job {j}: press {m!r} is not a press number 0..{M - 1}"


def test_s4_fit(data, output):
    for j, m in enumerate(output["press_of"]):
        assert data["fits"][j][m], f"job {j} is put on press {m}, which cannot print it"


def test_s5_shared_inks_apart(data, output):
    for a, b in data["apart"]:
        assert output["press_of"][a] != output["press_of"][b], (
            f"jobs {a} and {b} share inks but both go on press {output['press_of'][a]}")


def test_s3_s6_makespan_is_the_busiest_press(data, output, eps):
    times = busy(data, output)
    assert abs(output["makespan"] - max(times)) <= eps * max(1.0, max(times)), (
        f"makespan {output['makespan']} != {max(times)}, the busiest press's minutes {times}")
