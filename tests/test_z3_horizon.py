"""The horizon search of Z3 plan programs: the incremental contract (one solver for every T, the goal under an
assumption literal, the SMT-LIB of T and T-1 kept for the re-check), the old contract beside it, and the
re-check's proof that T-1 is unsat without the program's symmetry breaking.

Ground truth here is not the code under test: the shortest lengths come from the breadth-first search over
the folders' validate/*.pddl (optimus.bench.groundtruth.pddl), the dumps are read back by z3's own SMT-LIB parser.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import z3

from optimus.bench.groundtruth.pddl import shortest_plan_length, simulate
from optimus.commands.cli import main
from optimus.core.families.z3.z3_sandbox import recheck, smt
from optimus.core.families.z3.z3_sandbox.incremental import follows

LLMFP = Path(__file__).resolve().parents[1] / "llmfp"
NEW = "reference/solver_incremental.py"
# the gripper program's hand rule made wrong: the second hand may never grasp (the plan gets longer)
ONE_HAND = ('rules += [z3.Implies(act[("grasp", e, r, h)], z3.Not(self.empty[t][g])) for g in self.hands[:k]]',
            'rules += [z3.Not(act[("grasp", e, r, h)]) for g in self.hands[:k]]')


def shortest(folder: Path) -> int | None:
    return shortest_plan_length(folder / "validate" / "domain.pddl", folder / "validate" / "problem.pddl")


def drive(tmp_path: Path, folder: Path, program: str, edit: tuple[str, str] | None = None,
          budget: float = 120) -> tuple[dict, subprocess.CompletedProcess]:
    """The harness's horizon driver on the folder's data and program (edited), in tmp_path: horizon.json."""
    text = (folder / program).read_text()
    if edit:
        assert edit[0] in text, edit[0]
        text = text.replace(*edit)
    (tmp_path / "solver.py").write_text(text)
    shutil.copy(folder / "data.json", tmp_path)
    request = {"program": "solver.py", "max_horizon": json.loads((folder / "data.json").read_text())["max_horizon"],
               "budget_s": budget}
    (tmp_path / "request.json").write_text(json.dumps(request))
    proc = subprocess.run([sys.executable, "-m", "optimus.core.families.z3.z3_sandbox", "horizon", "request.json"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=budget + 60, check=False)
    return json.loads((tmp_path / "horizon.json").read_text()), proc


def test_the_contract_is_read_from_the_source_never_run(tmp_path):
    assert follows(str(LLMFP / "gripper-1" / NEW)) and follows(str(LLMFP / "blocks-1" / NEW))
    assert not follows(str(LLMFP / "gripper-1" / "reference" / "solver.py"))  # the old contract
    marker = tmp_path / "ran"
    methods = "    def __init__(self, data, solver): pass\n    def extend(self, t): pass\n    def goal(self, t): pass\n"
    (tmp_path / "full.py").write_text(f"open({str(marker)!r}, 'w')\nclass Horizon:\n{methods}"
                                      "    def output(self, model, t): pass\n")
    (tmp_path / "partial.py").write_text(f"class Horizon:\n{methods}")  # no output(): not the contract
    (tmp_path / "broken.py").write_text("class Horizon(:\n")
    assert follows(str(tmp_path / "full.py")) and not marker.exists()
    assert not follows(str(tmp_path / "partial.py")) and not follows(str(tmp_path / "broken.py"))


def test_a_program_on_the_old_contract_still_runs_once_per_horizon(tmp_path):
    folder = LLMFP / "gripper-1"
    record, _ = drive(tmp_path, folder, "reference/solver.py")
    length = shortest(folder)
    assert (record["contract"], record["outcome"], record["shortest"]) == ("per_horizon", "optimal", length)
    assert [r["T"] for r in record["runs"]] == list(range(length + 1))
    assert all((tmp_path / "horizon" / f"T{t}" / "model.smt2").is_file() for t in range(length + 1))


def test_the_incremental_search_proves_the_shortest_plan_and_keeps_both_queries(tmp_path):
    folder = LLMFP / "blocks-2"
    record, _ = drive(tmp_path, folder, NEW)
    length = shortest(folder)
    assert (record["contract"], record["outcome"], record["shortest"]) == ("incremental", "optimal", length)
    assert [r["status"] for r in record["runs"]] == ["infeasible"] * length + ["feasible"]
    plan = json.loads((tmp_path / "output.json").read_text())["plan"]
    assert len(plan) == length and simulate(folder / "validate" / "domain.pddl",
                                            folder / "validate" / "problem.pddl", plan) is None
    # the dumps, read by z3's own parser with every track name assumed: T's query is sat, T-1's unsat; neither
    # holds the driver's literals
    for name, want in (("model.smt2", z3.sat), ("shorter.smt2", z3.unsat)):
        text = (tmp_path / name).read_text()
        assert "horizon_goal_at" not in text and "s8_goal_" in text
        s = z3.Solver()
        s.add(z3.parse_smt2_string(text))
        tracked = re.findall(r"^\(declare-fun (s\d+_\w+) \(\) Bool\)$", text, re.MULTILINE)
        assert {n.split("_")[0] for n in tracked} == {"s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9"}
        assert s.check(*map(z3.Bool, tracked)) == want, name
    solution = json.loads((tmp_path / "solution.json").read_text())
    assert (solution["status"], solution["objective"]) == ("optimal", length)
    check = recheck.check_values(smt.read((tmp_path / "model.smt2").read_text()), solution["values"])
    assert check["checked"] > 0 and check["false"] == check["missing"] == check["bad"] == check["undecided"] == []


def test_an_error_in_the_program_is_its_own_traceback_and_a_slow_step_keeps_what_was_settled(tmp_path):
    folder = LLMFP / "blocks-2"
    raise_at_2 = ("        self._state(t + 1)\n", ("        self._state(t + 1)\n        if t == 2:\n"
                                                   "            raise ValueError('no third step')\n"))
    (tmp_path / "error").mkdir()
    record, proc = drive(tmp_path / "error", folder, NEW, raise_at_2)
    assert record["outcome"] == "error" and [r["T"] for r in record["runs"]] == [0, 1, 2]
    assert "ValueError: no third step" in proc.stderr and 'solver.py", line' in proc.stderr
    assert "incremental.py" not in proc.stderr  # the driver's frames are not the program's
    sleep_at_3 = ("        self._state(t + 1)\n", ("        self._state(t + 1)\n        if t == 3:\n"
                                                   "            import time\n            time.sleep(60)\n"))
    (tmp_path / "slow").mkdir()
    record, _ = drive(tmp_path / "slow", folder, NEW, sleep_at_3, budget=8)
    assert record["outcome"] == "time_limit" and [r["status"] for r in record["runs"]] == ["infeasible"] * 4
    assert json.loads((tmp_path / "slow" / "solution.json").read_text())["status"] == "time_limit"


def _solve_with(tmp_path: Path, name: str, edit: tuple[str, str] | None = None) -> dict:
    """llmfp/<name> with its incremental program as the reference solver, solved by the harness."""
    root = tmp_path / name
    shutil.copytree(LLMFP / name, root, ignore=shutil.ignore_patterns("runs"))
    text = (root / NEW).read_text()
    (root / "reference" / "solver.py").write_text(text.replace(*edit) if edit else text)
    main(["solve", str(root), "--llm", "reference", "--sandbox", "process", "--mode", "prompt"])
    return json.loads((root / "runs" / "latest" / "report.json").read_text())


def test_the_harness_solves_an_incremental_program_and_catches_symmetry_breaking_that_cuts_off_the_optimum(
        tmp_path):
    length = shortest(LLMFP / "gripper-2")
    report = _solve_with(tmp_path, "gripper-2")
    check = report["verification"]
    assert report["status"] == "solved" and report["objective"] == length, report["status"]
    assert check["outcome"] == "agrees", check["summary"]
    for part in (f"the model of {length - 1} steps is unsat without its {length - 1} symmetry-breaking assertions",
                 "planval validates the plan", f"Fast Downward's optimal planner agrees ({length} steps)",
                 "one solver searched every horizon"):
        assert part in check["summary"], (part, check["summary"])
    wrong = _solve_with(tmp_path / "one-hand", "gripper-2", ONE_HAND)  # a longer plan is all it can find
    findings = wrong["verification"]["findings"]
    assert wrong["status"] == "failed" and wrong["objective"] > length, wrong["status"]
    assert any("symmetry-breaking assertions: they cut off a shorter plan" in f for f in findings), findings
    assert any(f"Fast Downward's optimal planner finds a shortest plan of {length} steps" in f for f in findings)


def test_a_proof_of_t_minus_1_that_runs_out_of_time_leaves_the_plan_unconfirmed():
    from types import SimpleNamespace

    from optimus.core.families.z3.judge import judge

    snop = SimpleNamespace(problem_info=["a statement"], objective="Minimize the number of actions.",
                           problem_type="PLANNING")
    ctx = SimpleNamespace(snop=snop, problem=SimpleNamespace(expected=None))
    ex = SimpleNamespace(solution={"status": "optimal", "objective": 5, "values": {"x": True}})
    raw = {"model": {"tracked": ["s1_a"]}, "resolve": {"status": "feasible", "objective": None, "sense": None,
                                                       "solver": "z3"},
           "shorter": {"status": "time_limit", "symmetry_left_out": 0},
           "values_check": {"checked": 1, "false": [], "undecided": [], "missing": [], "bad": []}}
    verdict = judge(ctx, ex, raw)
    assert verdict.outcome == "unconfirmed" and "5 steps is shortest" in verdict.summary
    raw["shorter"]["status"] = "infeasible"
    assert judge(ctx, ex, raw).outcome == "agrees"


# A horizon program whose exact goal is quick to refute below T = 2, hard at T = 3 (pigeonhole: 13 pigeons in
# 12 holes, unsat, beyond a SAT solver in seconds) and true from T = 4: proving 4 shortest cannot finish in the
# budget, and a plan exists.
HARD_BELOW = '''
import z3


class Horizon:
    def __init__(self, data, solver):
        self.s, self.length, self.moves = solver, data["length"], []

    def extend(self, t):
        move = z3.Bool(f"move_{t}")
        self.moves.append(move)
        self.s.assert_and_track(move, f"s1_move_t{t}")

    def goal(self, t):
        if t >= self.length:
            return {"s2_goal": z3.BoolVal(True)}
        if t < self.length - 1:
            return {"s2_goal": z3.BoolVal(False)}
        holes, pigeons = 12, 13
        at = [[z3.Bool(f"p{i}_h{j}_t{t}") for j in range(holes)] for i in range(pigeons)]
        rules = [z3.Or(*row) for row in at]
        rules += [z3.Or(z3.Not(at[i][j]), z3.Not(at[k][j])) for j in range(holes) for i in range(pigeons)
                  for k in range(i + 1, pigeons)]
        return {"s2_goal": z3.And(*rules)}

    def output(self, model, t):
        return {"plan": [{"action": "move", "args": [str(k)]} for k in range(t)]}
'''


def test_a_plan_found_early_is_returned_when_proving_it_shortest_runs_out_of_time(tmp_path):
    (tmp_path / "solver.py").write_text(HARD_BELOW)
    (tmp_path / "data.json").write_text(json.dumps({"length": 4}))
    (tmp_path / "request.json").write_text(json.dumps({"program": "solver.py", "max_horizon": 8, "budget_s": 8}))
    proc = subprocess.run([sys.executable, "-m", "optimus.core.families.z3.z3_sandbox", "horizon", "request.json"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=60, check=False)
    record = json.loads((tmp_path / "horizon.json").read_text())
    assert proc.returncode == 0, proc.stderr
    assert (record["outcome"], record["shortest"]) == ("feasible", None)
    assert record["summary"] == "feasible: a 4-step plan; shortest not proven (T ≤ 2 unsat, 3 not finished)"
    assert [r["status"] for r in record["runs"]] in (["infeasible"] * 3, ["infeasible"] * 3 + ["time_limit"])
    assert record["first_plan"][0]["status"] == "feasible"  # any plan within max_horizon, on a second solver
    solution = json.loads((tmp_path / "solution.json").read_text())
    assert (solution["status"], solution["objective"]) == ("feasible", 4) and "not proven" in solution["shortest"]
    assert len(json.loads((tmp_path / "output.json").read_text())["plan"]) == 4
    # the kept model is the plan's: re-solved by z3's own parser it is sat, and every value holds in it
    check = recheck.check_values(smt.read((tmp_path / "model.smt2").read_text()), solution["values"])
    assert check["checked"] > 0 and check["false"] == check["missing"] == check["bad"] == []
    assert not (tmp_path / "shorter.smt2").exists()  # nothing proven below it


def test_a_plan_found_early_and_then_proven_shortest_is_optimal(tmp_path):
    # the walk's solver (the first Horizon made) is slow to add step 1, past the pause: the second solver finds the
    # plan of 4 steps; the walk then refutes T = 2 and 3 quickly, which proves the plan kept shortest
    slow_walk = (HARD_BELOW.replace("holes, pigeons = 12, 13", "holes, pigeons = 3, 4")
                 .replace("class Horizon:\n", "class Horizon:\n    made = 0\n\n")
                 .replace("        self.s, self.length, self.moves = solver, data[\"length\"], []\n",
                          "        self.s, self.length, self.moves = solver, data[\"length\"], []\n"
                          "        Horizon.made += 1\n        self.walk = Horizon.made == 1\n")
                 .replace("        move = z3.Bool(f\"move_{t}\")\n",
                          "        move = z3.Bool(f\"move_{t}\")\n        if self.walk and t == 1:\n"
                          "            import time\n            time.sleep(3)\n"))
    assert slow_walk.count("time.sleep(3)") == 1 and "Horizon.made += 1" in slow_walk
    (tmp_path / "solver.py").write_text(slow_walk)
    (tmp_path / "data.json").write_text(json.dumps({"length": 4}))
    (tmp_path / "request.json").write_text(json.dumps({"program": "solver.py", "max_horizon": 8, "budget_s": 8}))
    subprocess.run([sys.executable, "-m", "optimus.core.families.z3.z3_sandbox", "horizon", "request.json"],
                   cwd=tmp_path, capture_output=True, text=True, timeout=90, check=True)
    record = json.loads((tmp_path / "horizon.json").read_text())
    assert record["first_plan"][0]["status"] == "feasible", record
    assert (record["outcome"], record["shortest"]) == ("optimal", 4), record
    assert [r["status"] for r in record["runs"]] == ["infeasible"] * 4
    assert json.loads((tmp_path / "solution.json").read_text())["status"] == "optimal"
    # the proof the re-check repeats: T = 3's model, from the walk, is unsat with every track name assumed
    text = (tmp_path / "shorter.smt2").read_text()
    s = z3.Solver()
    s.add(z3.parse_smt2_string(text))
    tracked = re.findall(r"^\(declare-fun (s\d+_\w+) \(\) Bool\)$", text, re.MULTILINE)
    assert tracked and s.check(*map(z3.Bool, tracked)) == z3.unsat


def test_the_judge_says_a_feasible_plan_is_not_proven_shortest():
    from types import SimpleNamespace

    from optimus.core.families.z3.judge import judge

    snop = SimpleNamespace(problem_info=["a statement"], objective="Minimize the number of actions.",
                           problem_type="PLANNING")
    ctx = SimpleNamespace(snop=snop, problem=SimpleNamespace(expected=None))
    ex = SimpleNamespace(solution={"status": "feasible", "objective": 16, "values": {"x": True}})
    said = "feasible: a 16-step plan; shortest not proven (T ≤ 13 unsat, 14–15 not finished)"
    raw = {"model": {"tracked": ["s1_a"]}, "resolve": {"status": "feasible", "objective": None, "sense": None,
                                                       "solver": "z3"},
           "plan": {"valid": True, "length": 16}, "validated": True, "horizon": {"summary": said},
           "planner": {"status": "optimal", "length": 15},
           "values_check": {"checked": 1, "false": [], "undecided": [], "missing": [], "bad": []}}
    verdict = judge(ctx, ex, raw)
    assert verdict.outcome == "agrees" and verdict.summary.startswith(f"re-check agrees: {said}; ")
    assert "Fast Downward's optimal planner finds a shortest plan of 15 steps" in verdict.summary
    raw["plan"] = {"valid": False, "length": 16, "failing_step": 3, "action": "x", "reason": "unmet"}
    assert judge(ctx, ex, raw).outcome == "disagrees"  # a plan returned early is still validated


# The old contract (one run per T): quick to refute below T = 3, stuck at T = 3, a plan of exactly T moves from 4.
STUCK_AT_3 = '''
import json, sys, time
import z3

T = int(sys.argv[1])
if T == 3:
    time.sleep(600)
s = z3.Solver()
moves = [z3.Bool(f"move_{t}") for t in range(T)]
for t, m in enumerate(moves):
    s.assert_and_track(m, f"s1_move_t{t}")
s.assert_and_track(z3.BoolVal(T >= 4), "s2_goal")
open("model.smt2", "w").write(s.sexpr())
found = s.check() == z3.sat
values = {str(m): True for m in moves} if found else {}
json.dump({"status": "feasible" if found else "infeasible", "values": values}, open("solution.json", "w"))
json.dump({"plan": [{"action": "move", "args": [str(t)]} for t in range(T)]} if found else {},
          open("output.json", "w"))
'''


def test_the_old_contract_also_returns_a_plan_at_the_longest_horizon_when_the_walk_is_stuck(tmp_path):
    (tmp_path / "solver.py").write_text(STUCK_AT_3)
    (tmp_path / "data.json").write_text("{}")
    (tmp_path / "request.json").write_text(json.dumps({"program": "solver.py", "max_horizon": 6, "budget_s": 8}))
    proc = subprocess.run([sys.executable, "-m", "optimus.core.families.z3.z3_sandbox", "horizon", "request.json"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=60, check=False)
    record = json.loads((tmp_path / "horizon.json").read_text())
    assert proc.returncode == 0, proc.stderr
    assert (record["contract"], record["outcome"]) == ("per_horizon", "feasible")
    assert record["summary"] == "feasible: a 6-step plan; shortest not proven (T ≤ 2 unsat, 3–5 not finished)"
    assert record["first_plan"][0] == {**record["first_plan"][0], "T": 6, "status": "feasible"}
    solution = json.loads((tmp_path / "solution.json").read_text())
    assert (solution["status"], solution["objective"]) == ("feasible", 6) and "not proven" in solution["shortest"]
    assert len(json.loads((tmp_path / "output.json").read_text())["plan"]) == 6
    assert "s1_move_t5" in (tmp_path / "model.smt2").read_text()  # the plan's own model, T = 6


# A line of stations a marker moves along, one station per step; the plan's PDDL for planval and Fast Downward.
STATIONS_DOMAIN = """\
(define (domain stations)
  (:requirements :strips :typing)
  (:types station)
  (:predicates (at ?s - station) (next ?a - station ?b - station))
  (:action move
    :parameters (?from - station ?to - station)
    :precondition (and (at ?from) (next ?from ?to))
    :effect (and (at ?to) (not (at ?from)))))
