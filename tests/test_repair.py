"""`optimus repair`: an infeasible run made feasible in a dialogue, in new variant folders, never in place."""

from __future__ import annotations

import hashlib
import io
import itertools
import json
import re
import shutil
from pathlib import Path

import pytest

from optimus.bench.groundtruth.lp import run_reference
from optimus.commands.cli import main
from optimus.commands.repair import NONE_LEFT, replay
from optimus.core.changes import Prober
from optimus.core.sandbox import Limits, get_backend

ROOT = Path(__file__).parent.parent
INFEASIBLE = sorted((ROOT / "nlp4lp").glob("*-infeasible"))
SANDBOX = ["--sandbox", "process"]


def solved_copy(tmp_path: Path, name: str, negotiable: list[str] | None = None) -> Path:
    """A copy of nlp4lp/<name> and its infeasible run (supervised, offline)."""
    folder = tmp_path / name
    shutil.copytree(ROOT / "nlp4lp" / name, folder, ignore=shutil.ignore_patterns("runs", "variants"))
    if negotiable is not None:
        snop = json.loads((folder / "snop.json").read_text())
        (folder / "snop.json").write_text(json.dumps({**snop, "negotiable": negotiable}))
    assert main(["solve", str(folder), "--llm", "reference", "--mode", "supervised", *SANDBOX]) == 0
    return folder


def hashes(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.rglob("*"))
            if p.is_file() and p.relative_to(folder).parts[0] not in ("runs", "variants")}


def repair(folder: Path, *args: str) -> tuple[int, list[dict]]:
    run = folder / "runs" / "latest"
    code = main(["repair", str(run), "--llm", "reference", *SANDBOX, *args])
    log = run / "repair.jsonl"
    return code, [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []


def changed_keys(before: dict, after: dict) -> list[str]:
    return sorted(k for k in before if before[k] != after[k])


@pytest.mark.parametrize("folder", INFEASIBLE, ids=lambda p: p.name)
def test_accept_1_reaches_a_feasible_solve_in_one_round_and_leaves_the_original_alone(tmp_path, folder):
    copy = solved_copy(tmp_path, folder.name)
    before = hashes(copy)
    code, rounds = repair(copy, "--accept", "1")
    assert code == 0
    assert [r["outcome"] for r in rounds] == ["feasible"]
    variant = Path(rounds[0]["variant"])
    assert variant == copy / "variants" / "r1"
    assert rounds[0]["result"]["solver_status"] == "optimal" and rounds[0]["result"]["verified"]
    assert hashes(copy) == before
    # Independently of the loop: the folder's own program, run twice with two solvers outside optimus.
    highs, cbc = run_reference(variant, "HIGHS"), run_reference(variant, "CBC")
    assert highs["status"] == cbc["status"] == "optimal"
    assert highs["objective"] == pytest.approx(rounds[0]["result"]["objective"], rel=1e-6)
    assert run_reference(copy, "HIGHS")["status"] == "infeasible"
    old, new = (json.loads((f / "data.json").read_text()) for f in (copy, variant))
    edits = rounds[0]["chosen"]["edits"]
    assert changed_keys(old, new) == sorted({e["key"] for e in edits})


def test_a_user_who_protects_a_statement_gets_another_change(tmp_path):
    copy = solved_copy(tmp_path, "18-infeasible")
    code, rounds = repair(copy, "--accept", "1", "--refuse", "s4")
    assert code == 0 and rounds[-1]["outcome"] == "feasible"
    old, new = (json.loads((f / "data.json").read_text()) for f in (copy, Path(rounds[-1]["variant"])))
    assert changed_keys(old, new) == ["max_headcount"]  # s4's demand untouched
    assert new["max_headcount"] > old["max_headcount"]


def test_no_change_left_when_every_conflicting_statement_is_protected(tmp_path, capsys):
    copy = solved_copy(tmp_path, "18-infeasible")
    code, rounds = repair(copy, "--accept", "1", "--refuse", "s4,s7")
    assert code == 1
    assert NONE_LEFT in capsys.readouterr().out
    assert [r["outcome"] for r in rounds] == ["none_left"] and rounds[0]["candidates"] == []
    assert not (copy / "variants").exists()


def test_only_negotiable_items_are_proposed(tmp_path):
    copy = solved_copy(tmp_path, "18-infeasible", negotiable=["\\param{max_headcount}"])
    code, rounds = repair(copy, "--accept", "1")
    assert code == 0
    assert [e["key"] for c in rounds[0]["candidates"] for e in c["edits"]] == ["max_headcount"]
    assert all(c["kind"] == "limit" for c in rounds[0]["candidates"])


README_DIALOGUE = re.compile(r"<!-- repair-dialogue:start -->(.*?)<!-- repair-dialogue:end -->", re.DOTALL)


def test_the_readme_dialogue_replays_from_repair_jsonl(tmp_path, monkeypatch):
    """The README's dialogue: a statement protected, then a change in the user's words, applied as a diff."""
    copy = solved_copy(tmp_path, "15-infeasible")
    (copy / "reference" / "repair.json").write_text(json.dumps(
        {"data": [{"key": "light_supply", "add": 300}], "why": "a second supplier adds 300 barrels"}))
    shown = (ROOT / "README.md").read_text()
    lines = README_DIALOGUE.search(shown).group(1)
    answers = re.findall(r"^you: (.*)$", lines, re.MULTILINE)
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(a + "\n" for a in answers)))
    code, rounds = repair(copy)
    assert code == 0
    turns = replay(copy / "runs" / "latest" / "repair.jsonl")
    assert [answer for _, answer, _ in turns] == answers
    assert turns[0][2] == "protected s5"
    assert rounds[-1]["diff"] == ["data.json light_supply: 5000 → 5300"]
    assert "light_supply: 5000 → 5300" in lines
    shown_first, shown_second = re.findall(r"^optimus: (.*)$", lines, re.MULTILINE)[:2]
    assert "set sulfur_max" in turns[0][0] and "set sulfur_max" not in turns[1][0]
    for said, logged in ((shown_first, rounds[0]), (shown_second, rounds[1])):
        assert [c["what"] for c in logged["candidates"] if c["kind"] == "limit"] == re.findall(r"set [^→]+→ \S+", said)
    # The free-text step saw names and shapes, never data.json's values.
    prompt = json.loads((copy / "runs" / "latest" / "repair-transcript.jsonl").read_text().splitlines()[0])
    text = prompt["messages"][-1]["content"]
    assert "light_supply" in text and not [v for v in ("78.5", "9000", "5000", "12000") if v in text]


