"""The recorder's live tables: corrections folded from the snapshot at a hand's start, retries
found by event id, and tables that never wait for each other (SQLite and PostgreSQL)."""

from __future__ import annotations

import random
import threading
import uuid
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import Any

import pytest

import handlog.replay.incremental
from handlog.engine import commands as hc
from handlog.engine.errors import RuleViolation
from handlog.engine.events import BetMade, RaiseMade
from handlog.engine.hand import BETTING, BOARD, legal_actions, showdown_order
from handlog.engine.table_commands import AmendAmount, Undo, VoidEvents
from handlog.engine.table_events import EventVoided
from handlog.recorder.demo import run_demo
from handlog.recorder.service import Actor, Recorder
from handlog.recorder.tournament_service import Tournaments, table_stream
from handlog.replay.fold import fold_table
from handlog.schema.codec import canonical_json, encode_event
from handlog.schema.store import EventStore, StoredEvent

DIRECTOR = Actor("td", "director", "floor")
DEALER = Actor("dealer", "dealer", "tablet")
DIRECTOR_TIME = datetime(2026, 1, 1, tzinfo=UTC)


def _unsaved(stream: str, version: int, event: Any) -> StoredEvent:
    event_type, schema_version, payload = encode_event(event)
    return StoredEvent(0, stream, version, uuid.uuid4(), event_type, schema_version, payload,
                       canonical_json(payload), DIRECTOR_TIME, "", "", "", "")


def full_refold_refuses(store: EventStore, stream: str, correction: Any) -> bool:
    """The old way: fold the whole stream with and without the correction, verifying."""
    stored = store.read(stream)
    trial = [*stored, _unsaved(stream, stored[-1].version + 1, correction)]
    before = {(f.version, f.message) for f in fold_table(stream, stored).findings}
    return any((f.version, f.message) not in before
               for f in fold_table(stream, trial).findings)


def assert_live_equals_full_fold(recorder: Recorder, store: EventStore, stream: str) -> None:
    live = recorder.table(stream)
    full = fold_table(stream, store.read(stream), verify=False)
    assert live.state == full.state
    assert live.effective == full.effective
    assert live.voided == full.voided
    assert live.version == full.version


@pytest.fixture
def demo_table(store: EventStore) -> Iterator[tuple[Recorder, Tournaments, str, str]]:
    recorder = Recorder(store)
    summary = run_demo(recorder, players=6, tables=1, seed=11, hands=12)
    yield recorder, Tournaments(recorder), summary.tournament, table_stream(summary.tournament,
                                                                             "1")


def _step(recorder: Recorder, stream: str, rng: random.Random) -> None:
    """One entry of the hand in progress: a fold, check, call or raise, a board card, a
    shown hand or the pot push."""
    hand = recorder.table(stream).state.hand  # type: ignore[union-attr]
    assert hand is not None
    used = set(hand.board) | {c for s in hand.shown if s for c in s}
    deck = [c for c in range(52) if c not in used]
    rng.shuffle(deck)
    command: Any
    if hand.phase == BETTING:
        legal = legal_actions(hand)
        assert legal is not None
        roll = rng.random()
        if legal.raise_kind and roll < 0.25:
            command = hc.BetRaise(legal.player, legal.min_to)
        elif legal.call_amount and roll < 0.5:
            command = hc.Fold(legal.player)
        else:
            command = hc.CheckCall(legal.player)
    elif hand.phase == BOARD:
        command = hc.DealBoard(tuple(deck[:3 if not hand.board else 1]))
    else:
        unshown = [i for i in showdown_order(hand) if hand.shown[i] is None]
        if len(hand.contenders) > 1 and unshown:
            command = hc.ShowCards(unshown[0], tuple(deck[:2]))
        else:
            command = hc.AwardPots()
    recorder.submit(stream, command, recorder.table(stream).version, uuid.uuid4(), DEALER)


