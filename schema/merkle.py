"""The Merkle log over every stream, kept in the database as events are appended. The
mathematics (RFC 9162 hashing, roots and proofs) is schema/tlog.py; an event's leaf is
schema/hashing.py's `event_leaf`; this module stores the tree and reads it back.

At append (`append_leaves`, called inside the store's append transaction, after the events
insert, so tree order is commit order on both databases), one INSERT writes the new leaf rows,
each holding the interior nodes it completes (amortised one per leaf); the store keeps the
right-edge frontier in memory, so the new rows cost no read of the tree, and the insert is
guarded so that a frontier another process has moved on is read again (O(log n) rows).
`StoredTree` gives tlog the perfect subtrees of those rows, for roots and proofs.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from handlog.schema.hashing import event_leaf
from handlog.schema.tables import merkle_leaves_table
from handlog.schema.tlog import frontier_root, node_hash

# A SQLite statement takes at most 32,766 parameters, PostgreSQL 65,535: 8 per leaf row.
MAX_ROWS_PER_STATEMENT = 2000


# --- the tree in the database -----------------------------------------------------------------
#
# One row per leaf in `merkle_leaves`, and nothing else written at append: the row of leaf j
# also holds, in `nodes`, the hashes of the perfect subtrees that end at leaf j (levels 1, 2,
# ... up to the number of trailing one bits of j; empty for an even j), i.e. the interior nodes
# the leaf completes. So the perfect subtree at level L, index i is in the row of leaf
# (i + 1) * 2^L - 1, the tree size is the highest leaf index + 1, and the right-edge frontier
# (one perfect subtree per one bit of the size) is O(log n) rows read by key.


@dataclass(frozen=True)
class TreeHead:
    size: int
    root: bytes


def frontier_ends(size: int) -> list[tuple[int, int]]:
    """(leaf index, level) of each perfect subtree of the right edge of a tree of `size`,
    largest first: the row holding it and its level there."""
    ends: list[tuple[int, int]] = []
    covered = 0
    for level in range(size.bit_length() - 1, -1, -1):
        if size >> level & 1:
            covered += 1 << level
            ends.append((covered - 1, level))
    return ends


def subtree_of_row(leaf_hash_hex: str, nodes_hex: str, level: int) -> bytes:
    """The perfect subtree at `level` ending at a leaf row (level 0: the leaf itself)."""
    if level == 0:
        return bytes.fromhex(leaf_hash_hex)
    text = nodes_hex[(level - 1) * 64:level * 64]
    if len(text) != 64:
        raise ValueError(f"the stored leaf row holds no node at level {level}")
    return bytes.fromhex(text)


LeafSource = tuple[int, str, int, Any, str]
"""(position, stream_id, version, event_id, chain hash) of a newly stored event."""


@dataclass(frozen=True)
class Appended:
    """The tree after an append: its size and right-edge frontier (largest first); the root
    is computed only when asked (an append does not need it)."""

    size: int
    frontier: tuple[bytes, ...]

    @property
    def root(self) -> bytes:
        return frontier_root(self.frontier)

    @property
    def head(self) -> TreeHead:
        return TreeHead(self.size, self.root)


class HeadCache:
    """The size and frontier of the tree as this process last saw it committed (kept by the
    store, moved only after a commit, so never ahead of the database). An append computes its
    rows from it and writes them in one guarded statement that takes effect only if the tree
    still ends there; else it reads the frontier (O(log n) rows) and writes again."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.state: Appended | None = None

    def committed(self, appended: Appended) -> None:
        with self._lock:
            if self.state is None or self.state.size < appended.size:
                self.state = appended


def append_leaves(connection: Connection, events: Iterable[LeafSource],
                  cache: HeadCache | None = None) -> Appended:
    """Add `events` (just inserted, in position order) as the next leaves, inside the caller's
    transaction, which holds the append lock: one INSERT of their leaf rows (each with the
    interior nodes it completes). Never reads or recomputes the rest of the tree.

    Plain SQL through the driver's own cursor (no statement compiling), since this runs in
    every durable append (benchmarks/append_latency.py holds it to 10% of one). The caller
    hands the result to `cache.committed` once its transaction has committed."""
    cursor = connection.connection.cursor()
    try:
        return append_leaves_through(cursor, list(events), cache,
                                     connection.dialect.name == "postgresql")
    finally:
        cursor.close()


