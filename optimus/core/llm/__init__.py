"""Talking to models: configuration, backends, the logging/caching client and code extraction."""

from optimus.core.llm.client import Backend, Completion, LLMClient, LLMStats, request_hash
from optimus.core.llm.config import LLMConfig
from optimus.core.llm.extract import CodeExtractionError, extract_code
from optimus.core.llm.log import LLMLog

__all__ = [
    "Backend",
    "CodeExtractionError",
    "Completion",
    "LLMClient",
    "LLMConfig",
    "LLMLog",
    "LLMStats",
    "OpenAIBackend",
    "extract_code",
    "request_hash",
]


def __getattr__(name: str):
    # The openai package takes ~0.5 s to import: only runs that talk to a model pay for it.
    if name == "OpenAIBackend":
        from optimus.core.llm.openai_backend import OpenAIBackend

        return OpenAIBackend
    raise AttributeError(f"module 'optimus.core.llm' has no attribute {name!r}")
