"""The z3 family end to end with the reference backend: re-check, minimal cores, the horizon loop and its proof.

Ground truth here is computed apart from the code under test: brute force over slot assignments, a Z3 model
written in this file statement by statement, and a breadth-first search over the courier's states.
"""

from __future__ import annotations

import itertools
import json
import shutil
from collections import deque
from pathlib import Path

import pytest
import z3

from optimus.commands.cli import main
from optimus.core import families
from optimus.core.problem import load_problem
from optimus.core.terminal import plain

FIXTURES = Path(__file__).parent / "fixtures" / "z3"


def copy(name: str, tmp_path: Path, edit: tuple[str, str] | None = None) -> Path:
    """A fixture folder copied to tmp_path (a `-unsat` twin laid over its sibling); `edit` replaces one exact piece
    of its reference solver."""
    root = tmp_path / name
    shutil.copytree(FIXTURES / name.removesuffix("-unsat"), root, ignore=shutil.ignore_patterns("runs"))
    if name.endswith("-unsat"):
        shutil.copytree(FIXTURES / name, root, dirs_exist_ok=True)
    if edit:
        solver = root / "reference" / "solver.py"
        text = solver.read_text()
        assert edit[0] in text, edit[0]
        solver.write_text(text.replace(edit[0], edit[1]))
    return root


def solve(root: Path, *args: str) -> tuple[int, dict]:
    code = main(["solve", str(root), "--llm", "reference", "--sandbox", "process", *args])
    return code, json.loads((root / "runs" / "latest" / "report.json").read_text())


def brute_force_optimum(data: dict) -> int:
    cost, n, k = data["cost"], len(data["cost"]), len(data["cost"][0])
    return min(sum(cost[i][s[i]] for i in range(n)) for s in itertools.product(range(k), repeat=n)
               if all(s[a] != s[b] for a, b in data["conflicts"]) and all(s[a] < s[b] for a, b in data["before"])
               and all(s.count(j) <= data["room_cap"] for j in range(k)))


def statement_groups(data: dict) -> dict[str, list]:
    """The talks problem in Z3, written here from the statements: statement id → its constraints."""
    n, k = len(data["cost"]), len(data["cost"][0])
    slot = [z3.Int(f"t{i}") for i in range(n)]
    return {"s1": [z3.And(x >= 0, x <= k - 1) for x in slot],
            "s2": [slot[a] != slot[b] for a, b in data["conflicts"]],
            "s3": [slot[a] < slot[b] for a, b in data["before"]],
            "s4": [z3.Sum([z3.If(x == j, 1, 0) for x in slot]) <= data["room_cap"] for j in range(k)]}


def sat(constraints: list) -> bool:
    s = z3.Solver()
    s.add(*constraints)
    return s.check() == z3.sat


def shortest_courier_plan(data: dict) -> int:
    roads = [tuple(r) for r in data["roads"]]
    start = (data["start"], tuple(data["parcel_at"]), None)  # (courier at, where each parcel lies, carried)
    goal = tuple(data["goal_at"])
    seen, todo = {start}, deque([(start, 0)])
    while todo:
        (at, lies, carried), depth = todo.popleft()
        if lies == goal:
            return depth
        nexts = [(y, lies, carried) for x, y in roads if x == at]
        for p, where in enumerate(lies):
            if where == at and carried is None:
                nexts.append((at, lies[:p] + (None,) + lies[p + 1:], p))
        if carried is not None:
            nexts.append((at, lies[:carried] + (at,) + lies[carried + 1:], None))
        for state in nexts:
            if state not in seen:
                seen.add(state)
                todo.append((state, depth + 1))
    raise AssertionError("no plan")


def test_z3_is_registered_before_pddl_and_takes_planning_only_without_a_domain(tmp_path):
    assert families.NAMES.index("z3") < families.NAMES.index("pddl")
    talks, courier = copy("talks", tmp_path), copy("courier", tmp_path)
    for root in (talks, courier):
        snop = json.loads((root / "snop.json").read_text())
        (root / "snop.json").write_text(json.dumps({**snop, "solver": "ANY"}))
    assert families.choose(load_problem(talks)).name == "z3"
    assert families.choose(load_problem(courier)).name == "z3"
    shutil.copy(courier / "validate" / "domain.pddl", courier / "domain.pddl")
    assert not families.load("z3").takes(load_problem(courier))


