"""A table's append on PostgreSQL in one round trip: the head's move, the notice, the lock on
`events`, the events and their Merkle leaves and the commit, sent as one psycopg pipeline.

Why: positions are handed out under `LOCK TABLE events IN EXCLUSIVE MODE` so that the Merkle
tree's leaf order is commit order (schema/merkle.py). Sent statement by statement, the lock
is held across the client's round trips, and between them the holding thread waits for the
interpreter (Python runs one thread at a time) and for the operating system's scheduler: on
a busy machine that, not the database, is what capped a room's appends, and a second server
process only made the lock's queue longer. Pipelined, the lock is taken and released inside
the database within one exchange.

The leaves' interior nodes depend on the tree's right edge, which another process may have
moved since this one last appended; so they are computed by the database, under the lock,
by `pg_temp.handlog_leaves` (a function made once per connection, in its temporary schema:
no migration, nothing left behind): it reads the frontier by key (O(log n) rows, amortised
one per leaf) and hashes as RFC 9162 does (node = SHA-256(0x01 || left || right)); the leaf
hashes themselves come from Python (`event_leaf`, the one definition of an entry).

Anything unexpected (the head moved, a retried id, a dropped connection) rolls the whole
pipeline back and the caller takes the statement-by-statement path, which tells a conflict
from a retry and answers as before.
"""

from __future__ import annotations

from typing import Any

from handlog.schema.hashing import event_leaf

_LEAVES_FUNCTION = r"""
CREATE OR REPLACE FUNCTION pg_temp.handlog_leaves(
    p_stream text, p_first integer, p_head integer, p_hash text, p_leaves bytea[])
RETURNS bigint LANGUAGE plpgsql AS $fn$
DECLARE
    n bigint;
    e record;
    i integer := 0;
    lvl integer;
    node bytea;
    made text;
    left_leaf text;
    left_nodes text;
BEGIN
    PERFORM 1 FROM streams WHERE id = p_stream AND head_version = p_head
        AND head_hash = p_hash;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'handlog: the head of % moved', p_stream;
    END IF;
    SELECT coalesce(max(leaf_index) + 1, 0) INTO n FROM merkle_leaves;
    FOR e IN SELECT position, version, event_id, hash FROM events
             WHERE stream_id = p_stream AND version >= p_first ORDER BY version LOOP
        i := i + 1;
        node := p_leaves[i];
        made := '';
        lvl := 0;
        -- Each one bit at the bottom of n closes a perfect subtree: its left half is the
        -- subtree of level lvl that ends at leaf n - 2^lvl (that row's leaf or its nodes).
        WHILE (n >> lvl) & 1 = 1 LOOP
            SELECT leaf_hash, nodes INTO left_leaf, left_nodes FROM merkle_leaves
                WHERE leaf_index = n - (1::bigint << lvl);
            IF NOT FOUND THEN
                RAISE EXCEPTION 'handlog: the Merkle log has no leaf %', n - (1::bigint << lvl);
            END IF;
            node := sha256('\x01'::bytea || decode(CASE WHEN lvl = 0 THEN left_leaf
                ELSE substr(left_nodes, (lvl - 1) * 64 + 1, 64) END, 'hex') || node);
            made := made || encode(node, 'hex');
            lvl := lvl + 1;
        END LOOP;
        INSERT INTO merkle_leaves (leaf_index, position, stream_id, version, event_id,
                                   event_hash, leaf_hash, nodes)
            VALUES (n, e.position, p_stream, e.version, e.event_id, e.hash,
                    encode(p_leaves[i], 'hex'), made);
        n := n + 1;
    END LOOP;
    IF i <> coalesce(array_length(p_leaves, 1), 0) THEN
        RAISE EXCEPTION 'handlog: % events for % leaves', i, array_length(p_leaves, 1);
    END IF;
    RETURN n;
END
$fn$
"""

_MOVE_HEAD = ("UPDATE streams SET head_version = %s, head_hash = %s "
              "WHERE id = %s AND head_version = %s AND head_hash = %s")
_NOTIFY = "SELECT pg_notify('handlog:' || current_schema(), %s)"
_LOCK = "LOCK TABLE events IN EXCLUSIVE MODE"
_LEAVES = "SELECT pg_temp.handlog_leaves(%s, %s, %s, %s, %s)"
_READY = "handlog_leaves"


class PipelineUnavailable(Exception):
    """The database refused the function (no TEMP privilege): append statement by
    statement."""


def pipelined_append(raw: Any, events_insert: str, params: tuple[Any, ...],
                     rows: list[dict[str, Any]], expected_version: int, prev_hash: str,
                     notice: str) -> list[int] | None:
    """Append `rows` (chained on `prev_hash` at `expected_version`) in one round trip on the
    pooled connection `raw` (SQLAlchemy's proxy: its `info` remembers the function); returns
    the positions, or None when nothing was written (the caller takes the full path).
    `events_insert` with `params` inserts the rows and returns their positions."""
    connection = raw.driver_connection
    import psycopg

    if not raw.info.get(_READY):
        try:
            connection.execute(_LEAVES_FUNCTION)
            connection.commit()
        except psycopg.OperationalError:
            raw.invalidate()  # the connection is gone: the full path opens another
            return None
        except psycopg.Error as refused:
            connection.rollback()
            raise PipelineUnavailable(str(refused)) from refused
        raw.info[_READY] = True
    try:
        stream_id = rows[0]["stream_id"]
        last = rows[-1]
        with connection.pipeline():
            with connection.cursor() as head, connection.cursor() as inserted:
                head.execute(_MOVE_HEAD, (last["version"], last["hash"], stream_id,
                                          expected_version, prev_hash))
                head.execute(_NOTIFY, (notice,))
                head.execute(_LOCK)
                inserted.execute(events_insert, params)
                # Also the check that the head moved here (else the whole is rolled back).
                head.execute(_LEAVES, (
                    stream_id, rows[0]["version"], last["version"], last["hash"],
                    [event_leaf(stream_id, row["version"], row["hash"]) for row in rows]))
                connection.commit()
                positions = [int(row[0]) for row in inserted.fetchall()]
    except psycopg.Error:
        try:
            connection.rollback()
        except psycopg.Error:
            raw.invalidate()  # the connection is gone: the pool opens another
        return None
    return positions if len(positions) == len(rows) else None
