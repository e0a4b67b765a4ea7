"""The event store: an append-only log of hash-chained streams in SQLite or PostgreSQL.

The contract (tests/test_store_contract.py runs it on both databases):

1. `append(stream, expected_version, events)` lands all of its events or none. Versions are
   1, 2, 3... per stream with no gap; `expected_version` is the version the caller last saw
   (0: the stream must not exist yet). When the stream is elsewhere, `ConcurrencyConflict`.
2. A retried append whose event ids are all stored already, with the same stream, versions,
   types and payloads, succeeds and returns the stored events without adding anything. An event
   id stored with anything different raises `DuplicateEventConflict`.
3. Positions are global and increase in commit order, so `read_all(p)` never later gains an
   event before `p`. (SQLite serialises writers with BEGIN IMMEDIATE; PostgreSQL appends take
   the stream row lock and then an EXCLUSIVE lock on `events` until commit.)
4. Each stored event carries `prev_hash` and `hash` (schema/hashing.py, hash format 2: the hash
   covers the event id, type, version, payload, recorded-at time, actor and device); the
   stream's head row holds the last version and hash. `recorded_at` is kept to the microsecond
   in UTC, and read back on either database as an aware UTC datetime whose canonical text
   (schema.codec.format_utc) is exactly the one hashed at append.
5. Stored events are never updated or deleted (database triggers refuse it).
6. An acknowledged append survives `kill -9` (SQLite: WAL with synchronous=FULL).
7. Every stored event is also the next leaf of one Merkle tree over all streams, written in the
   same transaction under the same lock (schema/merkle.py), so leaf order is commit order.
8. `append_many([(stream, expected_version, events, kind), ...])` is several streams' appends
   in one transaction: all land or none; a conflict in one part refuses every part.
9. Appends from different threads share transactions (group commit, `EventStore._submit`):
   the appends waiting at one moment are written as one batch, one lock and one flush, and
   each caller returns once its batch is committed. Each append still lands or fails alone,
   with its own answer (1 and 2 hold per append, not per batch), and 3 and 7 hold as before.

What is stored is already encoded (type, schema version, JSON payload); the domain classes are
turned into `NewEvent`s and back with schema/codec.py.
"""

from __future__ import annotations

import dataclasses
import json
import os
import sqlite3
import threading
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection, Engine, Row
from sqlalchemy.exc import DBAPIError, IntegrityError

from handlog.schema import revisions
from handlog.schema.codec import canonical_json, decode_event, encode_event
from handlog.schema.database import (
    WRITE_OPTIONS,
    check_schema,
    check_sqlite_file,
    create_engine,
    display_url,
    resolve_url,
    sqlite_file,
    translate_errors,
    writer_slots,
)
from handlog.schema.errors import (
    ChainBroken,
    ConcurrencyConflict,
    DatabaseError,
    DuplicateEventConflict,
    SchemaMissing,
)
from handlog.schema.hashing import (
    GENESIS_HASH,
    chain_hash,
    chain_hash_of_texts,
    recorded_at_text,
)
from handlog.schema.merkle import (
    Appended,
    HeadCache,
    TreeHead,
    append_leaves,
    append_leaves_through,
    plan_leaves,
    read_head,
)
from handlog.schema.pg_append import FunctionUnavailable, HeadAppend, append_at_heads
from handlog.schema.sessions import SessionStore
from handlog.schema.snapshots import SnapshotStore
from handlog.schema.tables import (
    ACTOR_LENGTH,
    EVENT_COLUMNS,
    KIND_LENGTH,
    STREAM_ID_LENGTH,
    TYPE_LENGTH,
    events_table,
    streams_table,
)

GROUP_COMMIT_ENV_VAR = "HANDLOG_GROUP_COMMIT"

# The channel is the schema's, so stores in other schemas of one database hear nothing.
_NOTIFY = sa.text("SELECT pg_notify('handlog:' || current_schema(), :payload)")


@dataclass(frozen=True)
class NewEvent:
    """An event to append: already encoded, with the id the client made for it."""

    event_id: uuid.UUID
    type: str
    schema_version: int
    payload: dict[str, Any]
    actor: str
    device: str
    recorded_at: datetime

    @classmethod
    def from_domain(
        cls,
        event: object,
        *,
        event_id: uuid.UUID,
        actor: str,
        device: str,
        recorded_at: datetime,
    ) -> NewEvent:
        """Encode a domain event (engine/events.py) with the codec."""
        event_type, version, payload = encode_event(event)
        return cls(event_id, event_type, version, payload, actor, device, recorded_at)


@dataclass(frozen=True)
class StoredEvent:
    """An event as the log holds it; `payload_json` is the exact text that was hashed."""

    position: int
    stream_id: str
    version: int
    event_id: uuid.UUID
    type: str
    schema_version: int
    payload: dict[str, Any]
    payload_json: str
    recorded_at: datetime
    actor: str
    device: str
    prev_hash: str
    hash: str

    def decode(self) -> Any:
        """The domain event, upcast to the current version of its class: decoded once, since
        neither the stored event nor its (frozen) domain event ever changes; a live table's
        answer shows its last events at every tap."""
        decoded = self.__dict__.get("_decoded")
        if decoded is None:
            decoded = decode_event(self.type, self.schema_version, self.payload)
            object.__setattr__(self, "_decoded", decoded)
        return decoded


@dataclass(frozen=True)
class StreamHead:
    """Where a stream stands: its last version and that event's hash."""

    stream_id: str
    kind: str
    version: int
    hash: str


_new = object.__new__
_set = object.__setattr__
_STORED_FIELDS = ("position", "stream_id", "version", "event_id", "type", "schema_version",
                  "payload", "payload_json", "recorded_at", "actor", "device", "prev_hash",
                  "hash")
assert _STORED_FIELDS == tuple(field.name for field in dataclasses.fields(StoredEvent))


class _Prepared(NamedTuple):
    event: NewEvent
    payload_json: str
    recorded_at: datetime  # in UTC


