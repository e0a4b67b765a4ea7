"""Tables' appends on PostgreSQL in one statement and one round trip: the heads' moves, the
notices, the lock on `events`, the events and their Merkle leaves, all done by one call of a
function, `pg_temp.handlog_append`, sent in autocommit, so that the statement is its own
transaction and its answer comes once it is committed (one append, or a group-committed
batch of them: schema/store.py `_submit`).

Why: positions are handed out under `LOCK TABLE events IN EXCLUSIVE MODE` so that the Merkle
tree's leaf order is commit order (schema/merkle.py). Sent statement by statement, the lock
is held across the client's round trips, and between them the holding thread waits for the
interpreter (Python runs one thread at a time) and for the operating system's scheduler: on
a busy machine that, not the database, is what capped a room's appends, and a second server
process only made the lock's queue longer. In one statement, the lock is taken and released
inside the database within one exchange. One statement, not the five statements and commit
of a psycopg pipeline (until 2026-12-07): the client's work per append (psycopg builds,
sends and reads back each statement and dumps each list parameter in Python; the pipeline
keeps its own queue) was most of a one-event append's time on a quiet disk.

The function is made once per connection, in its temporary schema (no migration, nothing
left behind). In one transaction, it:
- moves each head, in the order given (the caller sorts them by stream: two processes'
  batches lock their rows in one order, so they never wait for each other in a circle), one
  UPDATE each, only where the head still is where this process left it; a head that moved
  refuses the whole (an exception: nothing is written);
- sends the notices, in the batch's order (delivered at commit, schema/notify.py);
- takes the lock on `events`, inserts the events (one statement, one array per column) and
  checks that their positions came in the order given;
- adds their leaves: it reads the tree's size and, per leaf, its frontier by key (O(log n)
  rows, amortised one per leaf) and hashes as RFC 9162 does (node = SHA-256(0x01 || left ||
  right)); the leaf hashes themselves come from Python (`event_leaf`, the one definition of
  an entry).
benchmarks/slow_flush.py adds its sleep before the function's last line (`RETURN
positions;`), inside the transaction, as it does before psycopg's commits.

Anything unexpected (a head moved, a retried id, a dropped connection) rolls the whole
transaction back and the caller writes the appends again on the path that tells a conflict
from a retry for each (a savepoint per append, or statement by statement), answering as before.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from handlog.schema.hashing import event_leaf
from handlog.schema.tables import EVENT_COLUMNS

_EVENT_TYPES = ("text", "integer", "uuid", "text", "integer", "text", "timestamptz", "text",
                "text", "text", "text")

APPEND_FUNCTION = r"""
CREATE OR REPLACE FUNCTION pg_temp.handlog_append(
    p_heads text[], p_old_versions integer[], p_old_hashes text[], p_new_versions integer[],
    p_new_hashes text[], p_notices text[], {event_parameters}, p_leaves bytea[],
    p_tree boolean)
RETURNS bigint[] LANGUAGE plpgsql AS $fn$
DECLARE
    k integer;
    n bigint;
    lvl integer;
    node bytea;
    made text;
    left_leaf text;
    left_nodes text;
    positions bigint[];
    streams_in text[];
    versions_in integer[];
BEGIN
    FOR k IN 1 .. coalesce(array_length(p_heads, 1), 0) LOOP
        UPDATE streams SET head_version = p_new_versions[k], head_hash = p_new_hashes[k]
            WHERE id = p_heads[k] AND head_version = p_old_versions[k]
                AND head_hash = p_old_hashes[k];
        IF NOT FOUND THEN
            RAISE EXCEPTION 'handlog: the head of % moved', p_heads[k];
        END IF;
    END LOOP;
    FOR k IN 1 .. coalesce(array_length(p_notices, 1), 0) LOOP
        PERFORM pg_notify('handlog:' || current_schema(), p_notices[k]);
    END LOOP;
    LOCK TABLE events IN EXCLUSIVE MODE;
    WITH e AS (
        INSERT INTO events ({columns}) SELECT * FROM unnest({event_arguments})
        RETURNING position, stream_id, version)
    SELECT array_agg(position ORDER BY position), array_agg(stream_id ORDER BY position),
           array_agg(version ORDER BY position)
        INTO positions, streams_in, versions_in FROM e;
    IF streams_in IS DISTINCT FROM p_stream_id OR versions_in IS DISTINCT FROM p_version
            OR array_length(p_leaves, 1) IS DISTINCT FROM array_length(positions, 1) THEN
        RAISE EXCEPTION 'handlog: the events were not given positions in their order';
    END IF;
    SELECT coalesce(max(leaf_index) + 1, 0) INTO n FROM merkle_leaves;
    -- (no leaves without p_tree: benchmarks/append_latency.py measures what they cost)
    FOR k IN 1 .. CASE WHEN p_tree THEN array_length(positions, 1) ELSE 0 END LOOP
        node := p_leaves[k];
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
            VALUES (n, positions[k], p_stream_id[k], p_version[k], p_event_id[k], p_hash[k],
                    encode(p_leaves[k], 'hex'), made);
        n := n + 1;
    END LOOP;
    RETURN positions;
