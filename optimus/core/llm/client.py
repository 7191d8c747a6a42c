"""The one door to a model: cache lookup, the backend call, the SQLite log and the run's transcript."""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import asdict, dataclass, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from optimus.core.errors import LLMError
from optimus.core.llm.completion import Completion

if TYPE_CHECKING:
    from optimus.core.llm.log import LLMLog


@runtime_checkable
class Backend(Protocol):
    """What LLMClient needs from a model provider ("openai", "reference", ...).

    Backends may also expose `temperature`, `max_tokens` and `seed`; they enter the request hash when present.
    """

    name: str
    model: str
    cacheable: bool

    def complete(self, stage: str, messages: list[dict]) -> Completion: ...


@dataclass
class LLMStats:
    """Running totals for a report. Tokens and seconds count paid calls only; cache hits cost nothing."""

    calls: int = 0
    cached_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    llm_seconds: float = 0.0

    def as_dict(self) -> dict:
        return asdict(self)

    def add(self, usage: dict) -> None:
        """Another client's totals (as_dict) added to these: a sample's, an assumption check's."""
        for key in asdict(self):
            setattr(self, key, getattr(self, key) + usage.get(key, 0))


def for_sample(backend: Backend, sample: int) -> Backend:
    """The backend that answers sample `sample` of several independent formulations (optimus.commands.samples): a backend
    that can tell samples apart (a per-sample seed, the reference backend's second reading) says how in its
    `for_sample`; any other answers every sample alike."""
    make = getattr(backend, "for_sample", None)
    return make(sample) if callable(make) else backend


def request_hash(backend: Backend, messages: list[dict]) -> str:
    """sha256 of everything that determines a deterministic answer, as canonical JSON."""
    payload = {
        "backend": backend.name,
        "model": backend.model,
        "temperature": getattr(backend, "temperature", None),
        "max_tokens": getattr(backend, "max_tokens", None),
        "messages": messages,
    }
    if getattr(backend, "seed", None) is not None:  # only when set: hashes of seedless requests stay as they were
        payload["seed"] = backend.seed
    canonical = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


# Paid model calls one solve may make (--max-calls). Full mode could spend about 60 with the default repair
# budgets, every rephrasing failing; a solve still unverified after 40 is stuck, and says so rather than spending on
# (the issue that set it measured 38–48 calls on runs that ended "not verified" anyway).
MAX_CALLS = 40


class LLMClient:
    """Calls a backend, answering repeated deterministic requests from the log.

    Every exchange (paid, cached or failed) is appended to `transcript` as one JSON line, so a run folder
    shows exactly what was asked and answered. Only paid answers are written to the log.
    """

    def __init__(
        self,
        backend: Backend,
        log: LLMLog | None = None,
        transcript: Path | str | None = None,
        use_cache: bool = True,
    ) -> None:
        self.backend = backend
        self.log = log
        self.transcript = Path(transcript) if transcript is not None else None
        self.use_cache = use_cache
        self.stats = LLMStats()
        self.max_calls: int | None = None  # paid calls this client may make (--max-calls); None: no budget

    def chat(
        self,
        stage: str,
        messages: list[dict],
        prompt_name: str | None = None,
        prompt_hash: str | None = None,
    ) -> Completion:
        """Answer `messages`; raises LLMError when the backend gives up."""
        rhash = request_hash(self.backend, messages)
        meta = {"stage": stage, "prompt_name": prompt_name, "prompt_hash": prompt_hash, "request_hash": rhash}

        comp = self._from_cache(rhash)
        if comp is not None:
            self.stats.cached_calls += 1
            self._append_transcript(meta, messages, comp)
            return comp

        if self.max_calls is not None and self.stats.calls >= self.max_calls:
            raise LLMError(f"the budget of {self.max_calls} model calls is spent (--max-calls); the {stage} step "
                           "was not asked")
        started = time.monotonic()
        try:
            comp = self.backend.complete(stage, messages)
        except LLMError as exc:
            self._append_transcript(
                meta, messages, None, error=str(exc), latency_s=time.monotonic() - started
            )
            raise
        self.stats.calls += 1
        self.stats.prompt_tokens += comp.prompt_tokens
        self.stats.completion_tokens += comp.completion_tokens
        self.stats.llm_seconds += comp.latency_s
        if self.log is not None:
            self.log.record(
                request_hash=rhash,
                backend=self.backend.name,
                stage=stage,
                prompt_name=prompt_name,
                prompt_hash=prompt_hash,
                temperature=getattr(self.backend, "temperature", None),
                messages=messages,
                completion=comp,
            )
        self._append_transcript(meta, messages, comp)
        return comp

    def _from_cache(self, rhash: str) -> Completion | None:
        if not (self.use_cache and self.backend.cacheable and self.log is not None):
            return None
        hit = self.log.lookup(rhash)
        return replace(hit, cached=True, latency_s=0.0) if hit is not None else None

    def _append_transcript(
        self,
        meta: dict,
        messages: list[dict],
        comp: Completion | None,
        error: str | None = None,
        latency_s: float | None = None,
    ) -> None:
        if self.transcript is None:
            return
        line = {
            **meta,
            "backend": self.backend.name,
            "messages": messages,
            "response": comp.text if comp else None,
            "model": comp.model if comp else self.backend.model,
            "prompt_tokens": comp.prompt_tokens if comp else 0,
            "completion_tokens": comp.completion_tokens if comp else 0,
            "latency_s": round(comp.latency_s if comp else (latency_s or 0.0), 4),
            "cached": comp.cached if comp else False,
            "finish_reason": comp.finish_reason if comp else None,
            "error": error,
            "timestamp": datetime.now(timezone.utc).isoformat(timespec="milliseconds"),
        }
        self.transcript.parent.mkdir(parents=True, exist_ok=True)
        # One write per line, flushed on close, so a killed run leaves a readable transcript.
        with self.transcript.open("a", encoding="utf-8") as fh:
            fh.write(json.dumps(line, ensure_ascii=False) + "\n")