class EventStore:
    """The log in one database; open it with `open_store`. Safe to share between threads."""

    def __init__(self, engine: Engine, url: str) -> None:
        self._engine = engine
        self._url = url
        self._postgresql = engine.dialect.name == "postgresql"
        # Off only to measure what the Merkle leaves cost (benchmarks/append_latency.py): a log
        # written without them no longer verifies against its checkpoints.
        self.write_merkle_leaves = True
        self._tree_head = HeadCache()
        self._one_statement = self._postgresql  # appends in one round trip (schema/pg_append.py)
        # stream -> (version, hash) of the last event this store appended there (committed).
        self._heads: dict[str, tuple[int, str]] = {}
        self._writers = threading.BoundedSemaphore(writer_slots(self._postgresql))
        # Group commit (see _submit): the appends waiting for the writer, whether one leads,
        # and how many batches were written (for the tests and benchmarks). Off
        # ($HANDLOG_GROUP_COMMIT=0): each append is a transaction of its own, statement by
        # statement (or one statement on a head this store wrote, schema/pg_append.py).
        self.group_commit = os.environ.get(GROUP_COMMIT_ENV_VAR, "").strip() != "0"
        self._queue_lock = threading.Lock()
        self._queue: list[_Request] = []
        self._riders: list[_Rider] = []  # writes waiting to ride the next batch (SQLite)
        # Two leaders on PostgreSQL: the next batch is sent while one commits (it waits for
        # the lock on `events` inside the database, so commit order is still leaf order).
        self._leader_slots = writer_slots(self._postgresql)
        self._leaders = 0
        self.batches = 0
        # Names this store's appends in their notifications, so that its own listener can
        # leave them out (the process told its screens already).
        self.token = uuid.uuid4().hex[:12]

    @property
    def url(self) -> str:
        """The database URL, password hidden."""
        return display_url(self._url)

    @property
    def raw_url(self) -> str:
        """The database URL as given (with its password: for a second connection only)."""
        return self._url

    @property
    def is_postgresql(self) -> bool:
        return self._postgresql

    def close(self) -> None:
        self._engine.dispose()

    def session_store(self) -> SessionStore:
        """The sign-ins kept in this database (schema/sessions.py)."""
        return SessionStore(self._engine, self._url)

    def snapshot_store(self) -> SnapshotStore:
        """The snapshots of folded streams kept in this database (schema/snapshots.py)."""
        return SnapshotStore(self._engine)

    def __enter__(self) -> EventStore:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    # --- writing ------------------------------------------------------------------------------

    def append(
        self,
        stream_id: str,
        expected_version: int,
        events: Sequence[NewEvent],
        kind: str = "table",
    ) -> list[StoredEvent]:
        """Append `events` after `expected_version` atomically; returns them as stored.

        `kind` is recorded when this append creates the stream (and ignored afterwards).
        Raises ConcurrencyConflict or DuplicateEventConflict (see the module docstring).
        """
        _check_stream(stream_id, expected_version, kind)
        prepared = [_prepare(event) for event in events]
        if not prepared:
            return []
        seen: set[uuid.UUID] = set()
        for item in prepared:
            if item.event.event_id in seen:
                raise DuplicateEventConflict(item.event.event_id, "it appears twice in one append")
            seen.add(item.event.event_id)

        known: tuple[int, str] | None = None
        if self.group_commit:
            known = self._heads.get(stream_id)
            if known is None and expected_version > 0 and self._one_statement:
                # A stream this store has not written yet (a server's first entry at a
                # table): its head read outside any lock, so that the append can still join
                # the one-statement batch (which checks the head again).
                head = self.head(stream_id)
                if head is not None:
                    known = (head.version, head.hash)
            request = _Request(stream_id, expected_version, prepared, kind,
                               known[1] if known is not None and known[0] == expected_version
                               else None)
            with translate_errors(self._url, "write to"):
                return self._submit(request)
        with translate_errors(self._url, "write to"), self._writers:
            return self._append_alone(stream_id, expected_version, prepared, kind)

    # --- group commit -------------------------------------------------------------------------
    #
    # The appends waiting at one moment share one transaction (one lock on `events`, one
    # flush): a caller that finds a leader's slot free (one on SQLite, two on PostgreSQL:
    # writer_slots) leads, takes every append queued by then (its own, unless another leader
    # took it), writes them as one batch, answers each and hands its slot to an append queued
    # meanwhile. So a table waits for at most the batch in flight and its own. Leaf order is
    # still commit order: within the batch the events, their positions and their leaves go in
    # the batch's order, under the one lock. Each append keeps its own answer (a conflict, a
    # duplicate, a retry's StoredBefore): on PostgreSQL the batch is one statement
    # (schema/pg_append.py), on SQLite (when every append is on a head this store wrote and
    # no write rides it) one transaction through the driver's own connection
    # (`_sqlite_on_heads`), and when anything in it fails it is written again with a
    # savepoint per append, which tells each append's answer; a batch whose transaction
    # itself fails (a dropped connection) is written append by append (`_append_alone`).

    def _submit(self, request: _Request) -> list[StoredEvent]:
        with self._queue_lock:
            self._queue.append(request)
            if self._leaders < self._leader_slots:
                self._leaders += 1
                request.lead = True
        while True:
            if request.lead:
                self._lead(request)  # (its own append may be in another leader's batch)
            if request.done:
                break
            request.wake.wait()
            request.wake.clear()
        if request.error is not None:
            raise request.error
        assert request.stored is not None
        return request.stored

    def _lead(self, leader: _Request) -> None:
        """Write every append queued now as one batch, answer each, then hand the lead to an
        append queued meanwhile (or give the leader's slot back)."""
        with self._writers:
            with self._queue_lock:
                batch, self._queue = self._queue, []
                riders, self._riders = self._riders, []
            try:
                self._write_batch(batch, riders)
            except BaseException as exc:  # noqa: BLE001 - answered to every caller
                for request in batch:
                    if not request.done:
                        request.answer(error=exc)
            finally:
                for rider in riders:
                    if not rider.done.is_set():  # (its batch's transaction failed) alone
                        self._ride_alone(rider)
        with self._queue_lock:
            leader.lead = False
            after = next((r for r in self._queue if not r.lead), None)
            if after is None:
                self._leaders -= 1
            else:
                after.lead = True
            if batch:
                self.batches += 1
        for request in batch:
            request.wake.set()
        if after is not None:
            after.wake.set()

    def _write_batch(self, batch: list[_Request], riders: Sequence[_Rider] = ()) -> None:
        rest = batch
        if self._one_statement:
            # One statement for the appends on heads this store knows, one per stream.
            fast: list[_Request] = []
            streams: set[str] = set()
            for request in batch:
                if request.known_hash is not None and request.stream_id not in streams:
                    fast.append(request)
                    streams.add(request.stream_id)
            rest = [request for request in batch if request not in fast]
            if fast and not self._batch_one_statement(fast):
                rest = batch
        elif batch and not self._postgresql and not riders and _on_known_heads(batch):
            # SQLite, every append on a head this store wrote (one per stream): the batch
            # through the driver's own connection, one statement per head and one for the
            # events and for the leaves (no savepoints: all of it lands, or nothing and the
            # savepoints below tell each append's answer).
            written = self._sqlite_on_heads([
                (request.stream_id, request.expected_version, request.prepared,
                 request.known_hash or "") for request in batch])
            if written is not None:
                for request, stored in zip(batch, written, strict=True):
                    request.answer(stored=stored)
                return
        if rest:
            self._batch_savepoints([request for request in rest if not request.done], riders)

    def _batch_one_statement(self, batch: list[_Request]) -> bool:
        """The batch in one statement and one round trip (schema/pg_append.py); False when
        nothing was written."""
        commands = []
        for request in batch:
            assert request.known_hash is not None
            rows = _chained_rows(request.stream_id, request.expected_version,
                                 request.prepared, request.known_hash)
            commands.append(HeadAppend(
                rows, request.expected_version, request.known_hash,
                f"{rows[-1]['version']} {self.token} {request.stream_id}"))
        raw = self._engine.raw_connection()
        try:
            positions = append_at_heads(raw, commands, self.write_merkle_leaves)
        except FunctionUnavailable:
            self._one_statement = False
            return False
        finally:
            raw.close()
        if positions is None:
            return False
        for request, command, written in zip(batch, commands, positions, strict=True):
            stored = _as_stored(request.stream_id, written, command.rows, request.prepared)
            self._remember(request.stream_id, stored[-1], [])
            request.answer(stored=stored)
        return True

    def _batch_savepoints(self, batch: list[_Request], riders: Sequence[_Rider] = ()) -> None:
        """The batch in one transaction, each append in a savepoint of its own: one that fails
        its check is rolled back and answered alone; then the riders, each in a savepoint of
        its own."""
        if not batch:
            return
        if len(batch) == 1:
            # One append: its own transaction, no savepoint (the same answers, two round
            # trips fewer: a lone tablet's tap is the common case in a quiet room).
            request = batch[0]
            try:
                request.answer(stored=self._append_alone(
                    request.stream_id, request.expected_version, request.prepared,
                    request.kind, riders))
            except Exception as exc:  # noqa: BLE001 - the caller's answer
                request.answer(error=exc)
            return
        tree: list[Appended] = []
        answers: list[tuple[_Request, list[StoredEvent] | None, BaseException | None]] = []
        try:
            with self._engine.connect() as connection:
                connection = connection.execution_options(**WRITE_OPTIONS)
                with connection.begin():
                    if self._postgresql:
                        # The stream rows are locked one by one here, the events table after
                        # the first: so that no other writer holds a row this batch will want
                        # while it waits for the lock on `events`, this batch waits first for
                        # every writer of `streams` (readers and FOR UPDATE pass).
                        connection.exec_driver_sql(
                            "LOCK TABLE streams IN SHARE ROW EXCLUSIVE MODE")
                    for request in batch:
                        stored, error = self._append_in_savepoint(connection, request, tree)
                        answers.append((request, stored, error))
                    _ride(connection, riders)
            for rider in riders:
                rider.done.set()
        except DBAPIError:
            # The transaction itself failed (a dropped connection, the disk): append by
            # append, each with its own retries and answer.
            for request in batch:
                try:
                    stored = self._append_alone(request.stream_id, request.expected_version,
                                                request.prepared, request.kind)
                    request.answer(stored=stored)
                except Exception as exc:  # noqa: BLE001 - the caller's answer
                    request.answer(error=exc)
            return
        # Only once committed: a head kept here is never one the log lacks.
        for request, stored, error in answers:
            if stored:
                self._remember(request.stream_id, stored[-1], tree)
            request.answer(stored=stored, error=error)

    def _append_in_savepoint(self, connection: Connection, request: _Request,
                             tree: list[Appended]
                             ) -> tuple[list[StoredEvent] | None, BaseException | None]:
        """One append of a batch in a savepoint: on the head this store knows when it can,
        else (or when that head moved or an id is stored) the full path, which tells a
        conflict from a retry. Returns its events as stored or its error."""
        marks = len(tree)
        if request.known_hash is not None:
            savepoint = connection.begin_nested()
            try:
                stored = self._append_on_head(connection, request.stream_id,
                                              request.expected_version, request.prepared,
                                              request.known_hash, tree)
                savepoint.commit()
                return stored, None
            except (_HeadMoved, IntegrityError):
                savepoint.rollback()
                del tree[marks:]
        savepoint = connection.begin_nested()
        try:
            stored = self._append(connection, request.stream_id, request.expected_version,
                                  request.prepared, request.kind, tree)
            savepoint.commit()
            return stored, None
        except Exception as exc:
            if isinstance(exc, DBAPIError) and not isinstance(exc, IntegrityError):
                raise  # the transaction's own fault (a dropped connection): the whole batch's
            # This append's answer (a conflict, a duplicate, a damaged stored row), alone.
            savepoint.rollback()
            del tree[marks:]
            if isinstance(exc, IntegrityError):
                if _violated_constraint(exc) not in ("uq_events_stream_version",
                                                     "streams_pkey"):
                    return None, exc
                head = connection.execute(
                    sa.select(streams_table.c.head_version)
                    .where(streams_table.c.id == request.stream_id)).scalar_one_or_none()
                return None, ConcurrencyConflict(request.stream_id, request.expected_version,
                                                 head or 0)
            return None, exc

    def _append_alone(self, stream_id: str, expected_version: int, prepared: list[_Prepared],
                      kind: str, riders: Sequence[_Rider] = ()) -> list[StoredEvent]:
        """One append in a transaction of its own, statement by statement (or in one statement
        on a head this store wrote): the path without group commit, and the fallback of a
        batch whose transaction failed. `riders` (SQLite) are written in its transaction."""
        for attempt in (1, 2, 3):
            known = self._heads.get(stream_id) if attempt == 1 else None
            if (known is not None and known[0] == expected_version and not riders
                    and not self._postgresql and not self.group_commit):
                # (with group commit, _write_batch took this path already)
                written = self._sqlite_on_heads([(stream_id, expected_version, prepared,
                                                  known[1])])
                if written is not None:
                    return written[0]
                continue  # not written: the full path tells a conflict from a retry
            if known is None and attempt == 1 and expected_version > 0 and self._one_statement:
                # A stream this store has not written yet (a server's first entry at a
                # table): its head read outside any lock, so that the append is still one
                # round trip under the events lock (the statement checks the head again).
                head = self.head(stream_id)
                if head is not None and head.version == expected_version:
                    known = (head.version, head.hash)
            tree: list[Appended] = []
            if known is not None and known[0] == expected_version and self._one_statement:
                stored = self._append_one_statement(stream_id, expected_version, prepared,
                                                known[1])
                if stored is not None:
                    self._remember(stream_id, stored[-1], tree)
                    return stored
                continue  # not written: the full path tells a conflict from a retry
            try:
                with self._engine.connect() as connection:
                    connection = connection.execution_options(**WRITE_OPTIONS)
                    with connection.begin():
                        if known is not None and known[0] == expected_version:
                            stored = self._append_on_head(
                                connection, stream_id, expected_version, prepared, known[1],
                                tree)
                        else:
                            stored = self._append(
                                connection, stream_id, expected_version, prepared, kind,
                                tree)
                        _ride(connection, riders)
                for rider in riders:
                    rider.done.set()
                # Only once committed: a head kept here is never one the log lacks.
                self._remember(stream_id, stored[-1], tree)
                return stored
            except _HeadMoved:
                continue
            except DBAPIError as exc:
                if not isinstance(exc, IntegrityError):
                    # A pooled connection the database dropped: once more on a new one
                    # (safe: a commit that did land is found again by its event ids).
                    if exc.connection_invalidated and attempt == 1:
                        continue
                    raise
                constraint = _violated_constraint(exc)
                if constraint == "uq_events_event_id" and attempt < 3:
                    # Raced with a writer storing the same id: the retry check will see it.
                    continue
                if constraint in ("uq_events_stream_version", "streams_pkey"):
                    head = self.head(stream_id)
                    raise ConcurrencyConflict(
                        stream_id, expected_version, head.version if head else 0
                    ) from None
                raise
        raise AssertionError("unreachable")

    def append_many(
        self,
        appends: Sequence[tuple[str, int, Sequence[NewEvent], str]],
    ) -> list[list[StoredEvent]]:
        """Several streams' appends, `(stream, expected_version, events, kind)` each, in one
        transaction: all of them land or none (a move, a table break, a carry, a final-table
        draw). Each stream appears once. Every part follows `append`'s contract; a conflict or a
        duplicate in any part refuses the whole. Returns each part's events as stored, in the
        order given. Stream rows are locked in stream-id order before anything is written, so
        two such transactions never wait for each other in a circle."""
        if len(appends) == 1:
            # One stream: append's own path (on a head this store wrote, one round trip).
            stream_id, expected_version, events, kind = appends[0]
            return [self.append(stream_id, expected_version, events, kind)]
        streams = [stream for stream, _v, _e, _k in appends]
        if len(set(streams)) != len(streams):
            raise ValueError("append_many: a stream appears twice; give its events in one part")
        parts: list[tuple[str, int, list[_Prepared], str]] = []
        seen: set[uuid.UUID] = set()
        for stream_id, expected_version, events, kind in appends:
            _check_stream(stream_id, expected_version, kind)
            prepared = [_prepare(event) for event in events]
            for item in prepared:
                if item.event.event_id in seen:
                    raise DuplicateEventConflict(item.event.event_id,
                                                 "it appears twice in one append")
                seen.add(item.event.event_id)
            parts.append((stream_id, expected_version, prepared, kind))
        if not any(prepared for _s, _v, prepared, _k in parts):
            return [[] for _ in parts]
        tree: list[Appended] = []
        with translate_errors(self._url, "write to"), self._writers:
            try:
                with self._engine.connect() as connection:
                    connection = connection.execution_options(**WRITE_OPTIONS)
                    with connection.begin():
                        if self._postgresql:  # (before the rows' FOR UPDATE: see _append)
                            connection.exec_driver_sql("LOCK TABLE streams IN ROW EXCLUSIVE MODE")
                        for stream_id, expected_version, _p, kind in sorted(parts, key=_stream_of):
                            if expected_version == 0:
                                self._create_stream_row(connection, stream_id, kind)
                        connection.execute(
                            sa.select(streams_table.c.id)
                            .where(streams_table.c.id.in_(sorted(streams)))
                            .order_by(streams_table.c.id)
                            .with_for_update()
                        ).all()
                        written: list[list[StoredEvent]] = [
                            self._append(connection, stream_id, expected_version, prepared,
                                         kind, tree) if prepared else []
                            for stream_id, expected_version, prepared, kind in parts
                        ]
                # Only once committed: a head kept here is never one the log lacks.
                for (stream_id, _v, _p, _k), done in zip(parts, written, strict=True):
                    if done:
                        self._remember(stream_id, done[-1], tree)
                return written
            except IntegrityError as exc:
                if _violated_constraint(exc) not in ("uq_events_stream_version", "streams_pkey",
                                                     "uq_events_event_id"):
                    raise
                for stream_id, expected_version, _p, _k in parts:
                    head = self.head(stream_id)
                    actual = head.version if head else 0
                    if actual != expected_version:
                        raise ConcurrencyConflict(stream_id, expected_version, actual) from None
                raise

    def _append(
        self,
        connection: Connection,
        stream_id: str,
        expected_version: int,
        prepared: list[_Prepared],
        kind: str,
        tree: list[Appended],
    ) -> list[StoredEvent]:
        if expected_version == 0:
            self._create_stream_row(connection, stream_id, kind)
        elif self._postgresql:
            # The row lock below is a FOR UPDATE (a ROW SHARE lock on `streams`), the head's
            # move an UPDATE (ROW EXCLUSIVE): taken in that order, a batch's SHARE ROW
            # EXCLUSIVE lock (_batch_savepoints) could come between them while the batch
            # waits for this row: a deadlock (test_concurrency met it). Taken first, either
            # the batch waits for this transaction or this one for the batch, holding nothing.
            connection.exec_driver_sql("LOCK TABLE streams IN ROW EXCLUSIVE MODE")
        head = connection.execute(
            sa.select(streams_table.c.head_version, streams_table.c.head_hash)
            .where(streams_table.c.id == stream_id)
            .with_for_update()
        ).one_or_none()

        ids = [item.event.event_id for item in prepared]
        existing = connection.execute(
            sa.select(events_table).where(events_table.c.event_id.in_(ids))
        ).all()
        if existing:
            return _retried(existing, stream_id, expected_version, prepared)

        actual = head.head_version if head is not None else 0
        if actual != expected_version:
            raise ConcurrencyConflict(stream_id, expected_version, actual)
        prev_hash = head.head_hash if head is not None else GENESIS_HASH
        rows = _chained_rows(stream_id, expected_version, prepared, prev_hash)
        connection.execute(
            sa.update(streams_table)
            .where(streams_table.c.id == stream_id)
            .values(head_version=rows[-1]["version"], head_hash=rows[-1]["hash"])
        )
        return self._insert(connection, stream_id, rows, prepared, tree)

    def _append_on_head(
        self,
        connection: Connection,
        stream_id: str,
        expected_version: int,
        prepared: list[_Prepared],
        prev_hash: str,
        tree: list[Appended],
    ) -> list[StoredEvent]:
        """The append when this store wrote the stream's head itself, on SQLite (PostgreSQL's
        is _append_one_statement): no read of the head and no look for the ids first. The head
        row moves only if it is still where this store left it (else _HeadMoved: the full
        path reads it); a stored id fails the insert on the unique index (then the full path
        finds the retry)."""
        rows = _chained_rows(stream_id, expected_version, prepared, prev_hash)
        # Plain SQL through the driver: no statement built and compiled per append.
        moved = connection.exec_driver_sql(
            _PG_MOVE_HEAD if self._postgresql else _SQLITE_MOVE_HEAD,
            (rows[-1]["version"], rows[-1]["hash"], stream_id, expected_version, prev_hash))
        if moved.rowcount != 1:
            raise _HeadMoved
        return self._insert(connection, stream_id, rows, prepared, tree)

    def _append_one_statement(self, stream_id: str, expected_version: int,
                          prepared: list[_Prepared], prev_hash: str) -> list[StoredEvent] | None:
        """The append on a head this store wrote itself, on PostgreSQL, in one round trip
        (schema/pg_append.py); None when nothing was written."""
        rows = _chained_rows(stream_id, expected_version, prepared, prev_hash)
        raw = self._engine.raw_connection()
        try:
            positions = append_at_heads(raw, [HeadAppend(
                rows, expected_version, prev_hash,
                f"{rows[-1]['version']} {self.token} {stream_id}")], self.write_merkle_leaves)
        except FunctionUnavailable:
            self._one_statement = False
            return None
        finally:
            raw.close()
        if positions is None:
            return None
        return _as_stored(stream_id, positions[0], rows, prepared)

    def _sqlite_on_heads(self, parts: Sequence[tuple[str, int, list[_Prepared], str]]
                         ) -> list[list[StoredEvent]] | None:
        """SQLite: appends on heads this store wrote (`(stream, expected_version, prepared,
        head hash)` each, one per stream) in one transaction through the driver's own
        connection: no statement built or wrapped per append (SQLAlchemy's work per statement
        was most of a quick disk's append). Each head moves only if still where this store
        left it, then the events of every part in one statement, then their leaves in one.
        None, with nothing written, when a head moved, an event id is stored already or a
        value was refused: the caller takes the full path, which tells a conflict from a
        retry and gives each append its own answer. A fault of the store (OperationalError)
        is raised, nothing written."""
        raw = self._engine.raw_connection()
        try:
            driver: sqlite3.Connection = raw.driver_connection  # type: ignore[assignment]
            cursor = driver.cursor()
            try:
                cursor.execute("BEGIN IMMEDIATE")
                try:
                    written, appended = self._sqlite_write_on_heads(cursor, parts)
                    cursor.execute("COMMIT")
                except BaseException:
                    try:
                        if driver.in_transaction:
                            cursor.execute("ROLLBACK")
                    except sqlite3.Error:
                        raw.invalidate()  # (not given back to the pool in a transaction)
                    raise
            finally:
                cursor.close()
        except sqlite3.OperationalError as exc:
            # The store's own fault (locked past the busy timeout, the disk full or failing):
            # every append's answer, as SQLAlchemy's error (not met again append by append).
            raise DBAPIError.instance(None, None, exc, sqlite3.Error) from exc
        except (sqlite3.Error, _HeadMoved):
            return None
        finally:
            raw.close()
        # Only once committed: a head or a tree kept here is never one the log lacks.
        if appended is not None:
            self._tree_head.committed(appended)
        for (stream_id, _v, _p, _h), stored in zip(parts, written, strict=True):
            self._remember(stream_id, stored[-1], [])
        return written

    def _sqlite_write_on_heads(self, cursor: sqlite3.Cursor,
                               parts: Sequence[tuple[str, int, list[_Prepared], str]]
                               ) -> tuple[list[list[StoredEvent]], Appended | None]:
        values: list[tuple[Any, ...]] = []
        for stream_id, expected_version, prepared, head in parts:
            # The rows as _chained_rows and _sqlite_values make them, each text made once.
            version, prev_hash = expected_version, head
            for item in prepared:
                version += 1
                event = item.event
                id_text = str(event.event_id)  # (event_id_text)
                # (recorded_at_text, format_utc's text: _prepare made it a plain UTC datetime
                # of a four-digit year)
                time_text = item.recorded_at.isoformat(timespec="microseconds")[:-6] + "Z"
                digest = chain_hash_of_texts(
                    prev_hash, stream_id, version, id_text, event.type, event.schema_version,
                    item.payload_json, time_text, event.actor, event.device)
                values.append((stream_id, version, id_text.replace("-", ""), event.type,
                               event.schema_version, item.payload_json,
                               f"{time_text[:10]} {time_text[11:-1]}",  # (as SQLAlchemy's)
                               event.actor, event.device, prev_hash, digest))
                prev_hash = digest
            cursor.execute(_SQLITE_MOVE_HEAD, (version, prev_hash, stream_id, expected_version,
                                               head))
            if cursor.rowcount != 1:
                raise _HeadMoved
        if len(values) == 1:
            cursor.execute(_SQLITE_INSERT, values[0])
            last: Any = cursor.lastrowid
        else:
            cursor.executemany(_SQLITE_INSERT, values)
            last = cursor.execute("SELECT last_insert_rowid()").fetchone()[0]
        # AUTOINCREMENT under the write lock: the rows take the positions after the last one
        # stored, one after another, in the order given.
        position = int(last) - len(values) + 1
        written: list[list[StoredEvent]] = []
        leaves: list[tuple[int, str, int, Any, str]] = []
        at = 0
        for stream_id, _v, prepared, _h in parts:
            stored = []
            for item in prepared:
                row = values[at]
                event = item.event
                # StoredEvent(...)'s own fields, set at once (its frozen __init__ sets them
                # one by one: a tenth of a batched append)
                made = _new(StoredEvent)
                _set(made, "__dict__", {
                    "position": position, "stream_id": stream_id, "version": row[1],
                    "event_id": event.event_id, "type": row[3], "schema_version": row[4],
                    "payload": _payload_copy(item), "payload_json": row[5],
                    "recorded_at": item.recorded_at, "actor": row[7], "device": row[8],
                    "prev_hash": row[9], "hash": row[10]})
                stored.append(made)
                leaves.append((position, stream_id, row[1], row[2], row[10]))
                position += 1
                at += 1
            written.append(stored)
        appended = None
        if self.write_merkle_leaves:
            # The next leaves, under the same lock as the insert (leaf order = commit order).
            appended = append_leaves_through(cursor, leaves, self._tree_head, False,
                                             stored_ids=True)
        return written, appended

    def _remember(self, stream_id: str, last: StoredEvent, tree: list[Appended]) -> None:
        if tree:
            self._tree_head.committed(tree[-1])
        known = self._heads.get(stream_id)
        if known is None or known[0] < last.version:
            self._heads[stream_id] = (last.version, last.hash)

    def _insert(self, connection: Connection, stream_id: str, rows: list[dict[str, Any]],
                prepared: list[_Prepared], tree: list[Appended]) -> list[StoredEvent]:
        if self._postgresql:
            # Delivered at commit, to every process listening on this database
            # (schema/notify.py).
            connection.execute(_NOTIFY, {
                "payload": f"{rows[-1]['version']} {self.token} {stream_id}"})
            # Serialise appends so that positions (a sequence) are handed out in commit
            # order. Taken last, so that it is held only for the insert and the commit:
            # the stream's own row lock (above) is what orders one table's appends.
            connection.exec_driver_sql("LOCK TABLE events IN EXCLUSIVE MODE")
            positions, done = self._insert_pg(connection, rows, tree)
        else:
            positions, done = _insert_sqlite(connection, rows), False
        if self.write_merkle_leaves and not done:
            # The next leaves of the one log over every stream, under the same lock as the
            # insert (leaf order = commit order, schema/merkle.py).
            # The frontier moves in self._tree_head only once committed (_remember).
            tree.append(append_leaves(connection, [
                (position, stream_id, row["version"], row["event_id"], row["hash"])
                for position, row in zip(positions, rows, strict=True)
            ], None if self._postgresql  # (the cached frontier was tried, or is empty)
                else self._tree_head if not tree else _Pending(tree[-1])))
        return _as_stored(stream_id, positions, rows, prepared)

    def _insert_pg(self, connection: Connection, rows: list[dict[str, Any]],
                   tree: list[Appended]) -> tuple[list[int], bool]:
        """The events insert on PostgreSQL, in plain SQL through the driver's cursor (prepared
        by psycopg once used a few times), with the Merkle leaves planned from the cached
        frontier written by the same statement (no round trip of their own). Returns the
        positions and whether the leaves were written (else the caller writes them)."""
        plan = plan_leaves(
            self._tree_head if not tree else _Pending(tree[-1]),
            [(row["stream_id"], row["version"], row["hash"]) for row in rows],
        ) if self.write_merkle_leaves else None
        # One array per column (binary): a statement of a few parameters, parsed once.
        params: tuple[Any, ...] = tuple([row[column] for row in rows] for column in _EVENT_COLUMNS)
        # exec_driver_sql: no statement compiling, and the driver's errors still come as
        # SQLAlchemy's (a duplicate event id is an IntegrityError, as on the other path).
        if plan is None:
            by_version = {int(version): int(position) for position, _stream, version
                          in connection.exec_driver_sql(_PG_EVENTS_ARRAYS, params)}
            return [by_version[row["version"]] for row in rows], False
        leaves = tuple(list(column) for column in zip(*plan.values, strict=True))
        result = connection.exec_driver_sql(_PG_EVENTS_AND_LEAVES.format(guard=plan.guard),
                                            (*params, *leaves, *plan.guard_params)).all()
        positions = [int(row[0]) for row in result]
        if int(result[0][1]) != len(rows):
            return positions, False  # another process moved the tree on: written apart
        tree.append(plan.appended)
        return positions, True

    def _create_stream_row(self, connection: Connection, stream_id: str, kind: str) -> None:
        values = {"id": stream_id, "kind": kind, "head_version": 0, "head_hash": GENESIS_HASH}
        if self._postgresql:
            connection.execute(
                postgresql.insert(streams_table).values(values).on_conflict_do_nothing()
            )
        else:
            connection.execute(sqlite.insert(streams_table).values(values).on_conflict_do_nothing())

    # --- reading ------------------------------------------------------------------------------

    def read(self, stream_id: str, from_version: int = 1,
             to_version: int | None = None,
             types: Sequence[str] | None = None,
             unless: tuple[str, str] | None = None) -> list[StoredEvent]:
        """The events of one stream from `from_version` on (to `to_version`; only of `types`
        when given; `unless` (type, text): not those of that type whose canonical payload
        holds that text), in version order."""
        query = (
            sa.select(events_table)
            .where(events_table.c.stream_id == stream_id, events_table.c.version >= from_version)
            .order_by(events_table.c.version)
        )
        if to_version is not None:
            query = query.where(events_table.c.version <= to_version)
        if types is not None:
            query = query.where(events_table.c.type.in_(list(types)))
        if unless is not None:
            query = query.where(sa.not_(sa.and_(
                events_table.c.type == unless[0],
                events_table.c.payload.contains(unless[1], autoescape=True))))
        return self._select_events(query)

    def read_streams(self, stream_ids: Sequence[str],
                     since: Mapping[str, int] | None = None) -> dict[str, list[StoredEvent]]:
        """The events of several streams in one query, by stream, in version order (each
        from its version in `since`, when given, else from its first)."""
        result: dict[str, list[StoredEvent]] = {stream: [] for stream in stream_ids}
        if not stream_ids:
            return result
        c = events_table.c
        whole = [s for s in stream_ids if since is None or since.get(s, 1) <= 1]
        where: list[sa.ColumnElement[bool]] = [c.stream_id.in_(whole)] if whole else []
        if since is not None:
            later = {s: since[s] for s in stream_ids if since.get(s, 1) > 1}
            if later:
                # Only the streams that have events from there on (after a restart, most
                # tables have none after their snapshot): one lookup of their heads.
                heads = self._rows(sa.select(streams_table.c.id, streams_table.c.head_version)
                                   .where(streams_table.c.id.in_(sorted(later))))
                where += [sa.and_(c.stream_id == row.id, c.version >= later[row.id])
                          for row in heads if row.head_version >= later[row.id]]
            if not where:
                return result
        query = (
            sa.select(events_table)
            .where(sa.or_(*where))
            .order_by(c.stream_id, c.version)
        )
        for event in self._select_events(query):
            result[event.stream_id].append(event)
        return result

    def find(self, event_ids: Sequence[uuid.UUID]) -> list[StoredEvent]:
        """The stored events with these ids (through the unique index: one query), in
        position order; ids not stored are left out."""
        if not event_ids:
            return []
        query = (
            sa.select(events_table)
            .where(events_table.c.event_id.in_(list(event_ids)))
            .order_by(events_table.c.position)
        )
        return self._select_events(query)

    def iter_all(self, from_position: int = 0, batch: int = 2000) -> Iterator[StoredEvent]:
        """Every event with position >= `from_position`, in commit order, read in batches of
        `batch` (keyset pagination on the position index): memory stays one batch whatever
        the log's size."""
        position = from_position
        while True:
            events = self.read_all(position, limit=batch)
            yield from events
            if len(events) < batch:
                return
            position = events[-1].position + 1

    def read_all(self, from_position: int = 0, limit: int | None = None) -> list[StoredEvent]:
        """Every event with position >= `from_position`, in commit order (at most `limit`)."""
        query = (
            sa.select(events_table)
            .where(events_table.c.position >= from_position)
            .order_by(events_table.c.position)
        )
        if limit is not None:
            query = query.limit(limit)
        return self._select_events(query)

    def count(self, event_type: str) -> int:
        """How many events of this type the log holds."""
        query = sa.select(sa.func.count()).select_from(events_table).where(
            events_table.c.type == event_type)
        with translate_errors(self._url, "read"), self._engine.connect() as connection:
            return int(connection.execute(query).scalar_one())

    def head(self, stream_id: str) -> StreamHead | None:
        """The stream's last version and hash, or None when it has no events."""
        rows = self._rows(sa.select(streams_table).where(streams_table.c.id == stream_id))
        return _head(rows[0]) if rows else None

    def streams(self) -> list[StreamHead]:
        """Every stream's head, by stream id."""
        return [_head(row) for row in
                self._rows(sa.select(streams_table).order_by(streams_table.c.id))]

    def snapshot(self) -> tuple[list[StreamHead], list[StoredEvent]]:
        """Every stream head and every event, read in one consistent snapshot (for verifying:
        a payload that is not valid JSON reads as {} instead of raising ChainBroken)."""
        with translate_errors(self._url, "read"), self._engine.connect() as connection:
            if self._postgresql:
                connection = connection.execution_options(isolation_level="REPEATABLE READ")
            with connection.begin():
                heads = connection.execute(
                    sa.select(streams_table).order_by(streams_table.c.id)
                ).all()
                rows = connection.execute(
                    sa.select(events_table).order_by(events_table.c.position)
                ).all()
        return [_head(row) for row in heads], [_stored(row, strict=False) for row in rows]

    def tree_head(self) -> TreeHead:
        """The size and root of the Merkle log over every stream (schema/merkle.py)."""
        with translate_errors(self._url, "read"), self._engine.connect() as connection:
            return read_head(connection)

    def write_beside_appends(self, work: Callable[[Connection], _T],
                             patience: float = 0.0) -> _T:
        """`work` in a write transaction (schema/'s own writes: a checkpoint, cosignatures).
        On SQLite, while tables append (a batch in flight or queued), it rides the next batch
        of appends (in a savepoint of its own, so its failure is its own and the appends' is
        not its): it then costs no flush of its own and no table waits behind it. With no
        table appending at this moment, it waits `patience` seconds for one to start (a
        background writer, the checkpoints' thread: a table between two taps is appending
        still), and goes alone at once without any (a caller on a tap's own thread: no batch
        can come while it waits). Alone (as `connection(write=True)`) when no batch takes it
        within RIDE_SECONDS (or its patience), and on PostgreSQL, whose appends do not wait
        for other tables' writes."""
        if self._postgresql or not self.group_commit:
            with self.connection(write=True) as connection:
                return work(connection)
        rider = _Rider(work)
        with self._queue_lock:
            busy = self._leaders > 0 or bool(self._queue)
            if busy or patience > 0:
                self._riders.append(rider)
        if not busy and patience <= 0:  # (no table appending now: no batch to wait for)
            with translate_errors(self._url, "write to"), self._writers:
                self._ride_alone(rider)
        elif not rider.done.wait(max(patience, RIDE_SECONDS)):
            with self._queue_lock:
                mine = rider in self._riders
                if mine:
                    self._riders.remove(rider)
            if mine:
                with self._writers:
                    self._ride_alone(rider)
            rider.done.wait()
        if rider.error is not None:
            with translate_errors(self._url, "write to"):
                raise rider.error
        return rider.result  # type: ignore[no-any-return]

    def _ride_alone(self, rider: _Rider) -> None:
        """A rider in a transaction of its own (the caller holds the writer slot)."""
        try:
            with self._engine.connect() as connection:
                connection = connection.execution_options(**WRITE_OPTIONS)
                with connection.begin():
                    rider.result = rider.work(connection)
                    rider.error = None
        except Exception as exc:  # noqa: BLE001 - the rider's caller's answer
            rider.error = exc
        rider.done.set()

    @contextmanager
    def connection(self, write: bool = False) -> Iterator[Connection]:
        """A connection in a transaction, for schema/'s own modules (checkpoints, proofs):
        `write=True` opens it for writing (SQLite: BEGIN IMMEDIATE, after this process's
        appends, whose writer slot it takes: a checkpoint or a cosignature waits for the
        batch in flight in the process and the batch after it waits for it, instead of
        either one finding SQLite's write lock taken and sleeping in its busy handler)."""
        queued: AbstractContextManager[object] = (
            self._writers if write and not self._postgresql else nullcontext())
        with translate_errors(self._url, "write to" if write else "read"), queued:
            with self._engine.connect() as connection:
                if write:
                    connection = connection.execution_options(**WRITE_OPTIONS)
                elif self._postgresql:
                    connection = connection.execution_options(isolation_level="REPEATABLE READ")
                with connection.begin():
                    yield connection

    def each_stream(self, batch: int = 2000) -> Iterator[tuple[StreamHead, list[StoredEvent]]]:
        """Every stream with its events, one stream at a time, all read in one consistent
        snapshot through one cursor (server-side on PostgreSQL, `batch` rows a fetch): memory
        holds one stream, not the log. Like `snapshot`, a payload that is not valid JSON reads
        as {} (for verifying)."""
        with translate_errors(self._url, "read"), self._engine.connect() as connection:
            if self._postgresql:
                connection = connection.execution_options(isolation_level="REPEATABLE READ")
            with connection.begin():
                heads = {row.id: _head(row) for row in connection.execute(
                    sa.select(streams_table).order_by(streams_table.c.id))}
                rows = connection.execution_options(stream_results=True, yield_per=batch).execute(
                    sa.select(events_table).order_by(events_table.c.stream_id,
                                                     events_table.c.version))
                current: str | None = None
                events: list[StoredEvent] = []
                for row in rows:
                    if row.stream_id != current:
                        if current is not None and events:
                            yield heads[current], events
                        current, events = row.stream_id, []
                    events.append(_stored(row, strict=False))
                if current is not None and events:
                    yield heads[current], events

    @contextmanager
    def reader(self) -> Iterator[LogReader]:
        """The log read in one consistent snapshot (on PostgreSQL REPEATABLE READ): its heads,
        the events of some types, and every event streamed (see LogReader)."""
        with translate_errors(self._url, "read"), self._engine.connect() as connection:
            if self._postgresql:
                connection = connection.execution_options(isolation_level="REPEATABLE READ")
            with connection.begin():
                yield LogReader(connection)

    def _select_events(self, query: sa.Select[Any]) -> list[StoredEvent]:
        return [_stored(row) for row in self._rows(query)]

    def _rows(self, query: sa.Select[Any]) -> Sequence[Row[Any]]:
        with translate_errors(self._url, "read"):
            try:
                with self._engine.connect() as connection:
                    return connection.execute(query).all()
            except DBAPIError as exc:
                if not exc.connection_invalidated:
                    raise
            # A pooled connection the database dropped (restart, idle timeout): once more.
            with self._engine.connect() as connection:
                return connection.execute(query).all()


