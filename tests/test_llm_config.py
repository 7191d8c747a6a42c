"""LLMConfig: environment, flag precedence and the message that tells a user how to configure a model."""

from __future__ import annotations

import pytest

from optimus.core.errors import ConfigError
from optimus.core.llm import LLMConfig, OpenAIBackend
from optimus.core.llm.config import DEFAULT_MODEL, DUMMY_API_KEY

VARS = [
    "OPENAI_API_KEY", "OPENAI_BASE_URL", "OPTIMUS_MODEL", "OPTIMUS_TEMPERATURE", "OPTIMUS_MAX_TOKENS",
    "OPTIMUS_TIMEOUT_S", "OPTIMUS_MAX_RETRIES",
]  # fmt: skip


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in VARS:
        monkeypatch.delenv(name, raising=False)


def test_missing_configuration_says_what_to_set() -> None:
    cfg = LLMConfig.from_env()
    with pytest.raises(ConfigError) as err:
        cfg.require()
    msg = str(err.value)
    for needle in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "OPTIMUS_MODEL", "--llm reference"):
        assert needle in msg
    with pytest.raises(ConfigError):
        OpenAIBackend(cfg)  # the backend refuses too, before any request


def test_defaults() -> None:
    cfg = LLMConfig.from_env(api_key="sk-test")
    assert (cfg.model, cfg.temperature, cfg.max_tokens, cfg.max_retries) == (DEFAULT_MODEL, 0.0, 4096, 3)
    assert cfg.require() is cfg


def test_env_is_read_and_flags_override_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-env")
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:1/v1")
    monkeypatch.setenv("OPTIMUS_MODEL", "env-model")
    monkeypatch.setenv("OPTIMUS_TEMPERATURE", "0.7")
    monkeypatch.setenv("OPTIMUS_MAX_TOKENS", "1000")
    env = LLMConfig.from_env()
    assert (env.api_key, env.base_url, env.model, env.temperature, env.max_tokens) == (
        "sk-env", "http://127.0.0.1:1/v1", "env-model", 0.7, 1000,
    )  # fmt: skip
    flags = LLMConfig.from_env(model="flag-model", temperature=0, max_tokens=50, timeout_s=2.5)
    assert (flags.model, flags.temperature, flags.max_tokens, flags.timeout_s) == ("flag-model", 0.0, 50, 2.5)


def test_base_url_without_key_is_enough(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:11434/v1")
    cfg = LLMConfig.from_env().require()
    assert cfg.api_key is None and cfg.effective_api_key == DUMMY_API_KEY


def test_api_key_stays_out_of_repr() -> None:
    assert "sk-secret" not in repr(LLMConfig.from_env(api_key="sk-secret"))


@pytest.mark.parametrize(
    "var, value", [("OPTIMUS_TEMPERATURE", "hot"), ("OPTIMUS_MAX_TOKENS", "0"), ("OPTIMUS_TEMPERATURE", "5")]
)
def test_bad_numbers_name_the_variable(monkeypatch: pytest.MonkeyPatch, var: str, value: str) -> None:
    monkeypatch.setenv(var, value)
    with pytest.raises(ConfigError, match=var):
        LLMConfig.from_env()
