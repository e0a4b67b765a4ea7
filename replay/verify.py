"""Replay of the whole log: every stream folded through the engine, every event checked.

Table streams are checked event by event (replay/fold.py). Across streams: a player who leaves
one table for another arrives with the chips he left with; the tournament's chip total stays
constant except for recorded removals; every elimination at a table is recorded by the
tournament and the other way round.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field, replace
from typing import Any

from handlog.engine.errors import RuleViolation
from handlog.engine.events import HandStarted
from handlog.engine.structure import Structure
from handlog.engine.table_events import (
    EventAmended,
    EventVoided,
    PlayerLeft,
    PlayerSeated,
    PotCarried,
    StackAdjusted,
)
from handlog.engine.tournament_state import TournamentState, fold_tournament
from handlog.replay.days_check import event_findings
from handlog.replay.fold import OTHER_RULES, Finding, StreamFolder, TableFold, fold_table
from handlog.replay.tournament_check import check_tournament
from handlog.schema.codec import decode_event
from handlog.schema.store import EventStore, StoredEvent, StreamHead


@dataclass
class ReplayReport:
    streams: int = 0
    events: int = 0
    hands: int = 0
    in_progress: list[tuple[str, int]] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    seconds: float = 0.0
    tables: dict[str, TableFold] = field(default_factory=dict)
    tournaments: dict[str, Any] = field(default_factory=dict)

    @property
    def clean(self) -> bool:
        """No finding, apart from hands recorded under other rules (they are said, but are no
        sign of tampering)."""
        return all(f.kind == OTHER_RULES for f in self.findings)

    def as_dict(self) -> dict[str, Any]:
        return {
            "clean": self.clean,
            "streams": self.streams,
            "events": self.events,
            "hands": self.hands,
            "hands_per_second": round(self.hands / self.seconds, 1) if self.seconds else None,
            "in_progress": [{"stream": s, "hand": h} for s, h in self.in_progress],
            "findings": [f.as_dict() for f in self.findings],
            "seconds": round(self.seconds, 3),
            "tables": {
                stream: [
                    {"seat": s.seat, "player": s.player, "stack": s.stack}
                    for s in (fold.state.seats if fold.state else ())
                ]
                for stream, fold in self.tables.items()
            },
            "tournaments": self.tournaments,
        }


def replay_log(store: EventStore, tournament: str | None = None,
               keep_events: bool = True) -> ReplayReport:
    """Fold and check every stream (or those of one tournament).

    A store is streamed (EventStore.reader): its events come through one cursor in stream
    and version order and are folded hand by hand as they come, so memory holds one hand, each
    table's final state and the events the checks across streams read, not the log (nor one
    stream). `keep_events=False` keeps of each table's events only those the checks across
    streams read (`handlog replay`); the audit report keeps them all."""
    replay = LogReplay(tournament, keep_events)
    reader = getattr(store, "reader", None)
    if reader is None:  # a snapshot read already (replay/report.py's LogSnapshot)
        heads, events = store.snapshot()
        by_stream: dict[str, list[StoredEvent]] = {}
        for event in events:
            by_stream.setdefault(event.stream_id, []).append(event)
        kinds = {h.stream_id: h for h in heads}
        for stream, stored in sorted(by_stream.items()):
            head = kinds.get(stream)
            if head is not None and head.kind == "tournament":
                replay.tournament_stream(stream, stored)
            elif head is not None and head.kind == "table":
                replay.table(head, stored)
        return replay.finish()
    with reader() as log:
        heads_by_id = log.heads()
        corrections = _corrections(log.of_types((EventVoided.TYPE, EventAmended.TYPE)))
        current: _StreamReplay | None = None
        tournament_events: list[StoredEvent] | None = None
        for stored in log.events():
            stream = stored.stream_id
            if current is not None and current.head.stream_id != stream:
                replay.take(*current.done())
                current = None
            if tournament_events is not None and tournament_events[0].stream_id != stream:
                replay.tournament_stream(tournament_events[0].stream_id, tournament_events)
                tournament_events = None
            if current is None and tournament_events is None:
                head = heads_by_id.get(stream)
                if head is None:
                    continue
                if head.kind == "table":
                    current = _StreamReplay(head, keep_events, *corrections.get(
                        stream, (set(), {})))
                elif head.kind == "tournament":
                    tournament_events = []
                else:
                    continue
            if current is not None:
                current.add(stored)
            elif tournament_events is not None:
                tournament_events.append(stored)
        if current is not None:
            replay.take(*current.done())
        if tournament_events is not None:
            replay.tournament_stream(tournament_events[0].stream_id, tournament_events)
    return replay.finish()


class LogReplay:
    """`replay_log` a stream at a time, for a reader of its own: the tournament streams and
    the table streams given whole (`tournament_stream`, `table`), then the checks across
    streams (`finish`). The audit report reads each table once this way and builds its pages
    from the same fold (replay/report_stream.py)."""

    def __init__(self, tournament: str | None = None, keep_events: bool = True) -> None:
        self.report = ReplayReport()
        self.across_streams: list[Finding] = []
        """The findings of `finish`: of moves, tournaments and events, not of one table."""
        self._tournament = tournament
        self._keep_events = keep_events
        self._tournaments: list[tuple[str, list[StoredEvent]]] = []
        self._moves: dict[str, dict[int, int]] = {}
        self._counted = 0
        self._started = time.perf_counter()

    def tournament_stream(self, stream: str, stored: list[StoredEvent]) -> None:
        self.report.events += len(stored)
        self._counted += 1
        if not self._tournament or stream in (self._tournament, f"tournament-{self._tournament}"):
            self._tournaments.append((stream, stored))

    def table(self, head: StreamHead, stored: list[StoredEvent]) -> TableFold | None:
        """Fold and check one table stream: its fold, every effective event kept (None when
        the table is not of the tournament asked for)."""
        fold = fold_table(head.stream_id, stored, verify=True)
        moved = {v for v, e in fold.effective
                 if isinstance(e, PlayerLeft | PlayerSeated) and e.reason == "moved"}
        kept = fold if self._keep_events else replace(fold, effective=tuple(
            (v, e) for v, e in fold.effective if isinstance(e, _ACROSS_STREAMS)))
        hands = sum(1 for _v, e in fold.effective if isinstance(e, HandStarted))
        positions = {e.version: e.position for e in stored if e.version in moved}
        return fold if self.take(head, len(stored), kept, hands, positions) else None

    def take(self, head: StreamHead, count: int, fold: TableFold, hands: int,
             moved: dict[int, int]) -> bool:
        """Count a table folded (False: it is not of the tournament asked for)."""
        report = self.report
        stream = head.stream_id
        if self._tournament and fold.state is not None and (
                fold.state.tournament != self._tournament):
            return False
        report.findings.extend(fold.findings)
        report.hands += hands
        report.events += count
        if fold.state is not None and fold.state.hand_in_progress:
            assert fold.state.hand is not None
            report.in_progress.append((stream, fold.state.hand.setup.hand_number))
        self._moves[stream] = moved
        report.tables[stream] = fold
        return True

    def finish(self) -> ReplayReport:
        """The checks across streams, once every stream is in: the report."""
        report, across = self.report, self.across_streams
        across.extend(_check_moves(report.tables, self._moves))
        for stream, stored_events in self._tournaments:
            across.extend(check_tournament(stream, stored_events, report.tables))
        if not self._tournament:
            # An event in flights and days: its logs checked together (replay.days_check).
            across.extend(event_findings(
                _folded(events) for _stream, events in self._tournaments))
        report.findings.extend(across)
        report.streams = len(report.tables) + self._counted
        report.seconds = time.perf_counter() - self._started
        return report


def _folded(stored: list[StoredEvent]) -> TournamentState:
    try:
        return fold_tournament(e.decode() for e in stored)
    except RuleViolation:
        # An unreadable tournament stream is check_tournament's finding already.
        return TournamentState("", Structure("", "tda", 1, 2, (), ()))


def _corrections(stored: list[StoredEvent]) -> dict[str, tuple[set[int], dict[int, Any]]]:
    """Per stream, the versions voided and the amended ones' replacements."""
    found: dict[str, tuple[set[int], dict[int, Any]]] = {}
    for event in stored:
        voided, amended = found.setdefault(event.stream_id, (set(), {}))
        decoded = event.decode()
        if isinstance(decoded, EventVoided):
            voided.update(decoded.versions)
        elif isinstance(decoded, EventAmended):
            amended[decoded.version] = decode_event(
                decoded.replacement_type, decoded.replacement_version,
                json.loads(decoded.replacement_payload))
    return found