class LogReader:
    """Reads of one snapshot of the log (EventStore.reader): memory holds one batch of rows
    whatever the log's size, the rows coming through one cursor (server-side on PostgreSQL:
    SQLAlchemy's stream_results; SQLite's own cursor steps through the rows as they are
    fetched)."""

    def __init__(self, connection: Connection) -> None:
        self._connection = connection

    def heads(self) -> dict[str, StreamHead]:
        """Every stream's head, by stream id."""
        return {row.id: _head(row) for row in self._connection.execute(
            sa.select(streams_table).order_by(streams_table.c.id))}

    def of_types(self, types: Sequence[str]) -> list[StoredEvent]:
        """Every event of these types (a few: corrections), by stream and version."""
        return [_stored(row) for row in self._connection.execute(
            sa.select(events_table).where(events_table.c.type.in_(list(types)))
            .order_by(events_table.c.stream_id, events_table.c.version))]

    def events(self, by_stream: bool = True, batch: int = 2000,
               streams: Sequence[str] | None = None, strict: bool = True
               ) -> Iterator[StoredEvent]:
        """Every event (of `streams`, when given), by stream and version (`by_stream`) or in
        commit order, `batch` rows a fetch. `strict=False`: a payload that is not valid JSON
        reads as {} (for verifying) instead of raising ChainBroken."""
        query = sa.select(events_table)
        if streams is not None:
            query = query.where(events_table.c.stream_id.in_(list(streams)))
        query = query.order_by(
            *((events_table.c.stream_id, events_table.c.version) if by_stream
              else (events_table.c.position,)))
        rows = self._connection.execution_options(
            stream_results=True, yield_per=batch).execute(query)
        for row in rows:
            yield _stored(row, strict=strict)