def test_csp_optimisation_is_solved_and_the_recheck_agrees(tmp_path):
    root = copy("talks", tmp_path)
    code, report = solve(root, "--mode", "supervised")
    optimum = brute_force_optimum(json.loads((root / "data.json").read_text()))
    assert code == 0 and report["status"] == "solved" and report["objective"] == optimum
    assert report["verification"]["outcome"] == "agrees", report["verification"]
    assert "all 10 assertions hold" in report["verification"]["summary"]


def test_a_wrong_claimed_objective_is_caught_with_the_true_optimum(tmp_path):
    root = copy("talks", tmp_path, ('"objective": m.eval(total, model_completion=True).as_long()',
                                    '"objective": m.eval(total, model_completion=True).as_long() + 1'))
    code, report = solve(root, "--mode", "prompt")
    optimum = brute_force_optimum(json.loads((root / "data.json").read_text()))
    check = report["verification"]
    assert code == 1 and check["outcome"] == "disagrees"
    assert f"objective {optimum + 1}, but re-solving model.smt2 gives the optimum {optimum}" in check["findings"][0]
    assert any(f"evaluated at its values is {optimum}" in f for f in check["findings"]), check["findings"]


def test_values_that_break_an_assertion_are_named_with_their_statement(tmp_path):
    # talk 2 moved to slot 0: before talk 0's slot (s3 says talk 0 comes first)
    root = copy("talks", tmp_path, ('"values": values}', '"values": {**values, "slot_2": 0}}'))
    _, report = solve(root, "--mode", "prompt")
    findings = report["verification"]["findings"]
    assert any("s3_order_0 (statement s3)" in f for f in findings), findings


def test_a_program_without_model_smt2_is_sent_back(tmp_path):
    root = copy("talks", tmp_path, ('with open("model.smt2", "w") as fh:\n    fh.write(opt.sexpr())', "pass"))
    _, report = solve(root, "--mode", "prompt")
    assert report["verification"]["outcome"] == "disagrees"
    assert "wrote no model.smt2" in report["verification"]["findings"][0]


def test_an_unsat_report_names_a_minimal_core_of_statements_quoted(tmp_path):
    root = copy("talks-unsat", tmp_path)
    code, report = solve(root, "--mode", "supervised")
    assert code == 0 and report["status"] == "infeasible"
    diagnosis = report["verification"]["diagnosis"]
    core = diagnosis["statements"]
    groups = statement_groups(json.loads((root / "data.json").read_text()))
    assert core and not sat([c for s in core for c in groups[s]]), core
    for dropped in core:  # minimal: without any one of them, the rest can all hold
        assert sat([c for s in core if s != dropped for c in groups[s]]), (core, dropped)
    statements = json.loads((root / "snop.json").read_text())["problem_info"]
    for s in core:
        assert f'({s}) "{plain(statements[int(s[1:]) - 1])[:40]}' in diagnosis["message"]  # quoted as written
    assert diagnosis["irreducible"] is True


def test_a_planning_problem_gets_a_shortest_validated_plan_with_the_horizon_proof(tmp_path):
    root = copy("courier", tmp_path)
    code, report = solve(root, "--mode", "supervised")
    shortest = shortest_courier_plan(json.loads((root / "data.json").read_text()))
    assert code == 0 and report["status"] == "solved" and report["objective"] == shortest
    check = report["verification"]
    assert check["outcome"] == "agrees", check
    assert f"the model of {shortest - 1} steps is unsat" in check["summary"]
    assert "planval validates the plan" in check["summary"]
    attempt = root / "runs" / "latest" / "v0" / "attempt-01"
    horizon = json.loads((attempt / "horizon.json").read_text())
    assert horizon["infeasible"] == list(range(shortest)) and horizon["shortest"] == shortest
    # the run's solution.json is the driver's: status optimal, objective T (the program itself said feasible)
    solution = json.loads((attempt / "solution.json").read_text())
    assert (solution["status"], solution["objective"], solution["horizon_status"]) == ("optimal", shortest, "feasible")


