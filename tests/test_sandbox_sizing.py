"""Sandbox limits sized to the work: defaults that grow with the data, raised by flag, environment or limits.json,
and a run that hits one is told which limit, its value and how to raise it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from optimus.core.errors import ConfigError
from optimus.core.sandbox import Limits
from optimus.core.sandbox.sizing import (
    DEFAULT_MEMORY_MB,
    DEFAULT_WALL_S,
    ENV_MEMORY,
    ENV_WALL,
    data_rows,
    killed_words,
    sized_limits,
)


@pytest.fixture(autouse=True)
def no_env(monkeypatch):
    monkeypatch.delenv(ENV_WALL, raising=False)
    monkeypatch.delenv(ENV_MEMORY, raising=False)


def folder(tmp_path, rows: int, data: dict | None = None):
    (tmp_path / "data").mkdir(parents=True, exist_ok=True)
    (tmp_path / "data.json").write_text(json.dumps(data or {"k": 2}))
    lines = ["lane,cost"] + [f"l{i},{i % 7}" for i in range(rows)]
    (tmp_path / "data" / "lanes.csv").write_text("\n".join(lines) + "\n")
    return tmp_path


def test_a_small_folder_gets_the_defaults(tmp_path):
    limits = sized_limits(folder(tmp_path, 10))
    assert (limits.wall_s, limits.memory_mb) == (pytest.approx(DEFAULT_WALL_S, abs=0.1), DEFAULT_MEMORY_MB)
    assert limits.cpu_s == int(limits.wall_s)


def test_limits_grow_with_the_rows_of_tables_and_data_json(tmp_path):
    small = sized_limits(folder(tmp_path / "a", 10))
    big = folder(tmp_path / "b", 200_000, {"demand": list(range(50_000)), "nested": {"m": [[1, 2], [3]]}})
    assert data_rows(big) == 200_000 + 50_000 + 2 + 2 + 1  # table rows, list entries, nested lists counted through
    large = sized_limits(big)
    assert large.wall_s > small.wall_s and large.memory_mb > small.memory_mb
    assert large.file_size_mb > small.file_size_mb > Limits().file_size_mb  # model.mps grows with the model


def test_flag_over_environment_over_folder_over_sized(tmp_path, monkeypatch):
    root = folder(tmp_path, 10)
    (root / "limits.json").write_text(json.dumps({"timeout": 900, "memory_mb": 12000}))
    assert (sized_limits(root).wall_s, sized_limits(root).memory_mb) == (900, 12000)
    monkeypatch.setenv(ENV_WALL, "1500")
    monkeypatch.setenv(ENV_MEMORY, "16000")
    assert (sized_limits(root).wall_s, sized_limits(root).memory_mb) == (1500, 16000)
    flagged = sized_limits(root, timeout=30, memory_mb=2048)
    assert (flagged.wall_s, flagged.cpu_s, flagged.memory_mb) == (30, 30, 2048)


@pytest.mark.parametrize("text, words", [
    ('{"timeout": -1}', "'timeout' must be a positive number"),
    ('{"memory": 100}', "unknown field 'memory'"),
    ("[1]", "must be an object"),
    ("{", "not readable JSON"),
])
def test_a_wrong_limits_json_names_file_and_field(text, words, tmp_path):
    root = folder(tmp_path, 1)
    (root / "limits.json").write_text(text)
    with pytest.raises(ConfigError, match="limits.json") as caught:
        sized_limits(root)
    assert words in str(caught.value)


def test_a_wrong_environment_value_is_named(tmp_path, monkeypatch):
    monkeypatch.setenv(ENV_MEMORY, "lots")
    with pytest.raises(ConfigError, match=ENV_MEMORY):
        sized_limits(folder(tmp_path, 1))


@pytest.mark.parametrize("reason, words", [
    ("memory", ["memory limit of 3000 MiB", "--memory", ENV_MEMORY, "limits.json"]),
    ("wall", ["time limit of 45 s", "--timeout", ENV_WALL]),
    ("cpu", ["CPU time limit of 40 s", "--timeout"]),
])
def test_the_limit_hit_is_named_with_its_value_and_how_to_raise_it(reason, words):
    text = killed_words(reason, Limits(wall_s=45, cpu_s=40, memory_mb=3000))
    assert all(w in text for w in words), text


def test_a_program_over_its_memory_is_stopped_and_told_so(tmp_path, sandbox):
    """A real allocation beyond the limit: the sandbox names memory as the cause, and the words say how to raise it."""
    (tmp_path / "solver.py").write_text("import numpy as np\nx = np.ones(700 * 2**20 // 8)\nprint(x.sum())\n")
    limits = Limits(wall_s=60, cpu_s=60, memory_mb=512)
    result = sandbox.run(["python", "solver.py"], workdir=tmp_path, limits=limits)
    assert result.killed_by == "memory", (result.exit_code, result.stderr[-500:])
    assert "memory limit of 512 MiB" in killed_words(result.killed_by, limits)


def test_the_solvers_own_time_limit_lengthens_a_sized_wall_and_never_a_chosen_one(tmp_path, monkeypatch):
    """A user's --time-limit 600 on a small folder: the default 120 s wall would kill the program before HiGHS
    stops with its answer at the limit. The wall grows by the limit and HiGHS's overrun; a wall the user chose
    (flag, environment, limits.json) is theirs."""
    from optimus.commands.api import prepare_solve
    from optimus.core.sandbox.sizing import SOLVER_OVERRUN
    from optimus.core.solver_options import SolverOptions

    root = folder(tmp_path, 10)
    plain = sized_limits(root)
    timed = sized_limits(root, solver_s=600)
    assert timed.wall_s == pytest.approx(plain.wall_s + SOLVER_OVERRUN * 600) and timed.wall_s > 600
    assert timed.cpu_s == int(timed.wall_s) and timed.memory_mb == plain.memory_mb
    assert sized_limits(root, timeout=200, solver_s=600).wall_s == 200
    monkeypatch.setenv(ENV_WALL, "250")
    assert sized_limits(root, solver_s=600).wall_s == 250
    monkeypatch.delenv(ENV_WALL)
    nlp = Path(__file__).resolve().parents[1] / "nlp4lp" / "12"
    setup = prepare_solve(nlp, llm="reference", mode="prompt", sandbox="process",
                          solver=SolverOptions(time_limit=600), runs_dir=tmp_path / "runs")
    assert setup.options.limits.wall_s > 600
