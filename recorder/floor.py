"""The floor's side of the API: the tournaments a room runs, as the floor page shows them, and
the director's tournament commands (through recorder.tournament_service).

A table opened by a tournament plays at the tournament's stakes; its players are shown by
their names; after a hand, players left without chips are eliminated with their places.
"""

from __future__ import annotations

import random
import threading
import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from engine import words
from engine.errors import RuleViolation
from engine.seating import needs_balancing
from engine.table import Level
from engine.tournament import late_entry_open, stakes, start_level
from engine.tournament_events import (
    BreakEnded,
    BreakStarted,
    ChipsColoredUp,
    LevelStarted,
    PlayerEliminated,
    PlayerMoved,
    RulingRecorded,
)
from engine.tournament_state import TournamentState, fold_tournament
from recorder import wire
from recorder.service import Actor, Recorder
from recorder.tournament_service import Tournaments, table_stream, tournament_stream
from replay.fold import TableFold
from schema.errors import ConcurrencyConflict
from schema.store import StoredEvent


@dataclass(frozen=True)
class HandContext:
    """What the next hand at a table plays at, or why none may start now."""

    level: Level | None
    final_table: bool = False
    blocked: RuleViolation | None = None


@dataclass
class _Read:
    state: TournamentState
    stored: list[StoredEvent]