def _as_stored(stream_id: str, positions: Sequence[int], rows: list[dict[str, Any]],
               prepared: list[_Prepared]) -> list[StoredEvent]:
    stored = []
    for position, row, item in zip(positions, rows, prepared, strict=True):
        # StoredEvent(...)'s own fields set at once (as _sqlite_on_heads does); the payload
        # is what read() returns, not the caller's dict, which it may still change.
        made = _new(StoredEvent)
        _set(made, "__dict__", {
            "position": position, "stream_id": stream_id, "version": row["version"],
            "event_id": row["event_id"], "type": row["type"],
            "schema_version": row["schema_version"], "payload": _payload_copy(item),
            "payload_json": row["payload"], "recorded_at": row["recorded_at"],
            "actor": row["actor"], "device": row["device"], "prev_hash": row["prev_hash"],
            "hash": row["hash"]})
        stored.append(made)
    return stored


def _chained_rows(stream_id: str, expected_version: int, prepared: list[_Prepared],
                  prev_hash: str) -> list[dict[str, Any]]:
    """The rows to insert, each hash chained to the one before."""
    rows: list[dict[str, Any]] = []
    for offset, item in enumerate(prepared, start=1):
        version = expected_version + offset
        event = item.event
        digest = chain_hash(
            prev_hash,
            stream_id,
            version,
            event_id=event.event_id,
            event_type=event.type,
            schema_version=event.schema_version,
            payload_json=item.payload_json,
            recorded_at=item.recorded_at,
            actor=event.actor,
            device=event.device,
        )
        rows.append({
            "stream_id": stream_id,
            "version": version,
            "event_id": event.event_id,
            "type": event.type,
            "schema_version": event.schema_version,
            "payload": item.payload_json,
            "recorded_at": item.recorded_at,
            "actor": event.actor,
            "device": event.device,
            "prev_hash": prev_hash,
            "hash": digest,
        })
        prev_hash = digest
    return rows


