"""Sign-ins kept in the database, so that ending one holds after a restart and on every server
that shares the database.

A director's or dealer's session is a row of `signed_in_sessions` from sign-in until it ends;
ending it (signed out, revoked by the director, idle too long) deletes that row and adds one to
`revoked_sessions` saying when, why and by whom. A token whose session has no row is refused,
so the revocation list is the record, and the check is one primary-key read. Rows past their
expiry are pruned as new sessions open.

On PostgreSQL a server keeps the sessions it has read in memory while it listens for the
database's notices (`caching`, set by recorder/live.py's Hub): ending a session sends one
(`NOTIFY`, at commit) and every listening server forgets it, so a tap costs no read of its
session. A session ended on one server is refused there at once and on the others as soon as
the notice arrives (milliseconds); a gap in listening empties the cache.

Viewers' sessions are not stored (they read only what anyone may read, and cost nothing to
keep).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine, Row
from sqlalchemy.exc import IntegrityError

from handlog.schema.database import WRITE_OPTIONS, translate_errors
from handlog.schema.tables import NAME_LENGTH, revoked_table, signed_in_table


@dataclass(frozen=True)
class SignedIn:
    """One signed-in tablet or floor screen."""

    id: str
    role: str
    table: str | None
    name: str
    device: str
    client: str
    signed_in_at: datetime
    last_seen: datetime
    expires: datetime


@dataclass(frozen=True)
class Revoked:
    """How a session ended early: `reason` is "signed_out", "revoked" or "idle"."""

    id: str
    revoked_at: datetime
    reason: str
    by: str


_ENDED = sa.text("SELECT pg_notify('handlog:' || current_schema(), :payload)")


class SessionStore:
    """The `signed_in_sessions` and `revoked_sessions` tables of one database."""

    def __init__(self, engine: Engine, url: str) -> None:
        self._engine = engine
        self._url = url
        self._cache: dict[str, SignedIn] = {}
        self._cache_lock = threading.Lock()
        self.caching = False
        """Keep read sessions in memory: only while ended sessions are heard of (a listener
        on PostgreSQL calls `forget`)."""

    def forget(self, session_id: str | None = None) -> None:
        """Drop one cached session (ended elsewhere), or all of them (a gap in listening)."""
        with self._cache_lock:
            if session_id is None:
                self._cache.clear()
            else:
                self._cache.pop(session_id, None)

    def open(self, session: SignedIn) -> None:
        """Record a new sign-in (and prune the sessions that expired)."""
        with translate_errors(self._url, "write"), \
                self._engine.connect().execution_options(**WRITE_OPTIONS) as connection:
            with connection.begin():
                now = session.signed_in_at
                connection.execute(signed_in_table.delete().where(
                    signed_in_table.c.expires <= now))
                connection.execute(revoked_table.delete().where(revoked_table.c.expires <= now))
                connection.execute(signed_in_table.insert().values(
                    id=session.id, role=session.role, table_stream=session.table,
                    name=session.name[:NAME_LENGTH], device=session.device[:NAME_LENGTH],
                    client=session.client[:NAME_LENGTH], signed_in_at=_utc(now),
                    last_seen=_utc(session.last_seen), expires=_utc(session.expires)))

    def get(self, session_id: str, cached: bool = True) -> SignedIn | None:
        """The session, while it is signed in; else None. `cached=False` reads the database
        (its last use may have been on another server)."""
        if cached and self.caching:
            kept = self._cache.get(session_id)
            if kept is not None:
                return kept
        with translate_errors(self._url, "read"), self._engine.connect() as connection:
            row = connection.execute(signed_in_table.select().where(
                signed_in_table.c.id == session_id)).first()
        found = _signed_in(row) if row is not None else None
        if found is not None and self.caching:
            with self._cache_lock:
                self._cache[session_id] = found
        return found

    def touch(self, session_id: str, at: datetime) -> None:
        """The session was used at `at`."""
        with translate_errors(self._url, "write"), \
                self._engine.connect().execution_options(**WRITE_OPTIONS) as connection:
            with connection.begin():
                connection.execute(signed_in_table.update().where(
                    signed_in_table.c.id == session_id).values(last_seen=_utc(at)))
        with self._cache_lock:
            kept = self._cache.get(session_id)
            if kept is not None:
                self._cache[session_id] = _replace_seen(kept, at)

    def end(self, session_id: str, at: datetime, reason: str, by: str) -> bool:
        """End a session: False when it was not signed in (already ended, or unknown)."""
        with translate_errors(self._url, "write"), \
                self._engine.connect().execution_options(**WRITE_OPTIONS) as connection:
            with connection.begin():
                row = connection.execute(signed_in_table.select().where(
                    signed_in_table.c.id == session_id)).first()
                if row is None:
                    self.forget(session_id)
                    return False
                connection.execute(signed_in_table.delete().where(
                    signed_in_table.c.id == session_id))
                if connection.dialect.name == "postgresql":
                    # At commit, to every server listening (recorder/live.py): they forget it.
                    connection.execute(_ENDED, {"payload": f"ended {session_id}"})
                try:
                    with connection.begin_nested():
                        connection.execute(revoked_table.insert().values(
                            id=session_id, revoked_at=_utc(at), reason=reason,
                            by=by[:NAME_LENGTH], expires=row.expires))
                except IntegrityError:
                    pass  # ended twice at once, by two servers: once is enough
        self.forget(session_id)
        return True

    def revoked(self, session_id: str) -> Revoked | None:
        """How the session ended, if it was ended early."""
        with translate_errors(self._url, "read"), self._engine.connect() as connection:
            row = connection.execute(revoked_table.select().where(
                revoked_table.c.id == session_id)).first()
        if row is None:
            return None
        return Revoked(row.id, _aware(row.revoked_at), row.reason, row.by)

    def signed_in(self, now: datetime) -> list[SignedIn]:
        """Every session signed in and not expired, the most recently used first."""
        with translate_errors(self._url, "read"), self._engine.connect() as connection:
            rows = connection.execute(signed_in_table.select().where(
                signed_in_table.c.expires > _utc(now)).order_by(
                signed_in_table.c.last_seen.desc(), signed_in_table.c.id)).all()
        return [_signed_in(row) for row in rows]


class MemorySessions(SessionStore):
    """The same contract in memory, for an Auth that is not bound to a database."""

    def __init__(self) -> None:
        self._open: dict[str, SignedIn] = {}
        self._ended: dict[str, Revoked] = {}
        self._cache = {}
        self._cache_lock = threading.Lock()
        self.caching = False

    def open(self, session: SignedIn) -> None:
        self._open[session.id] = session

    def get(self, session_id: str, cached: bool = True) -> SignedIn | None:
        return self._open.get(session_id)

    def touch(self, session_id: str, at: datetime) -> None:
        session = self._open.get(session_id)
        if session is not None:
            self._open[session_id] = _replace_seen(session, at)

    def end(self, session_id: str, at: datetime, reason: str, by: str) -> bool:
        if self._open.pop(session_id, None) is None:
            return False
        self._ended[session_id] = Revoked(session_id, at, reason, by)
        return True

    def revoked(self, session_id: str) -> Revoked | None:
        return self._ended.get(session_id)

    def signed_in(self, now: datetime) -> list[SignedIn]:
        live = [s for s in self._open.values() if s.expires > now]
        return sorted(live, key=lambda s: (-s.last_seen.timestamp(), s.id))


def _replace_seen(session: SignedIn, at: datetime) -> SignedIn:
    return replace(session, last_seen=at)


def _utc(moment: datetime) -> datetime:
    return moment.astimezone(UTC) if moment.tzinfo else moment.replace(tzinfo=UTC)


def _aware(moment: datetime) -> datetime:
    # SQLite hands back naive datetimes for what was stored as UTC.
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def _signed_in(row: Row[Any]) -> SignedIn:
    return SignedIn(id=row.id, role=row.role, table=row.table_stream, name=row.name,
                    device=row.device, client=row.client,
                    signed_in_at=_aware(row.signed_in_at), last_seen=_aware(row.last_seen),
                    expires=_aware(row.expires))

