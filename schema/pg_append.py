"""Tables' appends on PostgreSQL in one round trip: the heads' moves, the notices, the lock on
`events`, the events and their Merkle leaves and the commit, sent as one psycopg pipeline (one
append, or a group-committed batch of them: schema/store.py `_submit`).

Why: positions are handed out under `LOCK TABLE events IN EXCLUSIVE MODE` so that the Merkle
tree's leaf order is commit order (schema/merkle.py). Sent statement by statement, the lock
is held across the client's round trips, and between them the holding thread waits for the
interpreter (Python runs one thread at a time) and for the operating system's scheduler: on
a busy machine that, not the database, is what capped a room's appends, and a second server
process only made the lock's queue longer. Pipelined, the lock is taken and released inside
the database within one exchange.

The leaves' interior nodes depend on the tree's right edge, which another process may have
moved since this one last appended; so they are computed by the database, under the lock,
by `pg_temp.handlog_batch_leaves` (a function made once per connection, in its temporary schema:
no migration, nothing left behind): it reads the frontier by key (O(log n) rows, amortised
one per leaf) and hashes as RFC 9162 does (node = SHA-256(0x01 || left || right)); the leaf
hashes themselves come from Python (`event_leaf`, the one definition of an entry).

Anything unexpected (a head moved, a retried id, a dropped connection) rolls the whole
pipeline back and the caller writes the appends again on the path that tells a conflict from
a retry for each (a savepoint per append, or statement by statement), answering as before.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from handlog.schema.hashing import event_leaf

_LEAVES_FUNCTION = r"""
CREATE OR REPLACE FUNCTION pg_temp.handlog_batch_leaves(
    p_streams text[], p_firsts integer[], p_heads integer[], p_hashes text[],
    p_leaves bytea[])
RETURNS bigint LANGUAGE plpgsql AS $fn$
DECLARE
    n bigint;
    e record;
    i integer := 0;
    k integer;
    lvl integer;
    node bytea;
    made text;
    left_leaf text;
    left_nodes text;
BEGIN
    SELECT coalesce(max(leaf_index) + 1, 0) INTO n FROM merkle_leaves;
    FOR k IN 1 .. coalesce(array_length(p_streams, 1), 0) LOOP
        PERFORM 1 FROM streams WHERE id = p_streams[k] AND head_version = p_heads[k]
            AND head_hash = p_hashes[k];
        IF NOT FOUND THEN
            RAISE EXCEPTION 'handlog: the head of % moved', p_streams[k];
        END IF;
        FOR e IN SELECT position, version, event_id, hash FROM events
                 WHERE stream_id = p_streams[k] AND version >= p_firsts[k]
                 ORDER BY version LOOP
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
                    RAISE EXCEPTION 'handlog: the Merkle log has no leaf %',
                        n - (1::bigint << lvl);
                END IF;
                node := sha256('\x01'::bytea || decode(CASE WHEN lvl = 0 THEN left_leaf
                    ELSE substr(left_nodes, (lvl - 1) * 64 + 1, 64) END, 'hex') || node);
                made := made || encode(node, 'hex');
                lvl := lvl + 1;
            END LOOP;
            INSERT INTO merkle_leaves (leaf_index, position, stream_id, version, event_id,
                                       event_hash, leaf_hash, nodes)
                VALUES (n, e.position, p_streams[k], e.version, e.event_id, e.hash,
                        encode(p_leaves[i], 'hex'), made);
            n := n + 1;
        END LOOP;
    END LOOP;
    IF i <> coalesce(array_length(p_leaves, 1), 0) THEN
        RAISE EXCEPTION 'handlog: % events for % leaves', i, array_length(p_leaves, 1);
    END IF;
    RETURN n;
