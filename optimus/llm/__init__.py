"""Talking to models: configuration, backends, the logging/caching client and code extraction."""

from optimus.llm.client import Backend, Completion, LLMClient, LLMStats, request_hash
from optimus.llm.config import LLMConfig
from optimus.llm.extract import CodeExtractionError, extract_code
from optimus.llm.log import LLMLog
from optimus.llm.openai_backend import OpenAIBackend

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
