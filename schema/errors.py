"""What can go wrong when storing or reading events, as messages a user can act on.

Every error is a `HandlogError`; the CLI prints `str(error)` and exits 1, never a traceback.
Driver errors (SQLAlchemy, sqlite3, psycopg) are translated into these at the store's edge.
"""

from __future__ import annotations

import uuid


class HandlogError(Exception):
    """Base of every error handlog reports to a user."""


class ConcurrencyConflict(HandlogError):
    """Someone else appended to the stream since the caller last read it."""

    def __init__(self, stream_id: str, expected: int, actual: int) -> None:
        self.stream_id = stream_id
        self.expected = expected
        self.actual = actual
        super().__init__(
            f"stream {stream_id!r} is at version {actual}, but this append expected version "
            f"{expected}: someone else recorded first. Reload the stream and retry the command."
        )


class DuplicateEventConflict(HandlogError):
    """An event id already stored with different content (or on another stream / version)."""

    def __init__(self, event_id: uuid.UUID, reason: str) -> None:
        self.event_id = event_id
        self.reason = reason
        super().__init__(
            f"event {event_id} was already recorded differently ({reason}); a retry must resend "
            "exactly the same events, so use a new event id for a new entry."
        )


class ChainBroken(HandlogError):
    """The hash chain of a stream does not hold: the log was altered or is incomplete."""

    def __init__(self, stream_id: str, version: int, event_id: uuid.UUID | None, reason: str):
        self.stream_id = stream_id
        self.version = version
        self.event_id = event_id
        self.reason = reason
        event = f", event {event_id}" if event_id is not None else ""
        super().__init__(f"stream {stream_id!r} version {version}{event}: {reason}")


class EventCodecError(HandlogError):
    """A stored event cannot be turned back into a domain event (unknown type, bad payload...)."""


class CanonicalJsonError(HandlogError, ValueError):
    """A value has no canonical JSON form (a float, a naive or non-UTC datetime...)."""


class DatabaseError(HandlogError):
    """The database cannot be reached or opened."""


class StoreUnavailable(DatabaseError):
    """The database did not answer or could not write just now (a restart, a dropped
    connection, a full disk, a lock held too long): nothing of the request was recorded, and
    the same request may be sent again (the HTTP answer is 503 with Retry-After)."""


class SchemaError(HandlogError):
    """The database's schema is not the one this version of handlog writes."""


class SchemaMissing(SchemaError):
    def __init__(self, url: str) -> None:
        self.url = url
        super().__init__(
            f"database at {url} has no handlog schema: run `handlog db upgrade --db {url}`"
        )


class SchemaBehind(SchemaError):
    def __init__(self, url: str, current: str, head: str) -> None:
        self.url = url
        self.current = current
        self.head = head
        super().__init__(
            f"database at {url} is at revision {current}, head is {head}: "
            f"run `handlog db upgrade --db {url}`"
        )


class SchemaAhead(SchemaError):
    """The database was migrated by a newer handlog than this one."""

    def __init__(self, url: str, current: str, head: str) -> None:
        self.url = url
        self.current = current
        self.head = head
        super().__init__(
            f"database at {url} is at revision {current}, which this handlog does not know "
            f"(its head is {head}): upgrade handlog before using this database"
        )


class DatabaseDamaged(DatabaseError):
    """A SQLite file that is cut off, overwritten or corrupted (SQLite's integrity check)."""

    def __init__(self, path: str, reason: str) -> None:
        self.path = path
        self.reason = reason
        super().__init__(
            f"the database file {path} is damaged: {reason}. Nothing was written to it; "
            "restore it from a backup or an export (`handlog log export`)"
        )


class NotHandlogDatabase(DatabaseError):
    """A database that belongs to another application."""

    def __init__(self, path: str, reason: str) -> None:
        self.path = path
        self.reason = reason
        super().__init__(
            f"not a handlog database: {path} {reason}; nothing was written to it. Give the "
            "--db of a handlog database, or a new file"
        )
