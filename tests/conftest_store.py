"""Event-store fixtures: a fresh database on each backend, and small event builders.

`db_url` is parametrized over "sqlite" (a file in tmp_path) and "postgresql" (a schema of its
own, `t_<uuid>`, selected with `options=-csearch_path=...` so parallel workers never meet).
PostgreSQL comes from $HANDLOG_TEST_POSTGRES_URL; without it those tests skip, saying why,
unless HANDLOG_REQUIRE_POSTGRES=1, when they fail (CI must not pass by skipping).
"""

from __future__ import annotations

import os
import sqlite3
import time
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import psycopg
import pytest
import sqlalchemy as sa
from sqlalchemy.engine import make_url

from handlog.schema.checkpoint import StoredCheckpoint, latest_checkpoint
from handlog.schema.store import EventStore, NewEvent, open_store, upgrade_database

POSTGRES_ENV = "HANDLOG_TEST_POSTGRES_URL"
REQUIRE_ENV = "HANDLOG_REQUIRE_POSTGRES"
BACKENDS = ["sqlite", "postgresql"]


def _postgres_unavailable(reason: str) -> None:
    if os.environ.get(REQUIRE_ENV) == "1":
        pytest.fail(f"{REQUIRE_ENV}=1 but {reason}", pytrace=False)
    pytest.skip(f"PostgreSQL tests skipped: {reason}")


@pytest.fixture(scope="session")
def postgres_server_url() -> str:
    """The PostgreSQL server of $HANDLOG_TEST_POSTGRES_URL, checked reachable once."""
    url = os.environ.get(POSTGRES_ENV, "").strip()
    if not url:
        _postgres_unavailable(f"{POSTGRES_ENV} is not set")
    engine = sa.create_engine(url, connect_args={"connect_timeout": 5})
    try:
        with engine.connect() as connection:
            connection.exec_driver_sql("SELECT 1")
    except Exception as exc:  # noqa: BLE001 - any failure means "unreachable" here
        _postgres_unavailable(f"PostgreSQL at {url} is unreachable: {exc}")
    finally:
        engine.dispose()
    return url


def url_with_search_path(url: str, schema: str) -> str:
    parsed = make_url(url).update_query_dict({"options": f"-csearch_path={schema}"})
    return parsed.render_as_string(hide_password=False)


@pytest.fixture
def pg_url(postgres_server_url: str) -> Iterator[str]:
    """A URL whose connections see only a fresh, empty schema (dropped afterwards)."""
    schema = f"t_{uuid.uuid4().hex}"
    admin = sa.create_engine(postgres_server_url)
    try:
        with admin.begin() as connection:
            connection.exec_driver_sql(f'CREATE SCHEMA "{schema}"')
        yield url_with_search_path(postgres_server_url, schema)
    finally:
        with admin.begin() as connection:
            connection.exec_driver_sql("SET lock_timeout = '20s'")
            connection.exec_driver_sql(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        admin.dispose()


@pytest.fixture
def sqlite_url(tmp_path: Any) -> str:
    """A URL of a SQLite file that does not exist yet."""
    return f"sqlite:///{tmp_path / 'handlog.db'}"


@pytest.fixture(params=BACKENDS)
def db_url(request: pytest.FixtureRequest) -> str:
    """An empty database on each backend."""
    fixture = "sqlite_url" if request.param == "sqlite" else "pg_url"
    url = request.getfixturevalue(fixture)
    assert isinstance(url, str)
    return url


@pytest.fixture
def store(db_url: str) -> Iterator[EventStore]:
    """An event store on a freshly migrated database, on each backend."""
    upgrade_database(db_url)
    with open_store(db_url) as opened:
        yield opened


def driver_connect(url: str) -> Any:
    """A plain DB-API connection (sqlite3 or psycopg) to the database of `url`, in autocommit."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        assert parsed.database
        return sqlite3.connect(parsed.database, isolation_level=None)
    conninfo = parsed.set(drivername="postgresql").render_as_string(hide_password=False)
    return psycopg.connect(conninfo, autocommit=True)


MOMENT = datetime(2025, 3, 14, 19, 30, 0, 123456, tzinfo=UTC)


def new_event(
    payload: dict[str, Any] | None = None,
    *,
    event_type: str = "player_folded",
    schema_version: int = 1,
    event_id: uuid.UUID | None = None,
    actor: str = "dealer-7",
    device: str = "tablet-3",
    recorded_at: datetime = MOMENT,
) -> NewEvent:
    """A NewEvent with a fresh id (override anything)."""
    return NewEvent(
        event_id=event_id or uuid.uuid4(),
        type=event_type,
        schema_version=schema_version,
        payload={"player": 1} if payload is None else payload,
        actor=actor,
        device=device,
        recorded_at=recorded_at,
    )


def new_events(count: int, start: int = 1) -> list[NewEvent]:
    """`count` events whose payloads name their intended version (start, start + 1...)."""
    return [new_event({"n": start + index}) for index in range(count)]


def covered(store: EventStore, seconds: float = 10.0) -> StoredCheckpoint:
    """The latest checkpoint once it covers the whole log: the signer's thread signs "at once"
    (within milliseconds of the tap's answer, or at the end of the interval after the last
    checkpoint), so this polls for it, for `seconds` at most."""
    deadline = time.monotonic() + seconds
    while True:
        latest = latest_checkpoint(store)
        if latest is not None and latest.checkpoint.size == store.tree_head().size:
            return latest
        assert time.monotonic() < deadline, (
            f"no checkpoint covered the {store.tree_head().size} events within {seconds} s "
            f"(the latest: {latest.checkpoint.size if latest else None})")
        time.sleep(0.01)
