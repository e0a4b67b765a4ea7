"""Tables read from their stored snapshots (replay/repository.py): a restarted server folds only
what follows the last snapshot, gets the table a fold from the first event gets, and a snapshot
that is damaged or was written by other code is ignored (SQLite and PostgreSQL)."""

from __future__ import annotations

import json
import random
import uuid
from typing import Any

import pytest
import sqlalchemy as sa
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import PlayedHand, played_hands

from handlog.engine import commands as hc
from handlog.engine import table_commands as tc
from handlog.engine.errors import RuleViolation
from handlog.engine.events import HandStarted, PotAwarded, RaiseMade
from handlog.engine.hand import BETTING, BOARD, legal_actions, showdown_order
from handlog.engine.hand_state import HandState
from handlog.engine.table import Level
from handlog.engine.tournament_state import TournamentState, apply_tournament
from handlog.recorder.demo import run_demo
from handlog.recorder.service import Actor, Recorder
from handlog.recorder.views import NOTABLE_KEEP, NOTABLE_TYPES, RECENT, EventLog
from handlog.replay.fold import fold_table
from handlog.replay.repository import Repository, StateKind
from handlog.schema import state_codec
from handlog.schema.errors import EventCodecError
from handlog.schema.state_codec import from_json, to_json
from handlog.schema.store import EventStore

DEALER = Actor("dealer", "dealer", "tablet")
DIRECTOR = Actor("td", "director", "floor")
EVERY = 20  # events between snapshots: several per table in a few hands


@settings(max_examples=20, deadline=None,
          suppress_health_check=[HealthCheck.large_base_example, HealthCheck.too_slow])
@given(played_hands(irregular=True, physical=True))
def test_every_state_of_a_generated_hand_is_kept_and_read_back_equal(hand: PlayedHand) -> None:
    """The state codec gives back an equal state at every step of a generated hand (the
    irregular entries and the dealer's physical pushes included), through JSON text."""
    for state in hand.states:
        assert from_json(HandState, json.loads(json.dumps(to_json(state)))) == state


def test_the_state_codec_refuses_what_the_types_do_not_allow() -> None:
    """A text with a wrong type, a missing or extra field is refused, never built."""
    state = to_json(Level(50, 100))
    assert from_json(Level, state) == Level(50, 100)
    assert isinstance(state, dict)
    for bad in ({**state, "big_blind": "100"}, {**state, "extra": 1},
                {k: v for k, v in state.items() if k != "big_blind"}, [50, 100], 3.5):
        with pytest.raises(EventCodecError):
            from_json(Level, bad)


def _next(hand: Any, rng: random.Random) -> Any:
    used = set(hand.board) | {c for s in hand.shown if s for c in s}
    deck = [c for c in range(52) if c not in used]
    rng.shuffle(deck)
    if hand.phase == BETTING:
        legal = legal_actions(hand)
        roll = rng.random()
        if legal.raise_kind and roll < 0.2:
            return hc.BetRaise(legal.player, legal.min_to)
        if legal.call_amount and roll < 0.5:
            return hc.Fold(legal.player)
        return hc.CheckCall(legal.player)
    if hand.phase == BOARD:
        return hc.DealBoard(tuple(deck[:3 if not hand.board else 1]))
    unshown = [i for i in showdown_order(hand) if hand.shown[i] is None]
    if len(hand.contenders) > 1 and unshown:
        return hc.ShowCards(unshown[0], tuple(deck[:2]))
    return hc.AwardPots()


def _send(recorder: Recorder, stream: str, command: Any, actor: Actor = DEALER) -> None:
    recorder.submit(stream, command, recorder.table(stream).version, uuid.uuid4(), actor)


def _play(recorder: Recorder, stream: str, hands: int, seed: int) -> None:
    _send(recorder, stream, tc.OpenTable(stream, 9, "tda"))
    for seat in range(1, 5):
        _send(recorder, stream, tc.SeatPlayer(seat, f"P{seat}", 100_000))
    _send(recorder, stream, tc.PlaceButton(1))
    rng = random.Random(seed)
    for _ in range(hands):
        _send(recorder, stream, tc.StartHand(Level(50, 100)))
        while (state := recorder.table(stream).state) is not None and state.hand_in_progress:
            _send(recorder, stream, _next(state.hand, rng))


