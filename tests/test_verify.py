"""The independent re-solve: reference solvers agree with it; faulty copies of them are caught, with the numbers."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from optimus.core.families.pulp.verify import verify_attempt
from optimus.core.sandbox import Limits, get_backend
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
    from optimus.core.problem import load_problem

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
    values = verdict.values_check  # every variable's value by its model name, checked against every row
    assert values["columns_given"] == values["columns"] > 0 and values["unknown_count"] == 0
    assert values["rows_checked"] == values["rows"] and values["violations"] == 0
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


def test_suboptimal_answer_reported_as_optimal_is_caught(tmp_path, sandbox):
    """A MILP answer worse than the captured model's optimum, written as optimal: what a solver stopped early
    says when the program reads its status wrongly. Made worse deterministically (not by a solver's timing): the
    program solves with one more row than model.mps holds, full-time nurses on day 7."""
    code = reference("18").replace('prob.writeMPS("model.mps")',
                                   'prob.writeMPS("model.mps")\n    prob += ft[6] >= 5, "not_captured"')
    assert "not_captured" in code, "the fault was not injected"
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


def test_values_that_break_a_captured_row_are_caught(tmp_path, sandbox):
    # bakery (nlp4lp/1): report 10 % more sourdough than solved, which overruns the binding <= rows
    code = reference("1").replace("{v.name: v.varValue for", "{v.name: v.varValue * (1.1 if v.name == 'sourdough' else 1) for")
    assert code != reference("1"), "the fault was not injected"
    work = run_program(code, NLP4LP / "1" / "data.json", tmp_path / "a", sandbox)
    verdict = verify_attempt(work, statements("1"), sandbox, LIMITS)
    assert verdict.disagrees
    broken = [f for f in verdict.findings if "break constraint" in f]
    assert broken and re.search(r"constraint s\d+_", broken[0]), verdict.findings
    assert all("must be <=" in f for f in broken), broken  # the bakery's rows are all <= rows


SENSE_PROGRAM = """\
import json, pulp
prob = pulp.LpProblem("tiny", pulp.Lp{sense})
x = prob.add_variable("x", lowBound=0, upBound=4)
y = prob.add_variable("y", lowBound=1, upBound=3)
prob += 3 * x - 2 * y
prob += (x + y <= 5, "s1_total")
prob.writeMPS("model.mps"{write})
prob.solve(pulp.HiGHS(msg=False))
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


def test_no_model_mps_is_unverified(tmp_path, sandbox):
    work = tmp_path / "a"
    work.mkdir()
    (work / "solver.py").write_text("import cvxpy as cp\n")
    (work / "solution.json").write_text('{"status": "optimal", "objective": 1}')
    verdict = verify_attempt(work, [], sandbox, LIMITS)
    assert verdict.outcome == "skipped" and "unverified" in verdict.summary and "model.mps" in verdict.summary


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
    from optimus.core.llm import LLMClient
    from optimus.core.llm.reference import ReferenceBackend
    from optimus.core.loop import Options, solve
    from optimus.core.problem import load_problem
    from optimus.core.runstore import RunStore

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


STOCK_PROGRAM = """\
import json, pulp
d = json.load(open("data.json"))
items, months = range(len(d["demand"])), range(len(d["capacity"]))
prob = pulp.LpProblem("stock", pulp.LpMinimize)
make = {(i, m): prob.add_variable(f"make_{i}_{m}", lowBound=0) for i in items for m in months}
stock = {(i, m): prob.add_variable(f"stock_{i}_{m}", lowBound=0) for i in items for m in months}
prob += pulp.lpSum(d["cost"][i] * make[i, m] + d["hold"] * stock[i, m] for i in items for m in months)
for i in items:
    for m in months:
        before = stock[i, m - 1] if m else 0
        prob += (stock[i, m] - before - make[i, m] == -d["demand"][i][m], f"s1_balance_{i}_{m}")
for m in months:
    prob += (pulp.lpSum(make[i, m] for i in items) <= d["capacity"][m], f"s2_capacity_{m}")
    prob += (pulp.lpSum(stock[i, m] for i in items) <= d["storage"], f"s3_storage_{m}")
prob.writeMPS("model.mps")
prob.solve(pulp.PULP_CBC_CMD(msg=False))
values = {v.name: v.varValue for v in prob.variables()}
TAMPER
# output lists indexed [month][item], while the variables are named x_{item}_{month}
out = {"make": [[make[i, m].varValue for i in items] for m in months],
       "stock": [[stock[i, m].varValue for i in items] for m in months]}
json.dump(out, open("output.json", "w"))
json.dump({"status": "optimal", "values": values, "objective": pulp.value(prob.objective)},
          open("solution.json", "w"))
"""
# Three items over three months; months 1 and 2 need stock carried in, so the stock matrix is not symmetric.
STOCK_DATA = {"demand": [[20, 35, 10], [15, 5, 30], [8, 12, 25]], "cost": [4, 6, 5], "hold": 1,
              "capacity": [70, 50, 45], "storage": 30}


def run_stock(tmp_path, sandbox, tamper: str = ""):
    data = tmp_path / "data.json"
    data.write_text(json.dumps(STOCK_DATA))
    work = run_program(STOCK_PROGRAM.replace("TAMPER", tamper), data, tmp_path / "a", sandbox)
    return work, verify_attempt(work, ["s1", "s2", "s3"], sandbox, LIMITS)


def test_output_indexed_month_item_with_variables_item_month_gets_no_violation(tmp_path, sandbox):
    work, verdict = run_stock(tmp_path, sandbox)
    out = json.loads((work / "output.json").read_text())
    # the layout really is transposed against the names: stock of item 0 in month 1 sits at [1][0]
    values = json.loads((work / "solution.json").read_text())["values"]
    assert out["stock"][1][0] == values["stock_0_1"] and out["stock"][0][1] == values["stock_1_0"]
    assert out["stock"][1][0] != out["stock"][0][1]
    assert verdict.outcome == "agrees", verdict.summary
    assert verdict.findings == []
    check = verdict.values_check
    assert check["columns_given"] == check["columns"] == 18 and check["rows_checked"] == check["rows"] == 15
    assert check["violations"] == 0


def test_values_that_break_rows_are_reported_with_each_rows_real_sense(tmp_path, sandbox):
    _, verdict = run_stock(tmp_path, sandbox, tamper='values["stock_0_1"] += 100')
    assert verdict.disagrees
    broken = {f.split("constraint ")[1].split(":")[0]: f for f in verdict.findings if "break constraint" in f}
    # stock_0_1 sits in exactly three rows: item 0's balances of months 1 and 2 (=), and month 1's storage (<=)
    assert set(broken) == {"s1_balance_0_1", "s1_balance_0_2", "s3_storage_1"}, verdict.findings
    demand = STOCK_DATA["demand"][0]
    # the balance rows hold with equality at the solved values, so 100 more stock moves each by exactly ±100
    assert f"must be = {-demand[1]}" in broken["s1_balance_0_1"]
    assert numbers(broken["s1_balance_0_1"])[-2] == pytest.approx(-demand[1] + 100)
    assert f"must be = {-demand[2]}" in broken["s1_balance_0_2"]
    assert numbers(broken["s1_balance_0_2"])[-2] == pytest.approx(-demand[2] - 100)
    assert f"must be <= {STOCK_DATA['storage']}" in broken["s3_storage_1"]
    # and the objective at those values is off by the holding cost of 100 units
    assert any("evaluated at its values" in f for f in verdict.findings)


@pytest.mark.parametrize("tamper, words", [
    ('values["make_0_0"] = float("nan")', "not a finite number"),
    ('values = [values]', 'must be an object'),
    ('values["made_up"] = 3', "does not have: made_up"),
])
def test_bad_values_are_findings(tamper, words, tmp_path, sandbox):
    _, verdict = run_stock(tmp_path, sandbox, tamper=tamper)
    assert verdict.disagrees and any(words in f for f in verdict.findings), verdict.findings


def test_program_without_values_is_checked_by_status_and_objective_only(tmp_path, sandbox):
    _, verdict = run_stock(tmp_path, sandbox, tamper="values = None")
    assert verdict.outcome == "agrees" and verdict.values_check is None
    assert 'no "values"' in verdict.summary


@pytest.mark.parametrize("lower, upper, words", [
    (20.0, 20.0, "must be = 20"), (None, 20.0, "must be <= 20"), (20.0, None, "must be >= 20"),
    (5.0, 20.0, "must be between 5 and 20"),
])
def test_row_messages_state_the_rows_sense(lower, upper, words):
    from optimus.core.families.pulp.resolve.check import row_sense
    from optimus.core.families.pulp.verify import judge

    inf = float("inf")
    sense = row_sense(-inf if lower is None else lower, inf if upper is None else upper)
    problem = {"kind": "row", "name": "s1_r", "sense": sense, "activity": 50.0 if upper else 0.0,
               "lower": lower, "upper": upper}
    raw = {"model": {"integers": 0, "sense": "min"},
           "highs": {"solver": "HiGHS", "status": "optimal", "objective": 1.0, "bound": 1.0},
           "values_check": {"problems": [problem], "violations": 1, "objective_at_values": 1.0}}
    verdict = judge({"status": "optimal", "objective": 1.0}, raw)
    assert verdict.findings and words in verdict.findings[0], verdict.findings
