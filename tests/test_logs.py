"""`optimus logs`: the newest exchanges from logs.db, shown newest last, filtered by stage; reading never creates
a log."""

from __future__ import annotations

import json

from optimus.commands.cli import main
from optimus.core.llm.completion import Completion
from optimus.core.llm.log import LLMLog


def _record(log: LLMLog, stage: str, question: str, answer: str) -> None:
    log.record(request_hash=f"h-{question}", backend="openai", stage=stage, prompt_name=stage, prompt_hash="abc",
               temperature=0.0, messages=[{"role": "user", "content": question}],
               completion=Completion(answer, "m1", 11, 7, "stop", 0.5))


def test_logs_lists_the_newest_newest_last_and_filters_by_stage(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("OPTIMUS_HOME", str(tmp_path))
    log = LLMLog()
    _record(log, "formulate", "Q1", "A1")
    _record(log, "fix", "Q2", "A2")
    _record(log, "fix", "Q3", "A3")
    assert main(["logs", "-n", "2", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["response"] for r in rows] == ["A2", "A3"]  # the two newest, newest last as in the text form
    assert main(["logs", "--stage", "formulate", "-n", "0", "--json"]) == 0
    assert [r["messages"][-1]["content"] for r in json.loads(capsys.readouterr().out)] == ["Q1"]
    assert main(["logs", "-n", "0"]) == 0
    text = capsys.readouterr().out
    assert text.index("Q1") < text.index("Q2") < text.index("Q3")  # the text form reads like a conversation
    assert "11+7 tokens" in text and "fix" in text


def test_logs_on_a_machine_with_no_log_says_so_and_creates_nothing(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("OPTIMUS_HOME", str(tmp_path / "home"))
    assert main(["logs"]) == 0
    assert "no exchanges logged" in capsys.readouterr().err
    assert not (tmp_path / "home").exists()
