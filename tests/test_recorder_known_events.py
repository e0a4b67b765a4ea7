"""What the recorder keeps of the events it just appended, instead of working them out again
(recorder/service.py `_known`, the live fold's `states`): the same as the store gives back."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from handlog.engine.events import HAND_EVENT_TYPES, HandStarted
from handlog.recorder.demo import run_demo
from handlog.recorder.service import Recorder
from handlog.recorder.views import offline_hand
from handlog.replay.fold import fold_table
from handlog.schema.codec import canonical_json, decode_event, encode_event
from handlog.schema.store import EventStore, StoredEvent


def demo_appends(store: EventStore) -> tuple[Recorder, list[StoredEvent]]:
    """A whole demo tournament (every hand to its winner, a penalty, a chip count and its
    correction, hand-for-hand, re-entries), and every event the recorder appended, as its
    read models got them."""
    recorder = Recorder(store)
    appended: list[StoredEvent] = []
    recorder.on_appended(appended.extend)
    summary = run_demo(recorder, players=6, tables=2, seed=5, chip_count=True,
                       hand_for_hand=True, re_entries=1)
    assert summary.finished
    return recorder, appended


def test_a_just_appended_event_decodes_to_what_the_store_gives_back(
        store: EventStore) -> None:
    """Every event the recorder appended answers `decode()` with the event it decided (no
    decoding again), and that event equals, field for field and type for type, the store's
    own decode of the stored row; the encoding kept with it is the one the store wrote."""
    _recorder, appended = demo_appends(store)
    kept = [e for e in appended if "_encoded" in e.__dict__]
    assert len(kept) == len(appended) > 500
    assert len({e.type for e in kept}) > 20
    read = {(e.stream_id, e.version): e for s in {e.stream_id for e in kept}
            for e in store.read(s)}
    for event in kept:
        stored = read[event.stream_id, event.version]
        fresh = decode_event(stored.type, stored.schema_version, stored.payload)
        mine = event.decode()
        assert mine == fresh and repr(mine) == repr(fresh), (event.type, event.version)
        source, (event_type, version, payload) = event.__dict__["_encoded"]
        assert source is mine
        assert (event_type, version) == (stored.type, stored.schema_version)
        assert canonical_json(payload) == stored.payload_json
        assert (event_type, version, payload) == encode_event(fresh)


def test_the_live_tables_after_a_demo_are_the_tables_folded_from_the_store(
        store: EventStore) -> None:
    """The live folds took in the states the recorder applied while deciding (not applying the
    events a second time): each table equals its fold from the stored log, and the dealer's
    offline hand equals its encoding from scratch."""
    recorder, appended = demo_appends(store)
    tables = sorted({e.stream_id for e in appended if e.stream_id.startswith("table-")})
    assert len(tables) == 2
    for stream in tables:
        live = recorder.table(stream)
        folded = fold_table(stream, store.read(stream))
        assert live.version == folded.version
        assert live.state == folded.state
        assert [e for _v, e in live.effective] == [e for _v, e in folded.effective]


def test_the_offline_hand_from_kept_encodings_is_the_hand_encoded_afresh(
        store: EventStore) -> None:
    """The offline hand built with the encodings the recorder kept is the one encoded from
    the fold's events, for every prefix of a hand at a table."""
    recorder = Recorder(store)
    recent: list[StoredEvent] = []
    compared = 0

    def check(stored: Sequence[StoredEvent]) -> None:
        nonlocal compared
        if not stored:  # (a table read, not appended)
            return
        recent[:] = (recent + list(stored))[-12:]
        stream = stored[-1].stream_id
        if not stream.startswith("table-"):
            return
        fold = recorder.table(stream)
        if fold.state is None or fold.state.hand is None:
            return
        fresh: list[list[Any]] = []
        for _v, event in fold.effective:
            if isinstance(event, HandStarted):
                fresh = []
            if isinstance(event, HAND_EVENT_TYPES):
                fresh.append(list(encode_event(event)))
        mine = offline_hand(fold, [e for e in recent if e.stream_id == stream])
        assert mine == fresh and mine
        assert repr(mine) == repr(fresh)
        compared += 1

    recorder.on_appended(check)
    run_demo(recorder, players=6, tables=1, seed=3, hands=6)
    assert compared > 50
