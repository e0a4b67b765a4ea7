"""Faults of the store answered as faults, not as bugs: a write the database cannot take just now
(a full disk, a restart dropping the connection) answers 503 with Retry-After and records
nothing, the tablet's same request sent again is recorded once, and the sessions signed in
before stay valid (SQLite and PostgreSQL)."""

from __future__ import annotations

import contextlib
import socket
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

from conftest_store import driver_connect
from web_support import Client, make_app, open_table

from handlog.recorder.service import Recorder
from handlog.schema.store import EventStore

STREAM = "table-1"


@contextmanager
def writes_failing(store: EventStore) -> Iterator[None]:
    """Every insert into the log refused as each database reports a fault of the store:
    SQLite's driver error (an OperationalError at the insert, as for a full disk: here a
    trigger's arithmetic overflow), PostgreSQL's SQLSTATE 53100 (a full disk); raised by a
    trigger on the events table, whichever way and on whichever connection the insert is
    sent."""
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

    path = engine.url.database
    assert path
    connection = sqlite3.connect(path, isolation_level=None)
    connection.execute("CREATE TRIGGER handlog_test_disk_full BEFORE INSERT ON events "
                       "BEGIN SELECT abs(-9223372036854775808); END")
    try:
        yield
    finally:
        connection.execute("DROP TRIGGER handlog_test_disk_full")
        connection.close()


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


class Outage:
    """A TCP relay between the server and PostgreSQL that can play the database restarting
    (every connection dropped, none taken, then taken again), without restarting the
    PostgreSQL server the other tests share."""

    def __init__(self, host: str, port: int) -> None:
        self._target = (host, port)
        self._lock = threading.Lock()
        self._sockets: list[socket.socket] = []
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = self._listener.getsockname()[1]
        self._accepting = threading.Thread(target=self._accept, args=(self._listener,),
                                           daemon=True)
        self._accepting.start()

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return  # (stopped)
            try:
                server = socket.create_connection(self._target, timeout=5)
            except OSError:
                client.close()
                continue
            with self._lock:
                self._sockets += [client, server]
            for a, b in ((client, server), (server, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    @staticmethod
    def _pipe(source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        for end in (source, sink):
            with contextlib.suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)

    def down(self) -> None:
        """The database goes away: every connection cut, and no new one answered."""
        with contextlib.suppress(OSError):  # (wakes the accept blocked on it; close would not)
            self._listener.shutdown(socket.SHUT_RDWR)
        self._listener.close()
        with self._lock:
            sockets, self._sockets = self._sockets, []
        for end in sockets:
            with contextlib.suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)
            end.close()

    def up(self) -> None:
        """Back, on the same port."""
        self._listener = socket.create_server(("127.0.0.1", self.port))
        threading.Thread(target=self._accept, args=(self._listener,), daemon=True).start()

    def close(self) -> None:
        self.down()


def test_through_a_database_restart_sessions_hold_and_every_refused_write_is_503(
        pg_url: str) -> None:
    """PostgreSQL restarting under a signed-in dealer and director (played by cutting every
    connection of this server at a relay and refusing new ones, not by restarting the server
    other tests share): each write answers 503 with Retry-After and records nothing, no
    request answers 401 (nobody is signed out), a new sign-in is 503 too; once the database
    is back, the same sessions work, and the dealer's fold sent again is recorded once."""
    from sqlalchemy.engine import make_url

    from handlog.schema.store import open_store

    real = make_url(pg_url)
    outage = Outage(real.host or "127.0.0.1", real.port or 5432)
    url = real.set(host="127.0.0.1", port=outage.port).render_as_string(hide_password=False)
    store = open_store(url, upgrade=True)
    recorder = Recorder(store)
    open_table(recorder, STREAM)
    app, auth = make_app(recorder)
    try:
        with Client(app, auth) as dealer, Client(app, auth) as director, \
                Client(app, auth) as newcomer:
            assert dealer.login("dealer", STREAM).status_code == 200
            assert director.login("director").status_code == 200
            assert dealer.send(STREAM, {"type": "start_hand"}).status_code == 200
            version = dealer.table(STREAM)["version"]
            fold = {"type": "fold", "player": dealer.to_act(STREAM)}
            event_id = "5b0a3c1e-8d2f-4e6a-9b7c-1d3e5f7a9b20"
            # (on PostgreSQL the sessions are kept in memory while the server listens)
            assert auth.sessions.caching
            outage.down()
            for _ in range(3):
                answer = dealer.send(STREAM, fold, version, event_id)
                assert answer.status_code == 503, answer.text
                assert answer.headers["retry-after"] == "2"
                assert answer.json()["rule"] == "store"
            for client in (dealer, director):
                assert client.http.get("/api/session").status_code in (200, 503)
                assert client.http.get(f"/api/tables/{STREAM}").status_code in (200, 503)
            assert newcomer.login("director").status_code == 503
            outage.up()
            deadline = time.monotonic() + 30
            while (answer := dealer.send(STREAM, fold, version, event_id)).status_code == 503:
                assert time.monotonic() < deadline, answer.text  # (a pooled link found dead)
            assert answer.status_code == 200, answer.text
            assert dealer.http.get("/api/session").json()["role"] == "dealer"
            assert director.http.get("/api/session").json()["role"] == "director"
            again = dealer.send(STREAM, fold, version, event_id)
            assert again.status_code == 200 and again.json()["retried"] is True
            assert [e.version for e in store.read(STREAM, version + 1)] == [version + 1]
    finally:
        store.close()
        outage.close()