class TournamentDesk:
    """The tournaments of one store, for the API: views, hand contexts, commands."""

    def __init__(self, recorder: Recorder) -> None:
        self.recorder = recorder
        self.tournaments = Tournaments(recorder)
        self._cache: dict[str, _Read] = {}
        self._lock = threading.Lock()

    def _read(self, tournament: str) -> _Read | None:
        """The tournament's state, folded again only when its stream has grown."""
        stream = tournament_stream(tournament)
        head = self.recorder.store.head(stream)
        if head is None:
            return None
        with self._lock:
            cached = self._cache.get(tournament)
            if cached is not None and cached.stored and cached.stored[-1].version == head.version:
                return cached
            stored = self.recorder.events(stream)
            read = _Read(fold_tournament(e.decode() for e in stored), stored)
            self._cache[tournament] = read
            return read

    # --- tables -----------------------------------------------------------------------------

    def hand_context(self, fold: TableFold) -> HandContext | None:
        """None for a table that belongs to no tournament."""
        state = fold.state
        if state is None or not state.tournament:
            return None
        read = self._read(state.tournament)
        if read is None:
            return None
        t = read.state
        if t.finished:
            return HandContext(None, blocked=RuleViolation(
                "tournament", "the tournament is over"))
        try:
            level = stakes(t)
        except RuleViolation as violation:
            return HandContext(None, blocked=violation)
        if t.on_break:
            return HandContext(level, blocked=RuleViolation(
                "schedule", f"the break after level {t.level} is on: no hand until the "
                "director ends it", ("wait for the end of the break",)))
        return HandContext(level, final_table=len(t.tables) == 1)

    def open_tables(self, tournament: str) -> tuple[str, ...] | None:
        """The names of a tournament's tables in play now (None: no such tournament)."""
        read = self._read(tournament)
        return None if read is None else tuple(read.state.tables)

    def names(self, fold: TableFold) -> dict[str, str]:
        """Player id -> name at a tournament's table."""
        state = fold.state
        if state is None or not state.tournament:
            return {}
        read = self._read(state.tournament)
        if read is None:
            return {}
        return {e.player: e.name for e in read.state.entrants}

    def settle(self, fold: TableFold, actor: Actor, event_id: uuid.UUID | None = None,
               retried: bool = False) -> list[str]:
        """After a hand: eliminate the players left without chips (places recorded). With the
        id of the command that ended the hand, a retry of that command finds (and completes)
        the eliminations it recorded instead of recording them again."""
        state = fold.state
        if state is None or not state.tournament or state.hand_in_progress:
            return []
        if not retried and not any(s.stack == 0 for s in state.seats):
            return []
        out = self.tournaments.settle_hand(state.tournament, state.table, actor,
                                           event_id=event_id)
        return [e.player for e in out]

    # --- commands ---------------------------------------------------------------------------

    def run(self, tournament: str, command: Any, actor: Actor,
            event_id: uuid.UUID | None = None, expected_version: int | None = None) -> bool:
        """Record one of the floor's tournament commands (wire.TournamentCommandIn); True when
        it was a retry of a command already recorded under `event_id` (nothing new written).
        `expected_version`: the tournament stream's version the floor saw (else: now)."""
        t = self.tournaments
        if self._read(tournament) is None:
            raise RuleViolation("tournament", f"no tournament {tournament!r}")
        c = command
        ids: dict[str, Any] = {"event_id": event_id, "expected_version": expected_version}
        if isinstance(c, wire.RegisterIn):
            return t.register(tournament, c.name, actor, **ids)[1].retried
        if isinstance(c, wire.DrawSeatsIn):
            return t.draw_seats(tournament, c.tables, c.seed, actor, **ids).retried
        if isinstance(c, wire.StartLevelIn):
            return t.start_level(tournament, actor, c.ruling, **ids).retried
        if isinstance(c, wire.StartBreakIn):
            return t.start_break(tournament, actor, c.minutes, **ids).retried
        if isinstance(c, wire.EndBreakIn):
            return t.end_break(tournament, actor, **ids).retried
        if isinstance(c, wire.ColorUpIn):
            return t.color_up(tournament, actor, **ids).retried
        if isinstance(c, wire.MoveIn):
            return t.move(tournament, c.player, c.to_table, actor, c.to_seat, c.reason, c.rule,
                          **ids).retried
        if isinstance(c, wire.BalanceIn):
            moves = t.balance(tournament, actor, **ids)
            if not moves:
                raise RuleViolation("balancing", "no move is due (or a hand is in progress at "
                                    "a table that would move)")
            return moves[0].retried
        if isinstance(c, wire.RulingIn):
            return t.ruling(tournament, c.rule, c.text, actor, c.stream, c.version,
                            **ids).retried
        if isinstance(c, wire.SettleIn):
            if expected_version is not None and expected_version != t.version(tournament):
                raise ConcurrencyConflict(tournament_stream(tournament), expected_version,
                                          t.version(tournament))
            fold = self.recorder.table(table_stream(tournament, c.table))
            if fold.state is None:
                raise RuleViolation("tables", f"no table {c.table} in {tournament}")
            self.settle(fold, actor, event_id, retried=event_id is not None)
            return False
        raise RuleViolation("command", f"unknown tournament command {c!r}")  # pragma: no cover

    # --- the floor view ---------------------------------------------------------------------

    def views(self, now: datetime,
              problems: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
        """Every tournament's view; one whose log cannot be folded is left out (and named in
        `problems`, when given) so that the floor still shows the others."""
        result = []
        for tournament in self.tournaments.tournaments():
            try:
                read = self._read(tournament)
                if read is not None:
                    result.append(tournament_view(tournament, read.state, read.stored, now))
            except (RuleViolation, KeyError, IndexError, ValueError, TypeError) as error:
                if problems is not None:
                    problems.append({"tournament": tournament, "rule": getattr(
                        error, "rule", "log"), "message": f"this tournament cannot be shown: "
                        f"{getattr(error, 'message', error)}"})
        return result


def _at(stored: StoredEvent) -> str:
    return stored.recorded_at.isoformat()


def _epoch_ms(moment: datetime) -> int:
    return int(moment.timestamp() * 1000)


def tournament_view(tournament: str, state: TournamentState, stored: list[StoredEvent],
                    now: datetime) -> dict[str, Any]:
    """The tournament at a glance: clock, schedule, players, moves, eliminations, color-ups,
    rulings; every list newest first."""
    s = state.structure
    names = {e.player: e.name for e in state.entrants}
    clock: dict[str, Any] = {"kind": "none"}
    moves: list[dict[str, Any]] = []
    out: list[dict[str, Any]] = []
    color_ups: list[dict[str, Any]] = []
    rulings: list[dict[str, Any]] = []
    for item in stored:
        event = item.decode()
        if isinstance(event, LevelStarted):
            clock = {"kind": "level", "label": f"Level {event.level}", "minutes": event.minutes,
                     "started": _epoch_ms(item.recorded_at),
                     "ends": _epoch_ms(item.recorded_at) + event.minutes * 60_000}
        elif isinstance(event, BreakStarted):
            clock = {"kind": "break", "label": f"Break after level {event.after_level}",
                     "minutes": event.minutes, "started": _epoch_ms(item.recorded_at),
                     "ends": _epoch_ms(item.recorded_at) + event.minutes * 60_000}
        elif isinstance(event, BreakEnded):
            clock = {"kind": "due", "label": f"Break over: start level {event.after_level + 1}"}
        elif isinstance(event, PlayerMoved):
            moves.append({"player": event.player, "name": names.get(event.player, event.player),
                          "from_table": event.from_table, "from_seat": event.from_seat,
                          "to_table": event.to_table, "to_seat": event.to_seat,
                          "stack": event.stack, "reason": words.reason(event.reason),
                          "rule": words.rule_words(event.rule),
                          "at": _at(item)})
        elif isinstance(event, PlayerEliminated):
            out.append({"player": event.player, "name": names.get(event.player, event.player),
                        "place": event.place, "table": event.table, "hand": event.hand_number,
                        "rule": words.rule_words(event.rule), "at": _at(item)})
        elif isinstance(event, ChipsColoredUp):
            color_ups.append({
                "after_level": event.after_level, "colours": list(event.colours),
                "old_unit": event.old_unit, "new_unit": event.new_unit,
                "method": event.method, "removed": event.removed,
                "rule": words.rule_words(event.rule),
                "changes": [{"name": names.get(a.player, a.player), "amount": a.amount,
                             "reason": words.reason(a.reason)}
                            for a in event.adjustments if a.amount],
                "at": _at(item)})
        elif isinstance(event, RulingRecorded):
            rulings.append({"rule": words.rule_words(event.rule), "text": event.text,
                            "by": event.by,
                            "stream": event.stream, "version": event.version, "at": _at(item)})
    try:
        start_level(state)
        next_step: dict[str, Any] = {"ok": True, "text": f"start level {state.level + 1}"}
    except RuleViolation as violation:
        next_step = {"ok": False} | violation.as_dict()
    remaining = state.remaining
    ledger = state.ledger
    schedule = [
        {"number": lv.number, "small_blind": lv.small_blind, "big_blind": lv.big_blind,
         "ante": lv.ante, "minutes": lv.minutes, "current": lv.number == state.level,
         "break_after": (b.minutes if (b := s.break_after(lv.number)) else 0)}
        for lv in s.levels if state.level - 1 <= lv.number <= state.level + 3
    ]
    prizes = []
    if state.prizes is not None:
        prizes = [{"place": a.place, "name": names.get(a.player, a.player), "amount": a.amount}
                  for a in state.prizes.awards]
    return {
        "id": tournament,
        "stream": tournament_stream(tournament),
        "version": stored[-1].version if stored else 0,
        "name": s.name,
        "profile": s.profile,
        "level": state.level,
        "on_break": state.on_break,
        "finished": state.finished,
        "winner": names.get(state.winner, state.winner),
        "stakes": _stakes(state),
        "clock": clock,
        "now": _epoch_ms(now),
        "next": next_step,
        "schedule": schedule,
        "entries": len(state.entrants),
        "remaining": len(remaining),
        "chip_total": ledger.total,
        "average_stack": ledger.total // len(remaining) if remaining else 0,
        "chip_unit": state.chip_unit,
        "registration_open": late_entry_open(state),
        "unseated": [{"player": e.player, "name": e.name} for e in remaining if not e.table],
        "players": [{"player": e.player, "name": e.name, "table": e.table, "seat": e.seat}
                    for e in sorted(remaining, key=lambda e: (e.table, e.seat))],
        "tables": list(state.tables),
        "table_streams": {t: table_stream(tournament, t) for t in state.tables},
        "needs_balancing": needs_balancing(state) if state.tables else False,
        "eliminations": sorted(out, key=lambda e: e["place"]),
        "moves": moves[::-1],
        "color_ups": color_ups[::-1],
        "rulings": rulings[::-1],
        "prizes": prizes,
        "currency": s.money.currency,
    }


def _stakes(state: TournamentState) -> dict[str, Any] | None:
    level = state.stakes
    if level is None:
        return None
    return {"number": level.number, "small_blind": level.small_blind,
            "big_blind": level.big_blind, "ante": level.ante, "ante_kind": level.ante_kind,
            "chip_unit": level.chip_unit}


# --- a demo for `handlog serve` on an empty database ---------------------------------------


DEMO_DIRECTOR = Actor("director", "director", "serve")


def setup_demo(recorder: Recorder, players: int = 16, tables: int = 2, seed: int = 11) -> str:
    """A demo tournament ready to play: players registered, seats drawn, level 1 running."""
    from recorder.demo import DEMO_STRUCTURE, player_name
    from recorder.structure import load_structure

    t = Tournaments(recorder)
    name = "demo"
    existing = set(t.tournaments())
    suffix = 2
    while name in existing:
        name = f"demo-{suffix}"
        suffix += 1
    t.create(name, load_structure(DEMO_STRUCTURE), DEMO_DIRECTOR)
    order = list(range(players))
    random.Random(seed).shuffle(order)
    for index in order:
        t.register(name, player_name(index), DEMO_DIRECTOR)
    t.draw_seats(name, tables, seed, DEMO_DIRECTOR)
    t.start_level(name, DEMO_DIRECTOR)
    return name