class _StreamReplay:
    """One table stream folded as its events come (replay/fold.py's fold_table, hand by
    hand): the same state and findings, the effective events the same as effective_events'
    (the corrections are known before the stream is read)."""

    def __init__(self, head: StreamHead, keep_events: bool, voided: set[int],
                 amended: dict[int, Any]) -> None:
        self.head = head
        self._keep_all = keep_events
        self._voided = voided
        self._amended = amended
        self._folder = StreamFolder(head.stream_id)
        self._pending: list[tuple[int, Any]] = []
        self._kept: list[tuple[int, Any]] = []
        self._moved: dict[int, int] = {}
        self._hands = 0
        self._count = 0
        self._last = 0

    def add(self, stored: StoredEvent) -> None:
        self._count += 1
        self._last = stored.version
        event = stored.decode()
        if isinstance(event, EventVoided | EventAmended) or stored.version in self._voided:
            return
        event = self._amended.get(stored.version, event)
        if isinstance(event, HandStarted):
            self._hands += 1
            if self._pending:
                self._folder.feed(self._pending)
                self._pending = []
        item = (stored.version, event)
        self._pending.append(item)
        if self._keep_all or isinstance(event, _ACROSS_STREAMS):
            self._kept.append(item)
        if isinstance(event, PlayerLeft | PlayerSeated) and event.reason == "moved":
            self._moved[stored.version] = stored.position

    def done(self) -> tuple[StreamHead, int, TableFold, int, dict[int, int]]:
        if self._pending:
            self._folder.feed(self._pending)
            self._pending = []
        state, findings = self._folder.finish(self._last)
        fold = TableFold(self.head.stream_id, self._last, state, findings, tuple(self._kept),
                         frozenset(self._voided))
        return self.head, self._count, fold, self._hands, self._moved


