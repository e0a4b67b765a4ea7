"""The floor's side of the API: the tournaments a room runs, as the floor page shows them, and
the director's tournament commands (through recorder.tournament_service).

A table opened by a tournament plays at the tournament's stakes; its players are shown by
their names; after a hand, players left without chips are eliminated with their places.
"""

from __future__ import annotations

import contextlib
import heapq
import random
import threading
import uuid
from collections import OrderedDict, deque
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from handlog.engine import words
from handlog.engine.breaking import table_to_break
from handlog.engine.clock import level_clock
from handlog.engine.deals import deal_open
from handlog.engine.entries import offered
from handlog.engine.errors import RuleViolation
from handlog.engine.hand_for_hand import round_status
from handlog.engine.money import high_hand_proposal, money_block
from handlog.engine.profiles import get_profile, parameter_scopes
from handlog.engine.seating import needs_balancing, table_counts
from handlog.engine.structure import payouts_for, satellite_seats
from handlog.engine.table import Level
from handlog.engine.tournament import late_entry_open, stakes, start_level
from handlog.engine.tournament_commands import TournamentCommand
from handlog.engine.tournament_events import (
    ChipsColoredUp,
    PlayerEliminated,
    PlayerMoved,
    RulingRecorded,
)
from handlog.engine.tournament_state import Entrant, TournamentState
from handlog.recorder.service import Actor, Recorder
from handlog.recorder.tournament_service import (
    Tournaments,
    table_stream,
    tournament_stream,
)
from handlog.recorder.views import NO_NAMES
from handlog.replay.fold import TableFold
from handlog.replay.report import chip_count_rows
from handlog.schema.store import StoredEvent


@dataclass(frozen=True)
class HandContext:
    """What the next hand at a table plays at, or why none may start now."""

    level: Level | None
    final_table: bool = False
    blocked: RuleViolation | None = None
    penalized: tuple[str, ...] = ()  # players serving a penalty: dealt in, hand killed


@dataclass(frozen=True)
class _ViewLog:
    """What the floor view lists from the tournament's events (moves, eliminations,
    color-ups, rulings, the clock), extended with each new event, never rebuilt."""

    moves: tuple[dict[str, Any], ...] = ()
    out: tuple[dict[str, Any], ...] = ()
    color_ups: tuple[dict[str, Any], ...] = ()
    rulings: tuple[dict[str, Any], ...] = ()
    clock: Any = None

    def extend(self, state: TournamentState, stored: Sequence[StoredEvent],
               names: dict[str, str]) -> _ViewLog:
        moves, out, color_ups, rulings = [], [], [], []
        timed = []
        for item in stored:
            event = item.decode()
            timed.append((_epoch_ms(item.recorded_at), event))
            if isinstance(event, PlayerMoved):
                moves.append({"player": event.player,
                              "name": names.get(event.player, event.player),
                              "from_table": event.from_table, "from_seat": event.from_seat,
                              "to_table": event.to_table, "to_seat": event.to_seat,
                              "stack": event.stack, "reason": words.reason(event.reason),
                              "rule": words.rule_words(event.rule), "at": _at(item)})
            elif isinstance(event, PlayerEliminated):
                out.append({"player": event.player,
                            "name": names.get(event.player, event.player),
                            "place": event.place, "table": event.table,
                            "hand": event.hand_number, "rule": words.rule_words(event.rule),
                            "at": _at(item)})
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
                                "by": event.by, "stream": event.stream,
                                "version": event.version, "at": _at(item)})
        clock = level_clock(timed, dict(self.clock) if self.clock is not None else None)
        return _ViewLog(self.moves + tuple(moves), self.out + tuple(out),
                        self.color_ups + tuple(color_ups), self.rulings + tuple(rulings), clock)


_LISTED = frozenset((PlayerMoved.TYPE, PlayerEliminated.TYPE, ChipsColoredUp.TYPE))

