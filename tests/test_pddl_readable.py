"""PDDL as planners read it (issue 19): domains written here, in our own words, that use what Fast Downward's
translator accepts and unified-planning's reader refuses by default — a predicate and an action sharing a name,
`(either …)` types of a predicate's parameter — solve offline; an expert's domain.pddl that does not parse stops
the run (exit 2, the file and its line named) before any model call. Plans are checked by planval and by our
own simulator (optimus.bench.groundtruth.plansim), and plan lengths against a breadth-first search (optimus.bench.groundtruth.pddl)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from optimus.bench.groundtruth import plansim
from optimus.bench.groundtruth.pddl import shortest_plan_length, simulate
from optimus.commands.cli import main
from optimus.core.errors import SpecError
from optimus.core.families.given import check_pddl
from optimus.core.families.pddl.pddl_sandbox.check import problem_errors
from optimus.core.families.pddl.pddl_sandbox.sexpr import read_domain, read_problem

ROOT = Path(__file__).resolve().parents[1]
SHAPES = ROOT / "tests" / "fixtures" / "pddl_shapes"  # written by its _make.py

# A greenhouse: `water` is a predicate (the plant has been watered) and an action; `fill` likewise. Also a domain
# constant (the tap), negative preconditions and equality.
GREENHOUSE = """\
(define (domain greenhouse)
  (:requirements :strips :typing :negative-preconditions :equality)
  (:types plant can source)
  (:constants tap - source)
  (:predicates (water ?p - plant) (fill ?c - can) (flows ?s - source) (held ?c - can))
  (:action fill :parameters (?c - can)
    :precondition (and (flows tap) (not (fill ?c)))
    :effect (fill ?c))
  (:action water :parameters (?c - can ?p - plant)
    :precondition (and (fill ?c) (not (water ?p)))
    :effect (and (water ?p) (not (fill ?c))))
  (:action pour :parameters (?from - can ?to - can)
    :precondition (and (fill ?from) (not (fill ?to)) (not (= ?from ?to)))
    :effect (and (fill ?to) (not (fill ?from)))))
"""
GREENHOUSE_PROBLEM = """\
(define (problem three-pots)
  (:domain greenhouse)
  (:objects fern basil mint - plant jug - can)
  (:init (flows tap))
  (:goal (and (water fern) (water basil) (water mint))))
"""
# A loading bay: `stored` takes a parcel or a crate, declared with `either` (one line of it spread over two).
BAY = """\
(define (domain loading-bay)
  (:requirements :strips :typing)
  (:types parcel crate - cargo bay dock - place)
  (:predicates (stored ?x - (either parcel
                                    crate) ?p - place)
               (free ?d - dock) (empty-handed))
  (:action lift :parameters (?x - cargo ?p - place)
    :precondition (and (stored ?x ?p) (empty-handed))
    :effect (and (not (stored ?x ?p)) (not (empty-handed))))
  (:action drop :parameters (?x - cargo ?d - dock)
    :precondition (and (free ?d) (not (empty-handed)))
    :effect (and (stored ?x ?d) (not (free ?d)) (empty-handed))))
"""
BAY_PROBLEM = """\
(define (problem two-items)
  (:domain loading-bay)
  (:objects box1 - crate env1 - parcel north - bay d1 d2 - dock)
  (:init (stored box1 north) (stored env1 north) (free d1) (free d2) (empty-handed))
  (:goal (and (stored box1 d1) (stored env1 d2))))
