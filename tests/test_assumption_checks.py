"""Which assumptions matter (issue 31): each assumption with an alternative is solved under it — a data value by
re-running the run's program (no model call), a reading by one reformulation — and the result line names the ones
that move the answer, with the answer under each. Findings are listed, never counted as assumptions."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

from optimus.commands.cli import main
from tests.test_new import lp_optimum

FIXTURE = Path(__file__).parent / "fixtures" / "new" / "lp"
ASSUMPTIONS = [
    {"about": "max_dark", "assumption": "the shop's 180 bags of Dark are a weekly limit", "value": 180,
     "alternative": 120, "source": "model"},
    {"about": "robusta_stock", "assumption": "the 95 kg of Robusta in stock is all there is", "value": 95,
     "alternative": 200, "source": "model"},
    {"about": "s1", "assumption": "bags may be fractional", "alternative": "bags are whole numbers",
     "source": "model"},
]
FINDING = {"kind": "not in the request", "key": "profit", "message": "data.json profit[0] = 4.2: a check's guess",
           "source": "harness check"}


def fence(code: str) -> str:
    return f"```python\n{code}```\n"


def folder(tmp_path: Path) -> Path:
    """A folder as optimus new writes it: the SNOP, the data, and new.json with assumptions and a finding."""
    answer = json.loads((FIXTURE / "reference" / "new.json").read_text())
    root = tmp_path / "blends"
    root.mkdir(parents=True)
    (root / "snop.json").write_text(json.dumps(answer["snop"]))
    (root / "data.json").write_text(json.dumps(answer["data"]))
    (root / "new.json").write_text(json.dumps({"assumptions": ASSUMPTIONS, "findings": [FINDING]}))
    return root


def whole_bags_optimum(d: dict) -> float:
    """By enumeration over whole bags (no solver): House x, Dark y."""
    best = 0.0
    for x, y in itertools.product(range(401), range(int(d["max_dark"]) + 1)):
        if (d["arabica_per_bag"][0] * x + d["arabica_per_bag"][1] * y <= d["arabica_stock"] + 1e-9
                and d["robusta_per_bag"][0] * x + d["robusta_per_bag"][1] * y <= d["robusta_stock"] + 1e-9):
            best = max(best, d["profit"][0] * x + d["profit"][1] * y)
    return best


def test_the_assumptions_that_change_the_answer_are_named_with_the_answer_under_each(tmp_path, scripted_llm,
                                                                                     capsys):
    root = folder(tmp_path)
    program = (FIXTURE / "reference" / "solver.py").read_text()
    whole = program.replace("lowBound=0)", "lowBound=0, cat='Integer')")
    assert whole != program
    formulation = (FIXTURE / "reference" / "formulation.md").read_text()
    scripted_llm.enqueue("formulate", formulation, formulation)
    scripted_llm.enqueue("codegen", fence(program), fence(whole))
    code = main(["solve", str(root), "--llm", "openai", "--base-url", scripted_llm.base_url, "--sandbox", "process",
                 "--mode", "debug", "--timeout", "60"])
    err = capsys.readouterr().err
    report = json.loads((root / "runs" / "latest" / "report.json").read_text())
    assert code == 0 and report["status"] == "solved"
    # Findings are listed, not counted.
    assert report["status_detail"] == "solved under 3 assumptions"
    assert [f["about"] for f in report["findings"]] == ["profit"] and "finding: profit:" in err

    data = json.loads((root / "data.json").read_text())
    base = lp_optimum(data)
    assert report["objective"] == pytest.approx(base, rel=1e-6)
    dark, robusta, whole_bags = report["assumption_checks"]
    assert dark["kind"] == robusta["kind"] == "data" and whole_bags["kind"] == "reading"
    assert dark["objective"] == pytest.approx(lp_optimum({**data, "max_dark": 120}), rel=1e-6)
    assert robusta["objective"] == pytest.approx(lp_optimum({**data, "robusta_stock": 200}), rel=1e-6)
    assert whole_bags["objective"] == pytest.approx(whole_bags_optimum(data), rel=1e-6)
    assert (dark["changes"], robusta["changes"]) == (False, True)
    assert whole_bags["changes"] == (abs(whole_bags_optimum(data) - base) > 1e-4 * abs(base))
    # The data values' alternatives cost no model call: two for the run, two for the one reformulation.
    assert dark["calls"] == robusta["calls"] == 0 and whole_bags["calls"] == 2
    assert len(scripted_llm.requests) == 4
    formulate_again = scripted_llm.requests_for("formulate")[1].messages[-1]["content"]
    assert "Read this as: bags are whole numbers" in formulate_again
    # The result line: the one that changes the answer with both answers, the one that does not apart.
    assert (f"solved: {base:.8g} with robusta_stock = 95 (as assumed); "
            f"{lp_optimum({**data, 'robusta_stock': 200}):.8g} with robusta_stock = 200") in err
    assert "did not change the answer: (1) max_dark" in err


def test_the_budget_bounds_the_readings_and_says_what_was_not_checked(tmp_path, scripted_llm):
    root = folder(tmp_path)
    scripted_llm.enqueue("formulate", (FIXTURE / "reference" / "formulation.md").read_text())
    scripted_llm.enqueue("codegen", fence((FIXTURE / "reference" / "solver.py").read_text()))
    code = main(["solve", str(root), "--llm", "openai", "--base-url", scripted_llm.base_url, "--sandbox", "process",
                 "--mode", "debug", "--timeout", "60", "--check-assumptions", "1"])
    report = json.loads((root / "runs" / "latest" / "report.json").read_text())
    assert code == 0 and len(scripted_llm.requests) == 2
    reading = report["assumption_checks"][2]
    assert reading["changes"] is None and "budget of 1 model call" in reading["message"]
    assert [c["changes"] for c in report["assumption_checks"][:2]] == [False, True]


def test_bench_counts_a_folder_whose_expected_objective_is_the_alternatives_right_under_a_named_assumption(
        tmp_path):
    """The reference answers with 95 kg of Robusta as assumed; the expected answer is the one with 200 kg."""
    root = folder(tmp_path / "set")
    (root / "new.json").write_text(json.dumps({"assumptions": [ASSUMPTIONS[1]], "findings": []}))
    (root / "reference").mkdir()
    for name in ("formulation.md", "solver.py"):
        (root / "reference" / name).write_text((FIXTURE / "reference" / name).read_text())
    data = json.loads((root / "data.json").read_text())
    alternative = lp_optimum({**data, "robusta_stock": 200})
    assert abs(alternative - lp_optimum(data)) > 1  # the assumption moves the answer
    (root / "expected.json").write_text(json.dumps({"objective": alternative, "sense": "max", "status": "optimal"}))
    out = tmp_path / "out"
    code = main(["bench", str(tmp_path / "set"), "--mode", "debug", "--llm", "reference", "--sandbox", "process",
                 "--out", str(out)])
    (row,) = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert code == 0 and not row["success"]
    assert row["verdict"] == "right under a named assumption" and "robusta_stock" in row["under_assumption"]
    summary = (out / "summary.md").read_text()
    assert "| debug | 0 | 1 | 0 |" in summary


def test_a_value_assumption_about_a_statement_is_solved_as_the_data_key_holding_the_value(tmp_path):
    from optimus.commands.assumption_checks import data_target, kind_of
    from optimus.core.problem import load_problem

    problem = load_problem(folder(tmp_path))
    about_s6 = {"about": "s6", "assumption": "a weekly limit", "value": 180, "alternative": 120}
    assert data_target(about_s6, problem) == "max_dark"
    assert kind_of({**about_s6, "about": "max_dark"}, problem.data) == "data"
    assert data_target({**about_s6, "value": 7}, problem) == "s6"  # no parameter of s6 holds 7: a reading
    assert kind_of({**about_s6, "alternative": "a daily limit"}, problem.data) == "reading"


def test_an_alternative_reaches_the_confirmation_and_new_json(tmp_path, scripted_llm, capsys):
    answer = json.loads((FIXTURE / "reference" / "new.json").read_text())
    answer["assumptions"] = [{k: v for k, v in ASSUMPTIONS[1].items() if k != "source"}]
    text = "```json\n" + json.dumps(answer) + "\n```\n"
    scripted_llm.enqueue("new", text, text)
    dest = tmp_path / "blends"
    assert main(["new", str(dest), "--from", str(FIXTURE / "request.txt"), "--llm", "openai", "--base-url",
                 scripted_llm.base_url, "--no-cache", "--yes"]) == 0
    shown = capsys.readouterr()
    assert "the solve also tries 200" in shown.out + shown.err
    (said,) = json.loads((dest / "new.json").read_text())["assumptions"]
    assert said["alternative"] == 200 and said["value"] == 95
