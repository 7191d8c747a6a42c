"""The loop as a list of steps: a stage is added by adding a step; observers subscribe to events; the Python API
is what the command line stands on; backends come from one registry."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

import optimus
from optimus.core import loop as agent
from optimus.core.errors import ConfigError
from optimus.core.llm import registry
from optimus.core.loop import OK, Events, Options, Repair, Stop
from optimus.core.problem import load_problem
from optimus.core.runstore import RunStore
from tests.helpers import copy_problem
from tests.test_agent import FORMULATION, GOOD, MISSING_KEY, fence
from tests.test_validate_malformed import DATA, SNOP


@pytest.fixture
def mix(tmp_path):
    """test_agent's product-mix folder: two products, three machines."""
    root = tmp_path / "mix"
    root.mkdir()
    (root / "snop.json").write_text(json.dumps(SNOP))
    (root / "data.json").write_text(json.dumps(DATA))
    return root


def solve_mix(root, llm, sandbox, mode="debug", events=None):
    run = RunStore(root)
    client = registry.get_client("openai", transcript=run.dir / "transcript.jsonl", base_url=llm.base_url)
    return agent.solve(load_problem(root), client, sandbox, run, Options(mode=mode), events=events)


def test_a_no_op_stage_is_one_item_in_the_step_list(mix, scripted_llm, sandbox, monkeypatch):
    seen = []

    def audit(a: agent.Attempt) -> agent.Outcome:  # a stage that looks at every program and mends nothing
        seen.append((a.number, a.phase.mode, a.ex.ok))
        return OK

    steps = list(agent.STEPS)
    monkeypatch.setattr(agent, "STEPS", steps[:1] + [audit] + steps[1:])
    scripted_llm.enqueue("formulate", FORMULATION)
    scripted_llm.enqueue("codegen", fence(MISSING_KEY))
    scripted_llm.enqueue("debug", fence(GOOD))
    report = solve_mix(mix, scripted_llm, sandbox)
    assert report.status == "solved" and report.objective == pytest.approx(23.6)
    # Program 1 failed to run: run_program asked for debug before the audit step was reached.
    assert seen == [(2, "debug", True)]


def test_a_stage_that_asks_for_a_repair_gets_one_within_the_mode_policy(mix, scripted_llm, sandbox,
                                                                        monkeypatch):
    def reviewer(a: agent.Attempt) -> agent.Outcome:  # a stage whose evidence is for debug, once
        return Repair(("debug",), "reviewer: rename nothing, just rerun", "reviewer unhappy") if a.number == 1 else OK

    monkeypatch.setattr(agent, "STEPS", [agent.run_program, reviewer, *agent.STEPS[1:]])
    scripted_llm.enqueue("formulate", FORMULATION)
    scripted_llm.enqueue("codegen", fence(GOOD))
    scripted_llm.enqueue("debug", fence(GOOD))
    report = solve_mix(mix, scripted_llm, sandbox)
    assert report.verified and report.attempts["debug"] == 1
    assert "reviewer: rename nothing" in scripted_llm.requests_for("debug")[0].messages[-1]["content"]
    # In prompt mode the policy allows no repair: the stage's evidence ends the mode with its own words.
    scripted_llm.enqueue("formulate", FORMULATION)
    scripted_llm.enqueue("codegen", fence(GOOD))
    report = solve_mix(mix, scripted_llm, sandbox, mode="prompt")
    assert not report.verified and report.message == "reviewer unhappy"


def test_a_step_may_stop_the_mode_with_its_verdict(mix, scripted_llm, sandbox, monkeypatch):
    monkeypatch.setattr(agent, "STEPS", [agent.run_program, lambda a: Stop("stopped by a step")])
    scripted_llm.enqueue("formulate", FORMULATION)
    scripted_llm.enqueue("codegen", fence(GOOD))
    report = solve_mix(mix, scripted_llm, sandbox)
    assert report.message == "stopped by a step" and report.status == "failed"


def test_events_see_every_program_and_every_verdict(mix, scripted_llm, sandbox):
    programs, verdicts = [], []
    events = Events(on_program=lambda n, workdir: programs.append((n, (workdir / "solver.py").read_text())),
                    on_verdict=lambda n, v: verdicts.append((n, v.outcome)))
    scripted_llm.enqueue("formulate", FORMULATION)
    scripted_llm.enqueue("codegen", fence(MISSING_KEY))
    scripted_llm.enqueue("debug", fence(GOOD))
    solve_mix(mix, scripted_llm, sandbox, events=events)
    assert [(n, code.strip()) for n, code in programs] == [(1, MISSING_KEY.strip()), (2, GOOD.strip())]
    assert verdicts == [(2, "agrees")]  # program 1 never ran to the end: nothing to re-check