END
$fn$
"""

# Parameters as arrays in binary (%b: no text quoting of each element).
# Every head's move in one statement, each only where the head still is where this process
# left it (a head that moved stays: the leaves' function then refuses the batch).
_MOVE_HEADS = (
    "UPDATE streams AS s SET head_version = v.nv, head_hash = v.nh "
    "FROM unnest(%b::text[], %b::integer[], %b::text[], %b::integer[], %b::text[]) "
    "AS v (id, nv, nh, ov, oh) "
    "WHERE s.id = v.id AND s.head_version = v.ov AND s.head_hash = v.oh")
_NOTIFY = ("SELECT pg_notify('handlog:' || current_schema(), t.n) "
           "FROM unnest(%b::text[]) WITH ORDINALITY AS t (n, k) ORDER BY t.k")
_LOCK = "LOCK TABLE events IN EXCLUSIVE MODE"
_LEAVES = ("SELECT pg_temp.handlog_batch_leaves(%b::text[], %b::integer[], %b::integer[], "
           "%b::text[], %b::bytea[])")
_READY = "handlog_batch_leaves"
class PipelineUnavailable(Exception):
    """The database refused the function (no TEMP privilege): append statement by
    statement."""


@dataclass(frozen=True)
class PipelinedAppend:
    """One stream's append in a pipelined batch: `rows` (chained on `prev_hash` at
    `expected_version`); `notice` is its notification's payload."""

    rows: list[dict[str, Any]]
    expected_version: int
    prev_hash: str
    notice: str


def pipelined_append(raw: Any, appends: list[PipelinedAppend], events_insert: str,
                     columns: tuple[str, ...]) -> list[list[int]] | None:
    """Write `appends` (each on a different stream) in one transaction and one round trip on
    the pooled connection `raw` (SQLAlchemy's proxy: its `info` remembers the function).
    Returns each append's positions, or None when nothing was written (anything failed: the
    caller writes them another way). `events_insert` is the events' INSERT taking one array
    per column of `columns` (the rows' keys), returning each row's position, stream and
    version.

    Five statements whatever the batch's size, each of a few parameters (so psycopg parses
    each once and the server prepares it: a statement of a parameter per value was parsed
    again for every batch, most of a batched append's time): the heads' moves (rows locked
    in stream order, so that two processes' batches never wait for each other in a circle),
    the notices, the lock, the events and their leaves in the order given (leaf order =
    position order = commit order); then the commit."""
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
        with connection.pipeline():
            with connection.cursor() as head:
                moved = sorted(appends, key=_stream)
                head.execute(_MOVE_HEADS, (
                    [_stream(a) for a in moved], [a.rows[-1]["version"] for a in moved],
                    [a.rows[-1]["hash"] for a in moved], [a.expected_version for a in moved],
                    [a.prev_hash for a in moved]))
                head.execute(_NOTIFY, ([a.notice for a in appends],))
                head.execute(_LOCK)
                inserted = connection.cursor()
                inserted.execute(events_insert, tuple(
                    [row[column] for a in appends for row in a.rows] for column in columns))
                # Also the check that every head moved here (else the whole is rolled back).
                head.execute(_LEAVES, (
                    [_stream(a) for a in appends], [a.rows[0]["version"] for a in appends],
                    [a.rows[-1]["version"] for a in appends],
                    [a.rows[-1]["hash"] for a in appends],
                    [event_leaf(_stream(a), row["version"], row["hash"])
                     for a in appends for row in a.rows]))
                connection.commit()
            returned = {(stream, int(version)): int(position)
                        for position, stream, version in inserted.fetchall()}
            inserted.close()
    except psycopg.Error:
        try:
            connection.rollback()
        except psycopg.Error:
            raw.invalidate()  # the connection is gone: the pool opens another
        return None
    if len(returned) != sum(len(a.rows) for a in appends):
        return None
    return [[returned[_stream(append), row["version"]] for row in append.rows]
            for append in appends]


def _stream(append: PipelinedAppend) -> str:
    return str(append.rows[0]["stream_id"])