LIST_LIMIT = 500
"""Rows of each player list (`players`, `unseated`) a floor answer carries, in the lists'
order; `players_count` and `unseated_count` say how many there are (a floor answer does not
grow with the field)."""
LOG_LIMIT = 200
"""Rows of each of the view's logs (eliminations, moves, color-ups, rulings) a floor answer
carries, newest first; `*_count` says how many there are."""
HEADS_KEPT = 64
"""Views (without the player lists) kept per tournament: the bases deltas are taken from."""
CHANGES_KEPT = 1024
"""Versions of a tournament whose player-row changes are kept: a delta against a view older
than that is answered with the whole view."""


def _offers(state: TournamentState) -> dict[str, bool]:
    """Which entries beyond the first are sold (the floor shows their buttons; the engine
    decides each one)."""
    return {k: v and not state.finished for k, v in offered(state.structure).items()}


def _days(state: TournamentState) -> dict[str, Any] | None:
    """An event in flights and days: this log's day, the stacks bagged, whether it has ended
    or (a next day) taken its players (the floor shows the bag, end-day and next-day forms;
    the engine decides each)."""
    days = state.structure.days
    if not days.event:
        return None
    return {"event": days.event, "day": days.day, "flight": days.flight,
            "bags": {b.player: {"bag": b.bag, "chips": b.chips} for b in state.bags},
            "ended": state.day_ended is not None,
            "started": state.day_started is not None,
            "sources": list(state.day_started.sources) if state.day_started else []}


def _row_key(row: dict[str, Any]) -> tuple[str, int, int]:
    return (row.get("table", ""), row.get("seat", 0), row["n"])


class _Rows:
    """The tournament's player lists as the floor shows them, kept row by row as its events
    land: each new state is compared with the one before entrant by entrant (an untouched
    entrant is the same object), so a registration changes one row, not 10,000. The players
    each version changed are kept (`since`: the rows changed after a version)."""

    def __init__(self, entrants: Sequence[Entrant], version: int) -> None:
        self.players: dict[str, dict[str, Any]] = {}
        self.unseated: dict[str, dict[str, Any]] = {}
        self.names: dict[str, str] = {}
        self._log: deque[tuple[int, tuple[str, ...]]] = deque()
        self._first = version  # the oldest version `since` can answer from
        self._take(enumerate(entrants))

    def _take(self, entries: Any) -> list[str]:
        changed = []
        for n, e in entries:
            changed.append(e.player)
            self.names[e.player] = e.name
            self.players.pop(e.player, None)
            self.unseated.pop(e.player, None)
            if not e.alive:
                continue
            if e.table:
                self.players[e.player] = {"player": e.player, "name": e.name,
                                          "table": e.table, "seat": e.seat, "n": n}
            else:
                self.unseated[e.player] = {"player": e.player, "name": e.name, "n": n}
        return changed

    def advance(self, before: Sequence[Entrant], after: Sequence[Entrant],
                version: int) -> None:
        count = len(before)
        changed = self._take((n, e) for n, e in enumerate(after)
                             if n >= count or before[n] is not e)
        self._log.append((version, tuple(changed)))
        while len(self._log) > CHANGES_KEPT:
            self._first = self._log.popleft()[0]

    def lists(self) -> dict[str, list[dict[str, Any]]]:
        """The first LIST_LIMIT rows of each list, ordered by table, seat and entry number."""
        return {"players": heapq.nsmallest(LIST_LIMIT, self.players.values(), key=_row_key),
                "unseated": heapq.nsmallest(LIST_LIMIT, self.unseated.values(),
                                            key=_row_key)}

    def since(self, base: int) -> dict[str, dict[str, Any]] | None:
        """Each list's rows changed after version `base` and the players it lost (None: that
        version is older than the changes kept)."""
        if base < self._first:
            return None
        touched = dict.fromkeys(p for v, players in self._log if v > base for p in players)
        result = {}
        for key, rows in (("players", self.players), ("unseated", self.unseated)):
            changed = sorted((rows[p] for p in touched if p in rows), key=_row_key)
            result[key] = {"changed": changed, "removed": [p for p in touched if p not in rows]}
        return result


@dataclass(frozen=True)
class _Read:
    state: TournamentState
    version: int
    log: _ViewLog
    rows: _Rows
    level: Level | None  # the stakes a table's card shows (None: no hand may start)