def append_leaves_through(cursor: Any, events: list[LeafSource], cache: HeadCache | None,
                          postgresql: bool, stored_ids: bool = False) -> Appended:
    """append_leaves on the driver's own `cursor` (in the caller's transaction).
    `stored_ids`: the events' ids are given as stored already (SQLite: 32 hex digits)."""
    mark = "%s" if postgresql else "?"
    state = cache.state if cache is not None else None
    if state is not None and events and len(events) <= MAX_ROWS_PER_STATEMENT:
        rows, appended = _grow(state.size, list(state.frontier), events, postgresql,
                               stored_ids)
        guard, params = _guard(state.size, mark)
        cursor.execute(_insert_leaves(rows, mark, guard), (*_flat(rows), *params))
        if cursor.rowcount == len(rows):
            return appended
    size, frontier = _stored_frontier(cursor, mark)
    rows, appended = _grow(size, frontier, events, postgresql, stored_ids)
    for part in _chunks(rows, MAX_ROWS_PER_STATEMENT):
        cursor.execute(_insert_leaves(part, mark), _flat(part))
    return appended


@dataclass(frozen=True)
class PlannedLeaves:
    """Leaf rows computed from the cached frontier before their events are inserted, for one
    statement that writes events and leaves together (PostgreSQL): `values` per event in
    order is (leaf_index, version, leaf_hash hex, nodes hex); the rows take effect only if
    the stored tree still has `size` leaves (`guard` with `guard_params`)."""

    size: int
    values: list[tuple[int, int, str, str]]
    appended: Appended
    guard: str
    guard_params: tuple[int, ...]


def plan_leaves(cache: HeadCache | None, items: Sequence[tuple[str, int, str]],
                mark: str = "%s") -> PlannedLeaves | None:
    """The leaf rows of `items` ((stream_id, version, chain hash) each, in order) on top of the
    cached tree, or None when nothing is cached yet."""
    state = cache.state if cache is not None else None
    if state is None or not items or len(items) > MAX_ROWS_PER_STATEMENT:
        return None
    rows, appended = _grow(state.size, list(state.frontier),
                           [(0, stream_id, version, None, chain)
                            for stream_id, version, chain in items], True)
    guard, params = _guard(state.size, mark)
    return PlannedLeaves(state.size, [(row[0], row[3], row[6], row[7]) for row in rows],
                         appended, guard, params)


def _guard(size: int, mark: str) -> tuple[str, tuple[int, ...]]:
    """A WHERE clause true only while the stored tree has exactly `size` leaves (leaves are
    dense and the cache is never ahead of the database)."""
    guard = f" WHERE NOT EXISTS (SELECT 1 FROM merkle_leaves WHERE leaf_index = {mark})"
    if not size:
        return guard, (size,)
    return (guard + f" AND EXISTS (SELECT 1 FROM merkle_leaves WHERE leaf_index = {mark})",
            (size, size - 1))


# The frontier's rows in one round trip: for each one bit L of the size n, the leaf row
# ((n >> L) << L) - 1 holds the perfect subtree of level L ending there.
_PG_FRONTIER = (
    "WITH m AS (SELECT coalesce(max(leaf_index) + 1, 0) AS n FROM merkle_leaves) "
    "SELECT m.n, b.l, x.leaf_index, x.leaf_hash, x.nodes FROM m "
    "LEFT JOIN generate_series(0, 62) AS b (l) ON (m.n >> b.l) & 1 = 1 "
    "LEFT JOIN merkle_leaves AS x ON x.leaf_index = ((m.n >> b.l) << b.l) - 1 "
    "ORDER BY b.l DESC"
)


