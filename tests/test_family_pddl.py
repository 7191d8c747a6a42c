"""The pddl family end to end: the model writes problem.pddl, Fast Downward plans, planval validates — and each
way a problem file goes wrong is repaired by a scripted model that is given the right answer only when the
harness's evidence names the fault. Ground truth (the shortest plan) comes from a breadth-first search written
here, independently of the planner and the validator."""

from __future__ import annotations

import json
from collections import deque
from pathlib import Path

import pytest

from optimus.commands.cli import main
from optimus.core import families
from optimus.core.llm.extract import extract_code
from tests.sandbox_fixtures import backend_or_skip

# Our own small stacking domain: blocks on a table, one gripper.
DOMAIN = """\
(define (domain stacking)
  (:requirements :strips :typing)
  (:types block)
  (:predicates (on ?x - block ?y - block) (ontable ?x - block) (clear ?x - block) (handempty)
               (holding ?x - block))
  (:action pick-up :parameters (?x - block)
    :precondition (and (clear ?x) (ontable ?x) (handempty))
    :effect (and (not (ontable ?x)) (not (clear ?x)) (not (handempty)) (holding ?x)))
  (:action put-down :parameters (?x - block)
    :precondition (holding ?x)
    :effect (and (not (holding ?x)) (clear ?x) (handempty) (ontable ?x)))
  (:action stack :parameters (?x - block ?y - block)
    :precondition (and (holding ?x) (clear ?y))
    :effect (and (not (holding ?x)) (not (clear ?y)) (clear ?x) (handempty) (on ?x ?y)))
  (:action unstack :parameters (?x - block ?y - block)
    :precondition (and (on ?x ?y) (clear ?x) (handempty))
    :effect (and (holding ?x) (clear ?y) (not (clear ?x)) (not (handempty)) (not (on ?x ?y)))))
"""
GOOD = """\
(define (problem tower)
  (:domain stacking)
  (:objects ruby jade onyx - block)
  (:init (ontable ruby) (ontable jade) (on onyx ruby) (clear onyx) (clear jade) (handempty))
  (:goal (and (on ruby jade) (on jade onyx))))
"""
SYNTAX = GOOD.replace("(clear jade) (handempty))", "(clear jade (handempty))")
UNDECLARED = GOOD.replace("(on onyx ruby)", "(on onyx opal)")
NOT_A_PREDICATE = GOOD.replace("(handempty)", "(gripper-free)")
MISSING_FACT = GOOD.replace("(ontable jade) ", "")
SNOP = {
    "name": "Three-block tower",
    "problem_type": "PLANNING",
    "solver": "pddl",
    "problem_info": [
        "Blocks sit on a table or on one another; a gripper holds at most one block at a time.",
        "The gripper can pick up a block from the table or from another block only if nothing is on it.",
        "There are three blocks: ruby, jade and onyx.",
        "At the start ruby and jade stand on the table, onyx is on ruby, and the gripper is empty.",
        "At the end ruby must be on jade and jade on onyx.",
    ],
    "input_format": "{}",
    "objective": "Reach the goal in as few moves as possible.",
    "output_info": ["the plan, one action per step"],
    "output_format": '{"plan": [{"action": str, "args": [str]}], "length": int, "optimal": bool}',
}
TESTS = """\
def test_s3_blocks(problem):
    assert problem.by_type.get("block") == {"ruby", "jade", "onyx"}, f"s3: blocks {problem.by_type}"


def test_s4_start(problem):
    for fact in [("ontable", "ruby"), ("ontable", "jade"), ("on", "onyx", "ruby"), ("handempty",)]:
        assert fact in problem.init, f"s4: {fact} missing from the initial state"


def test_s5_goal(problem):
    assert {("on", "ruby", "jade"), ("on", "jade", "onyx")} <= problem.goal, f"s5: goal {problem.goal}"


def test_plan_found(solution, plan):
    assert solution["status"] in ("optimal", "feasible") and len(plan) == solution["objective"]
"""
FORMULATION = "## Objects\nruby, jade, onyx - block\n## Initial facts\n(s4) ...\n## Goal facts\n(s5) ...\n"


def shortest_plan_length(init: set, goal: set) -> int | None:
    """Breadth-first search over the stacking domain, written here from its rules (not from PDDL)."""
    blocks = sorted({a for fact in init | goal for a in fact[1:]})

    def successors(state):
        hand = next((f[1] for f in state if f[0] == "holding"), None)
        for b in blocks:
            if hand is None and ("clear", b) in state:
                if ("ontable", b) in state:
                    yield state - {("ontable", b), ("clear", b), ("handempty",)} | {("holding", b)}
                for c in blocks:
                    if ("on", b, c) in state:
                        yield state - {("on", b, c), ("clear", b), ("handempty",)} | {("holding", b), ("clear", c)}
        if hand is not None:
            yield state - {("holding", hand)} | {("ontable", hand), ("clear", hand), ("handempty",)}
            for c in blocks:
                if c != hand and ("clear", c) in state:
                    yield state - {("holding", hand), ("clear", c)} | {("on", hand, c), ("clear", hand),
                                                                       ("handempty",)}

    start = frozenset(init)
    seen, todo = {start}, deque([(start, 0)])
    while todo:
        state, depth = todo.popleft()
        if goal <= state:
            return depth
        for nxt in map(frozenset, successors(state)):
            if nxt not in seen:
                seen.add(nxt)
                todo.append((nxt, depth + 1))
    return None


