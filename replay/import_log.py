"""`handlog import --into-log`: the verified hands of other systems' hand histories recorded
as imported table streams, so that they replay, report and export like recorded ones.

One table stream per file read (`import-<file>-<digest of its path>`). Each hand in it is
marked by a `hand_imported` event (the file, the hand's id there, its format), then the table
is set as that hand found it (everyone of the last hand leaves, the hand's players sit down
in seats 1.. with their starting stacks, the button is placed on the last seat: PHH's order),
then the hand as the engine decides it from the recorded actions (a ruling the file gives
as a fact, `_killed`, as that ruling; a kill out of turn where the table took it; a declared
misdeal before the hand, `_misdeals`, as that deal). Before anything is written,
each hand is folded exactly as `handlog replay` folds it; a hand that does not replay cleanly
(or was not verified) is not recorded, and the reason is given.
"""

from __future__ import annotations

import hashlib
import heapq
import os
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from handlog.engine.commands import AwardPots, Command, DealHole, DeclareMisdeal
from handlog.engine.errors import RuleViolation
from handlog.engine.events import HandKilled, HandStarted
from handlog.engine.hand import begin, decide
from handlog.engine.hand_start import hand_started_event
from handlog.engine.hand_state import HandSetup
from handlog.engine.limits import check_name
from handlog.engine.structure import BlindLevel, Money, Structure
from handlog.engine.table import (
    MAX_SEATS,
    TableState,
    apply_table,
    open_table,
    plan_hand,
    table_opened,
)
from handlog.engine.table_events import (
    ButtonPlaced,
    HandImported,
    PlayerLeft,
    PlayerSeated,
    PotCarried,
    SeatAbsenceChanged,
    StackAdjusted,
)
from handlog.engine.tournament_events import (
    BountyAward,
    ChipAdjustment,
    ChipsColoredUp,
    PlayerEliminated,
    PlayerRegistered,
    PotCarry,
    PrizeAward,
    PrizesAwarded,
    TournamentCreated,
    TournamentFinished,
)
from handlog.engine.words import render_rule
from handlog.replay.fold import command_for as command_of
from handlog.replay.fold import fold_effective, level_of
from handlog.replay.phh import PhhEntry, PhhHand, TournamentFacts
from handlog.replay.phh_verify import HandResult, command_for, hand_commands, setup_for
from handlog.schema.codec import decode_event, encode_event

IMPORTED = "imported"  # the reason code of the seats and the button an import sets


@dataclass(frozen=True)
class NotRecorded:
    """A hand left out of the log, and why."""

    file: str
    hand: str
    status: str
    reason: str

    def as_dict(self) -> dict[str, str]:
        return {"file": self.file, "hand": self.hand, "status": self.status,
                "reason": self.reason}