def _stored_frontier(cursor: Any, mark: str) -> tuple[int, list[bytes]]:
    """The size and frontier of the stored tree, read by key."""
    if mark == "%s":
        rows = cursor.execute(_PG_FRONTIER).fetchall()
        size = int(rows[0][0])
        frontier: list[bytes] = []
        for _n, level, index, leaf_hash, nodes in rows:
            if level is None:
                continue  # an empty tree
            if index is None:
                raise ValueError(f"the Merkle log has no leaf {((size >> level) << level) - 1}"
                                 f" but one at {size - 1}")
            frontier.append(subtree_of_row(leaf_hash, nodes, int(level)))
        return size, frontier
    cursor.execute("SELECT max(leaf_index) FROM merkle_leaves")
    last = cursor.fetchone()[0]
    size = 0 if last is None else int(last) + 1
    ends = frontier_ends(size)
    if not ends:
        return 0, []
    cursor.execute("SELECT leaf_index, leaf_hash, nodes FROM merkle_leaves WHERE leaf_index IN ("
                   + ", ".join([mark] * len(ends)) + ")", tuple(index for index, _l in ends))
    found = {int(row[0]): (row[1], row[2]) for row in cursor.fetchall()}
    frontier = []
    for index, level in ends:
        if index not in found:
            raise ValueError(f"the Merkle log has no leaf {index} but one at {size - 1}")
        frontier.append(subtree_of_row(*found[index], level))
    return size, frontier


def _grow(size: int, frontier: list[bytes], events: list[LeafSource], postgresql: bool,
          stored_ids: bool = False) -> tuple[list[tuple[Any, ...]], Appended]:
    """The leaf rows `events` add to the tree of `size` whose frontier is `frontier`."""
    rows: list[tuple[Any, ...]] = []
    for position, stream_id, version, event_id, chain in events:
        leaf = event_leaf(stream_id, version, chain)
        if stored_ids:
            rows_id: Any = event_id
        else:
            identifier = _uuid(event_id) if event_id is not None else None
            rows_id = identifier if postgresql or identifier is None else identifier.hex
        node, counter = leaf, size
        nodes: list[str] = []
        while counter & 1:
            node = node_hash(frontier.pop(), node)
            nodes.append(node.hex())
            counter >>= 1
        frontier.append(node)
        rows.append((size, position, stream_id, version, rows_id, chain, leaf.hex(),
                     "".join(nodes)))
        size += 1
    return rows, Appended(size, tuple(frontier))


_COLUMNS = ("INSERT INTO merkle_leaves (leaf_index, position, stream_id, version, event_id, "
            "event_hash, leaf_hash, nodes) ")


def _insert_leaves(rows: list[tuple[Any, ...]], mark: str, guard: str = "") -> str:
    row = "(" + ", ".join([mark] * 8) + ")"
    values = "VALUES " + ", ".join([row] * len(rows))
    if not guard:
        return _COLUMNS + values
    return f"{_COLUMNS}SELECT * FROM ({values}) AS v{guard}"


def _flat(rows: list[tuple[Any, ...]]) -> tuple[Any, ...]:
    return tuple(value for row in rows for value in row)


def _chunks(rows: list[tuple[Any, ...]], size: int) -> Iterator[list[tuple[Any, ...]]]:
    for start in range(0, len(rows), size):
        yield rows[start:start + size]


def _uuid(value: Any) -> uuid.UUID:
    return value if isinstance(value, uuid.UUID) else uuid.UUID(str(value))


def read_head(connection: Connection) -> TreeHead:
    """The size and root of the stored tree (from its frontier: O(log n) rows)."""
    mark = "%s" if connection.dialect.name == "postgresql" else "?"
    cursor = connection.connection.cursor()
    try:
        size, frontier = _stored_frontier(cursor, mark)
    finally:
        cursor.close()
    return TreeHead(size, frontier_root(frontier))


class StoredTree:
    """Perfect subtrees read from the leaf rows of `merkle_leaves` (cached: a proof asks for
    O(log^2 n) of them, some several times)."""

    def __init__(self, connection: Connection) -> None:
        self._connection = connection
        self._rows: dict[int, tuple[str, str]] = {}

    def subtree(self, level: int, index: int) -> bytes:
        row = ((index + 1) << level) - 1
        found = self._rows.get(row)
        if found is None:
            result = self._connection.execute(
                sa.select(merkle_leaves_table.c.leaf_hash, merkle_leaves_table.c.nodes)
                .where(merkle_leaves_table.c.leaf_index == row)
            ).one()
            found = self._rows[row] = (result.leaf_hash, result.nodes)
        return subtree_of_row(*found, level)


__all__ = [
    "Appended",
    "HeadCache",
    "PlannedLeaves",
    "StoredTree",
    "TreeHead",
    "append_leaves",
    "append_leaves_through",
    "plan_leaves",
    "read_head",
]
