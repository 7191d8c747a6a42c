"""Why / why-not / sensitivity on a captured MILP: HiGHS answers on the changed model, and CBC answers on the same
changed model (written by HiGHS, read by the cbc binary itself), for every kind of variable a program can declare."""

from __future__ import annotations

from pathlib import Path

import pulp
import pytest

from optimus.core.families.pulp.resolve.ask import run as resolve_ask
from tests.helpers import cbc

OFFSET = 7.0  # the objective's constant term: model.mps cannot hold it, so no solver's answer includes it


def hand_milp(change: dict | None = None) -> pulp.LpProblem:
    """Our own MILP with one variable of each kind PuLP declares (PuLP has no semicontinuous variables):
    min 3b + 2n + m + k + f + c + 7 over b binary, n integer in [2, 9], m integer in [-4, 6], k integer >= 0,
    f free, c in [0, 5]; s1: n + f >= 4.5, s2: f >= -3, s3: b + c >= 1.5, s4: m + k >= -2.
    By hand: b = 0, c = 1.5 (1.5); n = 2, f = 2.5 (6.5); m + k = -2 (-2): 6 without the constant.
    `change` = {"bounds": {name: (lower, upper)}, "rows": {name: delta}} builds the changed model from scratch."""
    change = change or {}
    bounds = {"b": (0, 1), "n": (2, 9), "m": (-4, 6), "k": (0, None), "f": (None, None), "c": (0, 5),
              **change.get("bounds", {})}
    cat = {"b": "Binary", "n": "Integer", "m": "Integer", "k": "Integer", "f": "Continuous", "c": "Continuous"}
    prob = pulp.LpProblem("hand_milp", pulp.LpMinimize)
    v = {name: prob.add_variable(name, *bounds[name], cat="Integer" if cat[name] == "Binary" and bounds[name] != (0, 1)
                                 else cat[name]) for name in bounds}
    rows = change.get("rows", {})
    prob += 3 * v["b"] + 2 * v["n"] + v["m"] + v["k"] + v["f"] + v["c"] + OFFSET
    prob += v["n"] + v["f"] >= 4.5 + rows.get("s1_a", 0), "s1_a"
    prob += v["f"] >= -3 + rows.get("s2_b", 0), "s2_b"
    prob += v["b"] + v["c"] >= 1.5 + rows.get("s3_c", 0), "s3_c"
    prob += v["m"] + v["k"] >= -2 + rows.get("s4_d", 0), "s4_d"
    return prob


def truth(change: dict) -> float:
    """The changed model built from scratch, solved by CBC: the objective without its constant."""
    prob = hand_milp(change)
    prob.solve(cbc(msg=False))
    assert pulp.LpStatus[prob.status] == "Optimal"
    return pulp.value(prob.objective) - OFFSET


@pytest.fixture
def mps(tmp_path: Path) -> str:
    path = tmp_path / "model.mps"
    hand_milp().writeMPS(str(path))
    return str(path)


# (question kind, request, the objective by hand, the same change for the model built from scratch)
CASES = [
    ("why-not: b forced to 1", {"bounds": [{"name": "b", "lower": 1}]}, 8.0, {"bounds": {"b": (1, 1)}}),
    ("why: n forbidden below 5 (a general integer)", {"bounds": [{"name": "n", "lower": 5}]}, 9.0,
     {"bounds": {"n": (5, 9)}}),
    ("why-not: m held at most -3 (an integer below 0)", {"bounds": [{"name": "m", "upper": -3}]}, 6.0,
     {"bounds": {"m": (-4, -3)}}),
    ("why: k forced to 4 (an integer without upper bound)", {"bounds": [{"name": "k", "lower": 4, "upper": 4}]}, 8.0,
     {"bounds": {"k": (4, 4)}}),
    # f <= 1: n = 3 would need f >= 1.5, so n = 4 and f = 0.5 (8.5 where 6.5 was)
    ("why: f held at most 1 (a free variable)", {"bounds": [{"name": "f", "upper": 1}]}, 8.0, {"bounds": {"f": (None, 1)}}),
    ("why-not: c and b held at 0 (a pattern)", {"bounds": [{"name": "[bc]", "upper": 0}]}, None, None),
    ("sensitivity: s1 moved by 1", {"sensitivity": {"rows": ["s1_*"], "delta": 1}}, 7.0, {"rows": {"s1_a": 1}}),
    # m + k >= -3.5 over integers is m + k >= -3: one better, not 1.5 better, than before
    ("sensitivity: s4 moved by -1.5", {"sensitivity": {"rows": ["s4_*"], "delta": -1.5}}, 5.0, {"rows": {"s4_d": -1.5}}),
]