def _assert_as_folded_from_the_start(recorder: Recorder, store: EventStore,
                                     stream: str) -> None:
    live = recorder.table(stream)
    full = fold_table(stream, store.read(stream), verify=False)
    assert (live.version, live.state, live.voided) == (full.version, full.state, full.voided)
    assert live.findings == full.findings
    assert live.effective == full.effective


@settings(max_examples=6, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000), hands=st.integers(1, 6))
def test_a_table_resumed_from_its_snapshot_equals_the_fold_from_its_first_event(
        store: EventStore, seed: int, hands: int) -> None:
    """Generated hands: the table a restart resumes from its snapshot is the full fold's."""
    stream = f"table-h{uuid.uuid4().hex[:8]}"
    _play(Recorder(store, snapshot_every=EVERY), stream, hands, seed)
    restarted = Recorder(store, snapshot_every=EVERY)
    _assert_as_folded_from_the_start(restarted, store, stream)


def test_a_restart_reads_only_the_events_after_the_snapshot(store: EventStore) -> None:
    """The first read after a restart reads the events that follow the last snapshot."""
    _play(Recorder(store, snapshot_every=EVERY), "table-r", 8, 3)
    total = len(store.read("table-r"))
    restarted = Recorder(store, snapshot_every=EVERY)
    len(restarted.table("table-r").effective)  # (a table resumed from its latest state: made
    assert 0 < restarted.tables.events_read < min(total, 3 * EVERY)  # whole from a hand start)
    cold = Recorder(store, snapshot_every=0)  # snapshots off: the whole stream
    cold.table("table-r")
    assert cold.tables.events_read == total
    _assert_as_folded_from_the_start(restarted, store, "table-r")


def test_corrections_after_a_restart_read_the_older_hands_when_they_need_them(
        store: EventStore) -> None:
    """A void of a raise hands before the snapshot folds the whole stream, and the table is
    the full fold's; the tablet's walk back through the current hand reads no history."""
    _play(Recorder(store, snapshot_every=EVERY), "table-c", 8, 5)
    raises = [e.version for e in store.read("table-c") if e.type == RaiseMade.TYPE]
    restarted = Recorder(store, snapshot_every=EVERY)
    fold = restarted.table("table-c")
    next(iter(reversed(fold.effective)))  # (resumed from its latest state: its last hand read)
    read = restarted.tables.events_read
    assert read < 3 * EVERY
    for _version, event in reversed(fold.effective):
        if isinstance(event, HandStarted):
            break
    assert restarted.tables.events_read == read
    assert list(fold.effective) == list(fold_table("table-c", store.read("table-c")).effective)
    _send(restarted, "table-c", tc.StartHand(Level(50, 100)))
    # The void is tried on the whole stream (later actions depend on the raise: refused).
    with pytest.raises(RuleViolation, match="that correction makes version"):
        _send(restarted, "table-c", tc.VoidEvents((raises[0],), "keyed at the wrong table",
                                                  "tda-1"), DIRECTOR)
    assert restarted.tables.events_read > read + raises[0]
    _assert_as_folded_from_the_start(restarted, store, "table-c")
    hand = restarted.table("table-c").state
    assert hand is not None and hand.hand is not None
    _send(restarted, "table-c", _next(hand.hand, random.Random(1)))
    _send(restarted, "table-c", tc.Undo())
    _assert_as_folded_from_the_start(restarted, store, "table-c")


def test_a_damaged_snapshot_is_ignored_and_the_table_folded_from_its_first_event(
        store: EventStore) -> None:
    """A snapshot row whose body is not what the code writes costs only the fold."""
    _play(Recorder(store, snapshot_every=EVERY), "table-d", 5, 7)
    total = len(store.read("table-d"))
    for body in ("{not json", '{"version": 1}', '{"version": "x", "index": [], "state": 3}'):
        with store.connection(write=True) as connection:
            connection.execute(sa.text("UPDATE snapshots SET body = :body"), {"body": body})
        restarted = Recorder(store, snapshot_every=EVERY)
        _assert_as_folded_from_the_start(restarted, store, "table-d")
        assert restarted.tables.events_read == total


