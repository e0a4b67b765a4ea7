"""Where the log lives: database URLs, engines (with SQLite's durability settings) and the
schema-revision check.

URL resolution: the `--db` argument, else `HANDLOG_DATABASE_URL`, else `sqlite:///handlog.db`
(a file in the working folder). A bare path (`tournament.db`) means a SQLite file, and
`postgresql://` / `postgres://` use the psycopg 3 driver.

Every SQLite connection runs in WAL mode with `synchronous=FULL` (a commit is on disk before it
is acknowledged), a busy timeout and foreign keys on. Python's sqlite3 module is told to leave
transactions alone (`isolation_level=None`) and SQLAlchemy's "begin" event emits the BEGIN
itself: `BEGIN IMMEDIATE` on connections marked with `WRITE_OPTIONS`, so a writer takes the
write lock before it reads the stream head, and a plain (deferred) BEGIN for readers.
"""

from __future__ import annotations

import os
import sqlite3
import sys
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import URL, Connection, Engine, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError

from handlog.schema.errors import (
    DatabaseDamaged,
    DatabaseError,
    NotHandlogDatabase,
    SchemaAhead,
    SchemaBehind,
    SchemaMissing,
    StoreUnavailable,
)

ENV_VAR = "HANDLOG_DATABASE_URL"
DEFAULT_URL = "sqlite:///handlog.db"
BUSY_TIMEOUT_SECONDS = 10.0
POOL_ENV_VAR = "HANDLOG_POOL_SIZE"
# Kept open, so that no request opens and closes one: appends run two at a time per process
# (writer_slots) and the tables are read from memory, so ten cover a server's worker threads
# (overflow beyond them is opened and closed, up to 20 more) without taking a PostgreSQL
# server's connections from the other processes (100 by default, for all of them).
DEFAULT_POOL_SIZE = 10

WRITE_OPTIONS: dict[str, Any] = {"handlog_begin": "IMMEDIATE"}
"""Execution options for a connection that will write: SQLite opens it with BEGIN IMMEDIATE."""


def resolve_url(url: str | None = None) -> str:
    """The database URL to use: `url`, else $HANDLOG_DATABASE_URL, else ./handlog.db."""
    raw = (url or os.environ.get(ENV_VAR) or DEFAULT_URL).strip()
    if "://" not in raw:
        return "sqlite:///" + raw
    scheme, rest = raw.split("://", 1)
    if scheme in ("postgres", "postgresql"):
        return "postgresql+psycopg://" + rest
    return raw


def parse_url(url: str) -> URL:
    try:
        return make_url(url)
    except (ArgumentError, ValueError):  # (ValueError: a port that is not a number)
        raise DatabaseError(f"{url!r} is not a database URL (e.g. sqlite:///handlog.db or "
                            "postgresql://user@host:5432/name)") from None


