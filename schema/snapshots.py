"""The `snapshots` table: each stream's folded state at some version, kept to spare a restarted
server the fold of the stream from its first event (replay/repository.py decides what a
snapshot holds and when one is taken).

A snapshot is a cache, never evidence: it is written after the events it covers are committed,
in a transaction of its own, and replaced by the next one; a row that is missing, damaged or
written by other code (`code`) costs only the fold from the start.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Engine

from handlog.schema.database import WRITE_OPTIONS
from handlog.schema.tables import snapshots_table

_BATCH = 500  # streams per query (bound parameters stay well under SQLite's limit)
SHARED_PREFIX = "$shared/"
"""The rows of records that snapshots share (a room's house rules, the same in every table's
state), by digest: `$shared/<digest>` (schema/state_codec.py `to_json`)."""


class SnapshotStore:
    """The snapshots kept in one database."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine
        dialect = postgresql if engine.dialect.name == "postgresql" else sqlite
        insert = dialect.insert(snapshots_table)
        # (made once: building it took a quarter of a snapshot's write)
        self._upsert = insert.on_conflict_do_update(
            index_elements=["stream_id"],
            set_={"code": insert.excluded.code, "version": insert.excluded.version,
                  "body": insert.excluded.body})

    def save(self, stream: str, code: str, version: int, body: str) -> None:
        """Keep `body` as `stream`'s snapshot at `version`, in place of the one before."""
        self.save_many([(stream, code, version, body)])

    def save_many(self, snapshots: Sequence[tuple[str, str, int, str]]) -> None:
        """`save` for several (stream, code, version, body), in one transaction."""
        if not snapshots:
            return
        values = [{"stream_id": stream, "code": code, "version": version, "body": body}
                  for stream, code, version, body in snapshots]
        with self._engine.connect().execution_options(**WRITE_OPTIONS) as connection:
            connection.execute(self._upsert, values)
            connection.commit()

    def load(self, streams: Sequence[str], code: str) -> dict[str, tuple[int, str]]:
        """stream -> (version, body) of the snapshots of `streams` that `code` wrote, and of
        every shared record it wrote (`SHARED_PREFIX` + digest), in the same query."""
        found: dict[str, tuple[int, str]] = {}
        table = snapshots_table
        with self._engine.connect() as connection:
            for start in range(0, len(streams), _BATCH):
                chunk = list(streams[start:start + _BATCH])
                wanted: sa.ColumnElement[bool] = table.c.stream_id.in_(chunk)
                if not start:
                    wanted = wanted | table.c.stream_id.startswith(SHARED_PREFIX, autoescape=True)
                rows = connection.execute(
                    sa.select(table.c.stream_id, table.c.version, table.c.body).where(
                        wanted, table.c.code == code))
                for stream, version, body in rows:
                    found[stream] = (version, body)
        return found