"""
SNOP = {
    "problem_type": "PLANNING", "solver": "pddl",
    "input_format": "{}", "objective": "Reach the goal in as few steps as possible.",
    "output_info": ["the plan, one action per step"],
    "output_format": '{"plan": [{"action": str, "args": [str]}], "length": int, "optimal": bool}',
}
WORDS = {
    "greenhouse": ["Three potted plants (fern, basil, mint) each need watering once, from a jug.",
                   "The jug is filled at the tap, which runs; one jugful waters one plant."],
    "loading-bay": ["A crate (box1) and a parcel (env1) sit in the north bay.",
                    "One worker carries one item at a time; each dock takes one item.",
                    "At the end the crate is on dock d1 and the parcel on dock d2."],
}


def planning_folder(tmp_path: Path, name: str, domain: str, problem: str) -> Path:
    root = tmp_path / name
    (root / "reference").mkdir(parents=True)
    (root / "snop.json").write_text(json.dumps({"name": name, **SNOP, "problem_info": WORDS[name]}))
    (root / "data.json").write_text("{}")
    (root / "domain.pddl").write_text(domain)
    (root / "reference" / "problem.pddl").write_text(problem)
    (root / "reference" / "formulation.md").write_text(f"Objects and facts as the statements give them ({name}).")
    return root


@pytest.mark.parametrize(("name", "domain", "problem"), [
    ("greenhouse", GREENHOUSE, GREENHOUSE_PROBLEM),
    ("loading-bay", BAY, BAY_PROBLEM),
], ids=["shared-names", "either"])
def test_a_domain_fast_downward_reads_solves_offline_and_both_validators_agree(tmp_path, name, domain, problem):
    root = planning_folder(tmp_path, name, domain, problem)
    code = main(["solve", str(root), "--llm", "reference", "--sandbox", "process", "--timeout", "60",
                 "--mode", "prompt", "--optimal"])
    report = json.loads((root / "runs" / "latest" / "report.json").read_text())
    assert code == 0 and report["status"] == "solved", report["message"]
    assert report["verification"]["outcome"] == "agrees"  # planval, in a fresh sandbox
    plan = json.loads((root / "runs" / "latest" / "v0" / "attempt-01" / "output.json").read_text())["plan"]
    given = root / "reference" / "problem.pddl"
    assert simulate(root / "domain.pddl", given, plan) is None  # our own simulator, nothing shared with UP
    assert len(plan) == report["objective"] == shortest_plan_length(root / "domain.pddl", given)


def test_the_problem_check_accepts_either_types_and_still_names_a_wrong_one():
    domain = read_domain(BAY)
    assert problem_errors(domain, read_problem(BAY_PROBLEM), BAY_PROBLEM.splitlines()) == []
    wrong = BAY_PROBLEM.replace("(stored env1 north)", "(stored d2 north)")
    (error,) = problem_errors(domain, read_problem(wrong), wrong.splitlines())
    assert "d2 is a dock, but stored takes a parcel or crate there" in error and "line 4" in error


def test_a_broken_domain_stops_before_any_model_call_naming_the_file_and_line(tmp_path, scripted_llm, capsys):
    broken = GREENHOUSE.replace("    :effect (fill ?c))", "    :effect (fill ?c)")  # an action left open
    root = planning_folder(tmp_path, "greenhouse", broken, GREENHOUSE_PROBLEM)
    code = main(["solve", str(root), "--llm", "openai", "--base-url", scripted_llm.base_url,
                 "--sandbox", "process", "--mode", "debug"])
    err = capsys.readouterr()
    said = err.out + err.err
    assert code == 2 and scripted_llm.requests == []
    assert f"{root / 'domain.pddl'}: line " in said and "problem.pddl" not in said
    assert not (root / "runs").exists()


def test_either_in_an_actions_parameters_is_refused_as_fast_downward_refuses_it(tmp_path, scripted_llm, capsys):
    # `either` in an action's parameters: Fast Downward's translator (26.6) refuses it ("Type value is expected to
    # be a single word"), so optimus does, naming the line, before any model call
    odd = BAY.replace("(:action lift :parameters (?x - cargo", "(:action lift :parameters (?x - (either parcel crate)")
    root = planning_folder(tmp_path, "loading-bay", odd, BAY_PROBLEM)
    code = main(["solve", str(root), "--llm", "openai", "--base-url", scripted_llm.base_url,
                 "--sandbox", "process"])
    said = capsys.readouterr()
    assert code == 2 and scripted_llm.requests == []
    assert "cannot read domain.pddl" in said.out + said.err and "line 7" in said.out + said.err


def test_a_z3_plans_broken_validate_file_stops_before_any_model_call(tmp_path, scripted_llm, capsys):
    root = tmp_path / "blocks-1"
    shutil.copytree(ROOT / "llmfp" / "blocks-1", root, ignore=shutil.ignore_patterns("runs"))
    given = root / "validate" / "problem.pddl"
    given.write_text(given.read_text().replace("(:init", "(:init (", 1))  # a '(' never closed
    code = main(["solve", str(root), "--llm", "openai", "--base-url", scripted_llm.base_url,
                 "--sandbox", "process"])
    said = capsys.readouterr()
    assert code == 2 and scripted_llm.requests == [] and not (root / "runs").exists()
    assert f"{given}: line " in said.out + said.err


def solve_shape(tmp_path: Path, name: str) -> tuple[Path, dict]:
    root = tmp_path / name
    shutil.copytree(SHAPES / name, root)
    code = main(["solve", str(root), "--llm", "reference", "--sandbox", "process", "--timeout", "60",
                 "--mode", "prompt", "--optimal"])
    report = json.loads((root / "runs" / "latest" / "report.json").read_text())
    assert code == 0 and report["status"] == "solved", report["message"]
    return root, report


@pytest.mark.parametrize(("name", "warned"), [
    ("wine-cellar", None),  # `zone` declared under object and under stand: both hold
    ("lighthouse", ("domain.pddl line 16: matches is used but never declared in the domain; problem.pddl declares "
                   "it (matches - tool), so it is read as a constant of the domain, as older planners read it. The "
                   "fix, in domain.pddl: (:constants matches - tool)")),
    ("garden-valves", "problem.pddl line 3: mains is declared both as a constant of the domain and as an object"),
])
def test_a_shape_the_translator_or_an_older_planner_reads_solves_offline_and_both_validators_agree(
        tmp_path, name, warned):
    root, report = solve_shape(tmp_path, name)
    assert report["verification"]["outcome"] == "agrees"  # planval on the translator's task, in a fresh sandbox
    summary = report["verification"]["summary"]
    assert (f"warning: {warned}" in summary) if warned else "warning:" not in summary, summary
    plan = json.loads((root / "runs" / "latest" / "v0" / "attempt-01" / "output.json").read_text())["plan"]
    given = root / "reference" / "problem.pddl"
    assert plansim.simulate(root / "domain.pddl", given, plan) is None  # our own reader and stepping
    # the shortest length: Fast Downward's A* (the run) and a breadth-first search over our own semantics
    assert len(plan) == report["objective"] == plansim.shortest_plan_length(root / "domain.pddl", given)


def test_a_name_neither_file_declares_is_the_problem_files_error_naming_the_domains_line(tmp_path):
    domain, problem = tmp_path / "domain.pddl", tmp_path / "problem.pddl"
    domain.write_text((SHAPES / "lighthouse" / "domain.pddl").read_text())
    assert check_pddl(domain) and "(:constants matches - TYPE)" in check_pddl(domain)[0]  # alone: said, not refused
    problem.write_text((SHAPES / "lighthouse" / "reference" / "problem.pddl").read_text()
                       .replace("matches oilcan - tool", "oilcan - tool").replace("(lies matches ground) ", ""))
    with pytest.raises(SpecError) as caught:
        check_pddl(domain, problem)
    assert caught.value.file == str(problem)
    assert "domain.pddl line 16 uses matches" in caught.value.message and "problem.pddl's :objects" in caught.value.message


def test_a_constant_repeated_with_another_type_is_refused(tmp_path):
    domain, problem = tmp_path / "domain.pddl", tmp_path / "problem.pddl"
    domain.write_text((SHAPES / "garden-valves" / "domain.pddl").read_text())
    problem.write_text((SHAPES / "garden-valves" / "reference" / "problem.pddl").read_text()
                       .replace("mains east west - valve rose", "east west - valve mains rose"))
    with pytest.raises(SpecError) as caught:
        check_pddl(domain, problem)
    assert "duplicate objects: mains" in caught.value.message


def test_an_unreachable_goal_is_fast_downwards_word_and_our_check_names_the_fact_behind_it(tmp_path):
    from optimus.core.families.pddl.pddl_sandbox.reach import unreachable
    from optimus.core.families.pddl.pddl_sandbox.sexpr import read_domain as ours_domain
    from optimus.core.families.pddl.pddl_sandbox.sexpr import read_problem as ours_problem
    from optimus.core.planval.translator import read_pair, relaxed_unreachable_goals

    domain, problem = tmp_path / "domain.pddl", tmp_path / "problem.pddl"
    domain.write_text((SHAPES / "lighthouse" / "domain.pddl").read_text())
    problem.write_text((SHAPES / "lighthouse" / "reference" / "problem.pddl").read_text()
                       .replace("(lies matches ground) ", ""))  # the matches lie nowhere
    theirs = relaxed_unreachable_goals(read_pair(domain, problem).task)
    assert theirs == ["(lit beacon)"]
    why = unreachable(ours_domain(domain.read_text()), ours_problem(problem.read_text()), theirs)
    assert why["unreachable_goals"] == ["(lit beacon)"]
    assert "(lies matches ground)" in why["missing"]["(lit beacon)"], why  # the fact :init lost, among those named
