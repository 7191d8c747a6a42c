"""OpenAIBackend: the real openai client against the scripted server, including every failure it injects."""

from __future__ import annotations

import time

import pytest

from optimus.core.errors import LLMError
from optimus.core.llm import CodeExtractionError, LLMConfig, OpenAIBackend, extract_code
from tests.scripted_server import ScriptedLLM

PROGRAM = "import json\n\nx = [i * i for i in range(10)]\njson.dump({'x': x}, open('output.json', 'w'))\n"
MESSAGES = [{"role": "system", "content": "You write PuLP."}, {"role": "user", "content": "Solve it now"}]


def backend(server: ScriptedLLM, **kw: float) -> OpenAIBackend:
    settings = {"timeout_s": 5.0, "max_retries": 3, **kw}
    return OpenAIBackend(LLMConfig(model="scripted-model", base_url=server.base_url, **settings))


def test_normal_answer_with_tokens_and_stage_header(scripted_llm: ScriptedLLM) -> None:
    scripted_llm.enqueue("codegen", f"Here you go:\n```python\n{PROGRAM}```\n")
    comp = backend(scripted_llm).complete("codegen", MESSAGES)
    assert extract_code(comp.text, comp.finish_reason) == PROGRAM
    assert comp.finish_reason == "stop" and comp.model == "scripted-model" and not comp.cached
    assert comp.prompt_tokens == 6  # words over all messages
    assert comp.completion_tokens == len(comp.text.split())
    (req,) = scripted_llm.requests
    assert req.stage == "codegen" and req.headers["x-optimus-stage"] == "codegen"
    assert req.messages == MESSAGES
    assert req.body["temperature"] == 0 and req.body["max_tokens"] == 4096
    assert req.headers["authorization"] == "Bearer optimus-no-key"  # keyless local server


def test_stage_queues_fall_back_to_the_global_queue(scripted_llm: ScriptedLLM) -> None:
    scripted_llm.enqueue(None, "global answer")
    scripted_llm.enqueue("formulation", "formulation answer")
    b = backend(scripted_llm)
    assert b.complete("formulation", MESSAGES).text == "formulation answer"
    assert b.complete("formulation", MESSAGES).text == "global answer"


def test_callable_answers_from_the_prompt(scripted_llm: ScriptedLLM) -> None:
    scripted_llm.enqueue(None, lambda req: "knapsack" if "knapsack" in req.prompt else "other")
    scripted_llm.enqueue(None, lambda req: {"text": req.stage or "", "finish_reason": "length"})
    b = backend(scripted_llm)
    assert b.complete("s", [{"role": "user", "content": "a knapsack problem"}]).text == "knapsack"
    comp = b.complete("repair", MESSAGES)
    assert (comp.text, comp.finish_reason) == ("repair", "length")


@pytest.mark.parametrize("status", [429, 500, 503])
def test_transient_error_then_success_is_retried(scripted_llm: ScriptedLLM, status: int) -> None:
    # 429 carries retry-after 0 (and retry-after-ms 0); 5xx carry nothing: the client's own backoff.
    scripted_llm.enqueue("codegen", {"status": status, "retry_after": 0 if status == 429 else None}, "fine")
    assert backend(scripted_llm).complete("codegen", MESSAGES).text == "fine"
    assert len(scripted_llm.requests) == 2


def test_persistent_500_gives_up_after_bounded_retries(scripted_llm: ScriptedLLM) -> None:
    scripted_llm.enqueue("codegen", *[{"status": 500, "retry_after": 0.01, "message": "boom"}] * 10)
    with pytest.raises(LLMError) as err:
        backend(scripted_llm, max_retries=3).complete("codegen", MESSAGES)
    assert len(scripted_llm.requests) == 3 + 1
    msg = str(err.value)
    assert "HTTP 500" in msg and "boom" in msg and scripted_llm.base_url in msg and "try again" in msg


def test_persistent_429_names_rate_limit(scripted_llm: ScriptedLLM) -> None:
    scripted_llm.enqueue(None, *[{"status": 429, "retry_after": 0.01}] * 5)
    with pytest.raises(LLMError, match="HTTP 429.*rate limited"):
        backend(scripted_llm, max_retries=2).complete("codegen", MESSAGES)
    assert len(scripted_llm.requests) == 3


def test_hang_becomes_llm_error_after_timeout(scripted_llm: ScriptedLLM) -> None:
    scripted_llm.enqueue("codegen", {"hang": 120}, {"hang": 120})
    started = time.monotonic()
    with pytest.raises(LLMError, match=r"no answer within 0.3s.*OPTIMUS_TIMEOUT_S"):
        backend(scripted_llm, timeout_s=0.3, max_retries=1).complete("codegen", MESSAGES)
    assert len(scripted_llm.requests) == 2
    # Waiting out even one hang takes 120 s; half of that leaves room for a busy machine, not for a wait
    assert time.monotonic() - started < 60


def test_hang_then_answer_recovers(scripted_llm: ScriptedLLM) -> None:
    scripted_llm.enqueue("codegen", {"hang": 10}, "late but fine")
    assert (
        backend(scripted_llm, timeout_s=0.3, max_retries=1).complete("codegen", MESSAGES).text
        == "late but fine"
    )


@pytest.mark.parametrize(
    "body, ctype",
    [
        ("<html>502 Bad Gateway</html>", "application/json"),
        ("<html>502 Bad Gateway</html>", "text/html"),
        ('{"choices": [', "application/json"),
        ('{"unexpected": true}', "application/json"),
    ],
)
def test_garbage_becomes_llm_error(scripted_llm: ScriptedLLM, body: str, ctype: str) -> None:
    scripted_llm.enqueue("codegen", {"garbage": body, "content_type": ctype})
    with pytest.raises(LLMError, match="malformed response"):
        backend(scripted_llm).complete("codegen", MESSAGES)


def test_truncated_answer_gives_feedback_for_the_model(scripted_llm: ScriptedLLM) -> None:
    scripted_llm.enqueue("codegen", {"truncate": f"```python\n{PROGRAM}```\n"})
    comp = backend(scripted_llm).complete("codegen", MESSAGES)
    assert comp.finish_reason == "length"
    with pytest.raises(CodeExtractionError) as err:
        extract_code(comp.text, finish_reason=comp.finish_reason)
    assert "cut off" in err.value.feedback and "```python" in err.value.feedback


def test_exhausted_script_is_a_clear_error(scripted_llm: ScriptedLLM) -> None:
    with pytest.raises(LLMError, match="HTTP 400.*script exhausted"):
        backend(scripted_llm).complete("codegen", MESSAGES)
    assert len(scripted_llm.requests) == 1  # 400 is not retried


def test_unreachable_server_names_base_url() -> None:
    server = ScriptedLLM()  # bound but never serving: connection accepted then nothing; close it at once
    url = server.base_url
    server.close()
    cfg = LLMConfig(model="m", base_url=url, timeout_s=1.0, max_retries=0)
    with pytest.raises(LLMError, match="OPENAI_BASE_URL"):
        OpenAIBackend(cfg).complete("codegen", MESSAGES)