def test_undo_void_and_amend_from_a_snapshot_equal_the_full_refold(
        demo_table: tuple[Recorder, Tournaments, str, str], store: EventStore) -> None:
    """After every undo, void and amend (accepted or refused), the live table equals the fold
    of the whole stream, and the verdict equals the one of the full re-fold."""
    recorder, tournaments, tournament, stream = demo_table
    rng = random.Random(5)
    verdicts = {"accepted": 0, "refused": 0}
    for _round in range(6):
        tournaments.start_hand(tournament, "1", DEALER)
        for _ in range(rng.randint(1, 4)):
            if not recorder.table(stream).state.hand_in_progress:  # type: ignore[union-attr]
                break
            _step(recorder, stream, rng)
        if recorder.table(stream).state.hand_in_progress:  # type: ignore[union-attr]
            recorder.submit(stream, Undo(), recorder.table(stream).version, uuid.uuid4(),
                            DEALER)
            assert_live_equals_full_fold(recorder, store, stream)
        fold = recorder.table(stream)
        candidates = [v for v, _e in fold.effective if v > fold.version - 40]
        bets = [(v, e) for v, e in fold.effective
                if isinstance(e, BetMade | RaiseMade) and v > fold.version - 60]
        tries: list[Any] = [VoidEvents((rng.choice(candidates),), "keyed twice", "tda-1")]
        if bets:
            version, bet = rng.choice(bets)
            tries.append(AmendAmount(version, bet.to + rng.choice((-10, 10, 100)), "miskeyed",
                                     "tda-1"))
        for command in tries:
            version = recorder.table(stream).version
            try:
                recorder.submit(stream, command, version, uuid.uuid4(), DIRECTOR)
            except RuleViolation:
                verdicts["refused"] += 1
                if isinstance(command, VoidEvents):
                    assert full_refold_refuses(store, stream,
                                               EventVoided(command.versions, "trial"))
            else:
                verdicts["accepted"] += 1
                if isinstance(command, VoidEvents):
                    stored = store.read(stream)[:-1]
                    assert not full_refold_refuses(
                        _Frozen(stored), stream, EventVoided(command.versions, "trial"))
            assert_live_equals_full_fold(recorder, store, stream)
        while recorder.table(stream).state.hand_in_progress:  # type: ignore[union-attr]
            _step(recorder, stream, rng)
        tournaments.settle_hand(tournament, "1", DIRECTOR)
        assert_live_equals_full_fold(recorder, store, stream)
    assert verdicts["accepted"] and verdicts["refused"]


class _Frozen:
    """A store that reads back a fixed list (the stream before the correction)."""

    def __init__(self, stored: list[StoredEvent]) -> None:
        self.stored = stored

    def read(self, _stream: str) -> list[StoredEvent]:
        return self.stored


