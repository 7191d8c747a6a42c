"""The Python API is as strict as the command line: a value the CLI refuses, and a keyword it has no flag for, are
refused before any work, naming the valid ones; a folder with errors says them in the exception's message."""

from __future__ import annotations

import json

import pytest

import optimus
from optimus.core.errors import SpecError
from optimus.core.stages import MODES
from tests.helpers import copy_problem


@pytest.fixture
def folder(tmp_path):
    return copy_problem("12", tmp_path / "p12")


def test_solve_refuses_a_mode_the_cli_refuses_naming_the_valid_ones(folder):
    with pytest.raises(ValueError, match="mode='bogus'") as caught:
        optimus.solve(folder, llm="reference", mode="bogus", sandbox="process")
    assert all(repr(mode) in str(caught.value) for mode in MODES)
    assert not (folder / "runs").exists()  # refused before any work


def test_solve_refuses_an_unknown_keyword_naming_the_valid_ones(folder):
    with pytest.raises(TypeError, match="'frobnicate'") as caught:
        optimus.solve(folder, llm="reference", frobnicate=3)
    assert "max_debug" in str(caught.value) and "rephrasings" in str(caught.value)


@pytest.mark.parametrize("given, error", [({"llm": "nonesuch"}, ValueError), ({"max_fix": "five"}, TypeError),
                                          ({"timeout": True}, TypeError), ({"samples": 1.5}, ValueError)])
def test_solve_checks_each_value_as_its_flag_would(folder, given, error):
    with pytest.raises(error):
        optimus.solve(folder, **{"llm": "reference", "sandbox": "process", **given})


def test_bench_refuses_unknown_keywords_and_modes(folder, tmp_path):
    import optimus.bench.runner  # the package's import must not hide the API's optimus.bench()

    with pytest.raises(TypeError, match="'frobnicate'.*jobs"):
        optimus.bench([folder], out=tmp_path / "b", frobnicate=1)
    with pytest.raises(ValueError, match="unknown mode bogus"):
        optimus.bench([folder], out=tmp_path / "b", modes=["prompt", "bogus"])
    with pytest.raises(TypeError, match="jobs takes a number"):
        optimus.bench([folder], out=tmp_path / "b", jobs="two")
    assert not (tmp_path / "b").exists()


def test_new_and_repair_refuse_what_their_commands_refuse(tmp_path):
    with pytest.raises(TypeError, match="'colour'"):
        optimus.new("Make 3 chairs.", tmp_path / "n", llm="reference", colour="red")
    with pytest.raises(ValueError, match="llm='gpt'"):
        optimus.new("Make 3 chairs.", tmp_path / "n", llm="gpt")
    with pytest.raises(TypeError, match="'acept'"):
        optimus.repair(tmp_path, acept=1)
    with pytest.raises(ValueError, match="mode='bogus'"):
        optimus.repair(tmp_path, accept=1, mode="bogus")
    assert not (tmp_path / "n").exists()


def test_a_folder_with_errors_says_them_in_the_message(folder):
    data = json.loads((folder / "data.json").read_text())
    data.pop(next(iter(data)))  # a key the SNOP names goes missing
    (folder / "data.json").write_text(json.dumps(data))
    with pytest.raises(SpecError) as caught:
        optimus.solve(folder, llm="reference", sandbox="process")
    assert caught.value.findings and all(str(f) in str(caught.value) for f in caught.value.findings)