def test_bench_repair_reports_success_and_rounds_per_mimic_user(tmp_path, capsys):
    problems = tmp_path / "problems"
    shutil.copytree(ROOT / "nlp4lp" / "18-infeasible", problems / "18-infeasible",
                    ignore=shutil.ignore_patterns("runs", "variants"))
    out = tmp_path / "out"
    assert main(["bench", str(problems), "--repair", "--out", str(out), *SANDBOX]) == 0
    rows = [json.loads(line) for line in (out / "repair.jsonl").read_text().splitlines()]
    assert {r["user"]: r["outcome"] for r in rows} == {"accept-all": "feasible", "refuse-s4": "feasible",
                                                        "refuse-s7": "feasible"}
    table = (out / "repair.md").read_text()
    assert "| accept-all | 1 | 1 | 100% | 1.00 |" in table and "| refuse-one | 2 | 2 | 100% | 1.00 |" in table
    assert not (problems / "18-infeasible" / "runs").exists()  # the bench works on copies


def test_an_unbounded_run_is_bounded_by_a_change_in_the_users_words(tmp_path, monkeypatch):
    copy = solved_copy(tmp_path, "29-unbounded")
    (copy / "reference" / "repair.json").write_text(json.dumps(
        {"data": [{"key": "overtime_max", "index": [m], "set": 40} for m in range(4)], "why": "40 h per centre"}))
    monkeypatch.setattr("sys.stdin", io.StringIO("overtime is capped at 40 hours at every work centre\n"))
    code, rounds = repair(copy)
    assert code == 0
    assert rounds[0]["proposal"].startswith("The objective improves without limit")
    assert rounds[0]["candidates"] == []  # dropping a statement never bounds a model: nothing to pick
    variant = Path(rounds[0]["variant"])
    assert json.loads((variant / "data.json").read_text())["overtime_max"] == [40, 40, 40, 40]
    highs, cbc = run_reference(variant, "HIGHS"), run_reference(variant, "CBC")
    assert highs["status"] == cbc["status"] == "optimal"
    assert highs["objective"] == pytest.approx(cbc["objective"], rel=1e-6)
    assert highs["objective"] == pytest.approx(rounds[0]["result"]["objective"], rel=1e-6)


