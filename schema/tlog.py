"""Transparency-log mathematics, RFC 9162 (RFC 6962) section 2.1, and nothing else: the
standard library only, no database, no handlog import, so an auditor can read it in one
sitting and copy it into their own checker.

    leaf    = SHA-256(0x00 || entry)          # entry: the bytes the log commits to
    node    = SHA-256(0x01 || left || right)
    MTH({}) = SHA-256("")

On a list of leaf hashes the functions follow the RFC literally: `mth`, `inclusion_path`
(2.1.3.1), `consistency_proof` (2.1.4.1), `verify_inclusion` (2.1.3.2) and
`verify_consistency` (2.1.4.2). The same roots and proofs come from any `PerfectNodes` (the
hash of each perfect subtree: level L, index i covers leaves [i*2^L, (i+1)*2^L)) without
rebuilding the tree: `tree_root`, `tree_inclusion_path`, `tree_consistency_proof`, from
`MemoryTree` (built leaf by leaf) or from stored nodes.

What a handlog entry is (an event's stream, version and chain hash) is said in
schema/hashing.py; where the nodes are stored, in schema/merkle.py.

>>> a, b, c = (leaf_hash(bytes([n])) for n in range(3))
>>> root = mth([a, b, c])
>>> root == node_hash(node_hash(a, b), c)
True
>>> verify_inclusion(2, 3, c, inclusion_path(2, [a, b, c]), root)
True
>>> verify_consistency(2, 3, mth([a, b]), root, consistency_proof(2, [a, b, c]))
True
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Protocol

EMPTY_ROOT = hashlib.sha256(b"").digest()
_sha256 = hashlib.sha256


def leaf_hash(entry: bytes) -> bytes:
    """HASH(0x00 || entry): the leaf of one entry."""
    return _sha256(b"\x00" + entry).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    """HASH(0x01 || left || right): an interior node."""
    return _sha256(b"\x01" + left + right).digest()


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


# --- the same, from the hashes of perfect subtrees ---------------------------------------------


class PerfectNodes(Protocol):
    """The hash of the perfect subtree at `level` (0: a leaf) and `index`."""

    def subtree(self, level: int, index: int) -> bytes: ...


def range_hash(tree: PerfectNodes, start: int, end: int) -> bytes:
    """MTH(D[start:end]) where start is a multiple of the largest power of two <= end - start
    (true of every range the RFC's recursion visits): O(log n) perfect subtrees."""
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
    """PATH(index, D[size]) from perfect subtrees."""
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
    """PROOF(first, D[second]) from perfect subtrees (0 < first <= second)."""
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


def frontier_root(frontier: Sequence[bytes]) -> bytes:
    """The root from the right edge's perfect subtrees (largest first, one per one bit of the
    size)."""
    if not frontier:
        return EMPTY_ROOT
    root = frontier[-1]
    for left in reversed(frontier[:-1]):
        root = node_hash(left, root)
    return root


class MemoryTree:
    """A tree built leaf by leaf in memory, every perfect subtree kept (`levels[L][i]`)."""

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
            parent = node_hash(row[-2], row[-1])
            level += 1
            if level == len(levels):
                levels.append([])
            row = levels[level]
            row.append(parent)

    def subtree(self, level: int, index: int) -> bytes:
        return self.levels[level][index]

    def root(self, size: int | None = None) -> bytes:
        return tree_root(self, self.size if size is None else size)
