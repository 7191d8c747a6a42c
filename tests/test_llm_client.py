"""LLMClient: transcript lines, the SQLite answer cache (across restarts), stats and the log's schema."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from optimus.core.errors import LLMError
from optimus.core.llm import LLMClient, LLMConfig, LLMLog, OpenAIBackend, request_hash
from optimus.core.llm.log import MIGRATIONS, default_path, recent
from tests.scripted_server import ScriptedLLM

MESSAGES = [{"role": "user", "content": "write the solver please"}]
FIELDS = {
    "stage", "prompt_name", "prompt_hash", "request_hash", "messages", "response", "model", "prompt_tokens",
    "completion_tokens", "latency_s", "cached", "finish_reason", "timestamp",
}  # fmt: skip


def make_client(server: ScriptedLLM, tmp_path: Path, temperature: float = 0.0, **kw: object) -> LLMClient:
    cfg = LLMConfig(model="scripted-model", base_url=server.base_url, temperature=temperature, max_retries=0)
    return LLMClient(
        OpenAIBackend(cfg), log=LLMLog(tmp_path / "logs.db"), transcript=tmp_path / "t.jsonl", **kw
    )


def transcript(tmp_path: Path) -> list[dict]:
    return [json.loads(line) for line in (tmp_path / "t.jsonl").read_text().splitlines()]


def test_transcript_line_per_exchange_and_cache_hit(scripted_llm: ScriptedLLM, tmp_path: Path) -> None:
    scripted_llm.enqueue("codegen", "answer one")
    client = make_client(scripted_llm, tmp_path)
    first = client.chat("codegen", MESSAGES, prompt_name="codegen", prompt_hash="ab12")
    second = client.chat("codegen", MESSAGES, prompt_name="codegen", prompt_hash="ab12")
    assert len(scripted_llm.requests) == 1  # the second answer came from the log
    assert (first.text, first.cached, second.text, second.cached) == ("answer one", False, "answer one", True)
    lines = transcript(tmp_path)
    assert len(lines) == 2 and all(FIELDS <= set(line) for line in lines)
    assert [line["cached"] for line in lines] == [False, True]
    assert lines[0]["request_hash"] == lines[1]["request_hash"] and len(lines[0]["request_hash"]) == 64
    assert lines[0]["response"] == "answer one" and lines[0]["messages"] == MESSAGES
    assert (lines[0]["stage"], lines[0]["prompt_name"], lines[0]["prompt_hash"]) == (
        "codegen",
        "codegen",
        "ab12",
    )
    assert (lines[0]["prompt_tokens"], lines[0]["completion_tokens"]) == (4, 2)
    assert client.stats.as_dict() == {
        "calls": 1, "cached_calls": 1, "prompt_tokens": 4, "completion_tokens": 2,
        "llm_seconds": pytest.approx(first.latency_s),
    }  # fmt: skip


def test_use_cache_false_calls_again(scripted_llm: ScriptedLLM, tmp_path: Path) -> None:
    scripted_llm.enqueue(None, "first", "second")
    make_client(scripted_llm, tmp_path).chat("codegen", MESSAGES)
    again = make_client(scripted_llm, tmp_path, use_cache=False).chat("codegen", MESSAGES)
    assert (again.text, again.cached, len(scripted_llm.requests)) == ("second", False, 2)


def test_nonzero_temperature_is_never_cached(scripted_llm: ScriptedLLM, tmp_path: Path) -> None:
    scripted_llm.enqueue(None, "first", "second")
    client = make_client(scripted_llm, tmp_path, temperature=0.7)
    assert [client.chat("codegen", MESSAGES).text for _ in range(2)] == ["first", "second"]


def test_different_messages_miss_the_cache(scripted_llm: ScriptedLLM, tmp_path: Path) -> None:
    scripted_llm.enqueue(None, "first", "second")
    client = make_client(scripted_llm, tmp_path)
    client.chat("codegen", MESSAGES)
    other = client.chat("codegen", [*MESSAGES, {"role": "user", "content": "and fix it"}])
    assert (other.text, other.cached) == ("second", False)


def test_restarted_run_answers_from_the_same_log(scripted_llm: ScriptedLLM, tmp_path: Path) -> None:
    scripted_llm.enqueue(None, "paid once")
    make_client(scripted_llm, tmp_path).chat("formulation", MESSAGES)
    restarted = make_client(scripted_llm, tmp_path)  # new LLMLog object on the same file, as after a kill
    comp = restarted.chat("formulation", MESSAGES)
    assert (comp.text, comp.cached, len(scripted_llm.requests)) == ("paid once", True, 1)
    assert restarted.stats.calls == 0 and restarted.stats.cached_calls == 1


def test_failed_exchange_is_in_the_transcript_not_the_log(scripted_llm: ScriptedLLM, tmp_path: Path) -> None:
    scripted_llm.enqueue(None, {"status": 500})
    client = make_client(scripted_llm, tmp_path)
    with pytest.raises(LLMError, match="HTTP 500"):
        client.chat("codegen", MESSAGES)
    (line,) = transcript(tmp_path)
    assert line["response"] is None and "HTTP 500" in line["error"]
    assert client.log is not None and client.log.count() == 0 and client.stats.calls == 0


def test_log_rows_and_recent(scripted_llm: ScriptedLLM, tmp_path: Path, optimus_home: Path) -> None:
    scripted_llm.enqueue(None, "a", "b")
    cfg = LLMConfig(model="scripted-model", base_url=scripted_llm.base_url)
    client = LLMClient(OpenAIBackend(cfg), log=LLMLog())  # default path: $OPTIMUS_HOME/logs.db
    client.chat("formulation", MESSAGES, prompt_name="formulation", prompt_hash="f00d")
    client.chat("codegen", [{"role": "user", "content": "code"}])
    assert default_path() == optimus_home / "logs.db" and default_path().exists()
    rows = recent(10)
    assert [r["response"] for r in rows] == ["b", "a"]  # newest first
    assert rows[1]["messages"] == MESSAGES and rows[1]["prompt_hash"] == "f00d"
    assert (
        rows[1]["temperature"] == 0 and rows[1]["backend"] == "openai" and rows[1]["stage"] == "formulation"
    )
    assert len(recent(1)) == 1


def test_migrations_run_once_and_are_recorded(tmp_path: Path) -> None:
    path = tmp_path / "logs.db"
    LLMLog(path)
    LLMLog(path)  # a second open must not re-apply anything
    with sqlite3.connect(path) as db:
        names = [row[0] for row in db.execute("SELECT name FROM _migrations ORDER BY name")]
    assert names == sorted(fn.__name__ for fn in MIGRATIONS)


def test_request_hash_covers_what_changes_the_answer() -> None:
    def h(messages: list[dict] = MESSAGES, **kw: object) -> str:
        settings = {"model": "m", "base_url": "http://127.0.0.1:9/v1", **kw}
        return request_hash(OpenAIBackend(LLMConfig(**settings)), messages)  # type: ignore[arg-type]

    assert h() == h([{"content": "write the solver please", "role": "user"}])  # key order is irrelevant
    variants = {
        h(),
        h(model="m2"),
        h(temperature=0.5),
        h(max_tokens=10),
        h([{"role": "user", "content": "x"}]),
    }
    assert len(variants) == 5
