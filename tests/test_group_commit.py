"""Group commit (schema/store.py `_submit`): the appends waiting at one moment share one
transaction, on SQLite and PostgreSQL, and each keeps its own answer: every append lands, the
Merkle tree's leaf order is the commit (position) order, and a conflict, a duplicate id or a
retry inside a batch is answered to that command alone while the rest of the batch lands."""

from __future__ import annotations

import threading
import time
import uuid
from typing import Any

import pytest
import sqlalchemy as sa
from conftest_store import new_event, new_events

from handlog.schema.checkpoint import SigningKey, record_checkpoint, stored_checkpoints
from handlog.schema.errors import ConcurrencyConflict, DuplicateEventConflict
from handlog.schema.hashing import verify_events
from handlog.schema.logcheck import check_store
from handlog.schema.store import EventStore, StoredBefore

ROOM = SigningKey("casino.example/poker-room", bytes(range(32)))

THREADS = 12
APPENDS = 15


def _leaf_positions(store: EventStore) -> list[int]:
    with store.connection() as connection:
        return [int(p) for (p,) in connection.exec_driver_sql(
            "SELECT position FROM merkle_leaves ORDER BY leaf_index")]


def _sound(store: EventStore) -> None:
    """Chains, heads and tree agree, and leaf order is position (commit) order."""
    events = store.read_all()
    assert verify_events(events, store.streams()) == []
    assert _leaf_positions(store) == [event.position for event in events]
    check = check_store(store)
    assert check.ok, check.breaks
    assert check.size == len(events)