def test_an_invalid_plan_is_caught_by_the_validator(tmp_path):
    # the plan written backwards: unloading first is not possible
    root = copy("courier", tmp_path, ('output, solution = {"plan": plan}', 'output, solution = {"plan": plan[::-1]}'))
    code, report = solve(root, "--mode", "prompt")
    findings = report["verification"]["findings"]
    assert code == 1 and any("not valid: step 1 (unload(box, south))" in f for f in findings), findings


def test_recheck_reads_back_reals_bools_and_a_maximised_objective():
    """The sandbox-side reader on a model written by z3 itself: sense and objective kept, values substituted."""
    from optimus.core.families.z3.z3_sandbox import recheck, smt

    x, y, on = z3.Real("x"), z3.Int("y"), z3.Bool("on")
    opt = z3.Optimize()
    opt.assert_and_track(x + y <= 7.5, "s1_budget")
    opt.assert_and_track(z3.Implies(on, y >= 2), "s2_switch")
    opt.assert_and_track(x >= 0, "s3_x_nonneg")
    opt.assert_and_track(y >= 0, "s4_y_nonneg")
    opt.maximize(2 * x + y)
    cap = smt.read(opt.sexpr())
    assert sorted(cap.tracked) == ["s1_budget", "s2_switch", "s3_x_nonneg", "s4_y_nonneg"] and cap.objectives[0][0] == "max"
    assert opt.check() == z3.sat  # the optimum by z3 on the original object, not on the text
    want = opt.model().eval(2 * x + y, model_completion=True).as_fraction()
    again = recheck.resolve(cap, 10)
    assert again["status"] == "optimal" and again["objective"] == pytest.approx(float(want))
    broken = recheck.check_values(cap, {"x": 6.5, "y": 2, "on": True})  # 6.5 + 2 > 7.5
    assert [f["name"] for f in broken["false"]] == ["s1_budget"] and broken["objective_at_values"] == 15
    assert recheck.check_values(cap, {"x": 0.5, "y": 2})["missing"] == ["on"]
    cap.tracked.pop("s4_y_nonneg")  # without it y falls without limit, and so the objective grows
    assert recheck.resolve(cap, 10)["status"] == "unbounded"


def test_a_time_limited_optimisation_is_said_to_be_unknown_not_wrong():
    from types import SimpleNamespace

    from optimus.core.families.z3.judge import judge

    snop = SimpleNamespace(problem_info=["a statement"], objective="Minimize the cost.", problem_type="CSP")
    ctx = SimpleNamespace(snop=snop, problem=SimpleNamespace(expected=None))
    ex = SimpleNamespace(solution={"status": "time_limit", "objective": 7, "values": {}})
    raw = {"model": {"tracked": ["s1_a"]}, "resolve": {"status": "time_limit", "objective": None, "sense": "min",
                                                       "reason": "timeout", "solver": "z3"},
           "values_check": {"checked": 1, "false": [], "undecided": [], "missing": [], "bad": []}}
    verdict = judge(ctx, ex, raw)
    assert verdict.outcome == "unconfirmed" and not verdict.findings
    assert "a solution exists (best found: 7) but its optimality is unknown" in verdict.diagnosis["message"]


def test_no_plan_within_the_horizon_is_reported_with_the_planners_proof(tmp_path):
    root = copy("courier-unsat", tmp_path)  # no road leads to east, where the parcel must go
    data = json.loads((root / "data.json").read_text())
    with pytest.raises(AssertionError, match="no plan"):
        shortest_courier_plan(data)
    code, report = solve(root, "--mode", "supervised")
    assert code == 0 and report["status"] == "infeasible"
    check = report["verification"]
    assert check["outcome"] == "agrees" and "Fast Downward proves the task unsolvable" in check["summary"]
    assert check["diagnosis"]["kind"] == "no_plan" and "s7" in check["diagnosis"]["statements"]
    horizon = json.loads((root / "runs" / "latest" / "v0" / "attempt-01" / "horizon.json").read_text())
    assert horizon["infeasible"] == list(range(data["max_horizon"] + 1)) and horizon["shortest"] is None