INIT = {("ontable", "ruby"), ("ontable", "jade"), ("on", "onyx", "ruby"), ("clear", "onyx"), ("clear", "jade"),
        ("handempty",)}
GOAL = {("on", "ruby", "jade"), ("on", "jade", "onyx")}


@pytest.fixture
def folder(tmp_path) -> Path:
    root = tmp_path / "tower"
    (root / "reference").mkdir(parents=True)
    (root / "tests").mkdir()
    (root / "snop.json").write_text(json.dumps(SNOP))
    (root / "data.json").write_text("{}")
    (root / "domain.pddl").write_text(DOMAIN)
    (root / "reference" / "formulation.md").write_text(FORMULATION)
    (root / "reference" / "problem.pddl").write_text(GOOD)
    (root / "tests" / "test_problem.py").write_text(TESTS)
    return root


@pytest.fixture(params=["bwrap", "process"])
def sandbox(request) -> str:
    backend_or_skip(request.param)
    return request.param


def report_of(root: Path) -> dict:
    return json.loads((root / "runs" / "latest" / "report.json").read_text())


def solve_reference(root: Path, sandbox: str, *args: str) -> tuple[int, dict]:
    code = main(["solve", str(root), "--llm", "reference", "--sandbox", sandbox, "--timeout", "60", *args])
    return code, report_of(root)


def solve_scripted(root: Path, llm, *args: str) -> tuple[int, dict]:
    code = main(["solve", str(root), "--llm", "openai", "--base-url", llm.base_url, "--sandbox", "process",
                 "--timeout", "60", *args])
    return code, report_of(root)


def pddl(text: str) -> str:
    return f"The problem file:\n```pddl\n{text}```\n"


def only_if(needle: str, answer: str):
    """A scripted answer sent only when the request carries `needle`; otherwise the faulty file again."""
    return lambda request: answer if needle in request.messages[-1]["content"] else "no idea"


def test_the_family_is_registered_and_takes_only_folders_with_a_domain(folder):
    from optimus.core.problem import load_problem

    family = families.load("pddl")
    assert "pddl" in families.NAMES and family.artifact == "problem.pddl" and family.lang == "pddl"
    assert family.takes(load_problem(folder))
    (folder / "domain.pddl").unlink()
    assert not family.takes(load_problem(folder))


def test_the_bfs_ground_truth_sees_the_goal_and_the_missing_fact():
    assert shortest_plan_length(INIT, GOAL) == 6
    assert shortest_plan_length(INIT - {("ontable", "jade")}, GOAL) is None


def test_reference_run_finds_a_validated_plan_and_the_supervised_tests_read_the_problem(folder, sandbox):
    code, report = solve_reference(folder, sandbox, "--mode", "supervised")
    assert code == 0 and report["status"] == "solved" and report["verified"], report["message"]
    assert report["family"] == "pddl" and report["solver_status"] == "feasible"
    assert report["tests"]["passed"] == 4
    assert report["verification"]["outcome"] == "agrees"
    assert report["objective"] >= shortest_plan_length(INIT, GOAL)


def test_optimal_flag_gives_a_plan_as_short_as_breadth_first_search(folder):
    code, report = solve_reference(folder, "process", "--mode", "prompt", "--optimal")
    assert code == 0 and report["solver_status"] == "optimal"
    assert report["objective"] == shortest_plan_length(INIT, GOAL)
    output = json.loads((folder / "runs" / "latest" / "v0" / "attempt-01" / "output.json").read_text())
    assert output["optimal"] is True and len(output["plan"]) == output["length"] == report["objective"]


@pytest.mark.parametrize(("faulty", "evidence"), [
    (SYNTAX, "(clear jade (handempty)) — a fact inside another fact"),
    (UNDECLARED, "opal is not a declared object"),
    (NOT_A_PREDICATE, "gripper-free is not a predicate of the domain"),
], ids=["syntax", "undeclared-object", "unknown-predicate"])
def test_debug_repairs_a_problem_file_given_the_quoted_error(folder, scripted_llm, faulty, evidence):
    scripted_llm.enqueue("formulate", FORMULATION)
    scripted_llm.enqueue("codegen", pddl(faulty))
    scripted_llm.enqueue("debug", only_if(evidence, pddl(GOOD)))
    code, report = solve_scripted(folder, scripted_llm, "--mode", "debug", "--max-debug", "1")
    (request,) = scripted_llm.requests_for("debug")
    assert evidence in request.messages[-1]["content"]
    assert "line 4" in request.messages[-1]["content"]  # the faulty line, quoted
    assert code == 0 and report["verified"] and report["attempts"]["debug"] == 1, report["message"]


