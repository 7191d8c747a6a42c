"""Model backends by name: one place builds them, so no command branches on which backend it was given.

A backend registers a factory under its name (`register`); `get_backend(name, problem=…, **settings)` builds
one and `get_client(...)` wraps it in the logging client. The built-in ones are `openai` (any OpenAI-compatible
server, configured by flags and the environment: optimus.core.llm.config) and `reference` (offline: answers from the
problem's reference/ folder, no model). Factories import their backend lazily: the openai package costs ~0.5 s.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from optimus.core.errors import ConfigError
from optimus.core.llm.client import Backend, LLMClient
from optimus.core.llm.log import LLMLog

# name → factory(problem, settings); a factory raises ConfigError when it cannot be built as configured.
Factory = Callable[[Any, dict[str, Any]], Backend]
_FACTORIES: dict[str, Factory] = {}


def register(name: str) -> Callable[[Factory], Factory]:
    def add(factory: Factory) -> Factory:
        _FACTORIES[name] = factory
        return factory

    return add


def names() -> list[str]:
    return list(_FACTORIES)


def get_backend(name: str, problem: Any = None, **settings: Any) -> Backend:
    """The backend `name`, for `problem` (a Problem; the reference backend answers from its folder).
    `settings`: model, base_url, temperature, max_tokens (None: the environment's or the default)."""
    if name not in _FACTORIES:
        raise ConfigError(f"no LLM backend {name!r} (known: {', '.join(names())})")
    return _FACTORIES[name](problem, settings)


def get_client(name: str, problem: Any = None, transcript: Path | None = None, use_cache: bool = True,
               **settings: Any) -> LLMClient:
    """A logging client over `get_backend(name, problem, **settings)`: every exchange goes to `transcript`
    and, for a backend whose answers may be replayed, to the shared log."""
    backend = get_backend(name, problem, **settings)
    return LLMClient(backend, log=LLMLog() if backend.cacheable else None, transcript=transcript,
                     use_cache=use_cache)


SETTINGS = ("model", "base_url", "temperature", "max_tokens")  # what a backend takes from a command's flags


def from_args(args: Any, problem: Any = None) -> Backend:
    """The backend a command's flags name (--llm, --model, --base-url, --temperature, --max-tokens)."""
    return get_backend(args.llm, problem, **{k: getattr(args, k, None) for k in SETTINGS})


def description(backend: Backend) -> str:
    """What an offline backend is, for every place it appears ("" for a real model)."""
    return getattr(backend, "description", "")


@register("openai")
def _openai(_problem: Any, settings: dict[str, Any]) -> Backend:
    from optimus.core.llm.config import LLMConfig
    from optimus.core.llm.openai_backend import OpenAIBackend

    keys = ("model", "base_url", "temperature", "max_tokens")
    return OpenAIBackend(LLMConfig.from_env(**{k: settings.get(k) for k in keys}).require())


@register("reference")
def _reference(problem: Any, settings: dict[str, Any]) -> Backend:
    from optimus.core.llm.reference import ReferenceBackend, RequestReference

    if settings.get("request_folder") is not None:  # optimus new: before any problem folder exists
        return RequestReference(settings["request_folder"])
    if problem is None:
        raise ConfigError("--llm reference answers from a problem folder's reference/ files: it needs the folder")
    return ReferenceBackend(problem, faults=settings.get("faults"), sample=settings.get("sample", 0))