@dataclass
class _Tournament:
    """What the recorded hands of one tournament say of it, gathered hand by hand."""

    facts: TournamentFacts
    profile: str
    seats_per_table: int = 0
    stacks: dict[str, int] = field(default_factory=dict)  # each player's first stack seen
    levels: dict[int, BlindLevel] = field(default_factory=dict)
    out: list[PlayerEliminated] = field(default_factory=list)
    prizes: list[PrizeAward] = field(default_factory=list)
    winner: str = ""
    color_ups: list[ChipsColoredUp] = field(default_factory=list)
    mixed: bool = False  # hands of two tournaments of one name (two logs' numbers): not rebuilt

    def events(self, tournament: str) -> list[Any]:
        """The tournament's stream: created with the buy-in and the levels its hands were
        played at, each player registered, out at his place, the winner, the prizes."""
        facts = self.facts
        money = Money(facts.currency, facts.pool + facts.bounty + facts.fee, facts.pool,
                      facts.bounty)
        starting = self.starting_stack()
        structure = Structure(facts.name or tournament, self.profile, starting,
                              self.seats_per_table, (), tuple(
                                  self.levels[n] for n in sorted(self.levels)), money=money)
        events: list[Any] = [TournamentCreated(tournament, structure, facts.number,
                                               facts.started_at)]
        events.extend(PlayerRegistered(p, p, False, 0, starting) for p in self.stacks)
        events.extend(self.color_ups)
        events.extend(self.out)
        if self.winner:
            events.append(TournamentFinished(self.winner))
        if self.prizes:
            taken: dict[str, int] = {self.winner: 1} if self.winner else {}  # (his own)
            for out in self.out:
                if out.bounty_to:
                    taken[out.bounty_to] = taken.get(out.bounty_to, 0) + 1
            events.append(PrizesAwarded(
                sum(a.amount for a in self.prizes), len(self.stacks),
                tuple(sorted(self.prizes, key=lambda a: a.place)),
                tuple(BountyAward(p, n, n * facts.bounty) for p, n in taken.items())
                if facts.bounty else ()))
        return events

    def starting_stack(self) -> int:
        """The one most players had when first seen."""
        return Counter(self.stacks.values()).most_common(1)[0][0] if self.stacks else 0

    def whole(self, stints: dict[str, list[list[Any]]], streams: dict[str, list[Any]]) -> bool:
        """Whether the hands hold the tournament from its start to its end: every player
        sits down first with the starting stack, and every one but the winner finishes in a
        place within the players seen (one player's own hands of a larger field are not the
        tournament)."""
        first = [streams[his[0][1]][his[0][2]].stack for his in stints.values()]
        out = {e.player for e in self.out if e.place <= len(self.stacks)}
        return bool(first) and set(first) == {self.starting_stack()} and bool(self.winner) \
            and out | {self.winner} == set(self.stacks)

    def add(self, table: str, number: int, hand: PhhHand, names: Sequence[str],
            events: Sequence[Any], seat_count: int, before: TableState | None) -> None:
        """Take in one recorded hand (`events`, at `table` as `before` left it)."""
        self.seats_per_table = max(self.seats_per_table, seat_count)
        started = next(e for e in events if isinstance(e, HandStarted))
        stacks = {seat.player: seat.stack for seat in before.seats} if before else {}
        if hand.dead_money:
            # Chips carried into a tournament table's pot are a color-up's odd chips, taken
            # from the stacks the hand found smaller than the table's last hand left them.
            self.color_ups.append(ChipsColoredUp(
                max(started.level - 1, 0), (), 0, started.chip_unit, "forfeit_to_next_pot",
                tuple(ChipAdjustment(e.player, table, stacks.get(e.player, 0), -e.amount,
                                     e.amount, "forfeited_to_next_pot")
                      for e in events if isinstance(e, StackAdjusted) and e.amount < 0),
                (PotCarry(table, hand.dead_money),), 0, IMPORTED))
        for player, stack in zip(started.players, started.stacks, strict=True):
            self.stacks.setdefault(player, stack)
        assert hand.tournament is not None
        big = max(started.blinds, default=0)
        small = hand.tournament.small_blind or min(
            (b for b in started.blinds if 0 < b < big), default=0)
        known = self.levels.get(started.level)
        if started.level and (known is None or not known.small_blind):
            # (a level's first hand with its small blind dead gives it when no other does)
            paying = sum(1 for a in started.antes if a)
            self.levels[started.level] = BlindLevel(
                started.level, small, started.min_bet, hand.tournament.minutes,
                max(started.antes, default=0),
                "none" if not paying else "big_blind" if paying == 1 else "uniform")
        imported = dict(zip(hand.players, names, strict=False))
        for finish in hand.tournament.finishes:
            who = imported.get(finish.player, finish.player)
            if finish.prize:
                self.prizes.append(PrizeAward(finish.place, who, finish.prize))
            if finish.place == 1:
                self.winner = who
                continue
            chips = (started.stacks[started.players.index(who)]
                     if who in started.players else 0)
            self.out.append(PlayerEliminated(who, finish.place, table, number, chips,
                                             imported.get(finish.bounty_to, finish.bounty_to)))


