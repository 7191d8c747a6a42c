"""Every paid exchange with a model, in SQLite: the answer cache and the material for `optimus logs`.

The schema grows only through MIGRATIONS, an append-only list of named functions; each one runs once per
database and is recorded in the `_migrations` table. Never edit or reorder a shipped migration: add one.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path

from optimus.core.errors import ConfigError
from optimus.core.llm.completion import Completion

Migration = Callable[[sqlite3.Connection], None]
MIGRATIONS: list[Migration] = []


def migration(fn: Migration) -> Migration:
    MIGRATIONS.append(fn)
    return fn


@migration
def m001_responses(db: sqlite3.Connection) -> None:
    db.execute(
        """
        CREATE TABLE responses (
            id INTEGER PRIMARY KEY,
            request_hash TEXT NOT NULL,
            backend TEXT NOT NULL,
            model TEXT NOT NULL,
            stage TEXT,
            prompt_name TEXT,
            prompt_hash TEXT,
            temperature REAL,
            messages TEXT NOT NULL,
            response TEXT NOT NULL,
            finish_reason TEXT,
            prompt_tokens INTEGER,
            completion_tokens INTEGER,
            latency_s REAL,
            created TEXT NOT NULL
        )
        """
    )


@migration
def m002_request_hash_index(db: sqlite3.Connection) -> None:
    db.execute("CREATE INDEX responses_request_hash ON responses (request_hash)")


def default_path() -> Path:
    """$OPTIMUS_HOME/logs.db, OPTIMUS_HOME defaulting to ~/.optimus."""
    home = os.environ.get("OPTIMUS_HOME", "").strip()
    return (Path(home) if home else Path.home() / ".optimus") / "logs.db"


def migrate(db: sqlite3.Connection) -> list[str]:
    """Apply the migrations this database has not seen yet; returns their names.

    All pending migrations run in one IMMEDIATE transaction (SQLite DDL is transactional): two processes
    starting at once cannot both apply one, and a crash leaves the schema as it was.
    """
    db.execute("BEGIN IMMEDIATE")
    try:
        db.execute("CREATE TABLE IF NOT EXISTS _migrations (name TEXT PRIMARY KEY, applied TEXT NOT NULL)")
        done = {row[0] for row in db.execute("SELECT name FROM _migrations")}
        applied = []
        for fn in MIGRATIONS:
            if fn.__name__ in done:
                continue
            fn(db)
            db.execute(
                "INSERT INTO _migrations (name, applied) VALUES (?, ?)",
                (fn.__name__, datetime.now(timezone.utc).isoformat()),
            )
            applied.append(fn.__name__)
        db.commit()
    except BaseException:
        db.rollback()
        raise
    return applied


class LLMLog:
    """A logs.db on disk. Opens a short-lived connection per operation, so it is safe across threads and
    a killed run loses at most the exchange in flight."""

    def __init__(self, path: Path | str | None = None) -> None:
        self.path = Path(path) if path is not None else default_path()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self._connect() as db:
                db.execute("PRAGMA journal_mode=WAL")  # readers (optimus logs) never block a running agent
                migrate(db)
        except (OSError, sqlite3.Error) as exc:
            raise ConfigError(
                f"cannot open the LLM log {self.path}: {exc}; set OPTIMUS_HOME to a writable folder"
            ) from None

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        db = sqlite3.connect(self.path, timeout=30)
        db.row_factory = sqlite3.Row
        try:
            yield db
        finally:
            db.close()

    def record(
        self,
        *,
        request_hash: str,
        backend: str,
        stage: str | None,
        prompt_name: str | None,
        prompt_hash: str | None,
        temperature: float | None,
        messages: list[dict],
        completion: Completion,
    ) -> int:
        """Store one paid exchange; returns its row id."""
        row = (
            request_hash, backend, completion.model, stage, prompt_name, prompt_hash, temperature,
            json.dumps(messages, ensure_ascii=False), completion.text, completion.finish_reason,
            completion.prompt_tokens, completion.completion_tokens, completion.latency_s,
            datetime.now(timezone.utc).isoformat(timespec="milliseconds"),
        )  # fmt: skip
        with self._connect() as db, db:
            cur = db.execute(
                "INSERT INTO responses (request_hash, backend, model, stage, prompt_name, prompt_hash,"
                " temperature, messages, response, finish_reason, prompt_tokens, completion_tokens,"
                " latency_s, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                row,
            )
            return int(cur.lastrowid or 0)

    def lookup(self, request_hash: str) -> Completion | None:
        """The newest logged answer to this exact request, or None."""
        with self._connect() as db:
            row = db.execute(
                "SELECT * FROM responses WHERE request_hash = ? ORDER BY id DESC LIMIT 1", (request_hash,)
            ).fetchone()
        if row is None:
            return None
        return Completion(
            text=row["response"],
            model=row["model"],
            prompt_tokens=row["prompt_tokens"] or 0,
            completion_tokens=row["completion_tokens"] or 0,
            finish_reason=row["finish_reason"],
            latency_s=row["latency_s"] or 0.0,
        )

    def recent(self, limit: int = 20, stage: str | None = None) -> list[dict]:
        """The newest `limit` exchanges (of `stage`, when given), newest first, messages decoded."""
        where, params = ("WHERE stage = ?", (stage, limit)) if stage else ("", (limit,))
        with self._connect() as db:
            rows = db.execute(f"SELECT * FROM responses {where} ORDER BY id DESC LIMIT ?", params).fetchall()
        out = []
        for row in rows:
            item = dict(row)
            item["messages"] = json.loads(item["messages"])
            out.append(item)
        return out

    def count(self) -> int:
        with self._connect() as db:
            return int(db.execute("SELECT COUNT(*) FROM responses").fetchone()[0])


def recent(limit: int = 20, path: Path | str | None = None, stage: str | None = None) -> list[dict]:
    """Rows for `optimus logs`: the newest exchanges in the log at `path` (default: default_path()); none when
    no log exists yet (reading never creates one)."""
    path = Path(path) if path is not None else default_path()
    if not path.is_file():
        return []
    return LLMLog(path).recent(limit, stage)