def _counting_folds(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls = [0]
    original = handlog.replay.incremental.fold_effective

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        return original(*args, **kwargs)

    monkeypatch.setattr(handlog.replay.incremental, "fold_effective", counted)
    return calls


def _counting(monkeypatch: pytest.MonkeyPatch, store: EventStore, name: str) -> list[int]:
    calls = [0]
    original: Callable[..., Any] = getattr(store, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        return original(*args, **kwargs)

    monkeypatch.setattr(store, name, counted)
    return calls


def test_a_retry_is_found_by_its_event_id_without_folding(
        demo_table: tuple[Recorder, Tournaments, str, str], store: EventStore,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A retried command returns what was stored under its id: one lookup, no fold, no read
    of the stream."""
    recorder, tournaments, tournament, stream = demo_table
    tournaments.start_hand(tournament, "1", DEALER)
    fold = recorder.table(stream)
    legal = legal_actions(fold.state.hand)  # type: ignore[union-attr, arg-type]
    assert legal is not None
    event_id = uuid.uuid4()
    first = recorder.submit(stream, hc.CheckCall(legal.player), fold.version, event_id, DEALER)
    _step(recorder, stream, random.Random(1))  # the table moved on since
    folds = _counting_folds(monkeypatch)
    finds = _counting(monkeypatch, store, "find")
    reads = _counting(monkeypatch, store, "read")
    again = recorder.submit(stream, hc.CheckCall(legal.player), fold.version, event_id, DEALER)
    assert again.retried and again.events == first.events
    assert (folds[0], finds[0], reads[0]) == (0, 1, 0)


def test_a_hand_start_retry_returns_the_posts_derived_from_it(
        demo_table: tuple[Recorder, Tournaments, str, str]) -> None:
    """The hand start records the posts too: its retry returns all of them."""
    recorder, tournaments, tournament, stream = demo_table
    fold = recorder.table(stream)
    recorded = tournaments.start_hand(tournament, "1", DEALER)
    assert len(recorded.events) > 1
    again = recorder.recorded(stream, recorded.events[0].event_id)
    assert again is not None and again.events == recorded.events
    assert again.version == fold.version + len(recorded.events)


def test_two_tables_record_while_a_third_is_held(store: EventStore) -> None:
    """Holding one table's lock (a command in progress there) stops no other table."""
    recorder = Recorder(store)
    # 27 players: after a hand three tables are still in play (18 would break one).
    summary = run_demo(recorder, players=27, tables=3, seed=3, hands=1, penalty=False)
    tournaments = Tournaments(recorder)
    assert tournaments.state(summary.tournament).tables == ("1", "2", "3")
    held = table_stream(summary.tournament, "1")
    recorder.table(held)
    entry = recorder._entry(held)
    done: list[str] = []
    entry.lock.acquire()
    try:
        def record_at(table: str) -> None:
            tournaments.start_hand(summary.tournament, table, DEALER)
            done.append(table)

        threads = [threading.Thread(target=record_at, args=(t,)) for t in ("2", "3")]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
        assert sorted(done) == ["2", "3"]
    finally:
        entry.lock.release()
    assert not recorder.table(held).state.hand_in_progress  # type: ignore[union-attr]


def test_a_connection_postgresql_dropped_is_replaced_without_an_error(pg_url: str) -> None:
    """No ping per checkout: a pooled connection the server ended (restart, idle timeout) is
    retried once on a new one, for a read and for an append."""
    from conftest_store import driver_connect, new_event

    from handlog.schema.store import open_store, upgrade_database

    upgrade_database(pg_url)
    with open_store(pg_url) as store:
        store.append("table-1", 0, [new_event({"n": 1})])
        for action in ("read", "append"):
            with store._engine.connect() as connection:
                pid = connection.exec_driver_sql("SELECT pg_backend_pid()").scalar()
            killer = driver_connect(pg_url)
            try:
                killer.execute("SELECT pg_terminate_backend(%s)", (pid,))
            finally:
                killer.close()
            if action == "read":
                assert [e.version for e in store.read("table-1")] == [1]
            else:
                store.append("table-1", 1, [new_event({"n": 2})])
        assert [e.version for e in store.read("table-1")] == [1, 2]


def test_a_head_kept_in_memory_never_breaks_the_chain(db_url: str) -> None:
    """A store appends on the head it wrote last without reading it; when another store (a
    second process) moved the head meanwhile, the append is a conflict or lands after that
    head, and the chains verify."""
    from conftest_store import new_event

    from handlog.schema.errors import ConcurrencyConflict
    from handlog.schema.hashing import verify_events
    from handlog.schema.store import open_store, upgrade_database

    upgrade_database(db_url)
    with open_store(db_url) as mine, open_store(db_url) as other:
        mine.append("table-1", 0, [new_event({"n": 1})])
        mine.append("table-1", 1, [new_event({"n": 2})])  # on the head it keeps
        other.append("table-1", 2, [new_event({"n": 3})])
        with pytest.raises(ConcurrencyConflict) as stale:
            mine.append("table-1", 2, [new_event({"n": 3})])
        assert (stale.value.expected, stale.value.actual) == (2, 3)
        mine.append("table-1", 3, [new_event({"n": 4})])
        retry = new_event({"n": 5})
        assert mine.append("table-1", 4, [retry]) == mine.append("table-1", 4, [retry])
        assert [e.version for e in other.read("table-1")] == [1, 2, 3, 4, 5]
        assert verify_events(other.read_all(), other.streams()) == []
