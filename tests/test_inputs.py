"""No traceback from any input (issue 24): deep nesting, a closed pipe, numbers that are not numbers, fuzzed data."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from optimus.commands.cli import main
from optimus.core.datasummary import summarize
from optimus.core.errors import SpecError
from optimus.core.problem import load_problem
from optimus.core.validate import validate
from tests.helpers import copy_problem

ROOT = Path(__file__).resolve().parents[1]


def nested(depth: int) -> dict:
    value: dict = {"leaf": 1}
    for _ in range(depth):
        value = {"k": value}
    return value


def test_data_nested_600_deep_is_refused_with_its_path_by_validate_and_solve(tmp_path, capsys):
    folder = copy_problem("12", tmp_path / "12")
    data = json.loads((folder / "data.json").read_text())
    (folder / "data.json").write_text(json.dumps({**data, "extra": nested(600)}))
    errors = [f for f in validate(folder) if f.level == "error"]
    assert len(errors) == 1 and errors[0].file.endswith("data.json")
    assert errors[0].where.startswith("$.extra.k.k") and "100 levels" in errors[0].message
    capsys.readouterr()
    assert main(["validate", str(folder)]) == 2
    assert main(["solve", str(folder), "--llm", "reference", "--sandbox", "process"]) == 2
    err = capsys.readouterr()
    assert "Traceback" not in err.out + err.err and "$.extra.k.k" in err.out


def test_data_nested_within_the_limit_is_read_and_summarized(tmp_path):
    folder = copy_problem("12", tmp_path / "12")
    data = json.loads((folder / "data.json").read_text())
    (folder / "data.json").write_text(json.dumps({**data, "extra": nested(98)}))
    problem = load_problem(folder)
    assert "extra" in summarize(problem.data, problem.snop.input_format)


@pytest.mark.parametrize("args", [["convert", "nlp4lp/3"], ["logs", "--json"], ["validate", "nlp4lp/3", "--json"]],
                         ids=lambda a: a[0])
def test_a_reader_that_leaves_ends_the_command_quietly(args, tmp_path):
    """`optimus logs --json | head -3`: the reader closes its end before we write; no BrokenPipeError trace."""
    read, write = os.pipe()
    os.close(read)  # the reader has already left: the first write fails, every time
    proc = subprocess.run([sys.executable, "-m", "optimus", *args], cwd=ROOT, stdout=write, stderr=subprocess.PIPE, check=False,
                          text=True, timeout=300, env={**os.environ, "OPTIMUS_HOME": str(tmp_path)})
    os.close(write)
    assert proc.stderr == "" and proc.returncode == 141


def test_numbers_in_words_and_nan_are_warnings_naming_file_and_path(tmp_path, capsys):
    folder = copy_problem("12", tmp_path / "12")
    text = (folder / "data.json").read_text()
    data = json.loads(text)
    data["max_open"] = "three"
    data["demand"][2] = float("nan")
    data["capacity"][0] = float("inf")
    (folder / "data.json").write_text(json.dumps(data))  # Python writes NaN and Infinity, as many tools do
    warnings = [f for f in validate(folder) if f.level == "warning"]
    where = {f.where: f for f in warnings}
    assert "$.max_open" in where and "words" in where["$.max_open"].message
    assert {"$.demand[2]", "$.capacity[0]"} <= set(where)
    assert all(f.file == str(folder / "data.json") for f in warnings)
    assert main(["validate", str(folder), "--strict"]) == 1


def test_warnings_are_shown_before_a_solve(tmp_path, capsys):
    folder = copy_problem("12", tmp_path / "12")
    data = json.loads((folder / "data.json").read_text())
    (folder / "data.json").write_text(json.dumps({**data, "note": float("nan")}))
    main(["solve", str(folder), "--llm", "reference", "--mode", "prompt", "--sandbox", "process"])
    err = capsys.readouterr().err
    assert "warning:" in err and "$.note" in err
    assert err.index("$.note") < err.index("run 1:")


def test_a_string_that_only_looks_like_words_is_not_flagged(tmp_path):
    folder = copy_problem("12", tmp_path / "12")
    data = json.loads((folder / "data.json").read_text())
    (folder / "data.json").write_text(json.dumps({**data, "max_open": "tenfold"}))
    assert not [f for f in validate(folder) if "words" in f.message]


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=30)


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(extra=st.dictionaries(st.sampled_from(["cost", "demand", "capacity", "max_open", "x", ""]), json_values,
                             max_size=4))
def test_fuzzed_data_gives_findings_never_an_exception(tmp_path, extra):
    """Any JSON object as data.json, its keys clashing with the template's: validate and the data summary (what a
    solve does before the first model call) answer with findings, never a traceback."""
    folder = tmp_path / "p"
    if not folder.exists():
        copy_problem("12", folder)
    data = json.loads((ROOT / "nlp4lp" / "12" / "data.json").read_text())
    (folder / "data.json").write_text(json.dumps({**data, **extra}))
    findings = validate(folder)
    if not any(f.level == "error" for f in findings):
        problem = load_problem(folder)
        summarize(problem.data, problem.snop.input_format)


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(raw=st.binary(max_size=200) | st.text(max_size=200).map(str.encode))
def test_fuzzed_bytes_in_data_json_and_snop_json_are_findings(tmp_path, raw):
    folder = tmp_path / "p"
    if not folder.exists():
        copy_problem("12", folder)
    for name in ("data.json", "description.txt"):
        original = (ROOT / "nlp4lp" / "12" / name).read_bytes()
        (folder / name).write_bytes(raw)
        try:
            assert validate(folder)  # unreadable is an error finding; never raised
        except SpecError as exc:  # pragma: no cover — validate turns these into findings
            pytest.fail(f"raised {exc}")
        (folder / name).write_bytes(original)


def test_a_bug_of_ours_is_one_line_and_the_traceback_is_there_on_request(monkeypatch, capsys):
    def broken(args):
        raise KeyError("oops")

    monkeypatch.setattr("optimus.commands.cli.cmd_convert", broken)
    monkeypatch.delenv("OPTIMUS_DEBUG", raising=False)
    assert main(["convert", "nlp4lp/3"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "internal error: KeyError" in err and "OPTIMUS_DEBUG=1" in err
    monkeypatch.setenv("OPTIMUS_DEBUG", "1")
    with pytest.raises(KeyError):
        main(["convert", "nlp4lp/3"])
