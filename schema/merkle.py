"""One Merkle log over every stream: RFC 9162 (RFC 6962) hashing, proofs and their checks, and
the tree kept in the database as events are appended.

Definition (what an auditor recomputes):

    entry(event) = utf8(canonical_json([stream_id, version, hash]))   # hash: the chain hash
    leaf         = SHA-256(0x00 || entry)
    node         = SHA-256(0x01 || left || right)
    MTH({})      = SHA-256("")

Leaves are in global commit (position) order. The event's chain hash (schema/hashing.py)
already covers its id, type, payload, time, actor, device and the hash before it, so a leaf
commits to the whole event and to its stream's history.

The pure functions follow RFC 9162 section 2.1 literally: `mth`, `inclusion_path` (2.1.3.1),
`consistency_proof` (2.1.4.1), `verify_inclusion` (2.1.3.2), `verify_consistency` (2.1.4.2).
The same proofs are computed from any `PerfectNodes` (the hash of each perfect subtree: level
L, index i covers leaves [i*2^L, (i+1)*2^L)) without rebuilding the tree: `MemoryTree` (built
while verifying) and `StoredTree` (the `merkle_nodes` table, written at append).

At append (`append_leaves`, called inside the store's append transaction, after the events
insert, so tree order is commit order on both databases), only the perfect subtrees completed
by the new leaves are written (amortised one node per leaf), and the head row keeps the
right-edge frontier so the new root costs no read of the tree.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from schema.tables import (
    merkle_head_table,
    merkle_leaves_table,
    merkle_nodes_table,
)

# A SQLite statement takes at most 32,766 parameters, PostgreSQL 65,535: 7 per leaf row.
MAX_ROWS_PER_STATEMENT = 2000

EMPTY_ROOT = hashlib.sha256(b"").digest()
_sha256 = hashlib.sha256
_LEAF = b"\x00"
_NODE = b"\x01"


def leaf_entry(stream_id: str, version: int, event_hash: str) -> bytes:
    """The bytes a leaf hashes: the canonical JSON of [stream_id, version, hash] in UTF-8."""
    text = json.dumps([stream_id, version, event_hash], separators=(",", ":"),
                      ensure_ascii=False)
    return text.encode("utf-8")


def leaf_hash(entry: bytes) -> bytes:
    return hashlib.sha256(_LEAF + entry).digest()


def event_leaf(stream_id: str, version: int, event_hash: str) -> bytes:
    """The leaf hash of one event."""
    return hashlib.sha256(_LEAF + leaf_entry(stream_id, version, event_hash)).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(_NODE + left + right).digest()


def _split(n: int) -> int:
    """The largest power of two smaller than n (n > 1)."""
    return 1 << ((n - 1).bit_length() - 1)


# --- RFC 9162 2.1, on a list of leaf hashes ----------------------------------------------------


def mth(leaves: Sequence[bytes]) -> bytes:
    """MTH(D[n]) of already-hashed leaves."""
    n = len(leaves)
    if n == 0:
        return EMPTY_ROOT
    if n == 1:
        return leaves[0]
    k = _split(n)
    return node_hash(mth(leaves[:k]), mth(leaves[k:]))


def inclusion_path(index: int, leaves: Sequence[bytes]) -> list[bytes]:
    """PATH(m, D[n]) (RFC 9162 2.1.3.1)."""
    n = len(leaves)
    if not 0 <= index < n:
        raise ValueError(f"leaf index {index} is not in a tree of size {n}")
    if n == 1:
        return []
    k = _split(n)
    if index < k:
        return inclusion_path(index, leaves[:k]) + [mth(leaves[k:])]
    return inclusion_path(index - k, leaves[k:]) + [mth(leaves[:k])]


def consistency_proof(first: int, leaves: Sequence[bytes]) -> list[bytes]:
    """PROOF(m, D[n]) (RFC 9162 2.1.4.1), 0 < m <= n."""
    if not 0 < first <= len(leaves):
        raise ValueError(f"no consistency proof from size {first} to {len(leaves)}")
    return _subproof(first, leaves, True)


def _subproof(m: int, leaves: Sequence[bytes], whole: bool) -> list[bytes]:
    n = len(leaves)
    if m == n:
        return [] if whole else [mth(leaves)]
    k = _split(n)
    if m <= k:
        return _subproof(m, leaves[:k], whole) + [mth(leaves[k:])]
    return _subproof(m - k, leaves[k:], False) + [mth(leaves[:k])]


def verify_inclusion(
    index: int, size: int, leaf: bytes, path: Sequence[bytes], root: bytes
) -> bool:
    """RFC 9162 2.1.3.2: does `path` prove `leaf` at `index` in the tree of `size` and `root`?"""
    if index >= size or index < 0:
        return False
    fn, sn = index, size - 1
    r = leaf
    for p in path:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            r = node_hash(p, r)
            if not fn & 1:
                while fn and not fn & 1:
                    fn >>= 1
                    sn >>= 1
        else:
            r = node_hash(r, p)
        fn >>= 1
        sn >>= 1
    return sn == 0 and r == root


def verify_consistency(
    first: int, second: int, first_root: bytes, second_root: bytes, proof: Sequence[bytes]
) -> bool:
    """RFC 9162 2.1.4.2: does `proof` show the tree (second, second_root) extends (first, ...)?

    Equal sizes need an empty proof and equal roots; size 0 is consistent with anything.
    """
    if first == 0:
        return not proof and 0 <= second
    if first > second:
        return False
    if first == second:
        return not proof and first_root == second_root
    if not proof:
        return False
    path = list(proof)
    if first & (first - 1) == 0:
        path.insert(0, first_root)
    fn, sn = first - 1, second - 1
    while fn & 1:
        fn >>= 1
        sn >>= 1
    fr = sr = path[0]
    for c in path[1:]:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            fr = node_hash(c, fr)
            sr = node_hash(c, sr)
            if not fn & 1:
                while fn and not fn & 1:
                    fn >>= 1
                    sn >>= 1
        else:
            sr = node_hash(sr, c)
        fn >>= 1
        sn >>= 1
    return fr == first_root and sr == second_root and sn == 0


# --- the same, from stored perfect subtrees -----------------------------------------------------


class PerfectNodes(Protocol):
    """The hash of the perfect subtree at `level` (0: a leaf) and `index`."""

    def subtree(self, level: int, index: int) -> bytes: ...


def range_hash(tree: PerfectNodes, start: int, end: int) -> bytes:
    """MTH(D[start:end]) where start is a multiple of the largest power of two <= end - start
    (true of every range the RFC's recursion visits): O(log n) stored nodes."""
    size = end - start
    if size == 0:
        return EMPTY_ROOT
    if size & (size - 1) == 0:
        level = size.bit_length() - 1
        return tree.subtree(level, start >> level)
    k = _split(size)
    return node_hash(range_hash(tree, start, start + k), range_hash(tree, start + k, end))


def tree_root(tree: PerfectNodes, size: int) -> bytes:
    return range_hash(tree, 0, size)


def tree_inclusion_path(tree: PerfectNodes, index: int, size: int) -> list[bytes]:
    """PATH(index, D[size]) from stored nodes."""
    if not 0 <= index < size:
        raise ValueError(f"leaf index {index} is not in a tree of size {size}")
    path: list[bytes] = []
    start, end, m = 0, size, index
    while end - start > 1:
        k = _split(end - start)
        if m < k:
            path.append(range_hash(tree, start + k, end))
            end = start + k
        else:
            path.append(range_hash(tree, start, start + k))
            start += k
            m -= k
    path.reverse()
    return path


def tree_consistency_proof(tree: PerfectNodes, first: int, second: int) -> list[bytes]:
    """PROOF(first, D[second]) from stored nodes (0 < first <= second)."""
    if not 0 < first <= second:
        raise ValueError(f"no consistency proof from size {first} to {second}")
    proof: list[bytes] = []
    start, end, m, whole = 0, second, first, True
    while m != end - start:
        k = _split(end - start)
        if m <= k:
            proof.append(range_hash(tree, start + k, end))
            end = start + k
        else:
            proof.append(range_hash(tree, start, start + k))
            start += k
            m -= k
            whole = False
    if not whole:
        proof.append(range_hash(tree, start, end))
    proof.reverse()
    return proof


class MemoryTree:
    """A tree built leaf by leaf in memory (every perfect subtree kept): for verifying."""

    def __init__(self) -> None:
        self.levels: list[list[bytes]] = [[]]

    @property
    def size(self) -> int:
        return len(self.levels[0])

    def append(self, leaf: bytes) -> None:
        levels = self.levels
        row = levels[0]
        row.append(leaf)
        level = 0
        while not len(row) & 1:
            parent = _sha256(_NODE + row[-2] + row[-1]).digest()
            level += 1
            if level == len(levels):
                levels.append([])
            row = levels[level]
            row.append(parent)

    def subtree(self, level: int, index: int) -> bytes:
        return self.levels[level][index]

    def root(self, size: int | None = None) -> bytes:
        return tree_root(self, self.size if size is None else size)


# --- the tree in the database -----------------------------------------------------------------


@dataclass(frozen=True)
class TreeHead:
    size: int
    root: bytes


def frontier_root(frontier: Sequence[bytes]) -> bytes:
    """The root from the right-edge perfect subtrees (largest first)."""
    if not frontier:
        return EMPTY_ROOT
    root = frontier[-1]
    for left in reversed(frontier[:-1]):
        root = node_hash(left, root)
    return root


def empty_head_row() -> dict[str, Any]:
    return {"root": EMPTY_ROOT.hex(), "frontier": ""}


LeafSource = tuple[int, str, int, Any, str]
"""(position, stream_id, version, event_id, chain hash) of a newly stored event."""


def append_leaves(connection: Connection, events: Iterable[LeafSource]) -> TreeHead:
    """Add `events` (just inserted, in position order) as the next leaves, inside the caller's
    transaction, which holds the append lock: writes their leaves, the perfect nodes they
    complete and the new head. Never reads or recomputes the rest of the tree.

    Plain SQL through the driver, two round trips (read the head; on PostgreSQL one statement
    writes leaves, nodes and head): this runs in every durable append (benchmarks/
    append_latency.py holds it to 10% of one)."""
    postgresql = connection.dialect.name == "postgresql"
    mark = "%s" if postgresql else "?"
    # The driver's own cursor, in the transaction SQLAlchemy began: no statement compiling.
    cursor = connection.connection.cursor()
    cursor.execute("SELECT tree_size, frontier FROM merkle_head WHERE id = 1")
    row: Any = cursor.fetchone()
    size, text = row
    size = int(size)
    frontier = [bytes.fromhex(text[i:i + 64]) for i in range(0, len(text), 64)]
    leaves: list[tuple[Any, ...]] = []
    nodes: list[tuple[Any, ...]] = []
    for position, stream_id, version, event_id, chain in events:
        leaf = event_leaf(stream_id, version, chain)
        identifier = _uuid(event_id)
        leaves.append((size, position, stream_id, version,
                       identifier if postgresql else identifier.hex, chain, leaf.hex()))
        node, level, counter = leaf, 0, size
        size += 1
        while counter & 1:
            node = node_hash(frontier.pop(), node)
            level += 1
            counter >>= 1
            nodes.append((level, (size >> level) - 1, node.hex()))
        frontier.append(node)
    root = frontier_root(frontier)
    if not leaves:
        cursor.close()
        return TreeHead(size, root)
    new_head = (size, root.hex(), "".join(h.hex() for h in frontier))
    update_head = (f"UPDATE merkle_head SET tree_size = {mark}, root_hash = {mark}, "
                   f"frontier = {mark} WHERE id = 1")
    leaf_row = "(" + ", ".join([mark] * 7) + ")"
    node_row = "(" + ", ".join([mark] * 3) + ")"
    writes = [
        ("INSERT INTO merkle_leaves (leaf_index, position, stream_id, version, event_id, "
         "event_hash, leaf_hash) VALUES " + ", ".join([leaf_row] * len(part)),
         tuple(value for row in part for value in row))
        for part in _chunks(leaves, MAX_ROWS_PER_STATEMENT)
    ] + [
        ("INSERT INTO merkle_nodes (level, node_index, hash) VALUES "
         + ", ".join([node_row] * len(part)),
         tuple(value for row in part for value in row))
        for part in _chunks(nodes, MAX_ROWS_PER_STATEMENT)
    ]
    if postgresql and len(writes) <= 2:
        # One round trip: data-modifying CTEs run in the same statement.
        names = ", ".join(f"w{k} AS ({sql})" for k, (sql, _p) in enumerate(writes))
        params = tuple(value for _sql, values in writes for value in values)
        cursor.execute(f"WITH {names} {update_head}", params + new_head)
    else:
        for sql, values in writes:
            cursor.execute(sql, values)
        cursor.execute(update_head, new_head)
    cursor.close()
    return TreeHead(size, root)


def _chunks(rows: list[tuple[Any, ...]], size: int) -> Iterator[list[tuple[Any, ...]]]:
    for start in range(0, len(rows), size):
        yield rows[start:start + size]


def _uuid(value: Any) -> uuid.UUID:
    return value if isinstance(value, uuid.UUID) else uuid.UUID(str(value))


def read_head(connection: Connection) -> TreeHead:
    row = connection.execute(
        sa.select(merkle_head_table.c.tree_size, merkle_head_table.c.root_hash)
        .where(merkle_head_table.c.id == 1)
    ).one()
    return TreeHead(int(row.tree_size), bytes.fromhex(row.root_hash))


class StoredTree:
    """Perfect subtrees read from `merkle_leaves` (level 0) and `merkle_nodes` (above)."""

    def __init__(self, connection: Connection) -> None:
        self._connection = connection

    def subtree(self, level: int, index: int) -> bytes:
        if level == 0:
            value = self._connection.execute(
                sa.select(merkle_leaves_table.c.leaf_hash)
                .where(merkle_leaves_table.c.leaf_index == index)
            ).scalar_one()
        else:
            value = self._connection.execute(
                sa.select(merkle_nodes_table.c.hash).where(
                    merkle_nodes_table.c.level == level,
                    merkle_nodes_table.c.node_index == index,
                )
            ).scalar_one()
        return bytes.fromhex(value)


__all__ = [
    "EMPTY_ROOT",
    "MemoryTree",
    "PerfectNodes",
    "StoredTree",
    "TreeHead",
    "append_leaves",
    "consistency_proof",
    "event_leaf",
    "inclusion_path",
    "leaf_entry",
    "leaf_hash",
    "mth",
    "node_hash",
    "range_hash",
    "read_head",
    "tree_consistency_proof",
    "tree_inclusion_path",
    "tree_root",
    "verify_consistency",
    "verify_inclusion",
]
