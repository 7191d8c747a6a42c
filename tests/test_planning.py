"""The planning benchmark's ground truth, recomputed each session: Fast Downward's optimal configuration and
our own breadth-first search agree on every folder, the reference plan is valid and that short, and
expected.json says so. Plus the BFS itself on hand-sized problems whose answers are counted by hand."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from pathlib import Path

import pytest

from optimus.bench.groundtruth.pddl import (
    StateLimitError,
    check_folder,
    folders,
    load_plan,
    shortest_plan,
    shortest_plan_length,
    simulate,
    up_validate,
)

ROOT = Path(__file__).resolve().parents[1]
PLANNING = ROOT / "planning"
DOMAINS = ("blocks", "porter", "bike", "painting")
FOLDERS = folders([PLANNING])
BFS_STATES = 20_000  # enough for every -1 and -2 instance and more; keeps this file quick
pytest.importorskip("up_fast_downward")


def test_every_domain_has_five_sizes_and_an_unsolvable_variant():
    names = {f.name for f in FOLDERS}
    for dom in DOMAINS:
        assert {f"{dom}-{n}" for n in range(1, 6)} | {f"{dom}-unsolvable"} <= names, dom
        assert (PLANNING / f"{dom}-1" / "example" / "problem.pddl").is_file()
        texts = {(PLANNING / n / "domain.pddl").read_text() for n in names if n.startswith(f"{dom}-")}
        assert len(texts) == 1, f"{dom}: domain.pddl differs between its folders"


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda f: f.name)
def test_folder_ground_truth(folder: Path):
    chk = check_folder(folder, max_states=BFS_STATES)
    assert chk.ok, chk.problems
    expected = json.loads((folder / "expected.json").read_text())
    assert expected == chk.expected
    if folder.name.endswith("-unsolvable"):
        assert chk.fd_status == "unsolvable" and chk.bfs == "unsolvable"
        assert not (folder / "reference" / "plan.json").exists()
    else:
        assert chk.plan_length == expected["objective"] == chk.fd_length
    if folder.name.endswith(("-1", "-2")):  # the small ones are always cross-checked by the BFS
        assert chk.bfs_length == chk.fd_length


def test_example_is_another_instance_that_parses():
    for dom in DOMAINS:
        example = PLANNING / f"{dom}-1" / "example" / "problem.pddl"
        reference = PLANNING / f"{dom}-1" / "reference" / "problem.pddl"
        assert example.read_text() != reference.read_text()
        assert shortest_plan_length(PLANNING / f"{dom}-1" / "domain.pddl", example) is not None


def test_generator_matches_the_folders():
    sys.path.insert(0, str(PLANNING))
    try:
        from _make import DOMAINS as MODULES
        from _make import files
    finally:
        sys.path.remove(str(PLANNING))
    for dom in MODULES:
        for i, inst in enumerate(dom.instances()):
            folder = PLANNING / f"{dom.NAME}-{inst.name}"
            written = files(dom, inst, first=i == 0)
            assert "snop.json" in written and "domain.pddl" in written
            for rel, text in written.items():  # every file _make.py writes, as it writes it
                assert (folder / rel).read_text() == text, f"{folder / rel}: run planning/_make.py"


# --- each folder's supervised tests: the reference passes them, a problem file missing a fact fails them

def _supervised(folder: Path, problem_text: str) -> list[str]:
    """Run the folder's test functions in-process with the fixtures the pddl family's conftest builds;
    return the names of the failing ones."""
    import importlib.util

    from optimus.core.families.pddl.pddl_conftest import PlanningProblem
    from optimus.core.families.pddl.pddl_sandbox.sexpr import goal_facts, read_problem

    parsed = read_problem(problem_text)
    fixtures = {
        "problem": PlanningProblem(dict(parsed.objects), {f for f, _ in parsed.init}, goal_facts(parsed.goal),
                                   goal_facts(parsed.goal, positive=False)),
        "data": json.loads((folder / "data.json").read_text()),
        "eps": 1e-6,
    }
    plan = load_plan(folder) or []
    fixtures["plan"] = [(s["action"], *s.get("args", [])) for s in plan]
    fixtures["output"] = {"plan": plan, "length": len(plan), "optimal": True}
    (path,) = (folder / "tests").glob("test_*.py")
    spec = importlib.util.spec_from_file_location(f"supervised_{folder.name.replace('-', '_')}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    failed = []
    for name in dir(module):
        if name.startswith("test_"):
            fn = getattr(module, name)
            try:
                fn(**{arg: fixtures[arg] for arg in fn.__code__.co_varnames[:fn.__code__.co_argcount]})
            except AssertionError:
                failed.append(name)
    return failed


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda f: f.name)
def test_supervised_tests_pass_on_the_reference_and_catch_a_missing_fact(folder: Path):
    text = (folder / "reference" / "problem.pddl").read_text()
    assert _supervised(folder, text) == []
    lines = text.splitlines()
    init_at = lines.index("  (:init") + 1
    goal_at = lines.index("  (:goal (and") + 1
    for drop in (init_at, goal_at):  # the first initial fact, then the first goal fact
        mutated = "\n".join(lines[:drop] + lines[drop + 1:])
        assert _supervised(folder, mutated), f"{folder.name}: no test noticed {lines[drop].strip()} missing"


# --- the BFS on problems small enough to count by hand

CORRIDOR_DOMAIN = """
(define (domain corridor)
  (:requirements :strips :typing :negative-preconditions :equality)
  (:types cell)
  (:predicates (at ?c - cell) (door ?a - cell ?b - cell) (locked ?c - cell) (key-in ?c - cell) (has-key))
  (:action step :parameters (?a - cell ?b - cell)
    :precondition (and (at ?a) (door ?a ?b) (not (locked ?b)) (not (= ?a ?b)))
    :effect (and (at ?b) (not (at ?a))))
  (:action take :parameters (?c - cell)
    :precondition (and (at ?c) (key-in ?c))
    :effect (and (has-key) (not (key-in ?c))))
  (:action unlock :parameters (?a - cell ?b - cell)
    :precondition (and (at ?a) (door ?a ?b) (locked ?b) (has-key))
    :effect (not (locked ?b))))