_SQLITE_MOVE_HEAD = ("UPDATE streams SET head_version = ?, head_hash = ? "
                     "WHERE id = ? AND head_version = ? AND head_hash = ?")
_PG_MOVE_HEAD = _SQLITE_MOVE_HEAD.replace("?", "%s")
_EVENT_COLUMNS = EVENT_COLUMNS
# The events as one array per column (binary; a statement of a few parameters, whatever the
# rows: psycopg parses it once and the server prepares it, where a parameter per value was
# parsed again for every append).
_PG_EVENTS_ARRAYS = (
    "INSERT INTO events (" + ", ".join(_EVENT_COLUMNS) + ") SELECT * FROM unnest("
    "%b::text[], %b::integer[], %b::uuid[], %b::text[], %b::integer[], %b::text[], "
    "%b::timestamptz[], %b::text[], %b::text[], %b::text[], %b::text[]) "
    "RETURNING position, stream_id, version")
_PG_EVENTS_AND_LEAVES = (
    "WITH e AS (" + _PG_EVENTS_ARRAYS.removesuffix("stream_id, version")
    + "stream_id, version, event_id, hash), "
    "l AS (INSERT INTO merkle_leaves (leaf_index, position, stream_id, version, event_id, "
    "event_hash, leaf_hash, nodes) SELECT v.i, e.position, e.stream_id, e.version, e.event_id, "
    "e.hash, v.l, v.n FROM unnest(%b::bigint[], %b::integer[], %b::text[], %b::text[]) "
    "AS v (i, version, l, n) JOIN e ON e.version = v.version{guard} RETURNING 1) "
    "SELECT e.position, (SELECT count(*) FROM l) FROM e ORDER BY e.version"
)