def test_threads_appending_to_many_streams_share_commits(store: EventStore) -> None:
    """Twelve threads, each on streams of its own and one shared stream, append at once:
    everything lands, in fewer transactions than appends, and the tree is in commit order."""
    errors: list[BaseException] = []
    start = threading.Barrier(THREADS)
    calls = [0] * THREADS

    def write(writer: int) -> None:
        try:
            start.wait(timeout=60)
            versions = [0, 0, 0]
            for n in range(APPENDS):
                k = n % 3
                calls[writer] += 1
                stored = store.append(f"table-{writer}-{k}", versions[k],
                                      new_events(1 + n % 2, start=versions[k] + 1))
                versions[k] = stored[-1].version
                while True:  # the shared stream: reload and retry on a conflict
                    head = store.head("table-shared")
                    calls[writer] += 1
                    try:
                        store.append("table-shared", head.version if head else 0, [new_event()])
                        break
                    except ConcurrencyConflict:
                        continue
        except BaseException as exc:  # noqa: BLE001 - re-raised in the test's thread
            errors.append(exc)

    threads = [threading.Thread(target=write, args=(w,)) for w in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(180)
    assert not errors, errors[0]
    heads = {head.stream_id: head.version for head in store.streams()}
    assert heads.pop("table-shared") == THREADS * APPENDS
    assert heads == {f"table-{w}-{k}": sum(1 + n % 2 for n in range(APPENDS) if n % 3 == k)
                     for w in range(THREADS) for k in range(3)}
    assert 0 < store.batches < sum(calls)  # appends shared transactions
    _sound(store)


def _hold_writer(store: EventStore) -> list[Any]:
    """Take every writer slot of the store: appends queue until `_release`."""
    held: list[Any] = []
    while store._writers.acquire(blocking=False):
        held.append(store._writers)
    assert held
    return held


def _queued(store: EventStore, count: int) -> None:
    deadline = time.monotonic() + 30
    while len(store._queue) < count:
        assert time.monotonic() < deadline, "the appends never queued"
        time.sleep(0.005)


def test_one_batch_answers_each_command_alone(store: EventStore) -> None:
    """One batch holding a good append, a stale version, an exact retry, an id stored with
    another payload, a new stream and two appends at the same version of one stream: each
    gets its own answer and the good ones land, in one batch."""
    first = new_event({"n": 1})
    store.append("table-a", 0, [first])
    store.append("table-b", 0, [new_event({"n": 1})])
    store.append("table-c", 0, [new_event({"n": 1})])
    store.append("table-d", 0, [new_event({"n": 1})])
    retried = new_event({"n": 2})
    store.append("table-e", 0, [new_event({"n": 1}), retried])
    clash = new_event({"n": 9}, event_id=first.event_id)
    race_one, race_two = new_event({"n": "one"}), new_event({"n": "two"})
    commands: list[tuple[str, int, Any]] = [
        ("table-b", 1, [new_event({"n": 2})]),  # lands
        ("table-c", 0, [new_event({"n": 2})]),  # stale: the head is at 1
        ("table-e", 1, [retried]),  # an exact retry: what was stored
        ("table-d", 1, [clash]),  # an id stored elsewhere with another payload
        ("table-new", 0, new_events(3)),  # a new stream
        ("table-a", 1, [race_one]),  # the first at version 2 of table-a wins...
        ("table-a", 1, [race_two]),  # ...the second at the same version conflicts
    ]
    before = store.batches
    held = _hold_writer(store)
    answers: list[Any] = [None] * len(commands)

    def send(index: int) -> None:
        stream, expected, events = commands[index]
        try:
            answers[index] = store.append(stream, expected, events)
        except (ConcurrencyConflict, DuplicateEventConflict) as exc:
            answers[index] = exc

    threads = []
    try:
        for index in range(len(commands)):  # queued in this order
            threads.append(threading.Thread(target=send, args=(index,)))
            threads[-1].start()
            _queued(store, index + 1)
    finally:
        for semaphore in held:
            semaphore.release()
    for thread in threads:
        thread.join(60)
    assert store.batches == before + 1

    landed, stale, retry, duplicate, new, won, lost = answers
    assert [e.version for e in landed] == [2] and not isinstance(landed, StoredBefore)
    assert isinstance(stale, ConcurrencyConflict) and (stale.expected, stale.actual) == (0, 1)
    assert isinstance(retry, StoredBefore) and [e.version for e in retry] == [2]
    assert isinstance(duplicate, DuplicateEventConflict)
    assert duplicate.event_id == first.event_id
    assert [e.version for e in new] == [1, 2, 3]
    assert [e.event_id for e in won] == [race_one.event_id]
    assert isinstance(lost, ConcurrencyConflict) and (lost.expected, lost.actual) == (1, 2)
    heads = {head.stream_id: head.version for head in store.streams()}
    assert heads == {"table-a": 2, "table-b": 2, "table-c": 1, "table-d": 1, "table-e": 2,
                     "table-new": 3}
    assert [e.event_id for e in store.read("table-a")] == [first.event_id, race_one.event_id]
    _sound(store)


def test_a_clean_batch_is_one_transaction(store: EventStore) -> None:
    """Appends queued together on heads the store wrote commit together (on PostgreSQL the
    rows of the whole batch carry one transaction id)."""
    streams = [f"table-{k}" for k in range(6)]
    for stream in streams:
        store.append(stream, 0, [new_event()])
    before_position = store.read_all()[-1].position
    before = store.batches
    fallbacks: list[int] = []
    slower = store._batch_savepoints
    store._batch_savepoints = lambda batch, riders=(): (  # type: ignore
        fallbacks.append(len(batch)), slower(batch, riders))
    held = _hold_writer(store)
    answers: list[Any] = [None] * len(streams)

    def send(index: int) -> None:
        answers[index] = store.append(streams[index], 1, new_events(2, start=2))

    threads = [threading.Thread(target=send, args=(k,)) for k in range(len(streams))]
    try:
        for index, thread in enumerate(threads):
            thread.start()
            _queued(store, index + 1)
    finally:
        for semaphore in held:
            semaphore.release()
    for thread in threads:
        thread.join(60)
    assert store.batches == before + 1
    # No savepoints: on PostgreSQL one statement in autocommit (schema/pg_append.py), on
    # SQLite one transaction through the driver's connection (EventStore._sqlite_on_heads).
    assert fallbacks == []
    # Positions follow the queue's order, which is also the leaves' order.
    positions = [e.position for answer in answers for e in answer]
    assert positions == sorted(positions) and positions[0] > before_position
    if not store.is_postgresql:
        assert positions == list(range(positions[0], positions[0] + len(positions)))
    if store.is_postgresql:
        with store.connection() as connection:
            transactions = connection.exec_driver_sql(
                "SELECT count(DISTINCT xmin::text) FROM events WHERE position > %s",
                (before_position,)).scalar()
        assert transactions == 1
    _sound(store)


@pytest.mark.parametrize("group_commit", [False, True])
def test_the_path_without_group_commit_gives_the_same_answers(
        store: EventStore, group_commit: bool) -> None:
    """The statement-by-statement path (group commit off) answers as the batch does."""
    store.group_commit = group_commit
    event = new_event()
    store.append("table-1", 0, [event])
    assert isinstance(store.append("table-1", 0, [event]), StoredBefore)
    with pytest.raises(ConcurrencyConflict):
        store.append("table-1", 0, [new_event()])
    with pytest.raises(DuplicateEventConflict):
        store.append("table-2", 0, [new_event({"x": 1}, event_id=event.event_id)])
    assert [e.version for e in store.append("table-1", 1, new_events(2))] == [2, 3]
    assert store.batches == (5 if group_commit else 0)
    _sound(store)


def test_event_ids_are_unique_across_a_batch(store: EventStore) -> None:
    """Two commands of one batch carrying the same event id: one lands, the other is told."""
    shared = uuid.uuid4()
    store.append("table-x", 0, [new_event()])
    store.append("table-y", 0, [new_event()])
    held = _hold_writer(store)
    answers: list[Any] = [None, None]

    def send(index: int) -> None:
        stream = ("table-x", "table-y")[index]
        try:
            answers[index] = store.append(stream, 1, [new_event({"k": index},
                                                                event_id=shared)])
        except DuplicateEventConflict as exc:
            answers[index] = exc

    threads = [threading.Thread(target=send, args=(k,)) for k in range(2)]
    try:
        for index, thread in enumerate(threads):
            thread.start()
            _queued(store, index + 1)
    finally:
        for semaphore in held:
            semaphore.release()
    for thread in threads:
        thread.join(60)
    assert [e.event_id for e in answers[0]] == [shared]
    assert isinstance(answers[1], DuplicateEventConflict)
    assert len(store.find([shared])) == 1
    _sound(store)


def _write_in_process(url: str, process: int, results: Any) -> None:
    from handlog.schema.store import open_store

    with open_store(url) as store:
        def write(thread: int) -> None:
            for n in range(8):
                store.append(f"table-p{process}-{thread}", n, [new_event({"n": n})])

        threads = [threading.Thread(target=write, args=(t,)) for t in range(6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(120)
        results.put(store.batches)


@pytest.mark.slow
def test_processes_batching_at_once_keep_one_tree_in_commit_order(store: EventStore,
                                                                  db_url: str) -> None:
    """Two processes, each batching six threads' appends: every append lands and the one
    tree's leaf order is still the commit order."""
    import multiprocessing

    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["handlog.schema.store"])
    results = context.Queue()
    processes = [context.Process(target=_write_in_process, args=(db_url, p, results))
                 for p in range(2)]
    for process in processes:
        process.start()
    batches = [results.get(timeout=180) for _ in processes]
    for process in processes:
        process.join(60)
        assert process.exitcode == 0
    assert all(count > 0 for count in batches)
    heads = {head.stream_id: head.version for head in store.streams()}
    assert heads == {f"table-p{p}-{t}": 8 for p in range(2) for t in range(6)}
    _sound(store)


def test_one_statement_appends_are_heard_by_a_listener_in_commit_order(pg_url: str) -> None:
    """The one statement that moves the heads also sends the notices: another
    store's listener hears each append (one alone, then two streams in one batch) once, with
    its last version, and nothing of an append that was refused."""
    from handlog.schema.notify import AppendListener
    from handlog.schema.store import open_store

    heard: list[tuple[str, int]] = []
    lock = threading.Lock()

    def on_append(stream: str, version: int) -> None:
        with lock:
            heard.append((stream, version))

    with open_store(pg_url, upgrade=True) as writer:
        listener = AppendListener(pg_url, on_append, ignore="")
        assert listener.start()
        try:
            writer.append("table-a", 0, new_events(1))
            writer.append("table-b", 0, new_events(1))
            writer.append("table-a", 1, new_events(2, start=2))  # (a head it wrote: one statement)
            with pytest.raises(ConcurrencyConflict):
                writer.append("table-a", 1, new_events(1, start=2))
            batch = [threading.Thread(target=writer.append, args=(stream, version, events))
                     for stream, version, events in (("table-a", 3, new_events(1, start=4)),
                                                     ("table-b", 1, new_events(3, start=2)))]
            for thread in batch:
                thread.start()
            for thread in batch:
                thread.join(timeout=60)
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                with lock:
                    if len(heard) >= 5:
                        break
                time.sleep(0.05)
        finally:
            listener.stop()
        with lock:
            got = list(heard)
        assert got[:3] == [("table-a", 1), ("table-b", 1), ("table-a", 3)]
        assert sorted(got[3:]) == [("table-a", 4), ("table-b", 4)]
        _sound(writer)


def _commits(store: EventStore) -> list[int]:
    counted: list[int] = []
    sa.event.listen(store._engine, "commit", lambda connection: counted.append(1))
    return counted


def _tap_beside(store: EventStore, write: Any) -> dict[str, Any]:
    """A tap queued behind the held writer, then `write()` on a thread of its own once the tap
    waits (SQLite: until the write waits to ride the tap's batch); the writer released, both
    answers ("tap", and "write" or its error as "error"). `table-a` holds one event."""
    held = _hold_writer(store)
    answers: dict[str, Any] = {}

    def beside() -> None:
        try:
            answers["write"] = write()
        except Exception as exc:  # noqa: BLE001 - what the test looks at
            answers["error"] = exc

    tap = threading.Thread(target=lambda: answers.setdefault(
        "tap", store.append("table-a", 1, new_events(2, start=2))))
    other = threading.Thread(target=beside)
    try:
        tap.start()
        _queued(store, 1)
        other.start()
        deadline = time.monotonic() + 30
        while not store.is_postgresql and not store._riders:
            assert time.monotonic() < deadline, "the write never waited for the batch"
            time.sleep(0.005)
    finally:
        for semaphore in held:
            semaphore.release()
    tap.join(60)
    other.join(60)
    return answers


def test_a_checkpoint_rides_the_tables_next_batch_and_covers_it(store: EventStore) -> None:
    """A checkpoint signed while tables append (SQLite's one writer busy) is written in the
    next batch's transaction, in a savepoint of its own: one commit for both, no flush of its
    own for a table to wait behind, and it covers the batch it rode. (PostgreSQL: alone, its
    appends do not wait for it.)"""
    store.append("table-a", 0, [new_event()])
    commits = _commits(store)
    answers = _tap_beside(store, lambda: record_checkpoint(store, ROOM, "ruling_recorded"))
    if not store.is_postgresql:  # (PostgreSQL's appends commit on the raw pipeline)
        assert len(commits) == 1
    taken = answers["write"]
    assert taken.checkpoint.size == (1 if store.is_postgresql else 3)
    assert stored_checkpoints(store)[-1].number == taken.number


def test_a_rider_that_fails_is_its_own_failure_and_the_batch_lands(store: EventStore) -> None:
    def refused(connection: Any) -> None:
        connection.execute(sa.text("INSERT INTO log_cosignatures (checkpoint_id, witness, "
                                   "line, cosigned_at) VALUES (999, 'w', 'l', '2026-01-01')"))

    store.append("table-a", 0, [new_event()])
    answers = _tap_beside(store, lambda: store.write_beside_appends(refused))
    assert [e.version for e in answers["tap"]] == [2, 3]
    assert "error" in answers and "FOREIGN KEY" in str(answers["error"]).upper()
    assert [e.version for e in store.read("table-a")] == [1, 2, 3]


def test_sqlite_hands_a_thread_the_connection_returned_last(sqlite_url: str) -> None:
    """SQLite keeps a page cache per connection, emptied when another connection writes: a
    tap after the checkpoints' thread read on a connection of its own must get back the
    connection it used last (warm), not the oldest in the pool."""
    from handlog.schema.store import open_store

    with open_store(sqlite_url, upgrade=True) as store:
        first = store._engine.connect()
        second = store._engine.connect()
        first_raw = first.connection.dbapi_connection
        second_raw = second.connection.dbapi_connection
        first.close()
        second.close()  # (returned last)
        again = store._engine.connect()
        try:
            assert again.connection.dbapi_connection is second_raw is not first_raw
        finally:
            again.close()