def brute_force_talks(data: dict) -> float | None:
    """The cheapest slot assignment by enumeration (no solver): distinct slots for conflicts, order for before."""
    n, k = len(data["cost"]), len(data["cost"][0])
    best = None
    for slots in itertools.product(range(k), repeat=n):
        if (all(slots[a] != slots[b] for a, b in data["conflicts"])
                and all(slots[a] < slots[b] for a, b in data["before"])
                and all(slots.count(s) <= data["room_cap"] for s in range(k))):
            cost = sum(data["cost"][i][slots[i]] for i in range(n))
            best = cost if best is None else min(best, cost)
    return best


def test_a_z3_core_assertion_is_relaxed_by_taking_its_item_out(tmp_path):
    pytest.importorskip("z3")
    folder = tmp_path / "talks-unsat"
    shutil.copytree(ROOT / "tests" / "fixtures" / "z3" / "talks", folder,
                    ignore=shutil.ignore_patterns("runs", "variants"))
    shutil.copytree(ROOT / "tests" / "fixtures" / "z3" / "talks-unsat", folder, dirs_exist_ok=True)  # the twin's data
    assert main(["solve", str(folder), "--llm", "reference", "--mode", "supervised", *SANDBOX]) == 0
    original = json.loads((folder / "data.json").read_text())
    assert brute_force_talks(original) is None  # the fixture really is unsatisfiable
    code, rounds = repair(folder, "--accept", "1")
    assert code == 0 and [r["outcome"] for r in rounds] == ["feasible"]
    (edit,) = rounds[0]["chosen"]["edits"]
    assert edit["remove"] and edit["key"] in ("before", "conflicts")
    relaxed = json.loads((Path(rounds[0]["variant"]) / "data.json").read_text())
    assert len(relaxed[edit["key"]]) == len(original[edit["key"]]) - 1
    assert rounds[0]["result"]["objective"] == pytest.approx(brute_force_talks(relaxed))


def test_a_change_in_words_that_touches_a_protected_statement_is_refused(tmp_path, monkeypatch):
    copy = solved_copy(tmp_path, "15-infeasible")
    (copy / "reference" / "repair.json").write_text(json.dumps({"data": [{"key": "light_supply", "add": 300}]}))
    monkeypatch.setattr("sys.stdin", io.StringIO("never touch s4\nbuy 300 more barrels of light crude\nstop\n"))
    code, rounds = repair(copy, "--candidates", "2")
    assert code == 1
    assert [r.get("result") for r in rounds[:2]] == ["protected s4", "refused: it touches protected s4"]
    assert rounds[-1]["outcome"] == "stopped" and not (copy / "variants").exists()


@pytest.mark.parametrize("writes, feasible", [
    ('json.dump({"status": "optimal"}, open("solution.json", "w"))', True),
    ('json.dump({"status": "infeasible"}, open("solution.json", "w"))', False),
    ('os.symlink(HOST, "solution.json")', None),  # the host file says optimal: never read through the link
    ('json.dump(["optimal"], open("solution.json", "w"))', None),  # not an object: no answer, no traceback
])
def test_a_probe_reads_solution_json_as_every_result_file_is_read(tmp_path, writes, feasible):
    host = tmp_path / "host.json"
    host.write_text('{"status": "optimal"}')
    attempt = tmp_path / "attempt"
    attempt.mkdir()
    (attempt / "solver.py").write_text("import json, os\n" + writes.replace("HOST", repr(str(host))) + "\n")
    prober = Prober(attempt, get_backend("process"), Limits(wall_s=30, cpu_s=30))
    assert prober.feasible({"n": 1}) is feasible and prober.runs == 1