"""
STATIONS_PROBLEM = """\
(define (problem four-moves)
  (:domain stations)
  (:objects s0 s1 s2 s3 s4 - station)
  (:init (at s0) (next s0 s1) (next s1 s2) (next s2 s3) (next s3 s4) (next s4 s3))
  (:goal (at s4)))
"""


def test_the_harness_returns_a_plan_not_proven_shortest_in_words_and_verified(tmp_path):
    root = tmp_path / "stations"
    (root / "reference").mkdir(parents=True)
    (root / "validate").mkdir()
    program = (HARD_BELOW.replace('{"action": "move", "args": [str(k)]}',
                                  '{"action": "move", "args": [f"s{k}", f"s{k + 1}"]}'))
    (root / "reference" / "solver.py").write_text(program)
    (root / "reference" / "formulation.md").write_text("One move per step along the line of stations.\n")
    (root / "validate" / "domain.pddl").write_text(STATIONS_DOMAIN)
    (root / "validate" / "problem.pddl").write_text(STATIONS_PROBLEM)
    (root / "data.json").write_text(json.dumps({"length": 4, "max_horizon": 8}))
    (root / "snop.json").write_text(json.dumps({
        "name": "stations", "problem_type": "PLANNING", "solver": "z3",
        "problem_info": ["A marker stands at station s0 of the stations s0 … s4, joined in a line.",
                         "Action move(from, to): the marker goes from a station to the next one.",
                         "The goal: the marker is at the station \\param{length} moves along.",
                         "A plan has at most \\param{max_horizon} actions."],
        "input_format": '{"length": length, "max_horizon": max_horizon}',
        "objective": "Minimize the number of actions in the plan.",
        "output_info": ['\\var{plan} is the list of actions in order, each {"action": "move", "args": [from, to]}.'],
        "output_format": '{"plan": [{"action": action_{k}, "args": [arg_{k,m} for m in 1, ..., M_{k}]} for k in 1, ..., K]}'}))
    code = main(["solve", str(root), "--llm", "reference", "--sandbox", "process", "--mode", "prompt",
                 "--timeout", "20"])
    report = json.loads((root / "runs" / "latest" / "report.json").read_text())
    said = "feasible: a 4-step plan; shortest not proven (T ≤ 2 unsat, 3 not finished)"
    assert code == 0 and report["status"] == "solved" and report["solver_status"] == "feasible", report["message"]
    assert report["objective"] == 4 and report["verification"]["outcome"] == "agrees"
    summary = report["verification"]["summary"]
    assert summary.startswith(f"re-check agrees: {said}; ") and "planval validates the plan" in summary, summary
    assert "Fast Downward's optimal planner agrees (4 steps)" in summary
    plan = json.loads((root / "runs" / "latest" / "v0" / "attempt-01" / "output.json").read_text())["plan"]
    assert simulate(root / "validate" / "domain.pddl", root / "validate" / "problem.pddl", plan) is None
