"""Writers racing on one stream, as threads and as processes, on SQLite and PostgreSQL: each
version is won exactly once, the losers get ConcurrencyConflict, and nothing has a gap."""

from __future__ import annotations

import multiprocessing
import threading
import uuid
from collections import Counter
from typing import Any

import pytest
from conftest_store import new_event

from handlog.schema.errors import ConcurrencyConflict
from handlog.schema.hashing import verify_events
from handlog.schema.store import EventStore, StoredEvent, open_store

WRITERS = 4
ROUNDS = 12


def race(store: EventStore, writer: int, rounds: int, barrier: Any) -> list[tuple[int, str, str]]:
    """In each round every writer appends version `round` at once; returns (round, outcome, id)."""
    outcomes = []
    for round_number in range(1, rounds + 1):
        event = new_event({"writer": writer, "round": round_number})
        barrier.wait(timeout=60)
        try:
            store.append("table-1", round_number - 1, [event])
            outcomes.append((round_number, "won", str(event.event_id)))
        except ConcurrencyConflict as conflict:
            assert (conflict.expected, conflict.actual) == (round_number - 1, round_number)
            outcomes.append((round_number, "conflict", str(event.event_id)))
    return outcomes


def check_race(store: EventStore, outcomes: list[tuple[int, str, str]]) -> None:
    wins = Counter(round_number for round_number, outcome, _ in outcomes if outcome == "won")
    conflicts = Counter(round_number for round_number, outcome, _ in outcomes
                        if outcome == "conflict")
    assert wins == {round_number: 1 for round_number in range(1, ROUNDS + 1)}
    assert conflicts == {round_number: WRITERS - 1 for round_number in range(1, ROUNDS + 1)}
    events = store.read("table-1")
    assert [event.version for event in events] == list(range(1, ROUNDS + 1))
    winners = {round_number: event_id for round_number, outcome, event_id in outcomes
               if outcome == "won"}
    assert [str(event.event_id) for event in events] == [winners[v] for v in range(1, ROUNDS + 1)]
    assert verify_events(store.read_all(), store.streams()) == []


def run_threads(target: Any, count: int) -> list[Any]:
    results: list[Any] = [None] * count
    errors: list[BaseException] = []

    def run(index: int) -> None:
        try:
            results[index] = target(index)
        except BaseException as exc:  # noqa: BLE001 - re-raised in the test's thread
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(index,)) for index in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    if errors:
        raise errors[0]
    return results


def test_threads_racing_on_one_stream(store: EventStore) -> None:
    """Threads appending the same version at the same moment: one wins each round."""
    barrier = threading.Barrier(WRITERS)
    results = run_threads(lambda writer: race(store, writer, ROUNDS, barrier), WRITERS)
    check_race(store, [outcome for result in results for outcome in result])


def _race_in_process(url: str, writer: int, rounds: int, barrier: Any, results: Any) -> None:
    with open_store(url) as store:
        results.put(race(store, writer, rounds, barrier))


@pytest.mark.slow
def test_processes_racing_on_one_stream(store: EventStore, db_url: str) -> None:
    """Separate processes, each with its own connections, racing the same way."""
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["handlog.schema.store"])
    barrier = context.Barrier(WRITERS)
    results = context.Queue()
    processes = [
        context.Process(target=_race_in_process, args=(db_url, writer, ROUNDS, barrier, results))
        for writer in range(WRITERS)
    ]
    for process in processes:
        process.start()
    outcomes = [outcome for _ in processes for outcome in results.get(timeout=120)]
    for process in processes:
        process.join(60)
        assert process.exitcode == 0
    check_race(store, outcomes)


def test_writers_retrying_on_conflict_lose_nothing(store: EventStore) -> None:
    """Writers that reload and retry after each conflict all get their events in, no gaps."""
    per_writer = 15

    def write(writer: int) -> list[uuid.UUID]:
        mine = []
        for n in range(per_writer):
            event = new_event({"writer": writer, "n": n})
            while True:
                head = store.head("table-1")
                try:
                    store.append("table-1", head.version if head else 0, [event])
                    break
                except ConcurrencyConflict:
                    continue
            mine.append(event.event_id)
        return mine

    written = run_threads(write, WRITERS)
    events = store.read("table-1")
    assert [event.version for event in events] == list(range(1, WRITERS * per_writer + 1))
    stored_ids = [event.event_id for event in events]
    for ids in written:
        # Each writer's events are all there, in the order it wrote them.
        assert [event_id for event_id in stored_ids if event_id in set(ids)] == ids
    assert verify_events(store.read_all(), store.streams()) == []


def test_read_all_never_gains_an_event_behind_a_reader(store: EventStore) -> None:
    """Positions follow commit order: a reader polling read_all(last + 1) misses nothing."""
    per_writer = 20
    done = threading.Event()
    seen: list[StoredEvent] = []

    def poll() -> None:
        while True:
            finished = done.is_set()
            start = seen[-1].position + 1 if seen else 0
            seen.extend(store.read_all(from_position=start))
            if finished:
                return

    def write(writer: int) -> None:
        for n in range(per_writer):
            store.append(f"table-{writer}", n, [new_event({"n": n})])

    poller = threading.Thread(target=poll)
    poller.start()
    try:
        run_threads(write, WRITERS)
    finally:
        done.set()
        poller.join(60)
    assert len(seen) == WRITERS * per_writer
    assert seen == store.read_all()