@pytest.mark.parametrize("kind, request_, by_hand, same", CASES, ids=[c[0] for c in CASES])
def test_a_milp_question_is_answered_by_highs_and_cbc_agreeing(mps, kind, request_, by_hand, same):
    """Failed before: CBC read HiGHS's written file with PuLP's reader, which does not know LI/UI (`PulpError:
    Unknown bound LI`) — every bounds or sensitivity question on a MILP with general integers."""
    raw = resolve_ask({"model": mps, "budget_s": 20, **request_})
    assert "error" not in raw and raw["mip"]
    answer = raw["moved"] if "sensitivity" in request_ else raw
    cbc = answer["cbc"]
    if by_hand is None:  # b = c = 0 breaks s3: both solvers say infeasible, and the conflict is explained
        assert answer["status"] == cbc["status"] == "infeasible"
        assert "s3_c" in raw["infeasibility"]["rows"]
        return
    assert answer["status"] == cbc["status"] == "optimal"
    assert answer["objective"] == pytest.approx(by_hand, abs=1e-6)
    assert cbc["objective"] == pytest.approx(by_hand, abs=1e-6)
    assert truth(same) == pytest.approx(by_hand, abs=1e-6)


def test_a_maximised_milp_keeps_its_sense_in_the_second_opinion(tmp_path):
    """max 5x + 4y, x, y integers in [0, 10], 6x + 4y <= 24, x + 2y <= 6: (4, 0) gives 20 (the LP's vertex
    (3, 1.5) gives 21); x held at most 2: (2, 2) gives 18, as y <= 2 then."""
    prob = pulp.LpProblem("max_milp", pulp.LpMaximize)
    x, y = prob.add_variable("x", 0, 10, cat="Integer"), prob.add_variable("y", 0, 10, cat="Integer")
    prob += 5 * x + 4 * y
    prob += 6 * x + 4 * y <= 24, "s1_wood"
    prob += x + 2 * y <= 6, "s2_paint"
    prob.writeMPS(str(tmp_path / "model.mps"))
    raw = resolve_ask({"model": str(tmp_path / "model.mps"), "budget_s": 20, "bounds": [{"name": "x", "upper": 2}]})
    assert raw["sense"] == "max" and raw["objective"] == pytest.approx(18) and raw["cbc"]["objective"] == pytest.approx(18)


SEMICONTINUOUS = ("NAME sc\nROWS\n N  OBJ\n G  s1_need\nCOLUMNS\n    MARKER  'MARKER'  'INTORG'\n    z  OBJ  1\n"
                  "    z  s1_need  1\n    MARKER  'MARKER'  'INTEND'\n    x  OBJ  2\n    x  s1_need  1\nRHS\n"
                  "    RHS  s1_need  3\nBOUNDS\n UP BND z 1\n LO BND x 4\n SC BND x 10\nENDATA\n")


def test_a_semicontinuous_column_reaches_cbc(tmp_path):
    """x semicontinuous: 0 or in [4, 10] (HiGHS's MPS reader and writer know SC bounds; PuLP's reader does not,
    the cbc binary does). z = 0: x alone covers s1 (>= 3), so x = 4 at cost 8 — not 3 at 6."""
    (tmp_path / "model.mps").write_text(SEMICONTINUOUS)
    raw = resolve_ask({"model": str(tmp_path / "model.mps"), "budget_s": 20, "bounds": [{"name": "z", "upper": 0}]})
    assert raw["status"] == raw["cbc"]["status"] == "optimal"
    assert raw["objective"] == pytest.approx(8) and raw["cbc"]["objective"] == pytest.approx(8)


def test_a_second_opinion_that_cannot_run_says_so(tmp_path, monkeypatch):
    """No cbc binary: HiGHS's answer stands, and the second opinion reports why it is missing."""
    monkeypatch.setenv("OPTIMUS_CBC", str(tmp_path / "no-such-cbc"))
    (tmp_path / "model.mps").write_text(SEMICONTINUOUS)
    raw = resolve_ask({"model": str(tmp_path / "model.mps"), "budget_s": 20, "bounds": [{"name": "z", "upper": 0}]})
    assert raw["status"] == "optimal" and raw["objective"] == pytest.approx(8)
    assert raw["cbc"]["status"] == "error" and "no-such-cbc" in raw["cbc"]["error"]


