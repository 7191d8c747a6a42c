"""optimus bench --roles: the scoring with planted answers, the candidates' formal labels, and one problem end to end
through the real openai client against the scripted server."""

from __future__ import annotations

import json
import re
from pathlib import Path

from optimus.bench import roles_scoring as score
from optimus.bench.draw import Subject
from optimus.bench.roles import RolesReference, approved, run_roles
from optimus.bench.roles_candidates import build, objective_key, plan_candidates, plan_files, with_prelude
from optimus.bench.runner import BenchOptions
from optimus.core.llm import LLMConfig, OpenAIBackend
from optimus.core.problem import load_problem
from optimus.core.sandbox import Limits
from tests.scripted_server import RecordedRequest, ScriptedLLM

ROOT = Path(__file__).resolve().parent.parent
BLOCKS = ROOT / "planning" / "blocks-1"
BAKERY = ROOT / "nlp4lp" / "1"  # a two-variable production-mix LP in PuLP: its objective is easy to recompute


def subject(folder: Path, tmp_path: Path) -> Subject:
    return Subject(folder.name, load_problem(folder), json.loads((folder / "expected.json").read_text()), tmp_path)


# ---------------------------------------------------------------- scoring, planted answers

def test_a_verifier_that_always_says_feasible_scores_the_share_of_feasible_candidates():
    labels = [True, True, False, False, False]
    got = score.verifier([{"feasible": f, "optimal": f, "said_feasible": True, "said_optimal": True} for f in labels])
    feasible = got["feasible"]
    assert feasible["accuracy"] == 2 / 5 and feasible["precision"] == 2 / 5 and feasible["recall"] == 1.0
    assert feasible["base_rate"] == 2 / 5


def test_a_verifier_that_never_answers_readably_is_wrong_everywhere():
    got = score.binary([(True, None), (False, None)])
    assert got["accuracy"] == 0.0 and got["precision"] is None and got["recall"] == 0.0 and got["unreadable"] == 2


def test_an_ordering_that_reverses_the_truth_scores_hit_at_1_zero():
    truth = [score.quality(True, 10.0, "min"), score.quality(True, 12.0, "min"), score.quality(True, 15.0, "min"),
             score.quality(False, None, "min")]
    sets = [{"size": 4, "truth": truth, "ordered": truth[::-1]},
            {"size": 2, "truth": truth[:2], "ordered": truth[:2][::-1]}]
    four, two = score.heuristic(sets, 4), score.heuristic(sets, 2)
    assert four["hit@1"] == 0.0 and four["hit@2"] == 0.0 and four["hit@3"] == 0.0 and four["pairwise"] == 0.0
    assert two["hit@1"] == 0.0 and two["pairwise"] == 0.0
    right = score.heuristic([{"size": 4, "truth": truth, "ordered": truth}], 4)
    assert right["hit@1"] == 1.0 and right["pairwise"] == 1.0


def test_infeasible_candidates_tie_last_and_a_set_of_ties_is_not_scored():
    worst = score.quality(False, None, "max")
    assert score.quality(True, 1.0, "max") < score.quality(True, 0.5, "max") < worst
    assert worst == score.quality(False, 99.0, "max")
    # two infeasible candidates in either order: one pair of different quality, right either way
    ordered = [score.quality(True, 3.0, "min"), worst, score.quality(False, 1.0, "min")]
    assert score.pairwise(ordered) == (2, 2)
    assert score.heuristic([{"size": 2, "truth": [worst, worst], "ordered": [worst, worst]}], 2)["sets"] == 0


def test_self_assessment_counts_approvals_of_wrong_programs_and_doubts_of_right_ones():
    got = score.assessment([{"approved": True, "success": False}, {"approved": True, "success": True},
                            {"approved": False, "success": True}, {"approved": None, "success": True}])
    assert (got["judged"], got["approved_wrong"], got["wrong"], got["doubted_right"], got["right"]) == (3, 1, 1, 1, 2)
    assert got["accuracy"] == 1 / 3


