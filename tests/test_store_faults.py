"""Faults of the store answered as faults, not as bugs: a write the database cannot take just now
(a full disk, a restart dropping the connection) answers 503 with Retry-After and records
nothing, the tablet's same request sent again is recorded once, and the sessions signed in
before stay valid (SQLite and PostgreSQL)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import sqlalchemy as sa
from conftest_store import driver_connect
from web_support import Client, make_app, open_table

from handlog.recorder.service import Recorder
from handlog.schema.store import EventStore

STREAM = "table-1"


@contextmanager
def writes_failing(store: EventStore) -> Iterator[None]:
    """Every insert into the log refused as each database reports a full disk: SQLite's driver
    error (raised at the statement), PostgreSQL's SQLSTATE 53100 (raised by a trigger on the
    events table, whichever way the insert is sent)."""
    engine = store._engine
    if engine.dialect.name == "postgresql":
        connection = driver_connect(store.url)
        connection.execute(
            "CREATE FUNCTION handlog_test_disk_full() RETURNS trigger LANGUAGE plpgsql AS "
            "$$ BEGIN RAISE EXCEPTION 'could not extend file: No space left on device' "
            "USING ERRCODE = '53100'; END $$")
        connection.execute("CREATE TRIGGER handlog_test_disk_full BEFORE INSERT ON events "
                           "FOR EACH ROW EXECUTE FUNCTION handlog_test_disk_full()")
        try:
            yield
        finally:
            connection.execute("DROP TRIGGER handlog_test_disk_full ON events")
            connection.execute("DROP FUNCTION handlog_test_disk_full()")
            connection.close()
        return

    def refuse(_conn: Any, _cursor: Any, statement: str, *_rest: Any) -> None:
        if statement.lstrip().upper().startswith("INSERT INTO EVENTS"):
            raise sqlite3.OperationalError("database or disk is full")

    sa.event.listen(engine, "before_cursor_execute", refuse)
    try:
        yield
    finally:
        sa.event.remove(engine, "before_cursor_execute", refuse)


def test_a_write_the_store_cannot_take_answers_503_and_the_same_request_is_recorded_once(
        store: EventStore) -> None:
    """The dealer's fold meets a full disk (or a database restarting): 503 with Retry-After,
    the rule `store`, nothing recorded; sent again (same event id) once the store is back, it is
    recorded once; the dealer's session held throughout."""
    recorder = Recorder(store)
    open_table(recorder, STREAM)
    app, auth = make_app(recorder)
    with Client(app, auth) as dealer:
        assert dealer.login("dealer", STREAM).status_code == 200
        assert dealer.send(STREAM, {"type": "start_hand"}).status_code == 200
        version = dealer.table(STREAM)["version"]
        player = dealer.to_act(STREAM)
        fold = {"type": "fold", "player": player}
        event_id = "6f1c7d3e-2f4b-4b8e-9a3a-0c2d5e7f9a11"
        with writes_failing(store):
            answer = dealer.send(STREAM, fold, version, event_id)
        assert answer.status_code == 503, answer.text
        assert answer.headers["retry-after"] == "2"
        assert answer.json()["rule"] == "store" and "send the same request again" in answer.json()[
            "legal"]
        assert store.head(STREAM).version == version  # nothing recorded
        assert dealer.http.get("/api/session").json()["role"] == "dealer"
        again = dealer.send(STREAM, fold, version, event_id)
        assert again.status_code == 200, again.text
        assert again.json()["retried"] is False
        assert [e.version for e in store.read(STREAM, version + 1)][:1] == [version + 1]
        repeated = dealer.send(STREAM, fold, version, event_id)
        assert repeated.status_code == 200 and repeated.json()["retried"] is True


def test_the_openapi_document_states_503_with_its_meaning() -> None:
    """Every route may answer 503 (every one reads or writes the database): the document says
    so, and what to do."""
    from handlog.recorder.api_spec import answers

    assert "send the same request again" in answers(401)[503]["description"]


def test_two_servers_sending_one_command_at_once_record_it_once_and_one_answers_retried(
        store: EventStore) -> None:
    """Two server processes (two recorders on one database), each holding the table at the same
    version, get the same tap (same event id): the first records it, the second finds it
    recorded by the first and answers `retried: true`; the log holds it once."""
    import uuid

    from handlog.engine.commands import Fold
    from handlog.engine.table import Level
    from handlog.engine.table_commands import StartHand
    from handlog.recorder.service import SYSTEM

    first = Recorder(store)
    open_table(first, STREAM)
    first.submit(STREAM, StartHand(Level(50, 100)), first.table(STREAM).version, uuid.uuid4(),
                 SYSTEM)
    second = Recorder(store)
    version = second.table(STREAM).version
    assert first.table(STREAM).version == version
    hand = second.table(STREAM).state
    assert hand is not None and hand.hand is not None
    tap, event_id = Fold(hand.hand.to_act), uuid.uuid4()
    one = first.submit(STREAM, tap, version, event_id, SYSTEM)
    other = second.submit(STREAM, tap, version, event_id, SYSTEM)
    assert (one.retried, other.retried) == (False, True)
    assert other.version == one.version and [e.event_id for e in other.events] == [
        e.event_id for e in one.events]
    assert [e.version for e in store.read(STREAM, version + 1)] == [version + 1]
    assert second.table(STREAM).version == version + 1
