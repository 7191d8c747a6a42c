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

from optimus.bench.groundtruth.pddl import shortest_plan_length, simulate
from optimus.commands.cli import main
from optimus.core.families.pddl.pddl_sandbox.check import problem_errors
from optimus.core.families.pddl.pddl_sandbox.sexpr import read_domain, read_problem

ROOT = Path(__file__).resolve().parents[1]

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


def test_a_domain_only_unified_planning_refuses_is_named_too(tmp_path, scripted_llm, capsys):
    # `either` in an action's parameters: Fast Downward's translator refuses it as well
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