# SQLite: the events of one append through the driver in one executemany (a prepared INSERT
# run per row: cheaper in SQLite than one statement of many rows with RETURNING, and no
# statement compiled per append), values as SQLAlchemy stores them there (a Uuid as 32 hex
# digits, a DateTime as its UTC fields' text, `YYYY-MM-DD HH:MM:SS.ffffff`).
_SQLITE_INSERT = ("INSERT INTO events (" + ", ".join(_EVENT_COLUMNS) + ") VALUES ("
                  + ", ".join(["?"] * len(_EVENT_COLUMNS)) + ")")
_SQLITE_POSITIONS = ("SELECT position FROM events WHERE stream_id = ? AND version BETWEEN ? AND ? "
                     "ORDER BY version")


def _insert_sqlite(connection: Connection, rows: list[dict[str, Any]]) -> list[int]:
    """Insert one stream's `rows` (versions one after another); their positions, in order."""
    values = [_sqlite_values(row) for row in rows]
    if len(values) == 1:  # (most appends: one statement)
        return [int(connection.exec_driver_sql(
            f"{_SQLITE_INSERT} RETURNING position", values[0]).scalar_one())]
    connection.exec_driver_sql(_SQLITE_INSERT, values)
    positions = [int(position) for position, in connection.exec_driver_sql(
        _SQLITE_POSITIONS, (rows[0]["stream_id"], rows[0]["version"], rows[-1]["version"]))]
    if len(positions) != len(rows):
        raise AssertionError(f"{len(rows)} events inserted, {len(positions)} read back")
    return positions


