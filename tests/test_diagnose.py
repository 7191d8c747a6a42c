"""Infeasible and unbounded captured models explained in the SNOP's own statements; `optimus diagnose` on runs."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import highspy
import numpy as np
import pytest

from optimus.commands.cli import main
from optimus.core.families.pulp.verify import verify_attempt
from optimus.core.problem import load_problem
from optimus.core.sandbox import Limits
from optimus.core.terminal import plain
from tests.helpers import NLP4LP, copy_problem
from tests.test_verify import run_program

LIMITS = Limits(wall_s=120, cpu_s=120, memory_mb=4096)
INFEASIBLE = sorted(p.name for p in NLP4LP.glob("*-infeasible") if (p / "reference" / "solver.py").is_file())
UNBOUNDED = sorted(p.name for p in NLP4LP.glob("*-unbounded") if (p / "reference" / "solver.py").is_file())
FEAS_TOL = 1e-6


def test_the_status_variants_are_there():
    # The parametrized tests below would silently run for none if a glob found nothing.
    assert len(INFEASIBLE) >= 3 and len(UNBOUNDED) >= 2, (INFEASIBLE, UNBOUNDED)



def why_section(name: str, heading: str) -> str:
    text = (NLP4LP / name / "reference" / "formulation.md").read_text()
    return text.split(heading, 1)[1]


def rows_named_in(section: str) -> set[str]:
    """Statement ids of the constraint rows the formulation's explanation names in backticks."""
    return {f"s{m}" for m in re.findall(r"`s(\d+)_[A-Za-z0-9_*{}]+`", section)}


def captured(name: str, tmp_path: Path, sandbox):
    problem = load_problem(NLP4LP / name)
    work = run_program((NLP4LP / name / "reference" / "solver.py").read_text(), problem.data_path, tmp_path / "a",
                       sandbox)
    return problem, work, verify_attempt(work, problem.snop.problem_info, sandbox, LIMITS)


def resolve_with_changes(mps: Path, changes: list[dict]) -> str:
    """Apply right-hand-side changes to the captured model and re-solve it with HiGHS (outside optimus)."""
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.readModel(str(mps))
    lp = h.getLp()
    rows = {name: i for i, name in enumerate(lp.row_names_)}
    for c in changes:
        i = rows[c["row"]]
        lo, hi = lp.row_lower_[i], lp.row_upper_[i]
        if c["side"] == "upper":
            hi = c["to"] + FEAS_TOL
        else:
            lo = c["to"] - FEAS_TOL
        h.changeRowBounds(i, lo, hi)
    h.run()
    return h.getModelStatus().name


@pytest.mark.parametrize("name", INFEASIBLE)
def test_infeasible_variant_names_the_clashing_statements(name, tmp_path, sandbox):
    problem, _, verdict = captured(name, tmp_path, sandbox)
    expected = rows_named_in(why_section(name, "## Why infeasible"))
    assert expected, "the formulation names no rows; the test cannot check anything"
    d = verdict.diagnosis
    assert d["kind"] == "infeasible"
    assert set(d["statements"]) == expected
    for sid in expected:  # the user's own words are quoted, as they read them: without \param{…} markup
        text = " ".join(plain(problem.snop.problem_info[int(sid[1:]) - 1]).split())
        assert f'({sid}) "{text[:100]}' in d["message"]
    assert d["message"] in verdict.evidence()


@pytest.mark.parametrize("name", INFEASIBLE)
def test_proposed_relaxation_makes_the_model_feasible(name, tmp_path, sandbox):
    _, work, verdict = captured(name, tmp_path, sandbox)
    assert resolve_with_changes(work / "model.mps", []) == "kInfeasible"
    relax = verdict.diagnosis["relaxation"]
    assert relax["changes"], "no relaxation proposed"
    assert resolve_with_changes(work / "model.mps", relax["changes"]) == "kOptimal"
    for alone in relax["alternatives"]:
        assert resolve_with_changes(work / "model.mps", [alone]) == "kOptimal", alone
    first = relax["changes"][0]
    assert f"from {first['from']:.6g} to {first['to']:.6g}" in verdict.diagnosis["message"]


@pytest.mark.parametrize("name", UNBOUNDED)
def test_unbounded_variant_names_a_real_ray_and_the_missing_bound(name, tmp_path, sandbox):
    _, work, verdict = captured(name, tmp_path, sandbox)
    d = verdict.diagnosis
    assert d["kind"] == "unbounded"
    # the statements whose rows the data made disappear (the formulation says so in those words)
    gone = [part for part in re.split(r"\.\s", why_section(name, "## Why unbounded")) if "disappear" in part]
    expected = rows_named_in(" ".join(gone))
    assert expected and expected <= set(d["statements"]), (expected, d["statements"])
    # The named direction really is a ray of the captured model: rows stay satisfied, the objective improves.
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.readModel(str(work / "model.mps"))
    lp = h.getLp()
    cols = {n: j for j, n in enumerate(lp.col_names_)}
    step = np.zeros(lp.num_col_)
    direction = _direction(work)
    assert list(direction) == d["variables"]  # the whole direction, not a truncated one
    for var, value in direction.items():
        step[cols[var]] = value
    a = lp.a_matrix_
    change = np.zeros(lp.num_row_)
    for j in range(lp.num_col_):
        for k in range(a.start_[j], a.start_[j + 1]):
            change[a.index_[k]] += a.value_[k] * step[j]
    for i in range(lp.num_row_):
        if math.isfinite(lp.row_upper_[i]):
            assert change[i] <= FEAS_TOL, lp.row_names_[i]
        if math.isfinite(lp.row_lower_[i]):
            assert change[i] >= -FEAS_TOL, lp.row_names_[i]
    gain = float(np.dot(lp.col_cost_, step))
    assert gain > 0 if (work / "model.mps").read_text().startswith("*SENSE:Maximize") else gain < 0