"""


def _corridor(tmp_path: Path, n: int, locked: int | None, key: int | None) -> tuple[Path, Path]:
    """Cells c1..cn in a line; the walker starts in c1 and must reach cn."""
    cells = [f"c{i}" for i in range(1, n + 1)]
    doors = [f"(door {a} {b}) (door {b} {a})" for a, b in itertools.pairwise(cells)]
    init = ["(at c1)", *doors]
    init += [f"(locked c{locked})"] if locked else []
    init += [f"(key-in c{key})"] if key else []
    (tmp_path / "d.pddl").write_text(CORRIDOR_DOMAIN)
    (tmp_path / "p.pddl").write_text(f"(define (problem p) (:domain corridor) (:objects {' '.join(cells)} - cell)"
                                     f" (:init {' '.join(init)}) (:goal (and (at c{n}))))")
    return tmp_path / "d.pddl", tmp_path / "p.pddl"


def test_bfs_walks_a_corridor(tmp_path):
    # n cells in a line: n - 1 steps
    assert shortest_plan_length(*_corridor(tmp_path, 6, None, None)) == 5


def test_bfs_detours_for_the_key(tmp_path):
    # c4 is locked, the key lies in c2: step to c2, take, step to c3, unlock c4, step c4, step c5 = 6
    domain, problem = _corridor(tmp_path, 5, locked=4, key=2)
    plan = shortest_plan(domain, problem)
    assert len(plan) == 6
    assert ("take", "c2") in plan and ("unlock", "c3", "c4") in plan
    assert simulate(domain, problem, [{"action": a, "args": list(args)} for a, *args in plan]) is None


def test_bfs_proves_unsolvable(tmp_path):
    # locked door and no key anywhere: the walker can reach c1..c3 only
    assert shortest_plan_length(*_corridor(tmp_path, 5, locked=4, key=None)) is None


def test_bfs_state_limit_raises(tmp_path):
    with pytest.raises(StateLimitError):
        shortest_plan_length(*_corridor(tmp_path, 30, None, None), max_states=10)


def test_wrong_plans_are_rejected_by_both_checks():
    folder = PLANNING / "blocks-3"
    domain, problem = folder / "domain.pddl", folder / "reference" / "problem.pddl"
    plan = load_plan(folder)
    assert simulate(domain, problem, plan) is None and up_validate(domain, problem, plan) is None
    short = plan[:-2]  # stops before the last block is placed
    assert "goal" in simulate(domain, problem, short)
    assert up_validate(domain, problem, short) is not None
    swapped = [plan[1], plan[0], *plan[2:]]  # places before lifting
    assert "step 1" in simulate(domain, problem, swapped)
    assert up_validate(domain, problem, swapped) is not None


# --- bad input: a clear message naming the file, exit 2, no traceback

def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "optimus.bench.groundtruth.pddl", *args], check=False,
                          capture_output=True, text=True, cwd=ROOT, timeout=120)


def test_cli_not_a_planning_folder(tmp_path):
    res = _cli(str(tmp_path / "nowhere"))
    assert res.returncode == 2 and "nowhere" in res.stderr and "Traceback" not in res.stderr


def test_cli_malformed_plan(tmp_path):
    folder = tmp_path / "blocks-x"
    (folder / "reference").mkdir(parents=True)
    src = PLANNING / "blocks-1"
    (folder / "domain.pddl").write_text((src / "domain.pddl").read_text())
    (folder / "reference" / "problem.pddl").write_text((src / "reference" / "problem.pddl").read_text())
    (folder / "reference" / "plan.json").write_text('{"plan": [{"args": ["red"]}]}')
    res = _cli(str(folder))
    assert res.returncode == 2, res.stdout + res.stderr
    assert "plan.json" in res.stderr and "plan" in res.stderr and "Traceback" not in res.stderr


def test_cli_unparsable_problem(tmp_path):
    folder = tmp_path / "blocks-y"
    (folder / "reference").mkdir(parents=True)
    (folder / "domain.pddl").write_text((PLANNING / "blocks-1" / "domain.pddl").read_text())
    (folder / "reference" / "problem.pddl").write_text("(define (problem q) (:domain blocks)")
    res = _cli(str(folder))
    assert res.returncode == 2 and "problem.pddl" in res.stderr and "Traceback" not in res.stderr
