"""One answer from a model: what a backend returns, LLMClient hands on, and LLMLog stores and gives back.

Its own module so that the log (below the client, which writes to it) need not import the client.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Completion:
    """One answer from a model. `cached` is True when it came from the log instead of a paid call."""

    text: str
    model: str
    prompt_tokens: int
    completion_tokens: int
    finish_reason: str | None
    latency_s: float
    cached: bool = False