def test_the_solver_is_graded_on_optimality_only_where_the_objective_is_known():
    got = score.solver([{"feasible": True, "optimal": True, "objective": 5.0, "goal": 5.0},
                        {"feasible": True, "optimal": False, "objective": None, "goal": 5.0},  # objective unknown
                        {"feasible": False, "optimal": False, "objective": None, "goal": 5.0},
                        {"feasible": True, "optimal": True, "objective": None, "goal": None}])  # nothing to optimise
    assert got["feasible"] == 3 / 4 and got["graded"] == 3 and got["optimal"] == 2 / 3


def test_approved_reads_only_an_assessment_of_the_final_program(tmp_path):
    (tmp_path / "v0" / "attempt-02").mkdir(parents=True)
    rounds = [{"round": 1, "attempt": 1, "scores": [{"step": "code", "score": 0}]},
              {"round": 2, "attempt": 2, "scores": [{"step": "code", "score": 1}]}]
    (tmp_path / "report.json").write_text(json.dumps({"assessment": rounds}))
    assert approved(tmp_path) is True
    (tmp_path / "report.json").write_text(json.dumps({"assessment": rounds[:1]}))
    assert approved(tmp_path) is None  # it judged attempt 1; the bench judged attempt 2


# ---------------------------------------------------------------- labels, two ways

def test_plan_candidates_are_labelled_by_the_simulator_and_planval(tmp_path):
    s = subject(BLOCKS, tmp_path)
    files = plan_files(s)
    assert files is not None
    cands = {c.origin: c for c in plan_candidates(s, *files)}
    optimum = s.expected["objective"]  # computed two ways by the folder's ground truth (planning/README.md)
    ref, detour = cands["reference plan"], cands["reference plan with a detour"]
    assert ref.feasible and ref.optimal and ref.objective == optimum
    assert detour.feasible and not detour.optimal and detour.objective == optimum + 2
    for origin in ("first step dropped", "last step dropped"):
        assert not cands[origin].feasible and not cands[origin].optimal
    assert cands["last step dropped"].checks["simulator"] == "the goal does not hold after the last step"
    assert all(not c.disputed and set(c.checks) == {"simulator", "planval"} for c in cands.values())


def test_a_program_folder_gets_a_feasible_candidate_worse_than_the_optimum(tmp_path, sandbox):
    s = subject(BAKERY, tmp_path)
    cands = build(s, sandbox, Limits(wall_s=60, cpu_s=60, memory_mb=4096), tmp_path / "roles")
    worse = [c for c in cands if c.origin.startswith("reference program solving a perturbed problem")]
    assert len(worse) == 1 and cands[1] is worse[0]  # right after the reference, kept on its label alone
    cand = worse[0]
    assert cand.feasible and not cand.optimal and not cand.disputed
    assert cand.checks == {"tests": "pass", "reference model": "holds"}  # the two ways agree
    # a third way, here: the statements' rows and the profit, from data.json
    d, x = json.loads((BAKERY / "data.json").read_text()), cand.output
    sourdough, rye = x["sourdough"], x["rye"]
    assert sourdough >= 0 and rye >= 0 and rye <= d["rye_demand"] + 1e-6
    assert d["oven_sourdough"] * sourdough + d["oven_rye"] * rye <= d["oven_minutes"] + 1e-6
    assert d["flour_sourdough"] * sourdough + d["flour_rye"] * rye <= d["flour_stock"] + 1e-6
    profit = d["profit_sourdough"] * sourdough + d["profit_rye"] * rye
    assert abs(profit - cand.objective) <= 1e-6 * abs(profit)
    assert profit < s.expected["objective"] * (1 - 1e-3)  # a maximum: truly worse, beyond the tolerance


