"""HiGHS by default, and answers at a time limit (issue 30).

- A MILP where CBC runs out of its time limit and HiGHS proves optimality: the reference-style program, which
  solves with HiGHS unless OPTIMUS_SOLVER=CBC, answers "optimal"; the same program with CBC says "time_limit".
- A MILP given a time limit too short to prove optimality: the program the codegen rules teach (pyoptinterface)
  reports the incumbent, the best bound and the gap, and its values give that objective.
- No reference program solves with CBC unless asked; the worked example of the codegen rules runs and the
  harness's re-check agrees with it.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "optimus" / "core" / "prompts" / "solver_pulp.txt"

# Pigeons into holes, a pigeon left out costs 1, two pigeons in one hole forbidden pair by pair: the LP relaxation
# spreads every pigeon over the holes (bound 0), so proving that one pigeon must stay out takes a search that
# HiGHS's clique and symmetry handling shortens to a fraction of a second and CBC's does not (measured: 20
# pigeons, CBC stopped at its 20 s limit holding 2; HiGHS optimal in 0.26 s).
PIGEONS = """
import json, os
import pulp

OPTIONS = {"timeLimit": float(os.environ["OPTIMUS_TIME_LIMIT"])} if os.environ.get("OPTIMUS_TIME_LIMIT") else {}
SOLVERS = {"HIGHS": lambda: pulp.HiGHS(msg=False, **OPTIONS), "CBC": lambda: pulp.PULP_CBC_CMD(msg=False, **OPTIONS)}
d = json.load(open("data.json"))
P, H = range(d["pigeons"]), range(d["holes"])
prob = pulp.LpProblem("pigeons", pulp.LpMinimize)
x = {(p, h): prob.add_variable(f"x_{p}_{h}", 0, 1, "Binary") for p in P for h in H}
out = {p: prob.add_variable(f"out_{p}", 0, 1, "Binary") for p in P}
prob += pulp.lpSum(out.values())
for p in P:
    prob += pulp.lpSum(x[p, h] for h in H) + out[p] == 1, f"s1_place_{p}"
for h in H:
    for p in P:
        for q in P:
            if p < q:
                prob += x[p, h] + x[q, h] <= 1, f"s2_apart_{h}_{p}_{q}"
prob.solve(SOLVERS[os.environ.get("OPTIMUS_SOLVER", "HIGHS").upper()]())
if prob.sol_status == pulp.LpSolutionOptimal:
    status = "optimal"
elif prob.sol_status == pulp.LpSolutionIntegerFeasible or prob.status == pulp.LpStatusNotSolved:
    status = "time_limit"  # stopped by the limit, with or without a solution
else:
    status = {pulp.LpStatusInfeasible: "infeasible", pulp.LpStatusUnbounded: "unbounded"}.get(prob.status, "error")