def test_a_missing_initial_fact_is_named_by_reachability_and_repaired_by_fix(folder, scripted_llm):
    scripted_llm.enqueue("formulate", FORMULATION)
    scripted_llm.enqueue("codegen", pddl(MISSING_FACT))
    scripted_llm.enqueue("fix", only_if("(ontable jade)", pddl(GOOD)))
    code, report = solve_scripted(folder, scripted_llm, "--mode", "supervised", "--max-fix", "1")
    (request,) = scripted_llm.requests_for("fix")
    fix_prompt = request.messages[-1]["content"]
    assert "(on jade onyx)" in fix_prompt and "(ontable jade)" in fix_prompt, fix_prompt
    assert code == 0 and report["verified"] and report["tests"]["passed"] == 4, report["message"]
    first = json.loads((folder / "runs" / "latest" / "v0" / "attempt-01" / "verification.json").read_text())
    assert first["claimed"]["status"] == "infeasible" and first["outcome"] == "agrees"


def test_direct_mode_validates_the_models_plan(folder, scripted_llm):
    plan = [["unstack", "onyx", "ruby"], ["put-down", "onyx"], ["pick-up", "jade"], ["stack", "jade", "onyx"],
            ["pick-up", "ruby"], ["stack", "ruby", "jade"]]
    steps = [{"action": a, "args": args} for a, *args in plan]
    scripted_llm.enqueue("direct", f"```json\n{json.dumps(steps)}\n```")
    code, report = solve_scripted(folder, scripted_llm, "--mode", "direct")
    assert code == 0 and report["verified"] and report["objective"] == 6, report["message"]
    assert report["verification"]["outcome"] == "agrees"
    assert scripted_llm.requests_for("formulate") == []


def test_direct_mode_rejects_a_wrong_plan_naming_the_step_and_the_unmet_precondition(folder, scripted_llm):
    # jade is stacked onto ruby while onyx still sits on ruby: (clear ruby) does not hold at step 2.
    steps = [{"action": "pick-up", "args": ["jade"]}, {"action": "stack", "args": ["jade", "ruby"]}]
    scripted_llm.enqueue("direct", f"```json\n{json.dumps(steps)}\n```")
    code, report = solve_scripted(folder, scripted_llm, "--mode", "direct")
    assert code == 1 and not report["verified"]
    assert "step 2" in report["message"] and "stack(jade, ruby)" in report["message"], report["message"]
    assert "clear(ruby)" in report["message"]


def test_direct_mode_is_refused_for_a_family_without_a_direct_prompt(tmp_path, capsys, scripted_llm):
    from tests.test_validate_malformed import write_folder

    root = write_folder(tmp_path / "mix")
    assert main(["solve", str(root), "--llm", "openai", "--base-url", scripted_llm.base_url, "--sandbox",
                 "process", "--mode", "direct"]) == 2
    assert "--mode direct" in capsys.readouterr().err and scripted_llm.requests == []


@pytest.mark.parametrize(("text", "ok"), [
    ("```pddl\n(define (problem a) (:domain b))\n```", True),
    ("Sure: (define (problem a)\n  (:domain b))", True),
    ("```\n(define (problem a) (:domain b)\n```", False),  # untagged and unbalanced: not taken as PDDL
])
def test_pddl_extraction(text, ok):
    if ok:
        assert extract_code(text, lang="pddl").startswith("(define (problem a)")
    else:
        with pytest.raises(Exception, match="no pddl program"):
            extract_code(text, lang="pddl")


ROUTE_DOMAIN = """\
(define (domain route)
  (:requirements :strips :typing)
  (:types cell)
  (:predicates (at ?c - cell) (link ?a - cell ?b - cell))
  (:action move :parameters (?a - cell ?b - cell)
    :precondition (and (at ?a) (link ?a ?b))
    :effect (and (not (at ?a)) (at ?b))))
"""


def test_reachability_names_a_missing_static_fact_and_never_calls_a_reachable_goal_unreachable():
    from optimus.core.families.pddl.pddl_sandbox.reach import unreachable
    from optimus.core.families.pddl.pddl_sandbox.sexpr import read_domain, read_problem

    def route(links: str):
        return read_problem(f"(define (problem r) (:domain route) (:objects c1 c2 c3 - cell)\n"
                            f" (:init (at c1) {links})\n (:goal (at c3)))")

    domain = read_domain(ROUTE_DOMAIN)
    whole = unreachable(domain, route("(link c1 c2) (link c2 c3)"))
    assert whole["checked"] and whole["unreachable_goals"] == []
    broken = unreachable(domain, route("(link c1 c2)"))  # the link the statements give from c2 to c3 is lost
    assert broken["unreachable_goals"] == ["(at c3)"]
    assert "(link c2 c3)" in broken["missing"]["(at c3)"] and "(link c2 c3)" in broken["message"]