def test_the_prelude_goes_after_the_docstring_and_future_imports():
    source = '"""Doc."""\nfrom __future__ import annotations\n\nimport json\nprint(json.dumps(1))\n'
    text = with_prelude(source, "\nPRELUDE = 1\n")
    assert text.index("PRELUDE") > text.index("from __future__") and text.index("PRELUDE") < text.index("import json")
    compile(text, "solver.py", "exec")
    assert with_prelude("def (:", "x = 1") is None


def test_the_objective_key_is_found_by_its_value_never_its_name():
    assert objective_key({"total_cost": 17.5, "x": [1, 2], "n": 3}, 17.5) == "total_cost"
    assert objective_key({"a": 4.0, "b": 4.0}, 4.0) is None  # two keys hold it: none is guessed
    assert objective_key({"cost": 5, "ok": True}, None) is None


# ---------------------------------------------------------------- end to end, the real client

def reversing(work: Path):
    """A scripted model: the reference plan as solver, "feasible" to every candidate, and every set ordered
    worst first by the candidates' labels (read from the candidates.json the harness wrote before asking)."""

    def answer(req: RecordedRequest) -> str:
        if req.stage == "direct":
            return "```json\n" + (BLOCKS / "reference" / "plan.json").read_text() + "\n```"
        if req.stage == "roles_verifier":
            return '```json\n{"feasible": true, "optimal": true, "reason": "planted"}\n```'
        cands = json.loads((work / "candidates.json").read_text())
        shown = dict(re.findall(r"^Candidate ([A-Z]): output.json: (.*)$", req.prompt, re.MULTILINE))
        rank = {letter: next(i for i, c in enumerate(cands) if json.dumps(c["output"]) == text)
                for letter, text in shown.items()}
        key = {k: score.quality(cands[i]["feasible"], cands[i]["objective"], "min") for k, i in rank.items()}
        return json.dumps({"order": sorted(shown, key=lambda k: key[k], reverse=True)})

    return answer


def test_roles_end_to_end_with_planted_answers(scripted_llm: ScriptedLLM, tmp_path, monkeypatch):
    monkeypatch.setenv("OPTIMUS_HOME", str(tmp_path / "home"))
    out = tmp_path / "out"
    scripted_llm.enqueue(None, *[reversing(out / "work" / "planning" / "blocks-1" / "roles")] * 20)
    cfg = LLMConfig.from_env(base_url=scripted_llm.base_url, api_key="test").require()
    opts = BenchOptions(dirs=[BLOCKS], out=out, llm="openai", sandbox="process", model=cfg.model,
                        make_backend=lambda: OpenAIBackend(cfg))
    [row] = run_roles(opts, progress=lambda _: None)
    labels = [c["feasible"] for c in row["candidates"]]
    v = score.verifier(row["verifier"])["feasible"]
    assert v["accuracy"] == sum(labels) / len(labels) and v["recall"] == 1.0
    sets = row["heuristic"]
    assert {s["size"] for s in sets} == {2, 4}
    assert score.heuristic(sets, 4)["hit@1"] == 0.0 and score.heuristic(sets, 4)["pairwise"] == 0.0
    assert score.heuristic(sets, 2)["hit@1"] == 0.0
    assert row["solver"]["feasible"] and row["solver"]["optimal"]
    calls = [row[f"{r}_usage"]["calls"] for r in ("solver", "verifier", "heuristic")]
    assert calls == [1, len(labels), len(sets)] and len(scripted_llm.requests) == sum(calls)
    assert run_roles(opts, progress=lambda _: None) == [json.loads(json.dumps(row))]  # a rerun with the same --out asks nothing again


def test_the_reference_answers_say_what_they_are():
    backend = RolesReference({"plan": []})
    text = backend.complete("roles_verifier", [{"role": "user", "content": "x"}]).text
    assert "reference answer" in text
    order = backend.complete("roles_heuristic", [{"role": "user", "content": "Candidate B: {}\nCandidate A: {}"}])
    assert '"order": ["B", "A"]' in order.text
