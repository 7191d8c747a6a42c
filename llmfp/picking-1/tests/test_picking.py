"""Supervised tests for the warehouse picking route (llmfp/picking-*)."""

from itertools import pairwise


def test_output_keys(output):
    assert set(output) == {"route", "metres"}, f"output keys {sorted(output)} != ['metres', 'route']"


def test_s3_every_shelf_once(data, output):
    N = len(data["chilled"])
    assert sorted(output["route"]) == list(range(1, N + 1)), (
        f"route {output['route']} does not visit each of the shelves 1..{N} exactly once")


def test_s2_metres_of_the_walk(data, output, eps):
    walk = [0, *output["route"], 0]
    length = sum(data["dist"][a][b] for a, b in pairwise(walk))
    assert abs(length - output["metres"]) <= eps * max(1.0, length), (
        f"metres {output['metres']} != {length}, the walk desk -> {output['route']} -> desk")


def test_s4_heavy_first(data, output):
    place = {shelf: k for k, shelf in enumerate(output["route"])}
    for a, b in data["before"]:
        assert place[a] < place[b], f"shelf {a} must come before shelf {b}: route {output['route']}"


def test_s5_chilled_last(data, output):
    seen_chilled = None
    for shelf in output["route"]:
        if data["chilled"][shelf - 1]:
            seen_chilled = seen_chilled or shelf
        else:
            assert seen_chilled is None, (
                f"shelf {shelf} (not chilled) is visited after chilled shelf {seen_chilled}: {output['route']}")
