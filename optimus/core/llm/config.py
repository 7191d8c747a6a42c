"""Where the model lives and how to call it: explicit arguments (CLI flags) over environment over defaults."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from optimus.core.errors import ConfigError

DEFAULT_MODEL = "gpt-4.1"
DEFAULT_TEMPERATURE = 0.0
DEFAULT_MAX_TOKENS = 4096
DEFAULT_TIMEOUT_S = 300.0
DEFAULT_MAX_RETRIES = 3

# Local OpenAI-compatible servers (Ollama, vLLM, llama.cpp) ignore the key, but the client insists on one.
DUMMY_API_KEY = "optimus-no-key"

MISSING_CONFIG_MESSAGE = (
    "no LLM endpoint is configured. Either set your OpenAI key: `export OPENAI_API_KEY=sk-...`; "
    "or point at an OpenAI-compatible server (Ollama, vLLM, llama.cpp server, LiteLLM), e.g. "
    "`export OPENAI_BASE_URL=http://localhost:11434/v1 OPTIMUS_MODEL=qwen2.5-coder:14b`; "
    "or run offline with `--llm reference`, which answers from the problem's reference/ folder."
)


def _env_number(name: str, kind: type, default: float) -> float:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        return kind(raw)
    except ValueError:
        raise ConfigError(
            f"environment variable {name}={raw!r} is not a {kind.__name__}; set it to a number or unset it"
        ) from None


def _setting(flag: float | None, name: str, kind: type, default: float) -> float:
    """A CLI flag beats the environment variable, which beats the default."""
    return kind(flag) if flag is not None else kind(_env_number(name, kind, default))


@dataclass(frozen=True)
class LLMConfig:
    """Settings of the OpenAI-compatible backend. `api_key` is kept out of repr so it never reaches a log."""

    model: str = DEFAULT_MODEL
    base_url: str | None = None
    api_key: str | None = field(default=None, repr=False)
    temperature: float = DEFAULT_TEMPERATURE
    max_tokens: int = DEFAULT_MAX_TOKENS
    timeout_s: float = DEFAULT_TIMEOUT_S
    max_retries: int = DEFAULT_MAX_RETRIES

    @classmethod
    def from_env(
        cls,
        model: str | None = None,
        base_url: str | None = None,
        api_key: str | None = None,
        temperature: float | None = None,
        max_tokens: int | None = None,
        timeout_s: float | None = None,
        max_retries: int | None = None,
    ) -> LLMConfig:
        """Build a config; an argument that is not None (a CLI flag) beats the environment variable.

        Variables: OPENAI_API_KEY, OPENAI_BASE_URL, OPTIMUS_MODEL, OPTIMUS_TEMPERATURE, OPTIMUS_MAX_TOKENS,
        OPTIMUS_TIMEOUT_S, OPTIMUS_MAX_RETRIES.
        """
        cfg = cls(
            model=model or os.environ.get("OPTIMUS_MODEL", "").strip() or DEFAULT_MODEL,
            base_url=base_url or os.environ.get("OPENAI_BASE_URL", "").strip() or None,
            api_key=api_key or os.environ.get("OPENAI_API_KEY", "").strip() or None,
            temperature=_setting(temperature, "OPTIMUS_TEMPERATURE", float, DEFAULT_TEMPERATURE),
            max_tokens=_setting(max_tokens, "OPTIMUS_MAX_TOKENS", int, DEFAULT_MAX_TOKENS),
            timeout_s=_setting(timeout_s, "OPTIMUS_TIMEOUT_S", float, DEFAULT_TIMEOUT_S),
            max_retries=_setting(max_retries, "OPTIMUS_MAX_RETRIES", int, DEFAULT_MAX_RETRIES),
        )
        cfg.validate()
        return cfg

    def validate(self) -> None:
        """Reject values no server would accept, naming the variable to fix."""
        if not 0 <= self.temperature <= 2:
            raise ConfigError(
                f"temperature {self.temperature} is outside 0..2; set OPTIMUS_TEMPERATURE in 0..2"
            )
        if self.max_tokens < 1:
            raise ConfigError(f"max_tokens {self.max_tokens} must be positive; set OPTIMUS_MAX_TOKENS >= 1")
        if self.timeout_s <= 0:
            raise ConfigError(f"timeout {self.timeout_s}s must be positive; set OPTIMUS_TIMEOUT_S > 0")
        if self.max_retries < 0:
            raise ConfigError(f"max_retries {self.max_retries} must be >= 0; set OPTIMUS_MAX_RETRIES >= 0")

    def require(self) -> LLMConfig:
        """Fail before any work when there is nowhere to send a request. Returns self for chaining."""
        if not self.api_key and not self.base_url:
            raise ConfigError(MISSING_CONFIG_MESSAGE)
        return self

    @property
    def effective_api_key(self) -> str:
        """The key to send: the real one, or a placeholder for keyless local servers."""
        return self.api_key or DUMMY_API_KEY

    @property
    def endpoint(self) -> str:
        """Human-readable endpoint for error messages."""
        return self.base_url or "https://api.openai.com/v1"
