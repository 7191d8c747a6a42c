"""The nested ablation: one trajectory records each lesser mode's verdict where that mode would have stopped.
Its ground truth is the independent ablation (every mode from scratch): the verdicts must be the same."""

from __future__ import annotations

import json
import shutil

import pytest

from optimus.bench.draw import candidates, first_breaking
from optimus.bench.faults import FaultPlan
from optimus.bench.runner import BenchOptions, run_bench
from optimus.core.errors import ConfigError
from optimus.core.llm import LLMClient
from optimus.core.llm.reference import ReferenceBackend
from optimus.core.loop import Events, Options, phases, solve
from optimus.core.problem import load_problem
from optimus.core.runstore import RunStore
from optimus.core.sandbox import Limits
from optimus.core.stages import MODES
from tests.helpers import NLP4LP
from tests.test_faults import SHORT, subject

LIMITS = Limits(wall_s=20, cpu_s=20, memory_mb=4096)


def test_nested_rows_match_independent_rows_at_a_fraction_of_the_calls(tmp_path):
    """Four problems with faults drawn (seed 0), all five modes, both ablations."""
    rows = {}
    for ablation in ("independent", "nested"):
        opts = BenchOptions(dirs=[NLP4LP / n for n in ("1", "5", "12", "15")], out=tmp_path / ablation,
                            sandbox="process", faults="all", timeout=10, rephrasings=1, jobs=2, ablation=ablation)
        rows[ablation] = {(r["problem"], r["mode"]): r for r in run_bench(opts, progress=lambda _: None)}
    assert rows["nested"].keys() == rows["independent"].keys() and len(rows["nested"]) == 4 * len(MODES)
    for key, row in rows["independent"].items():
        nested = rows["nested"][key]
        assert (nested["success"], nested["executed"], nested["fault"]) == (row["success"], row["executed"],
                                                                             row["fault"]), key
    independent_paid = sum(r["llm_calls"] for r in rows["independent"].values())
    full_alone = sum(r["llm_calls"] for (_, m), r in rows["independent"].items() if m == "full")
    # Nested pays for one trajectory per problem: its full rows' calls, no more (the lesser rows are prefixes).
    nested_paid = sum(r["llm_calls"] for (_, m), r in rows["nested"].items() if m == "full")
    assert nested_paid < independent_paid / 2 and nested_paid <= 2 * full_alone
    for problem in {p for p, _ in rows["nested"]}:
        ladder = [rows["nested"][(problem, m)] for m in MODES]
        assert [r["llm_calls"] for r in ladder] == sorted(r["llm_calls"] for r in ladder)  # spent so far
        assert len({r["run_dir"] for r in ladder}) == 1  # one trajectory, one run folder
    assert json.loads((tmp_path / "nested" / "bench.json").read_text())["ablation"] == "nested"


def test_a_lesser_mode_gets_the_verdict_it_reaches_alone(sandbox, tmp_path):
    """A syntax error: prompt mode stops on the broken first run, debug repairs it; recorded on the way to
    supervised, each report equals what that mode reaches run on its own."""
    s = subject("1", tmp_path)
    index = first_breaking(s, "syntax_error", 0, sandbox, SHORT)
    assert index is not None

    def run(mode: str, record: tuple[str, ...] = ()):
        folder = tmp_path / f"{mode}-{'-'.join(record)}"
        shutil.copytree(s.problem.root, folder)
        problem = load_problem(folder)
        plan = FaultPlan(candidates(s, "syntax_error", 0)[index])
        seen = []
        report = solve(problem, LLMClient(ReferenceBackend(problem, faults=plan)), sandbox, RunStore(folder),
                       Options(mode=mode, limits=LIMITS, record=record),
                       events=Events(on_mode_end=lambda r, a: seen.append((r, a))))
        return report, seen

    final, seen = run("supervised", ("prompt", "debug"))
    assert [r.mode for r, _ in seen] == ["prompt", "debug"]
    (prompt, prompt_at), (debug, debug_at) = seen
    assert (prompt_at, debug_at) == ("v0/attempt-01", "v0/attempt-02")
    assert final.status == "solved" and final.attempts == {"formulate": 1, "codegen": 1, "debug": 1}
    assert final.tests["source"] == "supervised" and debug.tests == {} and prompt.llm_usage["calls"] == 2
    for lesser in (prompt, debug):
        alone, _ = run(lesser.mode)
        assert (lesser.status, lesser.verified, lesser.executed, lesser.attempts) == (
            alone.status, alone.verified, alone.executed, alone.attempts)
    assert prompt.status != "solved" and debug.status == "solved"


def test_a_trajectory_records_only_lesser_modes():
    with pytest.raises(ConfigError, match="only modes below"):
        phases(Options(mode="debug", record=("supervised",)))
    assert [p.mode for p in phases(Options(mode="full", record=("supervised", "prompt")))] == [
        "prompt", "supervised", "full"]


def test_a_resumed_run_keeps_its_ablation(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    opts = BenchOptions(dirs=[NLP4LP / "1"], out=out, modes=["prompt"], sandbox="process")
    old = {k: v for k, v in opts.settings().items() if k != "ablation"}  # written before --ablation existed
    (out / "bench.json").write_text(json.dumps(old))
    with pytest.raises(ConfigError, match="ablation"):
        run_bench(opts, progress=lambda _: None)
    opts.ablation = "independent"
    assert [r["mode"] for r in run_bench(opts, progress=lambda _: None)] == ["prompt"]
