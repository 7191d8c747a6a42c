"""--samples K: independent formulations, the majority answer, and an honest report of two readings.

The loop runs end to end: the real openai client against the scripted server (tests/scripted_server.py), programs
in the process sandbox; the bench part uses the offline reference backend and nlp4lp's second readings
(reference/alternative/), whose objectives are recomputed here with two solvers."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from optimus.bench.groundtruth import lp as groundtruth
from optimus.bench.judge import final_attempt
from optimus.bench.runner import BenchOptions, run_bench
from optimus.bench.summary import write_summary
from optimus.commands.cli import main
from optimus.core.consensus import Sample, choose, group
from optimus.core.llm.reference import ReferenceBackend
from optimus.core.problem import load_problem, natural_order
from optimus.core.report import Report
from optimus.core.stages.ambiguity import parse
from tests.helpers import NLP4LP, copy_problem
from tests.test_nlp4lp import gather

# A shop's mix whose third statement is loose: are units sold whole, or can a plan make fractions of them?
SNOP = {
    "name": "Mix with a loose statement",
    "problem_type": "MILP",
    "problem_info": [
        "A shop makes \\var{N} products; product \\var{i} earns \\param{profit_{i}} per unit.",
        "Each unit of product i uses \\param{hours_{i,m}} hours of machine m, which has \\param{capacity_{m}} hours.",
        "The plan says how many units of each product to make.",
    ],
    "input_format": '{"profit": [profit_{i} for i in 1, ..., N], '
                    '"hours": [[hours_{i,m} for m in 1, ..., M] for i in 1, ..., N], '
                    '"capacity": [capacity_{m} for m in 1, ..., M]}',
    "objective": "Maximize total profit.",
    "output_info": ["\\var{make_{i}} units of product i"],
    "output_format": '{"make": [make_{i} for i in 1, ..., N]}',
}
DATA = {"profit": [3, 5], "hours": [[1, 2, 1], [3, 1, 2]], "capacity": [10, 12, 9]}

PROGRAM = """\
import json
import pulp

data = json.load(open("data.json"))
profit, hours, cap = data["profit"], data["hours"], data["capacity"]
n, m = len(profit), len(cap)
prob = pulp.LpProblem("mix", pulp.LpMaximize)
x = [prob.add_variable(f"make_{i}", lowBound=0, cat=CATEGORY) for i in range(n)]
prob += pulp.lpSum(profit[i] * x[i] for i in range(n))
for k in range(m):
    prob += (pulp.lpSum(hours[i][k] * x[i] for i in range(n)) <= cap[k], f"s2_capacity_{k}")
prob.writeMPS("model.mps")
prob.solve(pulp.HiGHS(msg=False))
optimal = prob.status == pulp.LpStatusOptimal and prob.sol_status == pulp.LpSolutionOptimal
json.dump({"make": [v.varValue for v in x]} if optimal else {}, open("output.json", "w"))
json.dump({"status": "optimal" if optimal else "error", "values": {v.name: v.varValue for v in x},
           "objective": pulp.value(prob.objective) if optimal else None}, open("solution.json", "w"))
"""
FRACTIONAL = PROGRAM.replace("CATEGORY", '"Continuous"')
WHOLE = PROGRAM.replace("CATEGORY", '"Integer"')
TESTS = """\
def test_capacity(data, output, eps):
    for m, cap in enumerate(data["capacity"]):
        used = sum(data["hours"][i][m] * output["make"][i] for i in range(len(data["profit"])))
        assert used <= cap + eps * max(1, abs(cap)), f"machine {m}: uses {used:.6g} > {cap:.6g}"


def test_nonnegative(output):
    assert all(v >= -1e-9 for v in output["make"]), output["make"]
