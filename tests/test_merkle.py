"""The Merkle log over every stream (RFC 9162 2.1): the hashing, the proofs and their checks,
and the tree the store keeps at append on SQLite and PostgreSQL, also with several processes
appending at once."""

from __future__ import annotations

import hashlib
import json
import multiprocessing
from typing import Any

import pytest
import sqlalchemy as sa
from conftest_store import new_events

from handlog.schema.database import create_engine
from handlog.schema.hashing import event_leaf, leaf_entry
from handlog.schema.merkle import StoredTree
from handlog.schema.store import EventStore, open_store
from handlog.schema.tlog import (
    EMPTY_ROOT,
    MemoryTree,
    consistency_proof,
    inclusion_path,
    leaf_hash,
    mth,
    tree_consistency_proof,
    tree_inclusion_path,
    verify_consistency,
    verify_inclusion,
)

LEAVES = [leaf_hash(bytes([i])) for i in range(33)]


def test_rfc_9162_leaf_and_node_hashes_are_domain_separated() -> None:
    """leaf = SHA-256(0x00 || entry), node = SHA-256(0x01 || left || right), MTH({}) = SHA-256()."""
    assert leaf_hash(b"x") == hashlib.sha256(b"\x00x").digest()
    assert mth([]) == EMPTY_ROOT == hashlib.sha256(b"").digest()
    assert mth(LEAVES[:2]) == hashlib.sha256(b"\x01" + LEAVES[0] + LEAVES[1]).digest()
    three = hashlib.sha256(b"\x01" + mth(LEAVES[:2]) + LEAVES[2]).digest()
    assert mth(LEAVES[:3]) == three


def test_event_leaf_hashes_the_canonical_json_of_stream_version_and_chain_hash() -> None:
    entry = '["table-1",3,"' + "ab" * 32 + '"]'
    assert event_leaf("table-1", 3, "ab" * 32) == hashlib.sha256(
        b"\x00" + entry.encode()
    ).digest()


@pytest.mark.parametrize("stream", ["table-1", 'quote"d', "back\\slash", "tab\there",
                                    "naïve ♠", "line\u2028sep", "nul\x00"])
def test_a_leaf_entry_is_the_json_text_whatever_the_stream_id(stream: str) -> None:
    """The entry's fast form and the JSON encoder's agree (the verifier's text is the JSON)."""
    expected = json.dumps([stream, 7, "ab" * 32], separators=(",", ":"), ensure_ascii=False)
    assert leaf_entry(stream, 7, "ab" * 32) == expected.encode("utf-8")


def test_every_inclusion_and_consistency_proof_verifies_and_a_wrong_one_does_not() -> None:
    """For every size up to 33: the in-memory tree's proofs are the RFC's, and check out."""
    tree = MemoryTree()
    for size in range(1, len(LEAVES) + 1):
        tree.append(LEAVES[size - 1])
        root = mth(LEAVES[:size])
        assert tree.root() == root
        for index in range(size):
            path = inclusion_path(index, LEAVES[:size])
            assert tree_inclusion_path(tree, index, size) == path
            assert verify_inclusion(index, size, LEAVES[index], path, root)
            assert not verify_inclusion(index, size, LEAVES[-1 - index] if size > 1 and
                                        LEAVES[-1 - index] != LEAVES[index] else b"x" * 32,
                                        path, root)
        for first in range(1, size + 1):
            proof = consistency_proof(first, LEAVES[:size])
            assert tree_consistency_proof(tree, first, size) == proof
            assert verify_consistency(first, size, mth(LEAVES[:first]), root, proof)
            forged = mth([b"y" * 32] + LEAVES[1:first])
            assert not verify_consistency(first, size, forged, root, proof)


def _stored_tree_matches(store: EventStore, url: str) -> None:
    events = store.read_all()
    leaves = [event_leaf(e.stream_id, e.version, e.hash) for e in events]
    head = store.tree_head()
    assert (head.size, head.root) == (len(leaves), mth(leaves))
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            rows = connection.execute(sa.text(
                "SELECT leaf_index, position FROM merkle_leaves ORDER BY leaf_index"
            )).all()
            assert [row.position for row in rows] == [e.position for e in events]
            tree = StoredTree(connection)
            for first in range(1, len(leaves) + 1, 5):
                assert tree_consistency_proof(tree, first, len(leaves)) == consistency_proof(
                    first, leaves
                )
            for index in range(0, len(leaves), 3):
                assert tree_inclusion_path(tree, index, len(leaves)) == inclusion_path(
                    index, leaves
                )
    finally:
        engine.dispose()