found = prob.sol_status in (pulp.LpSolutionOptimal, pulp.LpSolutionIntegerFeasible)
json.dump({"status": status, "objective": pulp.value(prob.objective) if found else None}, open("solution.json", "w"))
"""


def run(code: str, folder: Path, data: dict, **env: str) -> dict:
    (folder / "solver.py").write_text(code)
    (folder / "data.json").write_text(json.dumps(data))
    base = {k: v for k, v in os.environ.items() if not k.startswith("OPTIMUS_")}
    done = subprocess.run([sys.executable, "solver.py"], cwd=folder, env={**base, **env}, capture_output=True,
                          check=False, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads((folder / "solution.json").read_text())


def test_cbc_runs_out_of_time_where_highs_proves_optimality(tmp_path):
    data = {"pigeons": 25, "holes": 24}
    left_out = data["pigeons"] - data["holes"]  # one pigeon per hole at most
    highs = run(PIGEONS, tmp_path, data, OPTIMUS_TIME_LIMIT="60")  # the program's default solver
    assert highs["status"] == "optimal" and highs["objective"] == pytest.approx(left_out)
    cbc = run(PIGEONS, tmp_path, data, OPTIMUS_TIME_LIMIT="3", OPTIMUS_SOLVER="CBC")
    assert cbc["status"] == "time_limit", cbc
    assert cbc["objective"] is None or cbc["objective"] >= left_out  # no solution yet, or one not proven


def market_split(rows: int, cols: int, seed: int) -> dict:
    """Even weights and odd targets: no subset hits a target exactly, which no LP bound sees (bound 0), so
    branch and bound cannot close the gap in seconds while any subset is an incumbent."""
    import random

    rng = random.Random(seed)
    a = [[2 * rng.randint(0, 49) for _ in range(cols)] for _ in range(rows)]
    return {"weights": a, "targets": [2 * (sum(r) // 4) + 1 for r in a]}


def rules_program() -> str:
    """A program written as solver_pulp.txt teaches, with its own status, bound and gap lines: the reference program
    of tests/fixtures/time_limit (the market split above)."""
    return (ROOT / "tests" / "fixtures" / "time_limit" / "reference" / "solver.py").read_text()


def test_a_time_limit_too_short_to_prove_optimality_reports_incumbent_bound_and_gap(tmp_path):
    data = market_split(4, 40, seed=3)
    got = run(rules_program(), tmp_path, data, OPTIMUS_TIME_LIMIT="2", OPTIMUS_THREADS="1")
    assert got["status"] == "time_limit", got
    values, weights, targets = got["values"], data["weights"], data["targets"]
    # The incumbent, recomputed from its own values: every row misses its odd target by at least 1.
    picked = [round(values[f"x_{j}"]) for j in range(len(weights[0]))]
    misses = [abs(sum(w * p for w, p in zip(row, picked)) - t) for row, t in zip(weights, targets)]
    assert got["objective"] == pytest.approx(sum(misses), abs=1e-6)
    assert got["objective"] >= len(targets)
    assert got["bound"] < len(targets) <= got["objective"]  # the bound has not seen the parity
    assert got["gap"] == pytest.approx((got["objective"] - got["bound"]) / got["objective"], rel=1e-6)
    assert 0 < got["gap"] <= 1


def test_no_reference_program_solves_with_cbc_unless_asked():
    offenders = []
    for path in [*ROOT.glob("nlp4lp/*/reference/*.py"), *ROOT.glob("llmfp/*/reference/*.py"),
                 *ROOT.glob("travel/*/reference/*.py"), *ROOT.glob("industrial/*/reference/*.py"),
                 *ROOT.glob("tests/fixtures/**/reference/*.py")]:
        text = path.read_text()
        if "PULP_CBC_CMD" in text and "OPTIMUS_SOLVER" not in text or '"OPTIMUS_SOLVER", "CBC"' in text:
            offenders.append(str(path.relative_to(ROOT)))
    assert not offenders, offenders


def worked_example(rules: str, rule_start: str) -> str:
    """The program indented under the rule that starts with `rule_start`: its lines up to the next rule."""
    after = rules[rules.index(rule_start):].split("\n", 1)[1]
    lines = []
    for line in after.splitlines():
        if line.startswith("- "):
            break
        lines.append(line)
    return textwrap.dedent("\n".join(lines))


def test_the_rules_worked_example_runs_and_the_recheck_agrees(tmp_path, sandbox):
    from optimus.core.families.pulp.verify import verify_attempt
    from optimus.core.sandbox import Limits

    text = RULES.read_text()
    assert "PULP_CBC_CMD" not in text and "CBC" in text  # named only to say never
    example = worked_example(text, "- Example for small data")
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "sites.csv").write_text("site,fixed_cost,capacity\nnorth,1000,80\nsouth,1200,100\n"
                                                 "east st,900,60\n")
    (tmp_path / "data" / "customers.csv").write_text("customer,demand\nc1,30\nc2,40\nc3,25\nc4,35\n")
    costs = {"north": [2, 4, 5, 6], "south": [5, 2, 3, 4], "east st": [4, 5, 2, 3]}
    (tmp_path / "data" / "costs.csv").write_text("site,customer,unit_cost\n" + "".join(
        f"{s},c{k + 1},{u}\n" for s, row in costs.items() for k, u in enumerate(row)))
    got = run(example, tmp_path, {"max_open_sites": 2})
    # Two of three sites, by hand: {north, east st} ships at 2+4+2+3 per pallet = 1900 + 375 = 2275 is the least.
    assert got["status"] == "optimal" and got["objective"] == pytest.approx(2275)
    assert "open_east_st" in got["values"]
    assert re.search(r"^ [LEG] +s2_capacity_east_st$", (tmp_path / "model.mps").read_text(), re.MULTILINE)
    verdict = verify_attempt(tmp_path, ["demand", "capacity", "open sites"], sandbox,
                             Limits(wall_s=120, cpu_s=120, memory_mb=4096), sense="min")
    assert verdict.outcome == "agrees", verdict.summary


def test_a_solve_stopped_by_its_time_limit_is_an_answer_with_a_gap(tmp_path, capfd):
    """The program of tests/fixtures/time_limit (the market split above, as the rules teach it) under
    `optimus solve --time-limit 2` in supervised mode: report.json carries the incumbent, bound and gap, the
    re-check's substitution verifies the incumbent, the run ends there (no fix can prove more within the same
    limit) with exit 0, and the terminal says how far from optimal it may be."""
    import shutil

    from optimus.commands.cli import main

    folder = tmp_path / "split"
    shutil.copytree(ROOT / "tests" / "fixtures" / "time_limit", folder)
    code = main(["solve", str(folder), "--llm", "reference", "--mode", "supervised", "--sandbox", "process",
                 "--time-limit", "2", "--threads", "1"])
    shown = "".join(capfd.readouterr())
    report = json.loads((folder / "runs" / "latest" / "report.json").read_text())
    assert report["solver_status"] == "time_limit", report["message"]
    assert report["objective"] >= 4 > report["bound"]  # four odd targets missed by at least 1 each; LP bound below
    assert report["gap"] == pytest.approx((report["objective"] - report["bound"]) / report["objective"], rel=1e-6)
    assert report["verified"] and report["status"] == "time_limit" and code == 0, report["message"]
    assert report["attempts"].get("fix", 0) == 0  # an answer, not an error to repair
    percent = f"{100 * report['gap']:.3g}"
    assert f"objective {report['objective']:.8g} — feasible within {percent} % of optimal (time limit)" in shown


def test_the_bench_judges_a_time_limit_answer_by_its_gap(tmp_path):
    from optimus.bench.judge import WITHIN_GAP, WRONG, judge, rightness
    from optimus.core.problem import load_problem
    from optimus.core.sandbox import Limits

    problem = load_problem(ROOT / "tests" / "fixtures" / "time_limit")
    attempt = tmp_path / "attempt"
    attempt.mkdir()
    (attempt / "output.json").write_text(json.dumps({"pick": [0] * 40, "total_miss": 12.0}))
    (attempt / "solution.json").write_text(json.dumps(
        {"status": "time_limit", "objective": 12.0, "bound": 6.0, "gap": 0.5, "values": {}}))
    limits = Limits(wall_s=60, cpu_s=60, memory_mb=2048)

    def verdict(optimum: float):
        expected = {"status": "optimal", "objective": optimum}
        v = judge(problem, expected, attempt, None, limits, tmp_path / "eval")
        return v, rightness(v, expected, None)[0]

    inside, word = verdict(8.0)  # the optimum lies between bound 6 and incumbent 12: the gap was honest
    assert inside.within_gap and not inside.success and word == WITHIN_GAP
    assert inside.reason == "feasible within 50 % of optimal (time limit)"
    outside, word = verdict(4.0)  # below the bound it claimed: not an answer
    assert outside.within_gap is False and word == WRONG and "outside" in outside.reason


def test_bench_takes_the_solver_options_as_solve_does(tmp_path, capsys):
    from optimus.commands.cli import build_parser, main

    args = build_parser().parse_args(["bench", str(tmp_path), "--time-limit", "5", "--mip-gap", "0.01",
                                      "--threads", "2"])
    from optimus.core.solver_options import SolverOptions

    assert SolverOptions.from_args(args) == SolverOptions(time_limit=5, mip_gap=0.01, threads=2)
    assert main(["bench", str(tmp_path), "--time-limit", "-1", "--out", str(tmp_path / "out")]) == 2
    assert "--time-limit -1" in capsys.readouterr().err


def test_summary_counts_answers_within_their_gap():
    from optimus.bench.summary import rightness_section

    rows = [{"problem": p, "mode": "full", "success": ok, "verdict": word}
            for p, ok, word in (("a", True, "right"), ("b", False, "feasible within gap"),
                                ("c", False, "feasible within gap"), ("d", False, "wrong"))]
    lines = rightness_section(rows)
    header = next(line for line in lines if line.startswith("| mode"))
    row = next(line for line in lines if line.startswith("| full"))
    cells = dict(zip([c.strip() for c in header.strip("|").split("|")], [c.strip() for c in row.strip("|").split("|")]))
    assert cells["right"] == "1" and cells["feasible within gap"] == "2" and cells["wrong"] == "1"


def test_bench_layers_runs_and_the_chosen_layer_keeps_our_names():
    """bench/bench_layers.py at a small size (it is a command; this keeps it from rotting): every layer it can
    load writes model.mps, and the chosen one, pyoptinterface, keeps the rows' and columns' names."""
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "bench_layers.py"), "--vars", "2e3", "--solve", "lp",
                           "--layers", "pyoptinterface,pulp"], capture_output=True, check=False, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    lines = {line.split()[0]: line for line in done.stdout.splitlines() if line.split()[:1] in
             (["highspy"], ["pyoptinterface"], ["pulp"])}
    assert set(lines) == {"highspy", "pyoptinterface", "pulp"}, done.stdout
    for layer, line in lines.items():
        assert "demand_c0, open_s0" in line, (layer, line)  # the first row and column, by our names
        assert "Optimal" in line or "OPTIMAL" in line, (layer, line)


def test_the_rules_large_data_example_runs_and_the_recheck_agrees(tmp_path, sandbox):
    """The array-built example of the large-data rule on three routes' worth of data, solved by hand: store A (30)
    from plant 2 costs 4*30 + 20 = 140 (from plant 1: 160), store B (40) from plant 1 costs 5*40 + 50 = 250 (from
    plant 2: 240, but plant 2 cannot carry 70 > 60, and a split opens both routes: 470 at best); 390 in all."""
    import duckdb

    from optimus.core.families.pulp.verify import verify_attempt
    from optimus.core.sandbox import Limits

    example = worked_example(RULES.read_text(), "- Large data")
    assert "pyoptinterface" not in example and "h.writeModel(\"model.mps\")" in example
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "plants.csv").write_text("plant,capacity\nP1,50\nplant 2,60\n")
    (tmp_path / "data" / "stores.csv").write_text("store,demand\nA,30\nB,40\n")
    duckdb.sql("select * from (values ('P1', 'A', 2, 100), ('P1', 'B', 5, 50), ('plant 2', 'A', 4, 20), "
               "('plant 2', 'B', 1, 200)) t(plant, store, unit_cost, fixed_cost)").write_parquet(
        str(tmp_path / "data" / "routes.parquet"))
    got = run(example, tmp_path, {})
    assert got["status"] == "optimal" and got["objective"] == pytest.approx(390)
    assert got["values"]["use_plant_2_A"] == pytest.approx(1) and got["values"]["use_P1_B"] == pytest.approx(1)
    assert len(got["values"]) == 8  # every column by name
    output = json.loads((tmp_path / "output.json").read_text())
    assert sorted(map(tuple, (r.values() for r in output["routes_used"]))) == [("P1", "B"), ("plant 2", "A")]
    assert re.search(r"^ [LEG] +s3_route_plant_2_B$", (tmp_path / "model.mps").read_text(), re.MULTILINE)
    verdict = verify_attempt(tmp_path, ["demand", "capacity", "route used"], sandbox,
                             Limits(wall_s=120, cpu_s=120, memory_mb=4096), sense="min")
    assert verdict.outcome == "agrees", verdict.summary