def _card_level(state: TournamentState) -> Level | None:
    if state.finished:
        return None
    try:
        return stakes(state)
    except RuleViolation:
        return None


class TournamentDesk:
    """The tournaments of one store, for the API: views, hand contexts, commands."""

    def __init__(self, recorder: Recorder) -> None:
        self.recorder = recorder
        self.tournaments = Tournaments(recorder)
        self.tournaments.follow(self._take)
        self._models: dict[str, _Read] = {}
        self._views: dict[str, tuple[Any, dict[str, Any]]] = {}
        self._heads: dict[str, OrderedDict[Any, dict[str, Any]]] = {}
        self._head_at: dict[tuple[str, int], Any] = {}
        self._lock = threading.Lock()

    def _take(self, tournament: str, before: TournamentState | None, state: TournamentState,
              stored: Sequence[StoredEvent], version: int) -> None:
        """The floor's read model of a tournament extended with the events its cache (in
        Tournaments) has taken in: rows changed entrant by entrant, the logs extended."""
        with self._lock:
            model = self._models.get(tournament)
            if model is not None and model.version >= version:
                return
            if model is None or before is None:
                rows = _Rows(state.entrants, version)
                log = _ViewLog().extend(state, stored, rows.names)
            else:
                rows = model.rows
                rows.advance(model.state.entrants, state.entrants, version)
                log = model.log.extend(state, [e for e in stored if e.version > model.version],
                                       rows.names)
            self._models[tournament] = _Read(state, version, log, rows, _card_level(state))

    def _read(self, tournament: str) -> _Read | None:
        """The tournament as the floor shows it, as of its stream's version as the recorder
        knows it (kept in memory: no query per table view)."""
        version = self.recorder.head_version(tournament_stream(tournament))
        if version == 0:
            return None
        self.tournaments.read_at(tournament, version)
        with self._lock:
            return self._models.get(tournament)

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
        if t.hand_for_hand is not None:
            try:
                self.tournaments.check_hand_start(state.tournament, state.table, t)
            except RuleViolation as violation:
                return HandContext(level, blocked=violation)
        penalized = tuple(sorted(self.tournaments.serving(state.tournament, t)))
        return HandContext(level, final_table=len(t.tables) == 1, penalized=penalized)

    def start_due(self, fold: TableFold, now: datetime) -> tuple[str, ...]:
        """What the tournament says is due at this table before its next hand, for
        engine.table.start_hold: "break" (the level's time is up and a break follows it, or
        the break is on), "level" (the level's time is up, or a break is over and the next
        level not started), "move" (this table breaks, or it is the fullest of tables out of
        balance). Nothing for a table outside any tournament."""
        state = fold.state
        if state is None or not state.tournament:
            return ()
        read = self._read(state.tournament)
        if read is None:
            return ()
        t = read.state
        clock = read.log.clock or {"kind": "none"}  # extended with each event (_ViewLog)
        due: list[str] = []
        over = (clock.get("kind") == "level" and not clock.get("paused")
                and clock.get("ends", 0) <= now.timestamp() * 1000)
        if t.on_break or (over and t.structure.break_after(t.level)
                          and t.level not in t.breaks_taken):
            due.append("break")
        elif over or clock.get("kind") == "due":
            due.append("level")
        plan = table_to_break(t)
        if plan is not None and plan.table == state.table:
            due.append("move")
        elif state.table in t.tables and needs_balancing(t):
            counts = table_counts(t)
            if counts.get(state.table) == max(counts.values()):
                due.append("move")
        return tuple(due)

    def open_tables(self, tournament: str) -> tuple[str, ...] | None:
        """The names of a tournament's tables in play now (None: no such tournament)."""
        read = self._read(tournament)
        return None if read is None else tuple(read.state.tables)

    def names(self, fold: TableFold) -> dict[str, str]:
        """Player id -> name at a tournament's table."""
        state = fold.state
        if state is None or not state.tournament:
            return NO_NAMES
        read = self._read(state.tournament)
        if read is None:
            return NO_NAMES
        return read.rows.names  # kept as entrants register: read it, never change it

    def settle(self, fold: TableFold, actor: Actor, event_id: uuid.UUID | None = None,
               retried: bool = False) -> list[str]:
        """After a hand: eliminate the players left without chips (places recorded). With the
        id of the command that ended the hand, a retry of that command finds (and completes)
        the eliminations it recorded instead of recording them again."""
        state = fold.state
        if state is None or not state.tournament or state.hand_in_progress:
            return []
        read = self._read(state.tournament)
        jackpot = read is not None and (bool(read.state.structure.money.high_hand_fee)
                                        or read.state.hand_for_hand is not None)
        if not retried and not jackpot and not any(s.stack == 0 for s in state.seats):
            return []
        out = self.tournaments.settle_hand(state.tournament, state.table, actor,
                                           event_id=event_id)
        return [e.player for e in out]

    # --- commands ---------------------------------------------------------------------------

    def run(self, tournament: str, command: TournamentCommand, actor: Actor,
            event_id: uuid.UUID | None = None, expected_version: int | None = None) -> bool:
        """Record one of the floor's tournament commands (`Tournaments.execute`); True when
        it was a retry of a command already recorded under `event_id`."""
        return self.tournaments.execute(tournament, command, actor, event_id, expected_version)

    # --- the floor view ---------------------------------------------------------------------

    def version(self, fold: TableFold) -> int:
        """The version of the tournament a table belongs to (0: none): what its floor
        summary depends on besides the table itself."""
        state = fold.state
        if state is None or not state.tournament:
            return 0
        return self.recorder.head_version(tournament_stream(state.tournament))

    def views(self, now: datetime, problems: list[dict[str, Any]] | None = None,
              tournaments: list[str] | None = None) -> list[dict[str, Any]]:
        """Every tournament at a glance; each view is built once per version of its stream
        and of who is serving a penalty (only the clock's `now` is fresh). One whose log
        cannot be folded is left out (and named in `problems`, when given) so that the floor
        still shows the others."""
        result = []
        if tournaments is None:  # (the floor gives them from the heads it read already)
            tournaments = self.tournaments.tournaments()
        for tournament in tournaments:
            view = self.view(tournament, now, problems)
            if view is not None:
                result.append(view)
        return result

    def view(self, tournament: str, now: datetime,
             problems: list[dict[str, Any]] | None = None) -> dict[str, Any] | None:
        """One tournament's view (see `views`); None when it cannot be shown."""
        try:
            read = self._read(tournament)
            if read is None:
                return None
            head = self._head(tournament, read)
            key = ("view", read.version)
            cached = self._views.get(tournament)
            if cached is None or cached[0] != key:
                with self._lock:
                    lists = read.rows.lists()
                cached = (key, head | lists)
                self._views[tournament] = cached
            return cached[1] | self._fresh(tournament, read, now)
        except (RuleViolation, KeyError, IndexError, ValueError, TypeError) as error:
            if problems is not None:
                rule = getattr(error, "rule", "log")
                problems.append({"tournament": tournament, "rule": rule,
                                 "rule_words": words.render_rule(rule),
                                 "message": f"this tournament cannot be shown: "
                                 f"{getattr(error, 'message', error)}"})
            return None

    def _fresh(self, tournament: str, read: _Read, now: datetime) -> dict[str, Any]:
        fresh: dict[str, Any] = {"now": _epoch_ms(now)}
        if read.state.hand_for_hand is not None:
            status = round_status(read.state, self.tournaments.progress(
                tournament, read.state))
            fresh["round"] = {"number": status.number, "complete": status.complete,
                              "waiting": list(status.waiting)}
        return fresh

    def _head(self, tournament: str, read: _Read) -> dict[str, Any]:
        """The view without its player lists, built once per version of the stream and of
        who is serving a penalty; the last few are kept (the base of a delta)."""
        serving = self.tournaments.serving(tournament, read.state)
        key = (read.version, tuple(sorted(serving.items())))
        with self._lock:
            heads = self._heads.setdefault(tournament, OrderedDict())
            head = heads.get(key)
        if head is None:
            head = tournament_view(tournament, read.state, read.version, read.log, serving,
                                   read.rows)
            with self._lock:
                heads[key] = head
                self._head_at[(tournament, read.version)] = key
                while len(heads) > HEADS_KEPT:
                    old, _ = heads.popitem(last=False)
                    self._head_at.pop((tournament, old[0]), None)
        return head

    def view_head(self, tournament: str) -> None:
        """Keep the view as it is now (the base of the delta a command will answer with)."""
        with contextlib.suppress(RuleViolation, KeyError, IndexError, ValueError, TypeError):
            read = self._read(tournament)
            if read is not None:
                self._head(tournament, read)

    def card_level(self, fold: TableFold) -> Level | None:
        """The stakes a tournament table's floor card shows (its cache key besides the
        table's version): the same for every table of a tournament, kept per version."""
        state = fold.state
        if state is None or not state.tournament:
            return None
        read = self._read(state.tournament)
        return None if read is None else read.level

    def kept(self, tournament: str) -> tuple[Level | None, dict[str, str]] | None:
        """The stakes and the names of a tournament as last read (None: not read yet), taken
        without waiting for a lock or reading the store (a table's append builds its floor
        card with them)."""
        read = self._models.get(tournament)
        return None if read is None else (read.level, read.rows.names)

    def level_of(self, tournament: str) -> Level | None:
        """`card_level` by the tournament's name ("": a table of no tournament)."""
        read = self._read(tournament) if tournament else None
        return None if read is None else read.level

    def tournament_version(self, tournament: str) -> int:
        return self.recorder.head_version(tournament_stream(tournament))

    def delta(self, tournament: str, base: int, now: datetime) -> dict[str, Any] | None:
        """What changed in the tournament's view since version `base` (a view the floor
        holds): the fields that differ, and the player lists row by row (`lists`: the rows
        changed and the players gone); `base` and `version` say from what to what. The
        whole view (with `base` 0) when `base` is older than the changes kept. None when the
        tournament cannot be shown."""
        try:
            read = self._read(tournament)
            if read is None:
                return None
            head = self._head(tournament, read)
            with self._lock:
                before_key = self._head_at.get((tournament, base))
                before = (self._heads.get(tournament, {}).get(before_key)
                          if before_key is not None else None)
                lists = read.rows.since(base) if before is not None else None
            fresh = self._fresh(tournament, read, now)
            if before is None or lists is None:
                view = self.view(tournament, now)
                return None if view is None else view | {"base": 0}
            fields = {k: v for k, v in head.items() if before.get(k) != v} | fresh
            if base != read.version:
                whole = None
                for key, change in lists.items():
                    if len(change["changed"]) + len(change["removed"]) > LIST_LIMIT:
                        # Most of the list changed (a seat draw): the list as it is now.
                        with self._lock:
                            whole = whole or read.rows.lists()
                        fields[key] = whole[key]
                    else:
                        fields.setdefault("lists", {})[key] = change
            return fields | {"id": tournament, "version": read.version, "base": base}
        except (RuleViolation, KeyError, IndexError, ValueError, TypeError):
            return None

    def table_versions(self, tournament: str) -> dict[str, int]:
        """The version of each of the tournament's tables in play (before a command: which
        tables it changed)."""
        tables = self.open_tables(tournament) or ()
        return {s: self.recorder.head_version(s)
                for s in (table_stream(tournament, t) for t in tables)}