def test_a_damaged_hand_start_behind_a_latest_state_costs_only_the_fold(
        store: EventStore) -> None:
    """A between-hands snapshot whose hand-start part cannot be read: the table's state is
    still read back from its latest state, and its events from the whole stream's fold."""
    _play(Recorder(store, snapshot_every=EVERY), "table-l", 3, 7)
    total = len(store.read("table-l"))
    with store.connection() as connection:
        body = connection.execute(sa.text(
            "SELECT body FROM snapshots WHERE stream_id = 'table-l'")).scalar_one()
    assert body.startswith('{"latest":')
    latest = body[:body.index(',"start":')]
    for start in ('"{not json"', '"{}"', json.dumps(json.dumps({"version": 1}))):
        with store.connection(write=True) as connection:
            connection.execute(sa.text(
                "UPDATE snapshots SET body = :body WHERE stream_id = 'table-l'"),
                {"body": f"{latest},\"start\":{start}}}"})
        restarted = Recorder(store, snapshot_every=EVERY)
        restarted.table("table-l")
        assert restarted.tables.events_read == 0
        _assert_as_folded_from_the_start(restarted, store, "table-l")
        # (the whole stream once, after what the damaged part said was its hand)
        assert total <= restarted.tables.events_read <= 2 * total


def test_the_house_rules_are_stored_once_for_every_table_that_plays_by_them(
        store: EventStore) -> None:
    """Snapshots hold a room's house rules by reference to one shared row (not a copy per
    table); a shared row that is damaged costs only the fold of the tables that refer to it."""
    recorder = Recorder(store, snapshot_every=EVERY)
    _play(recorder, "table-s1", 3, 7)
    _play(recorder, "table-s2", 3, 8)
    with store.connection() as connection:
        rows = dict(connection.execute(sa.text("SELECT stream_id, body FROM snapshots")).all())
    shared = [name for name in rows if name.startswith("$shared/")]
    assert len(shared) == 1 and '"citations"' in rows[shared[0]]
    assert all('"citations"' not in rows[table] for table in ("table-s1", "table-s2"))
    assert all(shared[0].removeprefix("$shared/") in rows[t] for t in ("table-s1", "table-s2"))
    restarted = Recorder(store, snapshot_every=EVERY)
    restarted.preload(["table-s1", "table-s2"])
    assert restarted.tables.events_read == 0
    _assert_as_folded_from_the_start(restarted, store, "table-s1")
    with store.connection(write=True) as connection:
        connection.execute(sa.text("UPDATE snapshots SET body = replace(body, 'dead_button', "
                                   "'live_button') WHERE stream_id LIKE '$shared/%'"))
    state_codec._shared.clear()  # (a new process: the record not yet known)
    state_codec._shared_decoded.clear()
    restarted = Recorder(store, snapshot_every=EVERY)
    _assert_as_folded_from_the_start(restarted, store, "table-s2")
    assert restarted.tables.events_read == len(store.read("table-s2"))


def test_a_snapshot_of_other_code_is_not_read(store: EventStore) -> None:
    """A snapshot keyed by another build (an upgrade) is never loaded."""
    _play(Recorder(store, snapshot_every=EVERY), "table-o", 4, 9)
    with store.connection(write=True) as connection:
        connection.execute(sa.text("UPDATE snapshots SET code = 'table-1:older'"))
    restarted = Recorder(store, snapshot_every=EVERY)
    restarted.table("table-o")
    assert restarted.tables.events_read == len(store.read("table-o"))


def test_a_tournament_state_resumes_from_its_snapshot(store: EventStore) -> None:
    """The repository folds a tournament's stream by its state and apply function too."""
    summary = run_demo(Recorder(store), players=8, tables=1, seed=2, hands=2)
    stream = f"tournament-{summary.tournament}"
    kind = StateKind(TournamentState, apply_tournament, "tournament")
    first: Repository[Any] = Repository(store, kind, every=5)
    folded, _ = first.get(stream)
    again: Repository[Any] = Repository(store, kind, every=5)
    resumed, _ = again.get(stream)
    assert resumed.state == folded.state and resumed.version == folded.version
    assert again.events_read < first.events_read


