"""Questions on records-shaped data (issue 32 item 3): nlp4lp/44 holds its products as a list of objects, and its
pyoptinterface program writes model.mps through HiGHS (LI/UI bounds, OBJSENSE MAX, the rent as objective_constant)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from optimus.commands.cli import main

ROOT = Path(__file__).resolve().parents[1]
SANDBOX = ["--sandbox", "process"]


@pytest.fixture(scope="module")
def shop(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("records") / "44"
    shutil.copytree(ROOT / "nlp4lp" / "44", folder, ignore=shutil.ignore_patterns("runs", "variants"))
    assert main(["solve", str(folder), "--llm", "reference", "--mode", "supervised", *SANDBOX]) == 0
    return folder


def expected(folder: Path, qid: str) -> dict:
    """Ground truth: the reference program on the changed data, CBC and HiGHS agreeing (python -m optimus.bench.ask)."""
    return next(q["expected"] for q in json.loads((folder / "questions.json").read_text()) if q["id"] == qid)


def last(folder: Path) -> dict:
    return json.loads((folder / "runs" / "latest" / "ask.jsonl").read_text().splitlines()[-1])


def test_every_record_field_is_changed(shop, capsys):
    data = json.loads((shop / "data.json").read_text())
    before = json.loads((shop / "runs" / "latest" / "report.json").read_text())["objective"]
    capsys.readouterr()
    assert main(["ask", str(shop / "runs" / "latest"), "what if every product earned 10 % more per batch?",
                 "--llm", "reference", *SANDBOX]) == 0
    out = capsys.readouterr().out
    assert all(f"data.json products[{j}].profit: {p['profit']:g} → " in out for j, p in enumerate(data["products"]))
    after = last(shop)["after"]
    assert after["status"] == "solved" and after["verified"]
    # By hand: scaling every profit keeps the best plan, so the earnings before rent are 10 % higher
    by_hand = (before + data["weekly_rent"]) * 1.1 - data["weekly_rent"]
    assert after["objective"] == pytest.approx(by_hand, rel=1e-9)
    assert after["objective"] == pytest.approx(expected(shop, "q1")["objective"], rel=1e-9)


@pytest.mark.parametrize("qid, question", [("q4", "why don't we print two batches of posters?"),
                                           ("q6", "what would 5 more press hours a week earn?")])
def test_why_not_and_sensitivity_on_a_model_written_by_highs(shop, qid, question):
    assert main(["ask", str(shop / "runs" / "latest"), question, "--llm", "reference", *SANDBOX]) == 0
    after = last(shop)["after"]
    assert after["status"] == "optimal" and after["verified"] and "CBC agrees: optimal" in after["how"]
    assert after["objective"] == pytest.approx(expected(shop, qid)["objective"], rel=1e-9)


def test_bench_ask_on_the_records_folder(tmp_path):
    problems = tmp_path / "problems"
    shutil.copytree(ROOT / "nlp4lp" / "44", problems / "44", ignore=shutil.ignore_patterns("runs", "variants"))
    out = tmp_path / "out"
    assert main(["bench", str(problems), "--ask", "--llm", "reference", "--out", str(out), *SANDBOX]) == 0
    rows = [json.loads(line) for line in (out / "ask.jsonl").read_text().splitlines()]
    assert all(r["right"] for r in rows), [r for r in rows if not r["right"]]
    kinds = sorted({r["kind"] for r in rows})
    assert f"| MILP | records | {', '.join(kinds)} | {len(rows)} | {len(rows)} / {len(rows)} |" \
        in (out / "summary.md").read_text()