"""
FORM_FRACTIONAL = "## Decision variables\nmake_i >= 0 continuous (s3: READING-FRACTIONAL, parts of units allowed)\n"
FORM_WHOLE = "## Decision variables\nmake_i >= 0 integer (s3: READING-WHOLE, whole units only)\n"
AMBIGUITY = {"differences": [{"statement": "s3", "A": "Units may be planned in fractions.",
                              "B": "Only whole units are made."}]}


def best(data: dict, whole: bool) -> float:
    """The optimum by hand: whole units by enumeration; fractions at the vertices of the capacity polygon."""
    (p0, p1), hours, cap = data["profit"], data["hours"], data["capacity"]
    fits = lambda a, b: all(hours[0][m] * a + hours[1][m] * b <= cap[m] + 1e-9 for m in range(len(cap)))
    if whole:
        return max(p0 * a + p1 * b for a in range(20) for b in range(20) if fits(a, b))
    rows = [(hours[0][m], hours[1][m], cap[m]) for m in range(len(cap))] + [(1, 0, 0), (0, 1, 0)]
    points = []
    for i, (a1, b1, c1) in enumerate(rows):
        for a2, b2, c2 in rows[i + 1:]:
            det = a1 * b2 - a2 * b1
            if det:
                points.append(((c1 * b2 - c2 * b1) / det, (a1 * c2 - a2 * c1) / det))
    return max(p0 * a + p1 * b for a, b in points if a >= -1e-9 and b >= -1e-9 and fits(a, b))


def fence(lang: str, text: str) -> str:
    return f"```{lang}\n{text.rstrip()}\n```\n"


@pytest.fixture
def problem(tmp_path):
    root = tmp_path / "mix"
    (root / "tests").mkdir(parents=True)
    (root / "snop.json").write_text(json.dumps(SNOP))
    (root / "data.json").write_text(json.dumps(DATA))
    (root / "tests" / "test_mix.py").write_text(TESTS)
    return root


def script(llm, readings: dict[int, str], ambiguity: str) -> None:
    """Sample k (told apart by the request's seed: none for sample 0) formulates readings[k]; codegen writes the
    program of the formulation it is shown; sample 2's copy of a program differs only in whitespace."""
    def program(req) -> str:
        text = WHOLE if "READING-WHOLE" in req.prompt else FRACTIONAL
        if req.body.get("seed") == 2:
            text = "".join(line + "  \n" for line in text.splitlines())
        return fence("python", text)

    for _ in readings:
        llm.enqueue("formulate", lambda req: readings[req.body.get("seed") or 0])
        llm.enqueue("codegen", program)
    llm.enqueue("ambiguity", ambiguity)


def solve(root: Path, llm, *args: str) -> tuple[int, dict]:
    code = main(["solve", str(root), "--llm", "openai", "--base-url", llm.base_url, "--sandbox", "process",
                 "--timeout", "60", *args])
    return code, json.loads((root / "runs" / "latest" / "report.json").read_text())


def test_three_samples_two_readings_majority_answer_and_the_statement_named(problem, scripted_llm, capsys):
    readings = {0: FORM_FRACTIONAL, 1: FORM_WHOLE, 2: FORM_FRACTIONAL}
    script(scripted_llm, readings, fence("json", json.dumps(AMBIGUITY)))
    code, report = solve(problem, scripted_llm, "--mode", "supervised", "--samples", "3")
    fractional, whole = best(DATA, whole=False), best(DATA, whole=True)
    assert fractional != pytest.approx(whole)  # the two readings really give two answers

    assert code == 0 and report["status"] == "solved" and report["objective"] == pytest.approx(fractional)
    c = report["consensus"]
    assert c["chosen"] == 0 and c["agreement"] == "split" and c["unverified"] == []
    assert [(g["size"], g["samples"]) for g in c["groups"]] == [(2, [0, 2]), (1, [1])]
    assert [g["objective"] for g in c["groups"]] == [pytest.approx(fractional), pytest.approx(whole)]
    # Sample 2 wrote sample 0's program with other whitespace: it is not run, it joins sample 0.
    run = Path(report["run_dir"])
    joined = run / "s2" / "v0" / "attempt-01"  # it holds the program, and nothing a run would leave
    assert c["per_sample"][2]["duplicate_of"] == 0 and (joined / "solver.py").is_file()
    assert not [p for p in ("run.json", "output.json", "solution.json") if (joined / p).exists()]
    assert [r["calls"] for r in c["per_sample"]] == [2, 2, 2]  # formulate + codegen each, paid for all the same
    assert report["llm_usage"]["calls"] == 7 and report["attempts"]["ambiguity"] == 1
    assert final_attempt(run) == run / "s0" / "v0" / "attempt-01"

    a = report["ambiguity"]
    assert a["usable"] and a["answers"]["A"]["samples"] == [0, 2] and a["answers"]["B"]["samples"] == [1]
    assert a["answers"]["B"]["objective"] == pytest.approx(whole)
    assert a["statements"] == [{"statement": "s3", "text": SNOP["problem_info"][2], **AMBIGUITY["differences"][0]}]
    err = " ".join(capsys.readouterr().err.split())
    assert "your statements allow two answers: (s3) A reads: Units may be planned in fractions." in err
    assert "2 × objective" in err and "1 × objective" in err

    # What each sample asked: sample 0 the plain request, the others their own wording and seed.
    asked = {r.body.get("seed"): r.messages[-1]["content"] for r in scripted_llm.requests_for("formulate")}
    assert sorted(asked, key=str) == [1, 2, None]
    assert "independent formulation" not in asked[None] and "independent formulation number 3" in asked[2]
    (compare,) = scripted_llm.requests_for("ambiguity")
    assert "READING-FRACTIONAL" in compare.prompt and "READING-WHOLE" in compare.prompt


def test_an_unusable_comparison_is_said_so_ties_go_to_the_earliest_and_no_data_reaches_a_prompt(
        problem, scripted_llm, capsys):
    data = {"profit": [3.000137, 5.000239], "hours": [[1.000421, 2.000563, 1.000701], [3.000853, 1.000997, 2.001109]],
            "capacity": [10.001237, 12.001381, 9.001523]}  # unique sentinels: none may appear in any request
    (problem / "data.json").write_text(json.dumps(data))
    bogus = {"differences": [{"statement": "s9", "A": "one way", "B": "another"}]}
    script(scripted_llm, {0: FORM_WHOLE, 1: FORM_FRACTIONAL}, fence("json", json.dumps(bogus)))
    code, report = solve(problem, scripted_llm, "--mode", "prompt", "--samples", "2")
    assert code == 0 and report["objective"] == pytest.approx(best(data, whole=True))  # 1 against 1: sample 0
    a = report["ambiguity"]
    assert not a["usable"] and "s9" in a["why"] and a["statements"] == []
    assert "the comparison of their formulations was unusable" in " ".join(capsys.readouterr().err.split())
    sentinels = [str(v) for row in data["hours"] for v in row] + [str(v) for v in data["profit"] + data["capacity"]]
    sent = json.dumps([r.body for r in scripted_llm.requests])
    assert {r.stage for r in scripted_llm.requests} == {"formulate", "codegen", "ambiguity"}
    assert not [s for s in sentinels if s[:6] in sent]


def test_samples_below_one_exit_2_with_a_message(problem, capsys):
    assert main(["solve", str(problem), "--llm", "reference", "--samples", "0"]) == 2
    assert "--samples 0" in capsys.readouterr().err
    assert main(["bench", str(problem), "--samples", "0", "--out", str(problem.parent / "b")]) == 2
    assert "--samples 0" in capsys.readouterr().err


def report_of(status: str, objective: float | None, verified: bool = True) -> Report:
    return Report(problem="p", mode="prompt", llm={}, sandbox="process", status=status, objective=objective,
                  verified=verified)


def test_groups_use_the_bench_tolerance_and_skip_unverified_samples(tmp_path):
    samples = [Sample(0, tmp_path / "s0", report_of("solved", 100.0)),
               Sample(1, tmp_path / "s1", report_of("solved", 200.0)),
               Sample(2, tmp_path / "s2", report_of("solved", 200.0 * (1 + 1e-6))),  # within REL_TOL of 200
               Sample(3, tmp_path / "s3", report_of("failed", 100.0, verified=False)),
               Sample(4, tmp_path / "s4", duplicate_of=0)]
    groups = group(samples)
    assert [(g.objective, g.members) for g in groups] == [(100.0, [0, 4]), (200.0, [1, 2])]  # tie: earliest first
    assert choose(samples, groups) == 0
    assert choose(samples[3:4], group(samples[3:4])) == 3  # nothing verified: the report is the earliest's


ALTERNATIVES = natural_order(p.parents[2] for p in NLP4LP.glob("*/reference/alternative/solver.py"))


def test_at_least_three_problems_have_a_second_reading():
    assert len(ALTERNATIVES) >= 3, ALTERNATIVES


@pytest.mark.parametrize("folder", ALTERNATIVES, ids=[f.name for f in ALTERNATIVES])
def test_second_reading_is_verified_by_two_solvers_passes_the_tests_and_differs(folder, tmp_path):
    alternative = folder / "reference" / "alternative"
    work = tmp_path / folder.name
    shutil.copytree(folder, work, ignore=shutil.ignore_patterns("runs", "reference", "expected.json"))
    (work / "reference").mkdir()
    shutil.copy(alternative / "solver.py", work / "reference" / "solver.py")
    evidence = gather(work)  # CBC and HiGHS, then the folder's own tests on the output
    first, second = evidence.primary, evidence.secondary
    assert first["status"] == second["status"] == "optimal", (first["error"], second["error"])
    expected = json.loads((alternative / "expected.json").read_text())
    assert not groundtruth.compare_expected(expected, first, second)
    main_objective = json.loads((folder / "expected.json").read_text())["objective"]
    assert not groundtruth.close(first["objective"], main_objective, 1e-4), "the second reading changes nothing"
    assert evidence.accept["failure"] == evidence.accept["error"] == 0 and evidence.accept["passed"], evidence.log
    named = parse((alternative / "ambiguity.json").read_text(), load_problem(folder).snop)
    assert named and all(d.readings["A"] != d.readings["B"] for d in named)


def test_bed_days_second_reading_by_hand():
    """nlp4lp/36's reserve held out of the split, solved by hand at the vertices of its 2-variable LP."""
    d = json.loads((NLP4LP / "36" / "data.json").read_text())
    beds = d["bed_days"] - d["medical_min"]
    rows = [(1, 1, beds), (d["surgical_nursing"], d["medical_nursing"], d["nursing_hours"]), (1, 0, d["surgical_max"]),
            (-1, 0, 0), (0, -1, 0)]
    points = []
    for i, (a1, b1, c1) in enumerate(rows):
        for a2, b2, c2 in rows[i + 1:]:
            if det := a1 * b2 - a2 * b1:
                points.append(((c1 * b2 - c2 * b1) / det, (a1 * c2 - a2 * c1) / det))
    feasible = [(s, m) for s, m in points if all(a * s + b * m <= c + 1e-9 for a, b, c in rows)]
    value = max(d["surgical_margin"] * s + d["medical_margin"] * m for s, m in feasible)
    recorded = json.loads((NLP4LP / "36" / "reference" / "alternative" / "expected.json").read_text())
    assert value == pytest.approx(recorded["objective"], rel=1e-9)


def test_reference_backend_answers_odd_samples_from_the_second_reading():
    problem = load_problem(NLP4LP / "23")
    main_reading = (NLP4LP / "23" / "reference" / "formulation.md").read_text()
    second = (NLP4LP / "23" / "reference" / "alternative" / "formulation.md").read_text()
    backend = ReferenceBackend(problem)
    said = [backend.for_sample(k).complete("formulate", []).text for k in range(3)]
    assert said == [main_reading, second, main_reading]
    assert '"statement": "s8"' in backend.complete("ambiguity", []).text
    plain = ReferenceBackend(load_problem(NLP4LP / "1")).for_sample(1)
    assert plain.complete("formulate", []).text == (NLP4LP / "1" / "reference" / "formulation.md").read_text()


def test_bench_shows_the_ambiguity_rows_and_full_agreement_elsewhere(tmp_path):
    names = [f.name for f in ALTERNATIVES][:3] + ["1"]
    for name in names:
        copy_problem(name, tmp_path / "problems" / name)
    out = tmp_path / "out"
    # A generous limit: this checks the rows, not speed (with 50 busy processes beside it, 30 s ran out)
    opts = BenchOptions(dirs=[tmp_path / "problems"], out=out, modes=["prompt"], samples=3, sandbox="process",
                        jobs=2, timeout=300)
    rows = run_bench(opts, progress=lambda _: None)
    by = {r["problem"].split("/")[-1]: r for r in rows}
    assert all(r["success"] for r in rows), [r["reason"] for r in rows]
    assert by["1"]["samples"]["agreement"] == "full" and by["1"]["samples"]["ambiguity"] is None
    for name in names[:3]:
        s = by[name]["samples"]
        assert s["agreement"] == "split" and [g["samples"] for g in s["groups"]] == [[0, 2], [1]]
        assert s["ambiguity"]["usable"] and s["ambiguity"]["statements"]
    assert json.loads((out / "bench.json").read_text())["samples"] == 3
    summary = write_summary(out, rows).read_text()
    assert "## Samples: agreement per mode" in summary and "| prompt | 4 | 12 | 100.0% (4/4) | 25.0% (1/4) |" in summary
    for name in names[:3]:
        assert f"| problems/{name} | prompt |" in summary