_FLAT = (str, int, bool, type(None))


def _payload_copy(item: _Prepared) -> dict[str, Any]:
    """What json.loads gives back from the payload's canonical text (the stored event's own
    copy, not the caller's dict): for a flat payload of text, whole numbers, booleans and
    nulls under text keys, its items in key order (canonical JSON sorts them), unparsed."""
    payload = item.event.payload
    for key, value in payload.items():
        if type(value) not in _FLAT or type(key) is not str:
            return json.loads(item.payload_json)  # type: ignore[no-any-return]
    return dict(sorted(payload.items()))


def _on_known_heads(batch: list[_Request]) -> bool:
    """Whether every append of `batch` is on a head this store wrote, one per stream."""
    streams = {request.stream_id for request in batch if request.known_hash is not None}
    return len(streams) == len(batch)


def _sqlite_values(row: dict[str, Any]) -> tuple[Any, ...]:
    """An event row's values as SQLAlchemy stores them in SQLite."""
    return (row["stream_id"], row["version"], row["event_id"].hex, row["type"],
            row["schema_version"], row["payload"],
            # (_prepare made it UTC, of a four-digit year: strftime's text, faster)
            row["recorded_at"].isoformat(" ", "microseconds")[:-6],
            row["actor"], row["device"], row["prev_hash"], row["hash"])


class _Pending(HeadCache):
    """The tree as an earlier part of this same transaction left it (append_many)."""

    def __init__(self, state: Appended) -> None:
        super().__init__()
        self.state = state


class _Request:
    """An append waiting for its batch (EventStore._submit): `known_hash` is the stream's
    head at `expected_version` when this store knows it (the batch then skips the full
    path); the writer fills in `stored` or `error` and sets `wake`."""

    __slots__ = ("done", "error", "expected_version", "kind", "known_hash", "lead", "prepared",
                 "stored", "stream_id", "wake")

    def __init__(self, stream_id: str, expected_version: int, prepared: list[_Prepared],
                 kind: str, known_hash: str | None) -> None:
        self.stream_id = stream_id
        self.expected_version = expected_version
        self.prepared = prepared
        self.kind = kind
        self.known_hash = known_hash
        self.stored: list[StoredEvent] | None = None
        self.error: BaseException | None = None
        self.done = False
        self.lead = False  # its thread holds a leader's slot: it writes the next batch
        self.wake = threading.Event()

    def answer(self, stored: list[StoredEvent] | None = None,
               error: BaseException | None = None) -> None:
        self.stored, self.error, self.done = stored, error, True


_T = TypeVar("_T")
RIDE_SECONDS = 0.05
"""How long a write beside the appends waits for a batch to ride before it goes alone."""


class _Rider:
    """A write waiting to ride a batch of appends (EventStore.write_beside_appends): the
    writer sets `result` or `error`, then `done` once the batch's transaction committed."""

    __slots__ = ("done", "error", "result", "work")

    def __init__(self, work: Callable[[Connection], Any]) -> None:
        self.work = work
        self.result: Any = None
        self.error: BaseException | None = None
        self.done = threading.Event()


def _ride(connection: Connection, riders: Sequence[_Rider]) -> None:
    """Each rider in a savepoint of its own in the batch's transaction: one that fails is
    rolled back and keeps its error; the appends go on."""
    for rider in riders:
        savepoint = connection.begin_nested()
        try:
            rider.result, rider.error = rider.work(connection), None
            savepoint.commit()
        except Exception as exc:  # noqa: BLE001 - the rider's caller's answer
            if isinstance(exc, DBAPIError) and not isinstance(exc, IntegrityError):
                raise  # the transaction's own fault: the batch's, and the rider goes alone
            savepoint.rollback()
            rider.result, rider.error = None, exc


class _HeadMoved(Exception):
    """The stream's head is not where this store last wrote it (another writer appended)."""


def open_store(url: str | None = None, *, upgrade: bool = False) -> EventStore:
    """The store at `url` (else $HANDLOG_DATABASE_URL, else ./handlog.db).

    Raises SchemaMissing / SchemaBehind (with the `handlog db upgrade` command to run) unless the
    database is at the current schema revision; `upgrade=True` migrates it first.
    """
    resolved = resolve_url(url)
    if upgrade:
        upgrade_database(resolved)
    else:
        path = sqlite_file(resolved)
        if path is not None and not path.exists():
            # Do not let the driver create an empty file for a store that was never set up.
            raise SchemaMissing(display_url(resolved))
        if path is not None:
            check_sqlite_file(path)
    engine = create_engine(resolved)
    try:
        with translate_errors(resolved, "open"), engine.connect() as connection:
            check_schema(connection, resolved)
    except BaseException:
        engine.dispose()
        raise
    return EventStore(engine, resolved)


