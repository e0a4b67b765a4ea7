"""The peer of benchmarks/room_load.py: a FastAPI server that only appends, durably, to the same
event store (one event per request, optimistic version, idempotent event id), with no rules,
no state and no views. What handlog adds on top of this is what the ratio measures.

    .venv/bin/python benchmarks/bare_append_server.py --db URL --port 8100
"""

from __future__ import annotations

import argparse
import sys
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import anyio  # noqa: E402
import uvicorn  # noqa: E402
from fastapi import FastAPI  # noqa: E402
from fastapi.responses import JSONResponse  # noqa: E402
from pydantic import BaseModel  # noqa: E402

from handlog.recorder.app_services import worker_threads  # noqa: E402
from handlog.recorder.cli_serve import server_runtime  # noqa: E402
from handlog.schema.errors import ConcurrencyConflict  # noqa: E402
from handlog.schema.store import NewEvent, open_store  # noqa: E402


class AppendRequest(BaseModel):
    event_id: uuid.UUID
    expected_version: int
    payload: dict[str, Any]


def make_app(url: str) -> FastAPI:
    store = open_store(url)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        anyio.to_thread.current_default_thread_limiter().total_tokens = worker_threads()
        yield

    app = FastAPI(lifespan=lifespan)

    @app.post("/append/{stream}")
    def append(stream: str, body: AppendRequest) -> JSONResponse:
        event = NewEvent(body.event_id, "player_checked", 1, body.payload, "bench", "tablet",
                         datetime.now(UTC))
        try:
            stored = store.append(stream, body.expected_version, [event], kind="bare")
        except ConcurrencyConflict as conflict:
            return JSONResponse({"actual": conflict.actual}, status_code=409)
        return JSONResponse({"version": stored[-1].version})

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