def _direction(work: Path) -> dict[str, float]:
    raw = json.loads((work / "verify" / "result.json").read_text())
    return raw["unboundedness"]["direction"]


MILP_ONLY = """\
import json, pulp
prob = pulp.LpProblem("pairs", pulp.LpMinimize)
x = prob.add_variable("x", lowBound=0, cat="Integer")
y = prob.add_variable("y", lowBound=0, cat="Integer")
prob += x + 2 * y
prob += (x + y >= 1.5, "s2_at_least")
prob += (x + y <= 1.8, "s3_at_most")
prob += (x <= 5, "s4_x_cap")
prob.writeMPS("model.mps")
prob.solve(pulp.HiGHS(msg=False))
json.dump({}, open("output.json", "w"))
json.dump({"status": "infeasible", "objective": None}, open("solution.json", "w"))
"""
MILP_STATEMENTS = ["Choose whole numbers x and y.", "Together at least 1.5 units.", "Together at most 1.8 units.",
                   "x is at most 5."]


def test_milp_infeasible_only_in_integers_uses_the_deletion_filter(tmp_path, sandbox):
    data = tmp_path / "data.json"
    data.write_text("{}")
    work = run_program(MILP_ONLY, data, tmp_path / "a", sandbox)
    verdict = verify_attempt(work, MILP_STATEMENTS, sandbox, LIMITS)
    d = verdict.diagnosis
    assert d["method"] == "deletion_filter" and d["statements"] == ["s2", "s3"]
    assert '(s2) "Together at least 1.5 units."' in d["message"] and "(s4)" not in d["message"]
    assert resolve_with_changes(work / "model.mps", d["relaxation"]["changes"]) == "kOptimal"


def solved_run(name: str, tmp_path: Path) -> Path:
    folder = tmp_path / name
    copy_problem(name, folder)
    main(["solve", str(folder), "--llm", "reference", "--sandbox", "process", "--mode", "prompt"])
    return (folder / "runs" / "latest").resolve()


def test_cli_diagnose_writes_the_verdict_into_report_json(tmp_path, capsys):
    name = INFEASIBLE[0]
    run_dir = solved_run(name, tmp_path)
    capsys.readouterr()
    assert main(["diagnose", str(run_dir), "--sandbox", "process", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    report = json.loads((run_dir / "report.json").read_text())
    assert report["diagnosis"]["outcome"] == printed["outcome"] == "agrees"
    assert set(report["diagnosis"]["diagnosis"]["statements"]) == rows_named_in(why_section(name, "## Why infeasible"))
    assert main(["diagnose", str(run_dir), "--sandbox", "process"]) == 0
    assert "cannot all hold" in capsys.readouterr().out


@pytest.mark.parametrize("make", ["missing", "not-a-run"])
def test_cli_diagnose_bad_input_exits_2_with_one_line(make, tmp_path, capsys):
    target = tmp_path / "nothing-here"
    if make == "not-a-run":
        target.mkdir()
    assert main(["diagnose", str(target), "--sandbox", "process"]) == 2
    err = [line for line in capsys.readouterr().err.splitlines() if not line.startswith("optimus: warning")]
    assert len(err) == 1 and str(target) in err[0] and "Traceback" not in err[0]


def test_cli_diagnose_names_limits_by_data_key_as_repair_does(tmp_path, capsys):
    """`optimus diagnose` speaks repair's vocabulary: a bound that is no data value as it stands (s5's weighted
    average, bounded by 0) is named by the data key whose move makes the program feasible."""
    run_dir = solved_run("15-infeasible", tmp_path)
    capsys.readouterr()
    assert main(["diagnose", str(run_dir), "--sandbox", "process"]) == 0
    out = capsys.readouterr().out
    assert "set sulfur_max: 1.1 → " in out and "right-hand side of s5_sulfur_average" not in out
    found = float(re.search(r"set sulfur_max: 1\.1 → ([0-9.]+)", out).group(1))
    # The second way: the blend at its least sulfur that still makes min_batch with light crude at most
    # light_supply, from data.json (weighted average of the two crudes).
    data = json.loads((run_dir.parent.parent / "data.json").read_text())
    light, heavy = data["light_supply"], data["min_batch"] - data["light_supply"]
    least = (light * data["sulfur_light"] + heavy * data["sulfur_heavy"]) / data["min_batch"]
    assert found == pytest.approx(least, rel=1e-3)
