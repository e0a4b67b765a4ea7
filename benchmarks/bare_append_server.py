"""The peer of benchmarks/room_load.py: a FastAPI server that only appends, durably, one event
per request into a table of its own, with a plain INSERT and COMMIT through the database's own
driver (sqlite3 or psycopg: no handlog store, no SQLAlchemy).

It keeps what any event log must: an optimistic version (the primary key (stream, version): a
stale version is 409 with the version there), an idempotent event id (a unique key: the same id
again answers the version it got), and the same durability as handlog (SQLite: WAL and
synchronous=FULL; PostgreSQL: its default synchronous commit). It has no rules, no state, no
views, no hash chain, no Merkle tree and no lock over the room: what handlog adds on top of a
bare durable append, its lock included, is what the ratio measures.

    .venv/bin/python benchmarks/bare_append_server.py --db URL --port 8100
"""

from __future__ import annotations

import argparse
import json
import queue
import sqlite3
import sys
import uuid
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import anyio  # noqa: E402
import psycopg  # noqa: E402
import uvicorn  # noqa: E402
from fastapi import FastAPI  # noqa: E402
from fastapi.responses import JSONResponse  # noqa: E402
from pydantic import BaseModel  # noqa: E402
from sqlalchemy.engine import make_url  # noqa: E402

# (process settings only, the same as `handlog serve`'s: thread count, switch interval, GC)
from handlog.recorder.app_services import worker_threads  # noqa: E402
from handlog.recorder.cli_serve import server_runtime  # noqa: E402

TABLE = """CREATE TABLE IF NOT EXISTS bare_events (
    stream TEXT NOT NULL, version INTEGER NOT NULL, event_id TEXT NOT NULL UNIQUE,
    payload TEXT NOT NULL, recorded_at TEXT NOT NULL, PRIMARY KEY (stream, version))"""


class AppendRequest(BaseModel):
    event_id: uuid.UUID
    expected_version: int
    payload: dict[str, Any]


class Bare:
    """A pool of driver connections and the one append."""

    def __init__(self, url: str, size: int) -> None:
        parsed = make_url(url)
        self.sqlite = parsed.get_backend_name() == "sqlite"
        self.mark = "?" if self.sqlite else "%s"
        if self.sqlite:
            assert parsed.database
            path = parsed.database

            def connect() -> Any:
                connection = sqlite3.connect(path, timeout=10, check_same_thread=False)
                connection.execute("PRAGMA journal_mode = WAL")
                connection.execute("PRAGMA synchronous = FULL")
                return connection
        else:
            conninfo = parsed.set(drivername="postgresql").render_as_string(hide_password=False)

            def connect() -> Any:
                return psycopg.connect(conninfo)
        self.pool: queue.LifoQueue[Any] = queue.LifoQueue()
        for _ in range(size):
            self.pool.put(connect())
        with self.connection() as connection:
            connection.execute(TABLE)
            connection.commit()

    @contextmanager
    def connection(self) -> Iterator[Any]:
        connection = self.pool.get()
        try:
            yield connection
        finally:
            self.pool.put(connection)

    def append(self, stream: str, body: AppendRequest) -> tuple[int, dict[str, Any]]:
        m = self.mark
        version = body.expected_version + 1
        with self.connection() as connection:
            try:
                connection.execute(
                    f"INSERT INTO bare_events VALUES ({m}, {m}, {m}, {m}, {m})",
                    (stream, version, str(body.event_id), json.dumps(body.payload),
                     datetime.now(UTC).isoformat()))
                connection.commit()
                return 200, {"version": version}
            except (sqlite3.IntegrityError, psycopg.errors.UniqueViolation):
                connection.rollback()
            found = connection.execute(
                f"SELECT version FROM bare_events WHERE event_id = {m}",
                (str(body.event_id),)).fetchone()
            if found is not None:  # the same request again: what it got
                connection.rollback()
                return 200, {"version": found[0]}
            actual = connection.execute(
                f"SELECT max(version) FROM bare_events WHERE stream = {m}", (stream,)).fetchone()
            connection.rollback()
            return 409, {"actual": actual[0] or 0}


def make_app(url: str) -> FastAPI:
    bare = Bare(url, worker_threads())

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        anyio.to_thread.current_default_thread_limiter().total_tokens = worker_threads()
        yield

    app = FastAPI(lifespan=lifespan)

    @app.post("/append/{stream}")
    def append(stream: str, body: AppendRequest) -> JSONResponse:
        status, answer = bare.append(stream, body)
        return JSONResponse(answer, status_code=status)

    return app


def main() -> None:
    # The same process settings as `handlog serve` (recorder/cli_serve.py, recorder/api.py):
    # like for like, the ratio measures what handlog does per tap, not how it is run.
    server_runtime()
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", required=True)
    parser.add_argument("--port", type=int, required=True)
    args = parser.parse_args()
    uvicorn.run(make_app(args.db), host="127.0.0.1", port=args.port, log_level="warning")


if __name__ == "__main__":
    main()