def test_the_api_is_what_the_command_line_runs(tmp_path):
    folder = copy_problem("12", tmp_path / "12")
    report = optimus.solve(folder, llm="reference", mode="prompt", sandbox="process")
    assert report.status == "solved" and report.verified
    expected = json.loads((folder / "expected.json").read_text())["objective"]
    assert report.objective == pytest.approx(expected, rel=1e-9)
    on_disk = json.loads((folder / "runs" / "latest" / "report.json").read_text())
    assert on_disk["status"] == report.status and on_disk["llm"]["what"] == registry.description(
        registry.get_backend("reference", load_problem(folder)))


def test_the_registry_builds_every_backend_and_names_the_unknown(tmp_path):
    folder = copy_problem("12", tmp_path / "12")
    assert registry.get_backend("reference", load_problem(folder)).name == "reference"
    with pytest.raises(ConfigError, match="no LLM backend 'gemini'"):
        registry.get_backend("gemini")
    with pytest.raises(ConfigError, match="no LLM endpoint is configured"):
        registry.get_backend("openai")
    with pytest.raises(ConfigError, match="needs the folder"):
        registry.get_backend("reference")


def test_a_bench_row_names_the_error_the_solve_raised_and_the_tests_the_loop_ran(tmp_path):
    from optimus.bench.draw import Subject
    from optimus.bench.judge import Verdict as Judged
    from optimus.bench.runner import make_row, row_tests
    from optimus.core.report import Report

    folder = copy_problem("12", tmp_path / "12")
    problem = load_problem(folder)
    subject = Subject("nlp4lp/12", problem, {"objective": 1.0}, folder)
    error = "ConfigError: --mode direct: the model answers with the solution itself"
    row = make_row(subject, "direct", registry.get_backend("reference", problem), None, {}, Judged(
        reason="no output.json that parses"), None, None, error, 0.0, tmp_path)
    assert row["reason"] == f"the solve stopped: {error}"
    # The judge ran no supervised tests: the row shows the loop's own (generated ones, here), not 0 and 0.
    report = Report(problem="p", mode="autotests", llm={}, sandbox="process", expected=None, run_dir="r")
    report.tests.update({"source": "generated", "passed": 11, "failed": 0})
    assert row_tests(Judged(), report) == {"source": "generated", "passed": 11, "failed": 0}
    assert row_tests(Judged(tests_passed=3), report) == {"source": "supervised", "passed": 3, "failed": 0}


def test_the_api_writes_a_folder_from_words_only_with_consent_and_repairs_a_run(tmp_path):
    from optimus.commands.new import NotConfirmed

    request = Path(__file__).parent / "fixtures" / "new" / "milp" / "request.txt"
    draft = optimus.new(request, tmp_path / "milp", llm="reference", yes=True)
    written = json.loads((tmp_path / "milp" / "snop.json").read_text())
    assert written["problem_info"] == draft.snop["problem_info"] and (tmp_path / "milp" / "new.json").is_file()
    # The same through the command line writes the same folder.
    from optimus.commands.cli import main

    assert main(["new", str(tmp_path / "cli"), "--from", str(request), "--llm", "reference", "--yes"]) == 0
    assert json.loads((tmp_path / "cli" / "snop.json").read_text()) == written
    if draft.findings or draft.assumptions:  # something to confirm: without consent nothing is written
        with pytest.raises(NotConfirmed):
            optimus.new(request, tmp_path / "refused", llm="reference")
        assert not (tmp_path / "refused" / "snop.json").exists()

    folder = tmp_path / "20-infeasible"
    shutil.copytree(Path(__file__).parents[1] / "nlp4lp" / "20-infeasible", folder,
                    ignore=shutil.ignore_patterns("runs", "variants"))
    report = optimus.solve(folder, llm="reference", mode="supervised", sandbox="process")
    assert report.status == "infeasible"
    outcome = optimus.repair(report.run_dir, accept=1, sandbox="process")
    assert outcome["outcome"] == "feasible" and Path(outcome["variant"]).is_dir()
