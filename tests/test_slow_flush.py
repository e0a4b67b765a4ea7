"""benchmarks/slow_flush.py, the slow disk of benchmarks/room_load.py: every PostgreSQL commit
that wrote waits the given delay before it commits, pipelined or not, and so does handlog's
one-statement append (autocommit, schema/pg_append.py); a read-only commit does not."""

from __future__ import annotations

import time
from collections.abc import Iterator

import psycopg
import pytest
from conftest_store import driver_connect, new_events
from slow_flush import slow_commits

from handlog.schema import pg_append
from handlog.schema.store import open_store

DELAY_MS = 1500


@pytest.fixture
def slow(pg_url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[psycopg.Connection]:
    monkeypatch.setattr(psycopg.Connection, "commit", psycopg.Connection.commit)  # (restored)
    monkeypatch.setattr(pg_append, "APPEND_FUNCTION", pg_append.APPEND_FUNCTION)
    slow_commits(DELAY_MS)
    connection = driver_connect(pg_url)
    connection.autocommit = False
    connection.execute("CREATE TABLE slow (n integer)")
    connection.commit()
    try:
        yield connection
    finally:
        connection.close()


def _commit_seconds(connection: psycopg.Connection, statement: str,
                    pipelined: bool = False) -> float:
    started = time.perf_counter()
    if pipelined:
        with connection.pipeline():
            connection.execute(statement)
            connection.commit()
    else:
        connection.execute(statement)
        connection.commit()
    return time.perf_counter() - started


def test_a_writing_commit_waits_pipelined_or_not(slow: psycopg.Connection) -> None:
    assert _commit_seconds(slow, "INSERT INTO slow VALUES (1)") >= DELAY_MS / 1000
    assert _commit_seconds(slow, "INSERT INTO slow VALUES (2)", pipelined=True) >= DELAY_MS / 1000
    assert [n for (n,) in slow.execute("SELECT n FROM slow ORDER BY n")] == [1, 2]
    slow.rollback()


def test_a_read_only_commit_does_not_wait(slow: psycopg.Connection) -> None:
    assert _commit_seconds(slow, "SELECT count(*) FROM slow") < DELAY_MS / 1000


def test_a_one_statement_append_waits_too(slow: psycopg.Connection, pg_url: str) -> None:
    """The store's append at a head it wrote commits without psycopg's commit (one statement
    in autocommit): the sleep is in its function, so it waits as the bare server's commit."""
    with open_store(pg_url, upgrade=True) as store:
        store.append("table-1", 0, new_events(1))  # (a new stream: statement by statement)
        started = time.perf_counter()
        store.append("table-1", 1, new_events(2, start=2))  # (the head it wrote: one statement)
        assert time.perf_counter() - started >= DELAY_MS / 1000
        assert [e.version for e in store.read("table-1")] == [1, 2, 3]