def display_url(url: str) -> str:
    """The URL as shown to a user: the password hidden."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except (ArgumentError, ValueError):
        return url


def is_sqlite(url: str) -> bool:
    return parse_url(url).get_backend_name() == "sqlite"


def sqlite_file(url: str) -> Path | None:
    """The file of a SQLite URL (None for other databases and in-memory SQLite)."""
    parsed = parse_url(url)
    if parsed.get_backend_name() != "sqlite":
        return None
    database = parsed.database
    if not database or database == ":memory:" or database.startswith("file:"):
        return None
    return Path(database)


def create_engine(url: str) -> Engine:
    """An engine for `url`; on SQLite every connection gets the durability pragmas."""
    parsed = parse_url(url)
    backend = parsed.get_backend_name()
    if backend == "sqlite":
        # LIFO: a thread takes the connection returned last, warm (SQLite keeps a page cache
        # per connection, emptied when another connection wrote): with the checkpoints' and
        # the witnesses' threads reading on connections of their own, the pool's default
        # (oldest first) handed the taps a cold one again and again (benchmarks/
        # witness_overhead.py: about 20 us of the tapping thread's CPU a tap).
        engine = sa.create_engine(parsed, connect_args={"timeout": BUSY_TIMEOUT_SECONDS},
                                  pool_use_lifo=True)
        sa.event.listen(engine, "connect", _sqlite_connect)
        sa.event.listen(engine, "begin", _sqlite_begin)
        return engine
    if backend == "postgresql":
        connect_args: dict[str, Any] = {"application_name": "handlog"}
        if "connect_timeout" not in parsed.query:
            connect_args["connect_timeout"] = 10
        # No ping per checkout (a round trip per query): a connection the server dropped is
        # retried once by the store instead.
        return sa.create_engine(parsed, connect_args=connect_args, pool_pre_ping=False,
                                pool_size=pool_size(), max_overflow=20, pool_recycle=3600)
    raise DatabaseError(
        f"{display_url(url)}: handlog stores its log in SQLite or PostgreSQL, not {backend}"
    )


WRITERS_ENV_VAR = "HANDLOG_WRITERS"


def writer_slots(postgresql: bool) -> int:
    """Appends one process runs at once: $HANDLOG_WRITERS, else 2 on PostgreSQL and 1 on
    SQLite. The database orders appends one at a time anyway (PostgreSQL's lock on the events
    table, SQLite's write lock); a thread more waiting there only holds a connection and makes
    the one holding the lock wait for the interpreter (Python runs one thread at a time), and
    SQLite's busy waiting sleeps. The others wait in the process instead, holding nothing."""
    raw = os.environ.get(WRITERS_ENV_VAR, "").strip()
    if not raw:
        return 2 if postgresql else 1
    try:
        slots = int(raw)
    except ValueError:
        slots = 0
    if slots < 1:
        raise DatabaseError(f"{WRITERS_ENV_VAR}={raw!r}: give a whole number >= 1")
    return slots


def pool_size() -> int:
    """Connections kept open to PostgreSQL: $HANDLOG_POOL_SIZE, else 10."""
    raw = os.environ.get(POOL_ENV_VAR, "").strip()
    if not raw:
        return DEFAULT_POOL_SIZE
    try:
        size = int(raw)
    except ValueError:
        size = 0
    if size < 1:
        raise DatabaseError(f"{POOL_ENV_VAR}={raw!r}: give a whole number of connections >= 1")
    return size


def _sqlite_connect(dbapi_connection: Any, _record: Any) -> None:
    # Let SQLAlchemy's "begin" event, not the sqlite3 module, decide when transactions start.
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_SECONDS * 1000)}")
        cursor.execute("PRAGMA journal_mode = WAL")
        cursor.execute("PRAGMA synchronous = FULL")
        cursor.execute("PRAGMA foreign_keys = ON")
    finally:
        cursor.close()


def _sqlite_begin(connection: Connection) -> None:
    mode = connection.get_execution_options().get("handlog_begin", "DEFERRED")
    connection.exec_driver_sql(f"BEGIN {mode}")


SQLITE_MAGIC = b"SQLite format 3\x00"
HANDLOG_TABLES = frozenset({"alembic_version", "streams", "events"})