def _at(stored: StoredEvent) -> str:
    return stored.recorded_at.isoformat()


def _epoch_ms(moment: datetime) -> int:
    return int(moment.timestamp() * 1000)


def tournament_view(tournament: str, state: TournamentState, version: int, log: _ViewLog,
                    serving: dict[str, int], rows: _Rows) -> dict[str, Any]:
    """The tournament at a glance without its player lists (`players` and `unseated` come
    from `rows`): clock, schedule, moves, eliminations, color-ups, rulings; every list newest
    first, the first LOG_LIMIT rows of each."""
    s = state.structure
    names = rows.names
    counts = chip_count_rows(state, names)
    clock = log.clock or {"kind": "none"}
    moves, out, color_ups, rulings = log.moves, log.out, log.color_ups, log.rulings
    try:
        start_level(state)
        next_step: dict[str, Any] = {"ok": True, "text": f"start level {state.level + 1}"}
    except RuleViolation as violation:
        next_step = {"ok": False} | violation.as_dict()
    remaining = len(rows.players) + len(rows.unseated)
    ledger = state.ledger
    schedule = [
        {"number": lv.number, "small_blind": lv.small_blind, "big_blind": lv.big_blind,
         "ante": lv.ante, "minutes": lv.minutes, "current": lv.number == state.level,
         "break_after": (b.minutes if (b := s.break_after(lv.number)) else 0)}
        for lv in s.levels if state.level - 1 <= lv.number <= state.level + 3
    ]
    pool = state.prize_pool
    prizes = []
    if state.prizes is not None:
        won: list[tuple[int, str, int, str]] = sorted(
            [(a.place, names.get(a.player, a.player), a.amount, "")
             for a in state.prizes.awards]
            + [(x.place, names.get(x.player, x.player), x.value, x.target)
               for x in state.prizes.seats])
        prizes = [{"place": place, "name": name, "amount": amount, "seat": seat}
                  for place, name, amount, seat in won]
    return {
        "id": tournament,
        "stream": tournament_stream(tournament),
        "version": version,
        "name": s.name,
        "profile": s.profile,
        "level": state.level,
        "on_break": state.on_break,
        "finished": state.finished,
        "winner": names.get(state.winner, state.winner),
        "stakes": _stakes(state),
        "clock": clock,
        "next": next_step,
        "schedule": schedule,
        "entries": len(state.entrants),
        "remaining": remaining,
        "chip_total": ledger.total,
        "average_stack": ledger.total // remaining if remaining else 0,
        "chip_unit": state.chip_unit,
        "registration_open": late_entry_open(state),
        "offers": _offers(state),
        "days": _days(state),
        # `players` and `unseated` (rows.lists): the first LIST_LIMIT rows of each, ordered
        # by table, seat and `n`, the entry's number (registration order).
        "players_count": len(rows.players),
        "unseated_count": len(rows.unseated),
        "list_limit": LIST_LIMIT,
        "tables": list(state.tables),
        "table_streams": {t: table_stream(tournament, t) for t in state.tables},
        "needs_balancing": needs_balancing(state) if state.tables else False,
        "table_break": _table_break(state),
        "tables_needed": max(1, -(-remaining // s.seats_per_table)),
        "upcoming": _upcoming(state),
        "money": money_block(state).as_dict(),
        "jackpot": bool(s.money.high_hand_fee),
        "readings": _readings(s.profile),
        "bounties_referred": [
            {"player": b.player, "name": names.get(b.player, b.player), "code": b.code,
             "table": b.table, "hand": b.hand_number,
             "proposal": [{"player": p, "name": names.get(p, p)} for p in b.proposal]}
            for b in state.bounties_referred],
        "high_hand": _high_hand(state, names),
        "penalties": [{"player": p.player, "name": names.get(p.player, p.player),
                       "penalty": p.penalty, "hands": p.hands, "rule": p.rule,
                       "reason": p.text, "by": p.by} for p in state.penalties][::-1],
        "serving": [{"player": p, "name": names.get(p, p), "hands_left": n}
                    for p, n in sorted(serving.items())],
        "deals_allowed": deal_open(state),
        "deal": None if state.deal is None else {
            "method": state.deal.method, "kept": state.deal.kept,
            "shares": [{"name": names.get(x.player, x.player), "stack": x.stack,
                        "amount": x.amount, "consent": x.consent} for x in state.deal.shares]},
        "chip_counts": {
            "open": counts["open"],
            "corrections": counts["corrections"][::-1],  # the newest first
            "counted_tables": sorted({c.table for c in state.counts
                                      if c.level == state.level}),
        },
        "hand_for_hand": state.hand_for_hand is not None,
        # Places are given from the last up: the lowest places are the newest.
        "eliminations": heapq.nsmallest(LOG_LIMIT, out, key=lambda e: e["place"]),
        "eliminations_count": len(out),
        "moves": list(moves[:-LOG_LIMIT - 1:-1]),
        "moves_count": len(moves),
        "color_ups": list(color_ups[:-LOG_LIMIT - 1:-1]),
        "rulings": list(rulings[:-LOG_LIMIT - 1:-1]),
        "rulings_count": len(rulings),
        "prizes": prizes,
        "currency": s.money.currency,
        # The prize pool and what each place pays for the field as it stands (the clock
        # screen shows them; the prizes above are what was awarded).
        "prize_pool": pool,
        "payouts": _payouts(state, pool),
        # A satellite's first places are seats (the clock screen says so).
        "payout_seats": satellite_seats(s, len(state.entrants), pool)[0],
        "seat_target": s.satellite.target,
        "message": state.message,
    }


def _upcoming(state: TournamentState) -> dict[str, Any]:
    """The next level's stakes and the level the next break comes after."""
    s = state.structure
    nxt = next((lv for lv in s.levels if lv.number == state.level + 1), None)
    level = None if nxt is None else {"number": nxt.number, "small_blind": nxt.small_blind,
                                       "big_blind": nxt.big_blind, "ante": nxt.ante,
                                       "minutes": nxt.minutes}
    after = next((lv.number for lv in s.levels if lv.number >= max(state.level, 1)
                  and s.break_after(lv.number) and lv.number not in state.breaks_taken), 0)
    return {"level": level, "break_after": after}


def _payouts(state: TournamentState, pool: int) -> list[int]:
    """What each place pays for the field as it stands; none while the payout table has no
    line for a field this small (or there is no pool)."""
    try:
        return list(payouts_for(state.structure, len(state.entrants), pool)) if pool else []
    except RuleViolation:
        return []


def _high_hand(state: TournamentState, names: dict[str, str]) -> dict[str, Any] | None:
    """The high-hand board: the best hand shown so far and, once confirmed, the award."""
    if not state.structure.money.high_hand_fee:
        return None
    players, cards = high_hand_proposal(state)
    awarded = state.high_hand
    # Every entrant with his fee (a jackpot is a small event's): the director corrects a fee
    # and names the holders from it when no flush was shown.
    return {"players": [{"player": p, "name": names.get(p, p)} for p in players],
            "cards": cards, "awarded": awarded is not None,
            "fees": [{"player": e.player, "name": e.name, "paid": e.high_hand,
                      "alive": e.alive} for e in state.entrants],
            "shares": [{"name": names.get(x.player, x.player), "amount": x.amount}
                       for x in awarded.shares] if awarded else []}


def _readings(profile_ref: str) -> list[dict[str, Any]]:
    """The readings in force (every parameter of the tournament's profile, the tournament's
    own first): each value, who applies it (hand, table, tournament) and the sentence it rests
    on, shown on the floor."""
    try:
        profile = get_profile(profile_ref)
    except KeyError:
        return []
    scopes = parameter_scopes()
    rows = [{"name": name, "scope": scopes[name],
             "value": value if isinstance(value, (bool, int, str)) else str(value),
             "citation": citation}
            for name, value, _meaning, citation in profile.parameters()]
    return sorted(rows, key=lambda r: r["scope"] != "tournament")


def _table_break(state: TournamentState) -> dict[str, Any] | None:
    """The break the engine says is due now: one action on the floor."""
    plan = table_to_break(state)
    if plan is None:
        return None
    return {"table": plan.table, "to_tables": list(plan.to_tables), "label": plan.label,
            "final_table": plan.final_table, "seating": plan.seating, "redraw": plan.redraw,
            "rule": plan.rule}


def _stakes(state: TournamentState) -> dict[str, Any] | None:
    level = state.stakes
    if level is None:
        return None
    return {"number": level.number, "small_blind": level.small_blind,
            "big_blind": level.big_blind, "ante": level.ante, "ante_kind": level.ante_kind,
            "chip_unit": level.chip_unit, "denominations": list(level.denominations)}


# --- a demo for `handlog serve` on an empty database ---------------------------------------


DEMO_DIRECTOR = Actor("director", "director", "serve")


def setup_demo(recorder: Recorder, players: int = 16, tables: int = 2, seed: int = 11) -> str:
    """A demo tournament ready to play: players registered, seats drawn, level 1 running."""
    from handlog.recorder.demo import DEMO_STRUCTURE, player_name
    from handlog.recorder.structure import load_structure

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
