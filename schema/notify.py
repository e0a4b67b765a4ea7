"""Appends heard across processes: PostgreSQL LISTEN/NOTIFY.

Every append on PostgreSQL sends `NOTIFY "handlog:<schema>", '<version> <store> <stream>'`
inside its transaction (schema/store.py), so the notice goes out at commit, once the events are
durable, from whichever process (server, CLI) wrote them; `<store>` is the writing store's
token, so that a process can leave out its own appends. `AppendListener` holds one extra connection
(psycopg 3, autocommit) that LISTENs on that channel in a thread of its own and hands each
notice to a callback. Notices may be lost while the listener reconnects; it then calls
`on_gap()` so that the caller reads the heads once instead.
"""

from __future__ import annotations

import select
import threading
from collections.abc import Callable

import psycopg
from psycopg import sql
from sqlalchemy.engine import make_url

RECONNECT_SECONDS = 1.0


def libpq_url(url: str) -> str:
    """The SQLAlchemy URL as psycopg takes it (same host, database, options)."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


class AppendListener:
    """Calls `on_append(stream, version)` for every append committed to the database."""

    def __init__(self, url: str, on_append: Callable[[str, int], None],
                 on_gap: Callable[[], None] | None = None, ignore: str = "",
                 on_ended: Callable[[str], None] | None = None) -> None:
        """`ignore`: a store token whose appends are not reported (this process's own);
        `on_ended(session id)`: a sign-in ended (schema/sessions.py sends `ended <id>`)."""
        self._url = libpq_url(url)
        self._ignore = ignore
        self._on_ended = on_ended
        self._on_append = on_append
        self._on_gap = on_gap
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, name="handlog-listen", daemon=True)

    def start(self, timeout: float = 10.0) -> bool:
        """Start listening; True once the LISTEN is in place (appends from then on are heard)."""
        self._thread.start()
        return self._ready.wait(timeout)

    def stop(self) -> None:
        self._stop.set()

    def _run(self) -> None:
        first = True
        while not self._stop.is_set():
            try:
                with psycopg.connect(self._url, autocommit=True,
                                     application_name="handlog-listen",
                                     connect_timeout=10) as connection:
                    schema = connection.execute("SELECT current_schema()").fetchone()
                    channel = f"handlog:{schema[0] if schema else 'public'}"
                    connection.execute(sql.SQL("LISTEN {}").format(sql.Identifier(channel)))
                    self._ready.set()
                    if not first and self._on_gap is not None:
                        self._on_gap()
                    first = False
                    for notice in connection.notifies(timeout=0):  # (any read meanwhile)
                        self._deliver(notice.payload)
                    self._hear(connection.pgconn, connection.info.encoding)
            except (psycopg.Error, OSError, ValueError):
                # The database went away: reconnect, and say that notices may have been missed.
                first = False
                self._stop.wait(RECONNECT_SECONDS)

    def _hear(self, pgconn: psycopg.pq.abc.PGconn, encoding: str) -> None:
        """Read the notices as they come, on libpq's own calls, every one waiting at a
        wake-up at once. Every append sends one, this process's own included: through
        psycopg's `notifies()` they cost this thread 45-60 us of CPU each on a 2-core machine,
        about 4% of a tap's (benchmarks/tap_cpu.py). Letting them gather 10 ms between reads
        cut that to about 17 us, but a second server then heard the first's appends later and
        recorded less: benchmarks/room_load.py's two processes at 200 tablets, alternated six
        rounds each, 853 actions/s with the wait against 981 without it."""
        poller = select.poll()
        poller.register(pgconn.socket, select.POLLIN)
        while not self._stop.is_set():
            if not poller.poll(500):
                continue
            pgconn.consume_input()  # (a connection gone raises psycopg.OperationalError)
            while (notice := pgconn.notifies()) is not None:
                self._deliver(notice.extra.decode(encoding))

    def _deliver(self, payload: str) -> None:
        version, _, rest = payload.partition(" ")
        if version == "ended":
            if self._on_ended is not None:
                self._on_ended(rest)
            return
        token, _, stream = rest.partition(" ")
        if stream and version.isdigit() and token != self._ignore:
            self._on_append(stream, int(version))