def check_sqlite_file(path: Path, *, integrity: bool = True) -> None:
    """Refuse, before anything could write to it, a SQLite file that is damaged (its header,
    its size, then SQLite's `PRAGMA quick_check`) or belongs to another application.

    An empty file is a new database. Reading goes through a read-only connection, so neither a
    damaged nor a foreign file is changed (no WAL switch, no journal)."""
    shown = str(path)
    try:
        size = path.stat().st_size
        with open(path, "rb") as stream:
            header = stream.read(100)
    except OSError as exc:
        raise DatabaseError(f"cannot read the database file {shown}: {exc.strerror}") from None
    if size == 0:
        return
    if len(header) < 100 or not header.startswith(SQLITE_MAGIC):
        raise DatabaseDamaged(shown, "it does not start with SQLite's header (it is not a "
                                     "SQLite database, or its start was overwritten)")
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    if page_size < 512 or page_size & (page_size - 1):
        raise DatabaseDamaged(shown, f"its header gives an impossible page size ({page_size})")
    pages = int.from_bytes(header[28:32], "big")
    # A process killed in the middle of a WAL checkpoint leaves page 1 (with the new page count)
    # written before the pages after it: the write-ahead log still holds them, and SQLite's
    # recovery completes the file. Only without a WAL is a short file cut off.
    wal = path.with_name(path.name + "-wal")
    wal_holds_pages = wal.exists() and wal.stat().st_size > 0
    if size % page_size or (size < pages * page_size and not wal_holds_pages):
        raise DatabaseDamaged(shown, f"it is {size} bytes long, not the {pages} pages of "
                                     f"{page_size} bytes its header gives (the file was cut off)")
    uri = "file:" + urllib.parse.quote(str(path.resolve())) + "?mode=ro"
    try:
        connection = sqlite3.connect(uri, uri=True)
    except sqlite3.Error as exc:
        raise DatabaseError(f"cannot open the database file {shown}: {exc}") from None
    try:
        tables = {row[0] for row in connection.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
        if integrity:
            # quick_check: integrity_check without comparing each index with its table, O(N)
            # and several times faster on a long log (benchmarks/log_verify.py).
            problems = [row[0] for row in connection.execute("PRAGMA quick_check(5)")]
            if problems != ["ok"]:
                raise DatabaseDamaged(shown, "SQLite's integrity check (quick_check) says: "
                                             + "; ".join(problems))
        own = tables - {"sqlite_sequence"}
        if own == {"alembic_version"} and not connection.execute(
            "SELECT 1 FROM alembic_version").fetchall():
            own = set()  # handlog's, migrated down to nothing
        if own and not HANDLOG_TABLES <= own:
            listed = ", ".join(sorted(own)[:8]) + (", ..." if len(own) > 8 else "")
            raise NotHandlogDatabase(shown, f"holds the tables of another application "
                                            f"({listed}) and not handlog's")
    except sqlite3.DatabaseError as exc:
        raise DatabaseDamaged(shown, f"SQLite cannot read it ({exc})") from None
    finally:
        connection.close()


_DAMAGE = ("malformed", "not a database", "disk i/o error", "database corrupt")


@contextmanager
def translate_errors(url: str, doing: str) -> Iterator[None]:
    """Turn a driver error (cannot connect, cannot open the file...) into a DatabaseError."""
    try:
        yield
    except DBAPIError as exc:
        orig = exc.orig
        if isinstance(orig, sqlite3.DatabaseError) and not isinstance(
            orig, sqlite3.IntegrityError
        ) and any(word in str(orig).lower() for word in _DAMAGE):
            raise DatabaseDamaged(display_url(url), str(orig)) from None
        if exc.connection_invalidated or isinstance(exc, sa.exc.OperationalError):
            detail = str(exc.orig).strip().splitlines()[0] if exc.orig else str(exc)
            raise StoreUnavailable(
                f"cannot {doing} database at {display_url(url)}: {detail}"
            ) from None
        raise
    except Exception as exc:
        # The driver's own error, not wrapped: a connection taken straight from the pool
        # (`raw_connection`, the one-statement append) raises it as the driver does.
        psycopg = sys.modules.get("psycopg")
        if psycopg is not None and isinstance(exc, psycopg.OperationalError):
            detail = str(exc).strip().splitlines()[0]
            raise StoreUnavailable(
                f"cannot {doing} database at {display_url(url)}: {detail}") from None
        raise


def check_schema(connection: Connection, url: str) -> str:
    """The schema revision of the database; raises SchemaMissing/Behind/Ahead unless at head."""
    from handlog.schema import revisions
    current = revisions.current_revision(connection)
    head = revisions.HEAD_REVISION
    shown = display_url(url)
    if current is None:
        raise SchemaMissing(shown)
    if current != head:
        if revisions.is_known_revision(current):
            raise SchemaBehind(shown, current, head)
        raise SchemaAhead(shown, current, head)
    return current