def test_the_first_read_of_a_floor_keeps_snapshots_for_the_next_restart(
        store: EventStore) -> None:
    """A log without snapshots (written before them): the floor's first read folds each table
    from its start and keeps their snapshots; the next restart reads only what follows."""
    streams = [f"table-f{k}" for k in range(3)]
    for k, stream in enumerate(streams):
        _play(Recorder(store, snapshot_every=0), stream, 4, k)
    total = sum(len(store.read(stream)) for stream in streams)
    first = Recorder(store, snapshot_every=EVERY)
    first.preload(streams)
    assert first.tables.events_read == total
    restarted = Recorder(store, snapshot_every=EVERY)
    restarted.preload(streams)
    assert restarted.tables.events_read < total / 2
    for stream in streams:
        _assert_as_folded_from_the_start(restarted, store, stream)


def test_an_idle_table_is_read_back_from_its_latest_state_and_its_last_hand_when_asked(
        store: EventStore) -> None:
    """A table between hands at the restart: its state, findings and voided versions come
    from the snapshot alone (no event read, nothing folded: the floor's card); its events, a
    new hand and a correction read its last hand first, and all is the full fold's."""
    _play(Recorder(store, snapshot_every=EVERY), "table-i", 3, 7)
    restarted = Recorder(store, snapshot_every=EVERY)
    fold = restarted.table("table-i")
    full = fold_table("table-i", store.read("table-i"), verify=False)
    assert (fold.version, fold.state, fold.findings, fold.voided) == (
        full.version, full.state, full.findings, full.voided)
    assert restarted.tables.events_read == 0
    next(iter(reversed(fold.effective)))  # the last hand read (the ones before when asked)
    assert 0 < restarted.tables.events_read < len(store.read("table-i")) / 2
    assert fold.effective == full.effective
    again = Recorder(store, snapshot_every=EVERY)
    _send(again, "table-i", tc.StartHand(Level(50, 100)))
    state = again.table("table-i").state
    assert state is not None and state.hand is not None
    _send(again, "table-i", _next(state.hand, random.Random(1)))
    last = again.table("table-i").version
    _send(again, "table-i", tc.VoidEvents((last,), "keyed twice", "tda-1"), DIRECTOR)
    _assert_as_folded_from_the_start(again, store, "table-i")


def test_a_restarted_tablet_lists_the_same_events_without_reading_the_whole_table(
        store: EventStore) -> None:
    """The tablet's last entries and the floor's rulings and corrections of a long table, read
    for the first time after a restart, are what reading every event gives."""
    _play(Recorder(store, snapshot_every=EVERY), "table-v", 5, 4)
    recorder = Recorder(store, snapshot_every=EVERY)
    _send(recorder, "table-v", tc.StartHand(Level(50, 100)))
    state = recorder.table("table-v").state
    assert state is not None and state.hand is not None
    _send(recorder, "table-v", _next(state.hand, random.Random(3)))
    last = recorder.table("table-v").version
    _send(recorder, "table-v", tc.VoidEvents((last,), "keyed twice", "tda-1"), DIRECTOR)
    rng = random.Random(5)
    for _ in range(2):  # (the void is then before the last entries)
        while (state := recorder.table("table-v").state) is not None and state.hand_in_progress:
            _send(recorder, "table-v", _next(state.hand, rng))
        _send(recorder, "table-v", tc.StartHand(Level(50, 100)))
    stored = store.read("table-v")
    notable = [e for e in stored if e.type in NOTABLE_TYPES or (
        e.type == PotAwarded.TYPE and e.payload.get("ruling"))]
    assert notable and notable[0].version < stored[-RECENT].version
    version = stored[-1].version
    assert EventLog(store).recent("table-v", version) == stored[-RECENT:]
    assert EventLog(store).notable("table-v", version) == notable[-NOTABLE_KEEP:]