# What the checks across streams read of a table's events (moves, eliminations, chips).
_ACROSS_STREAMS = (PlayerLeft, PlayerSeated, StackAdjusted, PotCarried)


def _check_moves(tables: dict[str, TableFold],
                 positions: dict[str, dict[int, int]]) -> list[Finding]:
    """A player moved between tables arrives with exactly the chips he left with."""
    left: dict[str, list[tuple[int, str, int, int]]] = {}
    arrived: dict[str, list[tuple[int, str, int, int]]] = {}
    for stream, fold in tables.items():
        for version, event in fold.effective:
            position = positions[stream].get(version, 0)
            if isinstance(event, PlayerLeft) and event.reason == "moved":
                left.setdefault(event.player, []).append(
                    (position, stream, version, event.stack))
            elif isinstance(event, PlayerSeated) and event.reason == "moved":
                arrived.setdefault(event.player, []).append(
                    (position, stream, version, event.stack))
    for moves in (*left.values(), *arrived.values()):
        moves.sort()
    findings = []
    for player, arrivals in arrived.items():
        departures = left.get(player, [])
        for index, (_p, stream, version, stack) in enumerate(arrivals):
            if index >= len(departures):
                findings.append(Finding(stream, version, "player_seated", "stacks-carry-over",
                                        f"{player} arrives as moved but left no table"))
                continue
            _q, source, _v, chips = departures[index]
            if chips != stack:
                findings.append(Finding(
                    stream, version, "player_seated", "stacks-carry-over",
                    f"{player} left {source} with {chips} chips and arrived with {stack}",
                    str(chips), str(stack),
                ))
    return findings


def table_chip_changes(fold: TableFold) -> int:
    """Chips added to (+) or removed from (-) a table outside its hands."""
    total = 0
    for _v, event in fold.effective:
        if isinstance(event, PlayerSeated):
            total += event.stack
        elif isinstance(event, PlayerLeft):
            total -= event.stack
        elif isinstance(event, StackAdjusted):
            total += event.amount
    return total
