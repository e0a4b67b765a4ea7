"""Replay of the whole log: every stream folded through the engine, every event checked.

Table streams are checked event by event (replay/fold.py). Across streams: a player who leaves
one table for another arrives with the chips he left with; the tournament's chip total stays
constant except for recorded removals; every elimination at a table is recorded by the
tournament and the other way round.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from engine.events import HandStarted, PlayerLeft, PlayerSeated, StackAdjusted
from replay.fold import OTHER_RULES, Finding, TableFold, fold_table
from replay.tournament_check import check_tournament
from schema.store import EventStore, StoredEvent


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


def replay_log(store: EventStore, tournament: str | None = None) -> ReplayReport:
    """Fold and check every stream (or those of one tournament)."""
    started = time.perf_counter()
    report = ReplayReport()
    heads, events = store.snapshot()
    by_stream: dict[str, list[StoredEvent]] = {}
    for event in events:
        by_stream.setdefault(event.stream_id, []).append(event)
    kinds = {h.stream_id: h.kind for h in heads}
    for stream, stored in sorted(by_stream.items()):
        if kinds.get(stream) != "table":
            continue
        fold = fold_table(stream, stored, verify=True)
        if tournament and fold.state is not None and fold.state.tournament != tournament:
            continue
        report.tables[stream] = fold
        report.findings.extend(fold.findings)
        report.hands += sum(1 for _v, e in fold.effective if isinstance(e, HandStarted))
        if fold.state is not None and fold.state.hand_in_progress:
            assert fold.state.hand is not None
            report.in_progress.append((stream, fold.state.hand.setup.hand_number))
    positions = {
        stream: {e.version: e.position for e in stored} for stream, stored in by_stream.items()
    }
    report.findings.extend(_check_moves(report.tables, positions))
    for stream, stored in sorted(by_stream.items()):
        if kinds.get(stream) != "tournament":
            continue
        if tournament and stream != tournament and stream != f"tournament-{tournament}":
            continue
        report.findings.extend(check_tournament(stream, stored, report.tables))
    report.streams = len(report.tables) + sum(
        1 for s in by_stream if kinds.get(s) == "tournament"
    )
    report.events = sum(len(v) for k, v in by_stream.items()
                        if k in report.tables or kinds.get(k) == "tournament")
    report.seconds = time.perf_counter() - started
    return report


def _check_moves(tables: dict[str, TableFold],
                 positions: dict[str, dict[int, int]]) -> list[Finding]:
    """A player moved between tables arrives with exactly the chips he left with."""
    left: dict[str, list[tuple[int, str, int, int]]] = {}
    arrived: dict[str, list[tuple[int, str, int, int]]] = {}
    for stream, fold in tables.items():
        for version, event in fold.effective:
            position = positions[stream][version]
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
                findings.append(Finding(stream, version, "player_seated", "stacks carry over",
                                        f"{player} arrives as moved but left no table"))
                continue
            _q, source, _v, chips = departures[index]
            if chips != stack:
                findings.append(Finding(
                    stream, version, "player_seated", "stacks carry over",
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
