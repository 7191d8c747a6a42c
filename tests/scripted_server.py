"""A scripted OpenAI-compatible server on 127.0.0.1 for driving the real openai client in tests.

Answers come from queues: one per stage (the X-Optimus-Stage request header) and a global one (stage None)
used when the stage's queue is empty. An entry is
- a str: the assistant text (finish_reason "stop");
- a callable: gets the RecordedRequest, returns an entry (a str or one of the dicts below);
- a dict, one of:
    {"text": str, "finish_reason": "length"}    any text/finish_reason pair
    {"truncate": str}                           the text cut in half, finish_reason "length"
    {"status": 429|500|..., "retry_after": s}   an OpenAI-style error body; retry_after (seconds) is sent as
                                                retry-after (whole seconds) and retry-after-ms
    {"hang": s}                                 no answer for s seconds, then the connection is closed
    {"garbage": str, "content_type": str}       HTTP 200 with that body (content-type default application/json)
An empty script answers HTTP 400 "script exhausted" (not retried by clients), so a test sees the mistake.
Usage counts words: prompt_tokens over all message contents, completion_tokens over the answer.
"""

from __future__ import annotations

import json
import threading
import time
from collections import defaultdict, deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

Entry = str | dict | Callable[["RecordedRequest"], Any]


@dataclass
class RecordedRequest:
    path: str
    body: dict
    headers: dict[str, str]  # lower-cased names
    stage: str | None
    at: float = field(default_factory=time.monotonic)

    @property
    def messages(self) -> list[dict]:
        return self.body.get("messages", [])

    @property
    def prompt(self) -> str:
        """All message contents joined, for callables that answer by what the prompt says."""
        return "\n".join(str(m.get("content", "")) for m in self.messages)


def _words(text: str) -> int:
    return len(text.split())


class ScriptedLLM:
    """The server plus its script. Use as the `scripted_llm` fixture, or start()/close() by hand."""

    def __init__(self) -> None:
        self.queues: dict[str | None, deque[Entry]] = defaultdict(deque)
        self.requests: list[RecordedRequest] = []
        self._lock = threading.Lock()
        self._closing = threading.Event()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _make_handler(self))
        self._server.daemon_threads = True  # a hanging handler must not block shutdown
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}/v1"

    def enqueue(self, stage: str | None, *entries: Entry) -> None:
        with self._lock:
            self.queues[stage].extend(entries)

    def requests_for(self, stage: str | None) -> list[RecordedRequest]:
        return [r for r in self.requests if r.stage == stage]

    def start(self) -> ScriptedLLM:
        self._thread.start()
        return self

    def close(self) -> None:
        self._closing.set()
        if self._thread.is_alive():  # shutdown() would wait forever on a server that never served
            self._server.shutdown()
            self._thread.join(timeout=5)
        self._server.server_close()

    def _next(self, req: RecordedRequest) -> Entry | None:
        with self._lock:
            self.requests.append(req)
            for key in (req.stage, None):
                if self.queues.get(key):
                    return self.queues[key].popleft()
        return None


def _make_handler(llm: ScriptedLLM) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:  # keep pytest output clean
            pass

        def _send(
            self,
            status: int,
            body: bytes,
            headers: dict[str, str] | None = None,
            ctype: str = "application/json",
        ) -> None:
            self.send_response(status)
            self.send_header("content-type", ctype)
            self.send_header("content-length", str(len(body)))
            for k, v in (headers or {}).items():
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(body)

        def _json(self, status: int, obj: dict, headers: dict[str, str] | None = None) -> None:
            self._send(status, json.dumps(obj).encode(), headers)

        def do_GET(self) -> None:
            if self.path.rstrip("/") == "/v1/models":
                self._json(200, {"object": "list", "data": [{"id": "scripted", "object": "model"}]})
            else:
                self._json(404, {"error": {"message": f"no route {self.path}", "type": "not_found"}})

        def do_POST(self) -> None:
            raw = self.rfile.read(int(self.headers.get("content-length", 0) or 0))
            headers = {k.lower(): v for k, v in self.headers.items()}
            try:
                body = json.loads(raw or b"{}")
            except json.JSONDecodeError:
                body = {}
            req = RecordedRequest(self.path, body, headers, headers.get("x-optimus-stage"))
            if self.path.rstrip("/") != "/v1/chat/completions":
                with llm._lock:
                    llm.requests.append(req)
                self._json(404, {"error": {"message": f"no route {self.path}", "type": "not_found"}})
                return
            entry = llm._next(req)
            while callable(entry):
                entry = entry(req)
            self._answer(req, entry)

        def _answer(self, req: RecordedRequest, entry: str | dict | None) -> None:
            if entry is None:
                self._json(400, {"error": {"message": "script exhausted", "type": "invalid_request_error"}})
                return
            if isinstance(entry, str):
                entry = {"text": entry}
            if "hang" in entry:
                llm._closing.wait(entry["hang"])
                self.close_connection = True
                return
            if "garbage" in entry:
                self._send(
                    200, entry["garbage"].encode(), ctype=entry.get("content_type", "application/json")
                )
                return
            if "status" in entry:
                headers = {}
                if entry.get("retry_after") is not None:
                    headers["retry-after"] = str(int(entry["retry_after"]))
                    headers["retry-after-ms"] = str(int(entry["retry_after"] * 1000))
                msg = entry.get("message", f"scripted error {entry['status']}")
                self._json(entry["status"], {"error": {"message": msg, "type": "scripted"}}, headers)
                return
            if "truncate" in entry:
                full = entry["truncate"]
                entry = {"text": full[: len(full) // 2], "finish_reason": "length"}
            text = entry["text"]
            prompt_tokens, completion_tokens = _words(req.prompt), _words(text)
            self._json(
                200,
                {
                    "id": f"chatcmpl-scripted-{len(llm.requests)}",
                    "object": "chat.completion",
                    "created": int(time.time()),
                    "model": req.body.get("model", "scripted"),
                    "choices": [
                        {
                            "index": 0,
                            "message": {"role": "assistant", "content": text},
                            "finish_reason": entry.get("finish_reason", "stop"),
                        }
                    ],
                    "usage": {
                        "prompt_tokens": prompt_tokens,
                        "completion_tokens": completion_tokens,
                        "total_tokens": prompt_tokens + completion_tokens,
                    },
                },
            )

    return Handler


@pytest.fixture
def scripted_llm() -> Iterator[ScriptedLLM]:
    """A running scripted server on 127.0.0.1, shut down after the test."""
    llm = ScriptedLLM().start()
    try:
        yield llm
    finally:
        llm.close()