@dataclass
class IntoLog:
    """What an import records: the events of each new stream, and the hands left out.

    The tables of a tournament the files name (PokerStars' number) are its tables: once every
    hand is planned, `finish` puts before them the tournament's stream
    (`tournament-<number>`), rebuilt from what the hands say (`_Tournament.events`), when
    they hold the whole tournament (`_Tournament.whole`) and no other tournament of its name
    (OHH's `tournament_number`; else the tables only name it)."""

    streams: dict[str, list[Any]] = field(default_factory=dict)
    recorded: list[dict[str, Any]] = field(default_factory=list)
    not_recorded: list[NotRecorded] = field(default_factory=list)
    _states: dict[str, TableState] = field(default_factory=dict)
    _tournaments: dict[str, _Tournament] = field(default_factory=dict)
    _moved: list[tuple[Any, Any]] = field(default_factory=list)  # (leaving, arriving) events

    def finish(self) -> None:
        """Add the tournaments' streams, first (once), and make their tables agree with them:
        a player's first seat in the tournament is his entry, every later one a move (by the
        time of the hands), and a seat he left for another table is left at the end."""
        built = {}
        for tournament, record in self._tournaments.items():
            stream = f"tournament-{tournament}"
            stints = self._stints(tournament)
            if record.mixed or stream in self.streams or not record.whole(stints,
                                                                           self.streams):
                continue
            built[stream] = record.events(tournament)
            self._moves(stints)
        self.streams = {**built, **self.streams}

    def _stints(self, tournament: str) -> dict[str, list[list[Any]]]:
        """Each player's stints at the tournament's tables: (time seated, stream, the index of
        his seating, of his leaving (-1: still there)), in the order of the hands' times."""
        stints: dict[str, list[list[Any]]] = {}
        # Hands' times are to the second, so two stints can start in the same second (a fast
        # room, a demo): the one that also ended first comes first, then the one that began
        # with the starting stack.
        order: dict[int, tuple[str, str, bool]] = {}
        starting = self._tournaments[tournament].starting_stack()
        for stream, state in self._states.items():
            if state.tournament != tournament:
                continue
            events = self.streams[stream]
            when, open_ = "", {}
            for index, event in enumerate(events):
                if isinstance(event, HandImported):
                    when = event.played_at
                elif isinstance(event, PlayerSeated):
                    open_[event.player] = [when, stream, index, -1]
                    stints.setdefault(event.player, []).append(open_[event.player])
                    order[id(open_[event.player])] = (when, when, event.stack != starting)
                elif isinstance(event, PlayerLeft) and event.player in open_:
                    stint = open_.pop(event.player)
                    stint[3] = index
                    order[id(stint)] = (order[id(stint)][0], when, order[id(stint)][2])
            for stint in open_.values():
                order[id(stint)] = (order[id(stint)][0], when, order[id(stint)][2])
        for player, his in stints.items():
            his.sort(key=lambda stint: (*order[id(stint)], stint[1], stint[2]))
            his[:] = self._chained(player, his, starting,
                                   {id(stint): order[id(stint)][0] for stint in his})
        return stints

    def _chained(self, player: str, his: list[list[Any]], starting: int,
                 began: dict[int, str]) -> list[list[Any]]:
        """A player's stints begun in the same second (a fast room, a demo) in the order
        their chips say: each begins with the stack the one before ended with, and the one
        he was eliminated in is his last."""
        def first(stint: list[Any]) -> int:
            return int(self.streams[stint[1]][stint[2]].stack)

        def last(stint: list[Any]) -> tuple[int, bool]:
            if stint[3] >= 0:
                left = self.streams[stint[1]][stint[3]]
                return int(left.stack), left.reason == "eliminated"
            seat = next(x for x in self._states[stint[1]].seats if x.player == player)
            return seat.stack, False

        out: list[list[Any]] = []
        rest = list(his)
        while rest:
            stack = last(out[-1])[0] if out else starting
            tied = [s for s in rest if began[id(s)] == began[id(rest[0])]]
            pick = next((s for s in tied if first(s) == stack and not last(s)[1]), None) or \
                next((s for s in tied if first(s) == stack), None) or \
                next((s for s in tied if not last(s)[1]), tied[0])
            rest.remove(pick)
            out.append(pick)
        return out

    def _moves(self, stints: dict[str, list[list[Any]]]) -> None:
        """A player's first seat in the tournament is his entry, every later one a move: he
        leaves the table before (at its end, when he played its last hand) as moved."""
        for player, his in stints.items():
            departures: list[Any] = []
            for k, (_when, stream, seated, left) in enumerate(his):
                events = self.streams[stream]
                if k:  # a later seat than his first: he was moved there
                    events[seated] = replace(events[seated], reason="moved")
                    self._moved.append((departures[-1], events[seated]))
                if k == len(his) - 1:
                    continue
                if left >= 0:
                    if events[left].reason == IMPORTED:
                        events[left] = replace(events[left], reason="moved")
                    departures.append(events[left])
                else:  # he left for another table after this one's last hand
                    seat = next(x for x in self._states[stream].seats if x.player == player)
                    leave = PlayerLeft(seat.seat, player, seat.stack, "moved")
                    events.append(leave)
                    departures.append(leave)
                    self._states[stream] = apply_table(self._states[stream], leave)
        for stream in {stint[1] for his in stints.values() for stint in his}:
            self.streams[stream] = _moves_first(self.streams[stream])

    def writes(self) -> list[dict[str, tuple[int, list[Any]]]]:
        """The streams' events in the order their hands were played, in as few writes as the
        moves allow: each write gives a stream's next events (after the number written
        before); a player leaves for another table, and arrives at one, at most once a write
        (the log pairs a move's leaving and arriving by their order)."""
        blocks: list[tuple[str, int, int, str, int]] = []  # (time, order, start, stream, end)
        block_of: dict[int, int] = {}  # a move's event (by id): its block
        for order, (stream, events) in enumerate(self.streams.items()):
            starts = [i for i, e in enumerate(events) if isinstance(e, HandImported)]
            bounds = [0, *starts[1:], len(events)]
            when = ""
            for k in range(max(len(bounds) - 1, 1)):
                if starts:  # (a stream's hands keep their order whatever their times)
                    when = max(when, events[starts[k]].played_at)
                blocks.append((when, order, bounds[k], stream, bounds[k + 1]))
                block_of.update((id(e), len(blocks) - 1) for e in events[bounds[k]:bounds[k + 1]]
                                if isinstance(e, PlayerSeated | PlayerLeft))
        # In the hands' order, a stream's blocks in its order, and a player's leaving before
        # his arrival at the next table (hands of the same second are ordered by the moves).
        waits: dict[int, list[int]] = {}
        blocked = [0] * len(blocks)
        edges = [(k - 1, k) for k in range(1, len(blocks)) if blocks[k][3] == blocks[k - 1][3]]
        edges += [(block_of[id(a)], block_of[id(b)]) for a, b in self._moved
                  if id(a) in block_of and id(b) in block_of]
        for before, after in edges:
            if before != after:
                waits.setdefault(before, []).append(after)
                blocked[after] += 1
        ready = [(blocks[k][:3], k) for k in range(len(blocks)) if not blocked[k]]
        heapq.heapify(ready)
        ordered = []
        while ready:
            _key, k = heapq.heappop(ready)
            ordered.append(blocks[k])
            for after in waits.get(k, []):
                blocked[after] -= 1
                if not blocked[after]:
                    heapq.heappush(ready, (blocks[after][:3], after))
        # Moves whose order the hands' times and chips cannot settle wait on each other: the
        # blocks left are written in the hands' order (a stream's in its own), never left out.
        ordered += sorted(blocks[k] for k in range(len(blocks)) if blocked[k])
        writes: list[dict[str, tuple[int, list[Any]]]] = [{}]
        moving: set[tuple[type, str]] = set()
        for _when, _order, start, stream, end in ordered:
            events = self.streams[stream][start:end]
            moves = {(type(e), e.player) for e in events
                     if isinstance(e, PlayerSeated | PlayerLeft) and e.reason == "moved"}
            if moves & moving:
                writes.append({})
                moving = set()
            moving |= moves
            first, part = writes[-1].setdefault(stream, (start, []))
            part.extend(events)
        return [w for w in writes if w]

    def as_dict(self) -> dict[str, Any]:
        return {"streams": sorted(self.streams), "recorded": self.recorded,
                "not_recorded": [n.as_dict() for n in self.not_recorded]}