def test_a_why_not_on_a_model_written_by_highs_says_cbc_agrees(tmp_path, capsys):
    """The bakery's reference program writes model.mps through HiGHS (integers as LI bounds, OBJSENSE MAX) — the
    file PuLP's reader refused (`Unknown bound LI`). max 3L + 5C, 10L + 30C <= 600, 0.5L + 0.4C <= 20, C <= 30:
    32 loaves and 9 cakes, 141. Ten cakes at least: L <= 30 (oven), L <= 32 (flour): 30 and 10, 140; eleven
    give at most 27 loaves, 136."""
    import json
    import shutil

    from optimus.commands.cli import main

    folder = tmp_path / "bakery"
    shutil.copytree(Path(__file__).parent.parent / "examples" / "bakery", folder,
                    ignore=shutil.ignore_patterns("runs", "variants"))
    question = "why don't we bake at least ten cakes?"
    (folder / "reference" / "questions" / "q1").mkdir(parents=True)
    (folder / "reference" / "questions" / "q1" / "question.json").write_text(json.dumps(
        {"question": question, "request": {"kind": "why-not", "bounds": [{"variable": "cakes", "lower": 10}]}}))
    sandbox = ["--sandbox", "process"]
    assert main(["solve", str(folder), "--llm", "reference", "--mode", "debug", *sandbox]) == 0
    written = list((folder / "runs" / "latest").rglob("model.mps"))
    assert written and all(" LI " in mps.read_text() for mps in written)
    assert main(["ask", str(folder / "runs" / "latest"), question, "--llm", "reference", *sandbox]) == 0
    out = capsys.readouterr().out
    assert "CBC agrees: optimal 140" in out and "objective: 141 → 140" in out
    entry = json.loads((folder / "runs" / "latest" / "ask.jsonl").read_text().splitlines()[-1])
    assert entry["after"]["verified"] and entry["after"]["objective"] == pytest.approx(140)


def test_the_answer_is_verified_only_when_cbc_ran_and_agrees():
    from optimus.commands.whatif import _agrees, _verified

    highs = {"status": "optimal", "objective": 8.0}
    said = {name: _agrees(highs, cbc, OFFSET) for name, cbc in (
        ("agrees", {"status": "optimal", "objective": 8.0}), ("other objective", {"status": "optimal", "objective": 9.0}),
        ("other status", {"status": "infeasible", "objective": None}),
        ("error", {"status": "error", "objective": None, "error": "PulpError: Unknown bound SC"}))}
    assert said["agrees"] == "agrees: optimal 15" and _verified(said["agrees"])  # the constant term shown back
    assert said["error"] == "could not run (PulpError: Unknown bound SC)"
    assert not any(_verified(said[k]) for k in ("other objective", "other status", "error"))


@pytest.mark.parametrize("request_, by_hand", [
    # b held at 0: the 3 it earned is lost, nothing else moves (g = 7 already): 50.25 - 3
    ({"bounds": [{"name": "b", "upper": 0}]}, 47.25),
    # r4 moved up by 1: x = 13.5 - f, one more: 50.25 + 1
    ({"sensitivity": {"rows": ["r4"], "delta": 1}}, 51.25),
])
def test_a_highs_written_milp_with_a_constant_term(tmp_path, request_, by_hand):
    """Every column kind HiGHS writes (binary, LI/UI integers, a negative lower bound, free integer and continuous)
    and an objective constant (7.25, the objective row's RHS): HiGHS and the cbc binary agree, constant included."""
    from tests.test_cbc_direct import every_kind

    path = every_kind(tmp_path / "model.mps", "max")
    raw = resolve_ask({"model": str(path), "budget_s": 20, **request_})
    answer = raw["moved"] if "sensitivity" in request_ else raw
    assert raw["mip"] and answer["status"] == answer["cbc"]["status"] == "optimal"
    assert answer["objective"] == pytest.approx(by_hand) and answer["cbc"]["objective"] == pytest.approx(by_hand)
