"""`optimus repair` as a newcomer meets it (issue 24): the run's own backend, reasons on the terminal, no empty
variants left behind, numbers out of range, protections that follow their statement, tests re-checked against a
variant's statements, and "infeasible, verified" as an answer."""

from __future__ import annotations

import ast
import io
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from optimus.bench.repair import protected_changes
from optimus.commands.cli import main
from optimus.commands.repair import Dialogue, apply, run_dialogue
from optimus.core.changes import Candidate
from optimus.core.llm import LLMClient
from optimus.core.llm.reference import ReferenceBackend
from optimus.core.loop import Options, solve
from optimus.core.problem import load_problem
from optimus.core.runstore import RunStore
from optimus.core.sandbox import Limits, get_backend
from tests.test_new import new
from tests.test_repair import ROOT, SANDBOX, solved_copy

CAPACITY = "The files on one drive may take up at most \\param{capacity} GB in total."
LIMITS = Limits(wall_s=60, cpu_s=60)


def rounds_of(folder: Path) -> list[dict]:
    log = folder / "runs" / "latest" / "repair.jsonl"
    return [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []


def test_repair_uses_the_runs_backend_unless_told_otherwise(tmp_path, capsys):
    copy = solved_copy(tmp_path, "18-infeasible")  # made with --llm reference; no endpoint is configured here
    capsys.readouterr()
    assert main(["repair", str(copy / "runs" / "latest"), "--accept", "1", *SANDBOX]) == 0
    err = capsys.readouterr().err
    assert "LLM reference:reference (offline" in err and "feasible after 1 round(s)" in err
    assert [r["outcome"] for r in rounds_of(copy)] == ["feasible"]


def test_a_backend_that_cannot_answer_stops_repair_at_once_saying_why(tmp_path, capsys):
    copy = solved_copy(tmp_path, "18-infeasible")
    capsys.readouterr()
    assert main(["repair", str(copy / "runs" / "latest"), "--llm", "openai", "--accept", "1", *SANDBOX]) == 2
    err = capsys.readouterr().err
    assert "no LLM endpoint is configured" in err
    assert rounds_of(copy) == [] and not (copy / "variants").exists()


def test_a_number_out_of_range_is_asked_again_never_sent_to_a_model(tmp_path, capsys, monkeypatch):
    copy = solved_copy(tmp_path, "18-infeasible")
    monkeypatch.setattr("sys.stdin", io.StringIO("9\n0\n2\n"))
    code = main(["repair", str(copy / "runs" / "latest"), "--llm", "reference", *SANDBOX])
    out = capsys.readouterr().out
    assert "9 is not one of the 3 change(s) shown: answer 1–3" in out and "0 is not one of the 3" in out
    (first,) = rounds_of(copy)[:1]
    assert code == 0 and first["answer"] == "2" and first["chosen"]["what"] == first["candidates"][1]["what"]
    assert not (copy / "runs" / "latest" / "repair-transcript.jsonl").exists()  # no model call
    assert main(["repair", str(copy / "runs" / "latest"), "--llm", "reference", "--accept", "9", *SANDBOX]) == 1
    assert rounds_of(copy)[-1]["outcome"] == "stopped" and "3 answers out of range" in capsys.readouterr().err


def test_a_failed_repair_removes_the_variants_that_never_ran(tmp_path, capsys):
    """Offline, protecting s4 leaves only 'drop s3', whose variant has no reference program: it never runs."""
    copy = solved_copy(tmp_path, "20-infeasible")
    capsys.readouterr()
    code = main(["repair", str(copy / "runs" / "latest"), "--llm", "reference", "--accept", "1", "--refuse", "s4",
                 *SANDBOX])
    captured = capsys.readouterr()
    rounds = rounds_of(copy)
    assert code == 1 and [r.get("outcome") for r in rounds] == [None, "none_left"]
    assert "cannot solve this variant" in captured.out  # why the round failed, on the terminal
    assert "removed 1 variant folder(s) that never ran: r1" in captured.out
    assert not (copy / "variants").exists()


def test_a_protection_follows_its_statement_when_a_variant_renumbers(tmp_path):
    """The issue's dialogue: s4 (capacity) protected, "drop s3" accepted, so capacity is s3 in the variant and
    the next diagnosis offers to raise it. It must not be offered, whatever its number."""
    copy = solved_copy(tmp_path, "20-infeasible")
    no_program = copy / "scripted-run"  # an attempt without a program: the candidates are shown unchecked
    (no_program / "v1" / "attempt-01").mkdir(parents=True)
    solved: list[Path] = []

    def solve_variant(dest: Path) -> dict:
        solved.append(dest)
        statements = load_problem(dest).snop.problem_info
        if len(solved) == 1:  # the variant without s3: still infeasible, now between capacity and max_files
            assert statements.index(CAPACITY) == 2
            diagnosis = {"kind": "infeasible", "statements": ["s3", "s4"], "rows": ["s3_capacity_k1", "s4_files_k1"],
                         "relaxation": {"changes": [{"row": "s3_capacity_k1", "from": 2000, "to": 2102}]}}
            return {"status": "infeasible", "solver_status": "infeasible", "verified": True,
                    "run_dir": str(no_program), "verification": {"diagnosis": diagnosis}}
        return {"status": "solved", "solver_status": "optimal", "verified": True, "objective": 3,
                "run_dir": str(no_program)}

    d = Dialogue(copy / "runs" / "latest", solve_variant, lambda _: "1", lambda _: pytest.fail("no model call"),
                 get_backend("process"), LIMITS, {"s4"}, show=lambda _: None)
    outcome = run_dialogue(d)
    second = rounds_of(copy)[1]
    assert second["protected"] == ["s3"] and second["protected_text"] == [CAPACITY]
    assert all("capacity" not in c["what"] for c in second["candidates"]), second["proposal"]
    assert outcome["outcome"] == "feasible"
    final = load_problem(Path(outcome["variant"]))
    assert final.data["capacity"] == 2000 and CAPACITY in final.snop.problem_info
    assert protected_changes(load_problem(copy), Path(outcome["variant"]), {"s4"}) == []


def test_the_bench_finds_a_broken_protection_by_diffing_the_variant(tmp_path):
    original = load_problem(ROOT / "nlp4lp" / "20-infeasible")
    variant = tmp_path / "v"
    shutil.copytree(original.root, variant, ignore=shutil.ignore_patterns("runs", "variants"))
    assert protected_changes(original, variant, {"s4"}) == []
    data = json.loads((variant / "data.json").read_text())
    (variant / "data.json").write_text(json.dumps({**data, "capacity": 2102}))
    assert protected_changes(original, variant, {"s4"}) == ["s4's capacity: 2000 → 2102"]
    assert protected_changes(original, variant, {"s5"}) == []  # max_files: untouched


def test_a_dropped_statement_takes_its_tests_with_it_and_the_rest_follow_their_numbers(tmp_path):
    problem = load_problem(ROOT / "nlp4lp" / "20-infeasible")
    extra = ("\n\ndef test_capacity_again(data, output):\n    assert data[\"capacity\"] > 0\n"
             "\n\ndef test_files_once_by_keys(data, output):\n    assert len(output[\"put\"]) == data[\"N\"]\n")
    folder = tmp_path / "p"
    shutil.copytree(problem.root, folder, ignore=shutil.ignore_patterns("runs", "variants"))
    (folder / "tests" / "test_extra.py").write_text(extra)
    before = (folder / "tests" / "test_reel_bin_packing.py").read_text()
    diff = apply(load_problem(folder), Candidate("drop", "drop s4", ["s4"], drop=["s4"]), tmp_path / "r1")
    tests = (tmp_path / "r1" / "tests" / "test_reel_bin_packing.py").read_text()
    names = [n.name for n in ast.parse(tests).body if isinstance(n, ast.FunctionDef)]
    assert "test_s4_capacity" not in names and "test_s3_each_file_once" in names
    assert {"test_s4_catalogue_limit", "test_s5_used_flags"} <= set(names) and "test_s6_used_flags" not in names
    extra_names = [n.name for n in ast.parse((tmp_path / "r1" / "tests" / "test_extra.py").read_text()).body
                   if isinstance(n, ast.FunctionDef)]
    assert extra_names == ["test_files_once_by_keys"]  # it read only capacity, s4's parameter
    assert any("test_s4_capacity" in line and "which the variant changes" in line for line in diff)
    assert (folder / "tests" / "test_reel_bin_packing.py").read_text() == before  # the original is untouched


def test_infeasible_verified_is_an_answer_for_a_repair_round_not_a_failure_to_fix(tmp_path, monkeypatch):
    """A change in words that is not enough: the variant stays infeasible. The round takes that (verified by the
    re-solve) as its answer and goes on from the new diagnosis, without fix rounds demanding a solution."""
    copy = solved_copy(tmp_path, "15-infeasible")
    (copy / "reference" / "repair.json").write_text(json.dumps({"data": [{"key": "light_supply", "add": 1}]}))
    monkeypatch.setattr("sys.stdin", io.StringIO("buy one more barrel of light crude\nstop\n"))
    assert main(["repair", str(copy / "runs" / "latest"), "--llm", "reference", *SANDBOX]) == 1
    first, second = rounds_of(copy)
    assert first["result"]["status"] == "infeasible" and first["result"]["verified"]
    report = json.loads((Path(first["result"]["run_dir"]) / "report.json").read_text())
    assert report["attempts"].get("fix", 0) == 0 and "re-solve agrees" in report["message"]
    assert second["problem"] == first["variant"] and second["outcome"] == "stopped"


def test_without_the_repair_option_an_unexpected_infeasible_is_reviewed_not_fixed(tmp_path):
    """Outside optimus repair, a proven infeasibility nobody expected is read against its statements once (the
    review, issue 31) and answered; it is never sent to fix, which could only weaken the user's constraints."""
    folder = tmp_path / "p"
    shutil.copytree(ROOT / "nlp4lp" / "15-infeasible", folder, ignore=shutil.ignore_patterns("runs", "variants"))
    (folder / "expected.json").unlink()  # like a variant: nobody knows the answer
    problem = load_problem(folder)
    options = Options(mode="supervised", limits=LIMITS, max_fix=1)
    report = solve(problem, LLMClient(ReferenceBackend(problem)), get_backend("process"), RunStore(folder), options)
    assert report.attempts.get("review") == 1 and not report.attempts.get("fix")
    assert report.verified and report.status == "infeasible"


def test_a_new_problem_folder_ignores_its_runs_and_variants(tmp_path):
    dest = tmp_path / "blends"
    assert new(dest, "lp", "--llm", "reference") == 0
    assert (dest / ".gitignore").read_text().split() == ["runs/", "variants/"]
    subprocess.run(["git", "init", "-q", str(dest)], check=True)
    for path in ("runs/x/report.json", "variants/r1/data.json"):
        assert subprocess.run(["git", "-C", str(dest), "check-ignore", "-q", path], check=False).returncode == 0
    assert subprocess.run(["git", "-C", str(dest), "check-ignore", "-q", "data.json"], check=False).returncode == 1