def stream_for(source: str, table: str = "") -> str:
    """The imported table stream of one file's table: their names and a digest of the path
    (and of the table's name, when the file names its tables)."""
    name = re.sub(r"[^A-Za-z0-9.-]+", "-", Path(source).name).strip("-.")[:60] or "file"
    key = os.path.abspath(source) + ("\x00" + table if table else "")
    digest = hashlib.sha256(key.encode()).hexdigest()[:8]
    if not table:
        return f"import-{name}-{digest}"
    label = re.sub(r"[^A-Za-z0-9.-]+", "-", table).strip("-.")[:30] or "table"
    return f"import-{name}-{label}-{digest}"


def hand_label(entry: PhhHand | HandResult) -> str:
    return "" if entry.hand is None else str(entry.hand)


def add_hand(into: IntoLog, entry: PhhEntry, result: HandResult, fmt: str, rules: str) -> None:
    """Plan the events of one verified hand into its table's stream, or say why not."""
    label = hand_label(result)
    if result.status != "match" or not isinstance(entry, PhhHand):
        into.not_recorded.append(NotRecorded(result.file, label, result.status,
                                             result.reason or "not verified"))
        return
    if result.reason and result.reason.startswith("partial record"):
        into.not_recorded.append(NotRecorded(result.file, label, "partial",
                                             "a partial record: the hand does not end"))
        return
    stream = stream_for(entry.source, entry.table)
    before = state = into._states.get(stream)
    opening: list[Any] = []
    if state is None:
        name = entry.table or Path(entry.source).stem[:40] or "imported"
        seats = _seats(entry)
        size = entry.seat_count if entry.seat_count >= max(seats) else MAX_SEATS
        # The table names the event the file gives (PHH `event`), so that it exports again.
        opened = table_opened(name[:40], max(size, max(seats)), entry.rules or rules,
                              entry.event[:80])
        opening.append(opened)
        state = open_table(opened)
    number = state.hands_played + 1
    try:
        events: list[Any] = []
        for first, last, cause, words in entry.misdeals:
            if cause == "declared":  # (one the cards caused is not in the file: not imported)
                events += _hand_events(_applied(state, events),
                                       replace(entry, versions=(first, last)),
                                       entry.rules or rules, number, fmt, label, words)
        events += _hand_events(_applied(state, events), entry, entry.rules or rules, number,
                               fmt, label)
    except RuleViolation as violation:
        into.not_recorded.append(NotRecorded(
            result.file, label, "not recorded",
            f"{violation.message} [{render_rule(violation.rule)}]"))
        return
    except Exception as error:  # noqa: BLE001  # one hand never stops an import
        into.not_recorded.append(NotRecorded(result.file, label, "not recorded",
                                             f"{type(error).__name__}: {error}"))
        return
    events += _eliminated(_applied(state, events), entry)
    problem = _dry_fold(stream, before, opening + events)
    if problem:
        into.not_recorded.append(NotRecorded(result.file, label, "not recorded", problem))
        return
    for event in events:
        state = apply_table(state, event)
    into._states[stream] = state
    if entry.tournament is not None and entry.event:
        record = into._tournaments.setdefault(
            entry.event, _Tournament(entry.tournament, entry.rules or rules))
        record.mixed |= record.facts.number != entry.tournament.number
        record.add(state.table, number, entry, _names(entry), events, state.seat_count,
                   before)
    into.streams.setdefault(stream, []).extend(opening + events)
    into.recorded.append({"file": result.file, "hand": label, "format": fmt,
                          "stream": stream, "number": number})