END
$fn$
""".format(
    event_parameters=", ".join(f"p_{column} {kind}[]"
                               for column, kind in zip(EVENT_COLUMNS, _EVENT_TYPES, strict=True)),
    columns=", ".join(EVENT_COLUMNS),
    event_arguments=", ".join(f"p_{column}" for column in EVENT_COLUMNS))

# The call: one array per column, in binary (%b: no text quoting of each element) ...
_KINDS = ("text", "integer", "text", "integer", "text", "text", *_EVENT_TYPES, "bytea")
_APPEND = ("SELECT pg_temp.handlog_append("
           + ", ".join(f"%b::{kind}[]" for kind in _KINDS) + ", %b)")
# ... or, for a batch of a few appends and events (a tap, a quiet room's batch), each array
# made by the server of one parameter per value: psycopg dumps a list in Python, a value in
# C, and this call's statements are few (one per count of appends and events), each prepared
# once per connection. At most psycopg's MAX_CACHED_STATEMENT_PARAMS (50) parameters: past
# that it parses the statement's text again at every call (a tap's whole append, measured).
_MOST_PARAMETERS = 50
_READY = "handlog_append"


@functools.lru_cache(maxsize=64)
def _small_call(appends: int, events: int) -> str:
    counts = (appends,) * 6 + (events,) * (len(_EVENT_TYPES) + 1)
    return "SELECT pg_temp.handlog_append(" + ", ".join(
        f"ARRAY[{', '.join(['%b'] * count)}]::{kind}[]"
        for kind, count in zip(_KINDS, counts, strict=True)) + ", %b)"


class FunctionUnavailable(Exception):
    """The database refused the function (no TEMP privilege): append statement by
    statement."""


@dataclass(frozen=True)
class HeadAppend:
    """One stream's append in a one-statement batch: `rows` (chained on `prev_hash` at
    `expected_version`); `notice` is its notification's payload."""

    rows: list[dict[str, Any]]
    expected_version: int
    prev_hash: str
    notice: str


def append_at_heads(raw: Any, appends: list[HeadAppend], tree: bool = True
                    ) -> list[list[int]] | None:
    """Write `appends` (each on a different stream) in one transaction and one round trip on
    the pooled connection `raw` (SQLAlchemy's proxy: its `info` remembers the function).
    Returns each append's positions, or None when nothing was written (anything failed: the
    caller writes them another way).

    One statement whatever the batch's size, sent in autocommit: PostgreSQL makes it a
    transaction of its own and answers once it is committed (flushed, under
    synchronous_commit), so the statement is also the commit: no BEGIN, no COMMIT, no
    pipeline to keep. A statement that fails is rolled back whole by the server."""
    connection = raw.driver_connection
    import psycopg

    if not raw.info.get(_READY):
        try:
            connection.execute(APPEND_FUNCTION)
            connection.commit()
        except psycopg.OperationalError:
            raw.invalidate()  # the connection is gone: the full path opens another
            return None
        except psycopg.Error as refused:
            connection.rollback()
            raise FunctionUnavailable(str(refused)) from refused
        raw.info[_READY] = True
    moved = sorted(appends, key=_stream) if len(appends) > 1 else appends
    rows = [row for append in appends for row in append.rows]
    columns: tuple[list[Any], ...] = (
        [_stream(a) for a in moved], [a.expected_version for a in moved],
        [a.prev_hash for a in moved], [a.rows[-1]["version"] for a in moved],
        [a.rows[-1]["hash"] for a in moved], [a.notice for a in appends],
        *([row[column] for row in rows] for column in EVENT_COLUMNS),
        [event_leaf(row["stream_id"], row["version"], row["hash"]) for row in rows])
    if 6 * len(appends) + (len(EVENT_COLUMNS) + 1) * len(rows) + 1 <= _MOST_PARAMETERS:
        statement = _small_call(len(appends), len(rows))
        parameters: Any = [value for column in columns for value in column] + [tree]
    else:
        statement, parameters = _APPEND, (*columns, tree)
    try:
        connection.autocommit = True
        try:
            written = connection.execute(statement, parameters).fetchone()
        finally:
            connection.autocommit = False
    except psycopg.Error:
        if connection.closed or connection.broken or (
                connection.pgconn.transaction_status != psycopg.pq.TransactionStatus.IDLE):
            raw.invalidate()  # the connection is gone: the pool opens another
        elif connection.autocommit:
            connection.autocommit = False
        return None
    positions = written[0] if written is not None else None
    if positions is None or len(positions) != len(rows):  # (the function checked it)
        raise AssertionError(f"{len(rows)} events written, positions {positions!r}")
    answer, at = [], 0
    for append in appends:
        answer.append(positions[at:at + len(append.rows)])
        at += len(append.rows)
    return answer


def _stream(append: HeadAppend) -> str:
    return str(append.rows[0]["stream_id"])
