"""An acknowledged event survives `kill -9` of the writer at any moment.

A writer process appends batches of 1-4 events to one stream in a loop and reports the stream
version after each append returns. The test SIGKILLs it at a random moment (seeded), many times
over, then checks that every acknowledged version is stored, versions have no gaps, every batch
landed whole, the chain verifies and SQLite's integrity check passes.

Writers are forked from a multiprocessing fork server that has imported the store already, so a
kill costs milliseconds rather than a Python start-up (the whole file runs in well under a
minute).
"""

from __future__ import annotations

import multiprocessing
import random
import sqlite3
import time
import uuid
from datetime import UTC, datetime
from multiprocessing.connection import Connection
from pathlib import Path

import pytest

STREAM = "table-crash"
NAMESPACE = uuid.UUID("6c0b8c42-3a5e-4a53-9d8c-7c0d1a3c0001")


def event_id(version: int) -> uuid.UUID:
    return uuid.uuid5(NAMESPACE, str(version))


def writer(url: str, seed: int, acks: Connection) -> None:
    """Append batches forever, sending the stream version after each acknowledged append."""
    from schema.store import NewEvent, open_store

    rng = random.Random(seed)
    store = open_store(url)
    head = store.head(STREAM)
    version = head.version if head is not None else 0
    acks.send(("ready", version))
    while True:
        size = rng.randint(1, 4)
        batch = [
            NewEvent(
                event_id=event_id(version + offset),
                type="chips_counted",
                schema_version=1,
                payload={"version": version + offset, "batch": [version + 1, version + size],
                         "padding": "x" * rng.randint(0, 300)},
                actor="crash-test",
                device=f"seed-{seed}",
                recorded_at=datetime.now(UTC),
            )
            for offset in range(1, size + 1)
        ]
        store.append(STREAM, version, batch)
        version += size
        acks.send(("ack", version))


def _context() -> multiprocessing.context.ForkServerContext:
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["schema.store", "schema.hashing"])
    return context


def kill_writer_repeatedly(url: str, seed: int, kills: int) -> int:
    """Start and SIGKILL the writer `kills` times; returns the highest acknowledged version."""
    context = _context()
    rng = random.Random(seed)
    acknowledged = 0
    for round_number in range(kills):
        receiver, sender = context.Pipe(duplex=False)
        process = context.Process(target=writer, args=(url, seed * 1000 + round_number, sender))
        process.start()
        sender.close()
        try:
            if rng.random() < 0.15:
                # Sometimes while it is still opening the database.
                time.sleep(rng.uniform(0.0, 0.05))
            else:
                assert receiver.poll(30), "the writer did not start"
                kind, version = receiver.recv()
                assert kind == "ready" and version >= acknowledged
                time.sleep(rng.uniform(0.0, 0.15))
        finally:
            process.kill()
            process.join(30)
        versions = []
        while True:
            try:
                kind, version = receiver.recv()
            except (EOFError, OSError):
                break
            if kind == "ack":
                versions.append(version)
        receiver.close()
        assert process.exitcode == -9
        if versions:
            assert versions == sorted(versions)
            acknowledged = max(acknowledged, versions[-1])
    return acknowledged


def check_log(url: str, acknowledged: int) -> None:
    from schema.hashing import verify_events
    from schema.store import open_store

    with open_store(url) as store:
        events = store.read(STREAM)
        heads = store.streams()
        assert verify_events(store.read_all(), heads) == []
    versions = [event.version for event in events]
    assert versions == list(range(1, len(events) + 1)), "versions have a gap"
    assert len(events) >= acknowledged, (
        f"acknowledged version {acknowledged} lost: the log ends at {len(events)}"
    )
    for event in events:
        assert event.payload["version"] == event.version
        assert event.event_id == event_id(event.version)
        # Whole batches only: the batch this event belongs to is stored to its end.
        assert event.payload["batch"][1] <= len(events)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [20250314, 7])
def test_sqlite_keeps_every_acknowledged_event_across_kill_9(tmp_path: Path, seed: int) -> None:
    """25 random SIGKILLs per seed (50 in all): nothing acknowledged is lost, no batch is torn."""
    from schema.store import upgrade_database

    path = tmp_path / "crash.db"
    url = f"sqlite:///{path}"
    upgrade_database(url)
    acknowledged = kill_writer_repeatedly(url, seed, kills=25)
    assert acknowledged > 0, "the writer never acknowledged an append"
    connection = sqlite3.connect(path)
    try:
        assert connection.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert connection.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    finally:
        connection.close()
    check_log(url, acknowledged)


@pytest.mark.slow
def test_postgresql_keeps_every_acknowledged_event_across_kill_9(pg_url: str) -> None:
    """10 random SIGKILLs of a PostgreSQL writer: nothing acknowledged is lost."""
    from schema.store import upgrade_database

    upgrade_database(pg_url)
    acknowledged = kill_writer_repeatedly(pg_url, 99, kills=10)
    assert acknowledged > 0
    check_log(pg_url, acknowledged)