def _moves_first(events: list[Any]) -> list[Any]:
    """A player moved from the table left it after the last hand he played there: his
    leaving goes before the next hand's mark."""
    out: list[Any] = []
    for event in events:
        if isinstance(event, PlayerLeft) and event.reason == "moved" and out and \
                isinstance(out[-1], HandImported):
            out.insert(len(out) - 1, event)
        else:
            out.append(event)
    return out


def _eliminated(table: TableState, hand: PhhHand) -> list[PlayerLeft]:
    """Who the hand history says finished the tournament in this hand leaves the table."""
    if hand.tournament is None:
        return []
    names = dict(zip(hand.players, _names(hand), strict=False))
    out = {names.get(f.player, f.player) for f in hand.tournament.finishes if f.place > 1}
    return [PlayerLeft(seat.seat, seat.player, seat.stack, "eliminated")
            for seat in table.seats if seat.player in out]


def _seats(hand: PhhHand) -> tuple[int, ...]:
    """The players' seats as the file gives them, else 1.. in PHH's order."""
    count = hand.player_count
    if len(hand.seats) == count and max(hand.seats) <= MAX_SEATS:
        return hand.seats
    return tuple(range(1, count + 1))


def _hand_events(state: TableState, hand: PhhHand, profile: str, number: int, fmt: str,
                 label: str, misdeal: str | None = None) -> list[Any]:
    """The events of one imported hand on `state`: the mark, the seats, the hand (with
    `misdeal`, its deal declared a misdeal with these words, re-dealt as the next hand).

    The table is set as the hand found it: a player no longer there leaves, one who came sits
    down at his seat, a stack that is not the last hand's is adjusted. When the table played
    the hand before, the engine places the button and the blinds as it did live (TDA 32: a
    dead small blind, a dead button); a table's first hand, or one the engine would place
    otherwise (a hand missing between them), has the button placed before its last player,
    as PHH orders them."""
    count = hand.player_count
    if count > MAX_SEATS:
        raise RuleViolation("seating", f"{count} players: a table seats at most {MAX_SEATS}")
    events: list[Any] = [HandImported(hand.source, label, fmt, hand.played_at, hand.stream,
                                      hand.versions)]
    names = _names(hand)
    seats = _seats(hand)
    wanted = {seats[i]: (names[i], hand.starting_stacks[i]) for i in range(count)}
    for seat in state.seats:
        if wanted.get(seat.seat, ("",))[0] != seat.player:
            events.append(PlayerLeft(seat.seat, seat.player, seat.stack, IMPORTED))
    there = {seat.seat: seat for seat in state.seats}
    for seat_number, (name, stack) in sorted(wanted.items()):
        present = there.get(seat_number)
        if present is None or present.player != name:
            events.append(PlayerSeated(seat_number, name, stack, reason=IMPORTED))
        elif present.stack != stack:
            events.append(StackAdjusted(seat_number, name, stack - present.stack, IMPORTED))
    away = {seats[p] for p in hand.absent}  # away from the table at the deal (TDA 30)
    events.extend(SeatAbsenceChanged(seat.seat, seat.seat in away)
                  for seat in _applied(state, events).seats
                  if seat.absent != (seat.seat in away))
    if state.carry:
        events.append(PotCarried(-state.carry, IMPORTED))  # the last hand's carry is not ours
    if hand.dead_money:
        # Chips already in this pot, nobody's (a color-up carry), as the record says.
        events.append(PotCarried(hand.dead_money, IMPORTED))
    setup = replace(setup_for(hand, profile), seats=seats, level=hand.level)
    table = _applied(state, events)
    planned = _planned(table, setup, number) if state.big_blind_seat else None
    if planned is None:
        events.append(ButtonPlaced(seats[-1], IMPORTED))
        table = apply_table(table, events[-1])
        planned = plan_hand(table, level_of(hand_started_event(setup)), number,
                            final_table=True)
        for name in ("seats", "blinds", "antes"):
            if getattr(planned, name) != getattr(setup, name):
                raise RuleViolation("tda-32", f"the hand's {name} {getattr(setup, name)} are "
                                    f"not the engine's {getattr(planned, name)} for this table")
    setup = replace(setup, players=planned.players, hand_number=number,
                    button_seat=planned.button_seat,
                    small_blind_seat=planned.small_blind_seat,
                    big_blind_seat=planned.big_blind_seat, level=planned.level)
    played = list(begin(setup))
    for event in played:
        table = apply_table(table, event)
    if misdeal is not None:
        assert table.hand is not None
        return events + played + list(decide(table.hand, DeclareMisdeal(misdeal)))
    commands = hand_commands(hand)
    for index, cause, reason, rules in hand.killed:  # a ruling, not a fold (`_killed`)
        player = hand.actions[index].player
        assert player is not None
        commands[index] = command_of(HandKilled(player, cause, rules, reason))
    for index in _record_order(hand):
        command = commands[index]
        assert table.hand is not None
        if table.hand.is_complete:
            break
        built: Command | str | None
        if isinstance(command, tuple):
            built = DealHole(command[0], command[1])
        elif command is None:
            if hand.actions[index].code == "noop":
                continue
            built = command_for(hand.actions[index], table.hand)
        else:
            built = command
        if isinstance(built, str):
            raise RuleViolation("strict-replay", built)
        for event in decide(table.hand, built):
            table = apply_table(table, event)
            played.append(event)
    current = table.hand
    while current is not None and not current.is_complete and current.awards_pending:
        for event in decide(current, AwardPots()):
            table = apply_table(table, event)
            played.append(event)
        current = table.hand
    if current is None or not current.is_complete:
        raise RuleViolation("strict-replay", "the hand does not end")
    return events + played


