"""Any OpenAI-compatible chat endpoint (OpenAI, vLLM, Ollama, llama.cpp server, LiteLLM) via the openai client.

Retries of 429, 5xx, connection errors and timeouts are the openai client's own (exponential backoff,
honouring Retry-After), bounded by `LLMConfig.max_retries`. What survives them becomes one LLMError whose
message names the status, the endpoint and what to try.
"""

from __future__ import annotations

import copy
import time

import openai
from openai.types.chat import ChatCompletion

from optimus.core.errors import LLMError
from optimus.core.llm.client import Completion
from optimus.core.llm.config import LLMConfig

STAGE_HEADER = "X-Optimus-Stage"

# What to try, by HTTP status; dict dispatch keeps the error path flat.
_STATUS_HINTS = {
    400: "the server rejected the request; check OPTIMUS_MODEL and OPTIMUS_MAX_TOKENS suit this server",
    401: "the key was rejected; check OPENAI_API_KEY",
    403: "the key may not use this model; check OPENAI_API_KEY and OPTIMUS_MODEL",
    404: "check OPTIMUS_MODEL names a model the server serves (GET {endpoint}/models) "
    "and that OPENAI_BASE_URL ends in /v1",
    413: "the prompt is too large for this server; use a model with a longer context",
    429: "rate limited even after retries; wait a minute and run again, or use another model or key",
}
_SERVER_ERROR_HINT = "the server kept failing after retries; try again later, or another model or endpoint"


def _server_message(exc: openai.APIStatusError) -> str:
    body = exc.body
    if isinstance(body, dict):
        err = body.get("error", body)
        msg = err.get("message") if isinstance(err, dict) else err
    else:
        msg = body or exc.message
    return " ".join(str(msg).split())[:300]


class OpenAIBackend:
    """Backend "openai". Deterministic (cacheable) only at temperature 0."""

    name = "openai"

    def __init__(self, cfg: LLMConfig) -> None:
        cfg.require()
        self.cfg = cfg
        self.model = cfg.model
        self.temperature = cfg.temperature
        self.max_tokens = cfg.max_tokens
        self.cacheable = cfg.temperature == 0
        self.seed: int | None = None  # sent as the request's `seed` when set (one per --samples sample)
        self._client = openai.OpenAI(
            api_key=cfg.effective_api_key,
            base_url=cfg.base_url,
            timeout=cfg.timeout_s,
            max_retries=cfg.max_retries,
        )

    def for_sample(self, sample: int) -> OpenAIBackend:
        """The backend of sample `sample` of several (optimus.commands.samples): the same client, and from sample 1 on a
        `seed` of its own, so that a sampling server draws independently; sample 0 sends the plain request."""
        other = copy.copy(self)
        other.seed = sample or None
        return other

    def complete(self, stage: str, messages: list[dict]) -> Completion:
        """One chat completion; raises LLMError with a fix-it message on any failure."""
        # api.openai.com wants max_completion_tokens (reasoning models refuse max_tokens); local servers
        # reliably know only max_tokens.
        limit_key = "max_tokens" if self.cfg.base_url else "max_completion_tokens"
        started = time.monotonic()
        try:
            resp = self._client.chat.completions.create(
                model=self.model,
                messages=messages,  # type: ignore[arg-type]
                temperature=self.temperature,
                extra_headers={STAGE_HEADER: stage},
                **{limit_key: self.max_tokens},
                **({"seed": self.seed} if self.seed is not None else {}),
            )
        except openai.APITimeoutError:
            raise self._error(
                stage,
                f"no answer within {self.cfg.timeout_s:g}s",
                "check the server is up, or raise OPTIMUS_TIMEOUT_S for slow local models",
            ) from None
        except openai.APIConnectionError as exc:
            raise self._error(
                stage,
                f"cannot connect ({exc.__cause__ or exc})",
                "check OPENAI_BASE_URL and that the server runs",
            ) from None
        except openai.APIStatusError as exc:
            code = exc.status_code
            hint = _STATUS_HINTS.get(code, _SERVER_ERROR_HINT if code >= 500 else "see the server's message")
            raise self._error(
                stage, f"HTTP {code}: {_server_message(exc)}", hint.format(endpoint=self.cfg.endpoint)
            ) from None
        except (openai.OpenAIError, ValueError) as exc:  # ValueError: a body that is not JSON
            raise self._malformed(stage, f"{type(exc).__name__}: {exc}") from None
        return self._completion(stage, resp, time.monotonic() - started)

    def _completion(self, stage: str, resp: object, latency_s: float) -> Completion:
        if not isinstance(resp, ChatCompletion):  # the client hands back raw text for non-JSON content types
            raise self._malformed(stage, f"got {str(resp)[:120]!r}")
        try:
            choice = resp.choices[0]
            usage = resp.usage
            return Completion(
                text=choice.message.content or "",
                model=resp.model or self.model,
                prompt_tokens=(usage.prompt_tokens or 0) if usage else 0,
                completion_tokens=(usage.completion_tokens or 0) if usage else 0,
                finish_reason=choice.finish_reason,
                latency_s=latency_s,
            )
        except (AttributeError, IndexError, TypeError) as exc:
            raise self._malformed(stage, f"no usable choices ({exc})") from None

    def _malformed(self, stage: str, detail: str) -> LLMError:
        return self._error(
            stage,
            f"malformed response, not an OpenAI chat completion: {detail}",
            "check OPENAI_BASE_URL points at an OpenAI-compatible /v1 endpoint",
        )

    def _error(self, stage: str, what: str, hint: str) -> LLMError:
        return LLMError(
            f"LLM call failed (stage {stage}, model {self.model}, POST {self.cfg.endpoint}/chat/completions, "
            f"max_retries={self.cfg.max_retries}): {what}; {hint}"
        )

    def close(self) -> None:
        self._client.close()