def test_the_store_adds_each_event_as_the_next_leaf_in_commit_order(store: EventStore) -> None:
    """Appends of one and of several events, on two streams: the stored tree is the RFC tree of
    the events' leaves in position order, and its stored nodes give the RFC's proofs."""
    store.append("table-1", 0, new_events(3))
    store.append("tournament", 0, new_events(1), kind="tournament")
    for start in range(4, 30, 5):
        store.append("table-1", start - 1, new_events(5, start=start))
    store.append("table-1", 33, new_events(1, start=34))
    _stored_tree_matches(store, store._url)


def test_a_retried_append_adds_no_leaf(store: EventStore) -> None:
    events = new_events(2)
    store.append("table-1", 0, events)
    store.append("table-1", 0, events)
    assert store.tree_head().size == 2


def _append_in_process(url: str, stream: str, count: int, barrier: Any) -> None:
    with open_store(url) as store:
        barrier.wait(timeout=60)
        for version in range(count):
            store.append(stream, version, new_events(1, start=version + 1))


@pytest.mark.slow
def test_processes_appending_at_once_keep_tree_order_equal_to_commit_order(
    store: EventStore, db_url: str
) -> None:
    """Four processes, each recording its own table at the same time: every leaf is in position
    order and the tree is the RFC tree of the log as committed."""
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["handlog.schema.store"])
    barrier = context.Barrier(4)
    processes = [
        context.Process(target=_append_in_process, args=(db_url, f"table-{n}", 15, barrier))
        for n in range(4)
    ]
    for process in processes:
        process.start()
    for process in processes:
        process.join(120)
        assert process.exitcode == 0
    assert store.tree_head().size == 60
    _stored_tree_matches(store, db_url)


def test_two_stores_taking_turns_keep_one_tree(store: EventStore, db_url: str) -> None:
    """Each store remembers the head it last wrote; when the other one moved the tree on since,
    the append sees it (the head no longer matches) and extends the tree as it is."""
    with open_store(db_url) as other:
        for n in range(6):
            writer = store if n % 2 == 0 else other
            writer.append("table-1", 2 * n, new_events(2, start=2 * n + 1))
        _stored_tree_matches(store, db_url)


def test_two_stores_each_on_its_own_table_keep_one_tree(store: EventStore, db_url: str) -> None:
    """Two servers' stores, each recording its own table (its head known, so PostgreSQL's
    append is one round trip, schema/pg_append.py) while the other moves the tree on between
    every append, with one to four events per append: the stored leaves and nodes are the RFC
    tree of the log in commit order."""
    with open_store(db_url) as other:
        versions = {"table-1": 0, "table-2": 0}
        number = 1
        for n in range(24):
            writer, stream = (store, "table-1") if n % 2 == 0 else (other, "table-2")
            count = 1 + n % 4
            writer.append(stream, versions[stream], new_events(count, start=number))
            versions[stream] += count
            number += count
        assert store.tree_head().size == number - 1
        _stored_tree_matches(store, db_url)


def test_one_transaction_over_several_streams_adds_their_leaves_in_order(
    store: EventStore, db_url: str
) -> None:
    """append_many writes each part's leaves after the part before, in one transaction, also
    after another store moved the tree on."""
    store.append("table-1", 0, new_events(3))
    with open_store(db_url) as other:
        other.append("table-2", 0, new_events(2, start=4))
    store.append_many([("table-1", 3, new_events(2, start=6), "table"),
                       ("table-3", 0, new_events(3, start=8), "table")])
    store.append_many([("table-1", 5, new_events(1, start=11), "table"),
                       ("table-2", 2, new_events(2, start=12), "table")])
    assert store.tree_head().size == 13
    _stored_tree_matches(store, db_url)