def _record_order(hand: PhhHand) -> list[int]:
    """The indexes of the hand's actions in the order the table took them: a hand killed out
    of turn (`_out_of_turn`), written as a fold where the action reached him, was killed
    before the action of the player before him in the street (the export writes it back
    where it is written)."""
    order = list(range(len(hand.actions)))
    for index in sorted(hand.out_of_turn):
        before = next((k for k in range(index - 1, -1, -1)
                       if hand.actions[k].code in ("f", "cc", "cbr", "db")
                       and k not in hand.out_of_turn), None)
        if before is None or hand.actions[before].code == "db":
            continue  # the first of its street: no action before him to go ahead of
        order.remove(index)
        order.insert(order.index(before), index)
    return order


def _applied(state: TableState, events: Sequence[Any]) -> TableState:
    for event in events:
        state = apply_table(state, event)
    return state


def _planned(table: TableState, setup: HandSetup, number: int) -> HandSetup | None:
    """The engine's plan of the next hand at `table` when it is the hand's own (the seats,
    blinds and antes of `setup`), else None."""
    try:
        planned = plan_hand(table, level_of(hand_started_event(setup)), number,
                            final_table=True)
    except RuleViolation:
        return None
    if (planned.seats, planned.blinds, planned.antes) != (setup.seats, setup.blinds,
                                                          setup.antes):
        return None
    return planned


def _names(hand: PhhHand) -> list[str]:
    """The players' names (PHH `players`, else p1..), each once at the table."""
    names: list[str] = []
    for i in range(hand.player_count):
        name = (hand.players[i] if i < len(hand.players) else "") or f"p{i + 1}"
        check_name(name, "player")  # (capped as a player seated through the CLI or the API)
        while name in names:
            name += "'"
        names.append(name)
    return names


def _dry_fold(stream: str, state: TableState | None, events: Sequence[Any]) -> str:
    """Fold the hand on the table as the last one left it, exactly as `handlog replay` would
    (after a round trip through the codec): the first finding, or "" when it is clean."""
    trip = [decode_event(*encode_event(e)) for e in events]
    effective = list(enumerate(trip, 1))
    state, findings = fold_effective(stream, effective, state, len(effective), True)
    if findings:
        first = findings[0]
        return f"{first.message} [{render_rule(first.rule)}]"
    if state is None or state.hand_in_progress:
        return "the hand does not end"
    return ""