def upgrade_database(url: str | None = None) -> str:
    """Migrate the database to the head revision (creating a SQLite file); returns it.

    A damaged SQLite file, or one of another application, is refused untouched."""
    resolved = resolve_url(url)
    path = sqlite_file(resolved)
    if path is not None and path.exists():
        check_sqlite_file(path)
    elif path is not None:
        _create_private(path)
    with translate_errors(resolved, "migrate"):
        revisions.upgrade(resolved)
    return revisions.HEAD_REVISION


def _create_private(path: Path) -> None:
    """A new SQLite file readable and writable by this user only (it holds every hole card;
    SQLite gives its journal and write-ahead log the file's own permissions)."""
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        pass  # (made meanwhile by another process: checked as any existing file)
    except OSError as exc:
        raise DatabaseError(f"cannot create the database file {path}: {exc.strerror}") from None


def database_revision(url: str | None = None) -> tuple[str | None, str]:
    """(the database's revision or None, the code's head revision); creates no file."""
    resolved = resolve_url(url)
    head = revisions.HEAD_REVISION
    path = sqlite_file(resolved)
    if path is not None and not path.exists():
        return None, head
    if path is not None:
        check_sqlite_file(path, integrity=False)
    engine = create_engine(resolved)
    try:
        with translate_errors(resolved, "open"), engine.connect() as connection:
            return revisions.current_revision(connection), head
    finally:
        engine.dispose()


def _stream_of(part: tuple[str, int, list[_Prepared], str]) -> str:
    return part[0]


def _check_stream(stream_id: str, expected_version: int, kind: str) -> None:
    if not isinstance(stream_id, str) or not stream_id or len(stream_id) > STREAM_ID_LENGTH:
        raise ValueError(f"stream id must be 1 to {STREAM_ID_LENGTH} characters: {stream_id!r}")
    if type(expected_version) is not int or expected_version < 0:
        raise ValueError(f"expected_version must be an integer >= 0, not {expected_version!r}")
    if not kind or len(kind) > KIND_LENGTH:
        raise ValueError(f"stream kind must be 1 to {KIND_LENGTH} characters: {kind!r}")


_FIRST_YEAR = 1000
_LAST_YEAR = 9998


def _prepare(event: NewEvent) -> _Prepared:
    if not isinstance(event.event_id, uuid.UUID):
        raise ValueError(f"event_id must be a UUID, not {event.event_id!r}")
    if not event.type or len(event.type) > TYPE_LENGTH:
        raise ValueError(f"event type must be 1 to {TYPE_LENGTH} characters: {event.type!r}")
    if type(event.schema_version) is not int or event.schema_version < 1:
        raise ValueError(f"schema_version must be an integer >= 1: {event.schema_version!r}")
    actor, device = event.actor, event.device
    if not (isinstance(actor, str) and isinstance(device, str)
            and len(actor) <= ACTOR_LENGTH and len(device) <= ACTOR_LENGTH):
        for name, value in (("actor", actor), ("device", device)):
            if not isinstance(value, str) or len(value) > ACTOR_LENGTH:
                raise ValueError(f"{name} must be text of at most {ACTOR_LENGTH} characters")
    if not isinstance(event.payload, dict):
        raise ValueError("payload must be a dict")
    recorded_at = event.recorded_at
    if not isinstance(recorded_at, datetime):
        raise ValueError(f"recorded_at must be a datetime, not {recorded_at!r}")
    if recorded_at.tzinfo is not UTC or type(recorded_at) is not datetime:
        if recorded_at.tzinfo is None or recorded_at.utcoffset() is None:
            raise ValueError(f"recorded_at {recorded_at.isoformat()} has no time zone; use UTC")
        try:
            moment = recorded_at.astimezone(UTC)
        except OverflowError:
            raise ValueError(
                f"recorded_at {event.recorded_at.isoformat()} is out of range") from None
        # A plain datetime (not a subclass's), whose text is the one _insert_sqlite writes.
        recorded_at = datetime(moment.year, moment.month, moment.day, moment.hour,
                               moment.minute, moment.second, moment.microsecond, tzinfo=UTC)
    if not _FIRST_YEAR <= recorded_at.year <= _LAST_YEAR:
        # Outside these years the canonical text (hashed, then exported) has no four-digit year,
        # or PostgreSQL could not hand the time back in a session time zone ahead of UTC.
        raise ValueError(
            f"recorded_at {recorded_at_text(recorded_at)} is outside the years "
            f"{_FIRST_YEAR} to {_LAST_YEAR}"
        )
    return _Prepared(event, canonical_json(event.payload), recorded_at)


def _retried(
    existing: Sequence[Row[Any]],
    stream_id: str,
    expected_version: int,
    prepared: list[_Prepared],
) -> list[StoredEvent]:
    """The stored events when this append is an exact retry (a StoredBefore); else
    DuplicateEventConflict."""
    by_id = {row.event_id: row for row in existing}
    stored: list[StoredEvent] = []
    for offset, item in enumerate(prepared, start=1):
        event = item.event
        row = by_id.get(event.event_id)
        if row is None:
            first = existing[0]
            raise DuplicateEventConflict(
                first.event_id,
                f"it is stored as version {first.version} of stream {first.stream_id!r}, but "
                f"event {event.event_id} of the same append is not stored",
            )
        version = expected_version + offset
        if row.stream_id != stream_id:
            reason = f"it is in stream {row.stream_id!r}, not {stream_id!r}"
        elif row.version != version:
            reason = f"it is version {row.version} of the stream, not version {version}"
        elif row.type != event.type or row.schema_version != event.schema_version:
            reason = (
                f"it is a {row.type!r} v{row.schema_version}, "
                f"not a {event.type!r} v{event.schema_version}"
            )
        elif row.payload != item.payload_json:
            reason = "its payload differs"
        else:
            stored.append(_stored(row))
            continue
        raise DuplicateEventConflict(event.event_id, reason)
    return StoredBefore(stored)


class StoredBefore(list[StoredEvent]):
    """An append's events as stored by an earlier append of the same ids (this one added
    nothing): what `append` returns for a retry, so that a caller can say it was one (two
    servers sent the same command at once: one recorded it, the other answers `retried`)."""


def _stored(row: Row[Any], strict: bool = True) -> StoredEvent:
    try:
        payload = json.loads(row.payload)
    except ValueError:
        payload = None
    if not isinstance(payload, dict):
        if strict:
            raise ChainBroken(
                row.stream_id, row.version, row.event_id, "the stored payload is not a JSON object"
            )
        payload = {}
    return StoredEvent(
        position=row.position,
        stream_id=row.stream_id,
        version=row.version,
        event_id=row.event_id,
        type=row.type,
        schema_version=row.schema_version,
        payload=payload,
        payload_json=row.payload,
        recorded_at=_utc(row.recorded_at),
        actor=row.actor,
        device=row.device,
        prev_hash=row.prev_hash,
        hash=row.hash,
    )


def _utc(moment: datetime) -> datetime:
    """The stored time as an aware UTC datetime, microseconds kept, whose format_utc text is the
    one hashed at append. SQLite hands back naive datetimes (everything was stored in UTC, as
    `YYYY-MM-DD HH:MM:SS.ffffff`); PostgreSQL aware ones in the session's time zone."""
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


def _head(row: Row[Any]) -> StreamHead:
    return StreamHead(stream_id=row.id, kind=row.kind, version=row.head_version, hash=row.head_hash)


def _violated_constraint(exc: IntegrityError) -> str | None:
    diag = getattr(exc.orig, "diag", None)
    name = getattr(diag, "constraint_name", None)
    if isinstance(name, str):
        return name
    # sqlite3 names the columns, not the constraint.
    text = str(exc.orig)
    if "events.stream_id, events.version" in text:
        return "uq_events_stream_version"
    if "events.event_id" in text:
        return "uq_events_event_id"
    if "streams.id" in text:
        return "streams_pkey"
    return None
