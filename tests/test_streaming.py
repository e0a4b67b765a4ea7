"""Replay reads the log one stream at a time: its memory does not grow with the log's size
(tracemalloc on a generated log, SQLite and PostgreSQL), and it finds what it found before."""

from __future__ import annotations

import tracemalloc
import uuid

from click.testing import CliRunner

from handlog.engine import commands as hc
from handlog.engine.hand import legal_actions
from handlog.engine.table import Level
from handlog.engine.table_commands import OpenTable, PlaceButton, SeatPlayer, StartHand
from handlog.recorder.cli import cli
from handlog.recorder.service import Actor, Recorder
from handlog.replay.verify import replay_log
from handlog.schema.store import EventStore, NewEvent

DEALER = Actor("dealer", "dealer", "tablet")


def _send(recorder: Recorder, stream: str, command: object) -> None:
    recorder.submit(stream, command, recorder.table(stream).version,  # type: ignore[arg-type]
                    uuid.uuid4(), DEALER)


def _copies(store: EventStore, count: int, hands: int = 30, first: int = 0) -> None:
    """One table of `hands` hands (everyone folds to the big blind), then `count` copies."""
    recorder = Recorder(store)
    stream = f"table-model-{first}"
    _send(recorder, stream, OpenTable("model", 9, "tda"))
    for seat in range(1, 7):
        _send(recorder, stream, SeatPlayer(seat, f"P{seat}", 100_000))
    _send(recorder, stream, PlaceButton(1))
    for _ in range(hands):
        _send(recorder, stream, StartHand(Level(50, 100)))
        while recorder.table(stream).state.hand_in_progress:  # type: ignore[union-attr]
            legal = legal_actions(recorder.table(stream).state.hand)  # type: ignore[union-attr, arg-type]
            _send(recorder, stream, hc.Fold(legal.player) if legal else hc.AwardPots())
    model = store.read(stream)
    for index in range(first, first + count):
        store.append(f"table-copy-{index}", 0, [
            NewEvent(uuid.uuid4(), e.type, e.schema_version, e.payload, e.actor, e.device,
                     e.recorded_at) for e in model])


def _peak(store: EventStore) -> tuple[int, int]:
    tracemalloc.start()
    try:
        report = replay_log(store, keep_events=False)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert report.findings == []
    return peak, report.events


def _whole_log_peak(store: EventStore) -> int:
    tracemalloc.start()
    try:
        store.snapshot()  # what replay read before it streamed: every event at once
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_replay_memory_does_not_grow_with_the_log(store: EventStore) -> None:
    """Four times the log: what replay holds grows only by each new table's final state (one
    stream's events at a time, never the whole log), a fraction of reading the log whole."""
    _copies(store, 8)
    small, small_events = _peak(store)
    _copies(store, 24, first=8)
    large, large_events = _peak(store)
    whole = _whole_log_peak(store)
    assert large_events > 3 * small_events
    assert large < whole / 3, (large, whole)
    assert (large - small) / 24 < 80_000, (small, large)


def test_handlog_replay_streams_and_stays_clean(store: EventStore) -> None:
    """`handlog replay` over the streamed log: every event counted, no finding."""
    _copies(store, 3, hands=5)
    result = CliRunner().invoke(cli, ["replay", "--db", store.raw_url])
    assert result.exit_code == 0, result.output
    total = sum(h.version for h in store.streams())
    assert f"replayed {total} events in 4 streams" in result.output, result.output
