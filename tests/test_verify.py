"""The independent re-solve: reference solvers agree with it; faulty copies of them are caught, with the numbers."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from optimus.sandbox import Limits, get_backend
from optimus.verify import verify_attempt
from tests.helpers import NLP4LP, copy_problem

LIMITS = Limits(wall_s=120, cpu_s=120, memory_mb=4096)



def run_program(code: str, data: Path, workdir: Path, sandbox) -> Path:
    """Run a solver program the way the agent does: sandboxed, data.json read-only beside it."""
    workdir.mkdir(parents=True, exist_ok=True)
    (workdir / "solver.py").write_text(code)
    result = sandbox.run(["python", "solver.py"], workdir=workdir, readonly={"data.json": data}, limits=LIMITS)
    assert result.exit_code == 0, result.stderr[-2000:]
    return workdir


def reference(name: str) -> str:
    return (NLP4LP / name / "reference" / "solver.py").read_text()


def statements(name: str) -> list[str]:
    from optimus.problem import load_problem

    return load_problem(NLP4LP / name).snop.problem_info


def numbers(text: str) -> list[float]:
    return [float(x) for x in re.findall(r"-?\d+(?:\.\d+)?(?:e[-+]?\d+)?", text)]


@pytest.mark.parametrize("name", ["1", "2", "18", "29"])
def test_reference_solvers_agree_with_the_resolve(name, tmp_path, sandbox):
    work = run_program(reference(name), NLP4LP / name / "data.json", tmp_path / "a", sandbox)
    verdict = verify_attempt(work, statements(name), sandbox, LIMITS)
    claimed = json.loads((work / "solution.json").read_text())
    assert verdict.outcome == "agrees", verdict.summary
    assert verdict.findings == []
    highs = verdict.resolves[0]
    assert highs["objective"] == pytest.approx(claimed["objective"], rel=1e-6)
    assert verdict.output_check["columns_mapped"] > 0 and verdict.output_check["violations"] == 0
    assert json.loads((work / "verification.json").read_text())["outcome"] == "agrees"


def test_wrong_objective_in_solution_json_is_caught(tmp_path, sandbox):
    code = reference("1").replace('"objective": objective}', '"objective": objective * 1.1}')
    assert code != reference("1"), "the fault was not injected"
    work = run_program(code, NLP4LP / "1" / "data.json", tmp_path / "a", sandbox)
    claimed = json.loads((work / "solution.json").read_text())["objective"]
    verdict = verify_attempt(work, statements("1"), sandbox, LIMITS)
    assert verdict.disagrees
    true = verdict.resolves[0]["objective"]
    assert claimed != pytest.approx(true, rel=1e-3)
    first = verdict.findings[0]
    assert "optimal" in first and "HiGHS" in first
    got = numbers(first)
    assert any(x == pytest.approx(claimed, rel=1e-8) for x in got), first
    assert any(x == pytest.approx(true, rel=1e-8) for x in got), first
    assert first in verdict.evidence()


def test_time_limit_reported_as_optimal_is_caught(tmp_path, sandbox):
    """A MILP stopped at its first incumbent (tiny time limit, one solution) but written as optimal."""
    code = reference("18").replace(
        "pulp.PULP_CBC_CMD(msg=False)",
        'pulp.PULP_CBC_CMD(msg=False, timeLimit=0.01, options=["maxSolutions 1", "cuts off"])',
    ).replace("status = status_of(prob)", "status = 'optimal' if prob.sol_status > 0 else status_of(prob)")
    assert "maxSolutions" in code and "'optimal' if" in code, "the fault was not injected"
    work = run_program(code, NLP4LP / "18" / "data.json", tmp_path / "a", sandbox)
    claimed = json.loads((work / "solution.json").read_text())
    assert claimed["status"] == "optimal"
    verdict = verify_attempt(work, statements("18"), sandbox, LIMITS)
    solvers = {r["solver"]: r for r in verdict.resolves}
    assert set(solvers) == {"HiGHS", "CBC"}  # a MILP is re-solved by both
    best = solvers["HiGHS"]["objective"]
    assert claimed["objective"] > best * (1 + 1e-4), "the fault did not make the answer worse; pick harder limits"
    assert verdict.disagrees, verdict.summary
    text = " ".join(verdict.findings)
    assert any(x == pytest.approx(claimed["objective"]) for x in numbers(text))
    assert any(x == pytest.approx(best) for x in numbers(text))


def test_infeasible_claim_with_a_feasible_model_is_caught(tmp_path, sandbox):
    code = reference("2").replace("status = status_of(prob)", "status = 'infeasible'")
    assert code != reference("2"), "the fault was not injected"
    work = run_program(code, NLP4LP / "2" / "data.json", tmp_path / "a", sandbox)
    verdict = verify_attempt(work, statements("2"), sandbox, LIMITS)
    assert verdict.disagrees
    assert "says infeasible" in verdict.findings[0] and "objective" in verdict.findings[0]


def test_output_values_that_break_a_captured_row_are_caught(tmp_path, sandbox):
    # bakery (nlp4lp/1): write 10 % more of each bread than solved, which overruns the binding rows
    code = reference("1").replace('"sourdough": sourdough.value()', '"sourdough": sourdough.value() * 1.1')
    assert code != reference("1"), "the fault was not injected"
    work = run_program(code, NLP4LP / "1" / "data.json", tmp_path / "a", sandbox)
    verdict = verify_attempt(work, statements("1"), sandbox, LIMITS)
    assert verdict.disagrees
    broken = [f for f in verdict.findings if "break constraint" in f]
    assert broken and re.search(r"constraint s\d+_", broken[0]), verdict.findings


SENSE_PROGRAM = """\
import json, pulp
prob = pulp.LpProblem("tiny", pulp.Lp{sense})
x = pulp.LpVariable("x", lowBound=0, upBound=4)
y = pulp.LpVariable("y", lowBound=1, upBound=3)
prob += 3 * x - 2 * y
prob += (x + y <= 5, "s1_total")
prob.writeMPS("model.mps"{write})
prob.solve(pulp.PULP_CBC_CMD(msg=False))
json.dump({{"x": x.value(), "y": y.value()}}, open("output.json", "w"))
json.dump({{"status": "optimal", "objective": {objective}}}, open("solution.json", "w"))
"""


@pytest.mark.parametrize("write", ["", ", with_objsense=True"], ids=["sense-comment", "objsense-section"])
@pytest.mark.parametrize("sense", ["Maximize", "Minimize"])
def test_objective_sense_is_read_both_ways(sense, write, tmp_path, sandbox):
    code = SENSE_PROGRAM.format(sense=sense, write=write, objective="pulp.value(prob.objective)")
    data = tmp_path / "data.json"
    data.write_text("{}")
    work = run_program(code, data, tmp_path / "a", sandbox)
    verdict = verify_attempt(work, ["s1"], sandbox, LIMITS)
    assert verdict.outcome == "agrees", verdict.summary
    # max 3x - 2y: x=4, y=1 → 10; min: x=0, y=3 → -6; both re-solved from the file, not trusted
    assert verdict.resolves[0]["objective"] == pytest.approx(10 if sense == "Maximize" else -6)


def test_the_optimum_of_the_other_sense_is_caught(tmp_path, sandbox):
    code = SENSE_PROGRAM.format(sense="Maximize", write="", objective="-6")
    data = tmp_path / "data.json"
    data.write_text("{}")
    work = run_program(code, data, tmp_path / "a", sandbox)
    verdict = verify_attempt(work, ["s1"], sandbox, LIMITS)
    assert verdict.disagrees and "-6" in verdict.findings[0] and "10" in verdict.findings[0]


def test_cvxpy_programs_are_reported_as_skipped(tmp_path, sandbox):
    work = tmp_path / "a"
    work.mkdir()
    (work / "solver.py").write_text("import cvxpy as cp\n")
    (work / "solution.json").write_text('{"status": "optimal", "objective": 1}')
    verdict = verify_attempt(work, [], sandbox, LIMITS)
    assert verdict.outcome == "skipped" and "cvxpy" in verdict.summary


def test_a_planted_symlink_is_not_followed(tmp_path, sandbox):
    secret = tmp_path / "secret.txt"
    secret.write_text("NAME\nROWS\n N OBJ\nCOLUMNS\nRHS\nBOUNDS\nENDATA\n")
    work = tmp_path / "a"
    work.mkdir()
    (work / "model.mps").symlink_to(secret)
    (work / "solution.json").write_text('{"status": "optimal", "objective": 0}')
    verdict = verify_attempt(work, [], sandbox, LIMITS)
    assert verdict.outcome == "error" and "symlink" in verdict.summary
    assert not (work / "verify" / "model.mps").exists()


def test_agent_feeds_the_disagreement_to_fix(tmp_path):
    """End to end: the first program writes a wrong objective; the fix prompt carries the re-solve's numbers."""
    from optimus.agent import Options, solve
    from optimus.llm import LLMClient
    from optimus.llm.reference import ReferenceBackend
    from optimus.problem import load_problem
    from optimus.runstore import RunStore

    class WrongObjectiveFirst:
        """A fault plan (the backend's own hook): the first program lies about its objective."""

        def __init__(self):
            self.done = False

        def answer(self, stage, messages, text):
            if stage == "codegen" and not self.done:
                self.done = True
                return text.replace('"objective": objective}', '"objective": objective and objective + 50}')
            return text

    folder = tmp_path / "p"
    copy_problem("1", folder)
    problem = load_problem(folder)
    run = RunStore(folder)
    client = LLMClient(ReferenceBackend(problem, WrongObjectiveFirst()), log=None,
                       transcript=run.dir / "transcript.jsonl", use_cache=False)
    report = solve(problem, client, get_backend("process"), run, Options(mode="supervised", max_fix=2, limits=LIMITS))
    assert report.verified and report.attempts.get("fix") == 1
    first = json.loads((run.dir / "v0" / "attempt-01" / "verification.json").read_text())
    assert first["outcome"] == "disagrees"
    fix_prompts = [json.loads(line) for line in (run.dir / "transcript.jsonl").read_text().splitlines()]
    text = json.dumps([e for e in fix_prompts if e.get("stage") == "fix"])
    assert "re-solving the captured model gives" in text


@pytest.mark.parametrize("declared", [True, False])
def test_objective_constant_is_taken_from_solution_json(declared, tmp_path, sandbox):
    """writeMPS drops an objective constant; the program declares it in solution.json, or the check fails."""
    code = SENSE_PROGRAM.format(sense="Maximize", write="", objective="pulp.value(prob.objective)")
    code = code.replace("prob += 3 * x - 2 * y", "prob += 3 * x - 2 * y + 100")
    if declared:
        code = code.replace('"objective": pulp.value', '"objective_constant": 100, "objective": pulp.value')
    data = tmp_path / "data.json"
    data.write_text("{}")
    work = run_program(code, data, tmp_path / "a", sandbox)
    verdict = verify_attempt(work, ["s1"], sandbox, LIMITS)
    assert verdict.outcome == ("agrees" if declared else "disagrees"), verdict.summary
