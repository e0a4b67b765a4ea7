"""`handlog import --into-log`: the verified hands of other systems' hand histories recorded
as imported table streams, so that they replay, report and export like recorded ones.

One table stream per file read (`import-<file>-<digest of its path>`). Each hand in it is
marked by a `hand_imported` event (the file, the hand's id there, its format), then the table
is set as that hand found it (everyone of the last hand leaves, the hand's players sit down
in seats 1.. with their starting stacks, the button is placed on the last seat: PHH's order),
then the hand as the engine decides it from the recorded actions. Before anything is written,
each hand is folded exactly as `handlog replay` folds it; a hand that does not replay cleanly
(or was not verified) is not recorded, and the reason is given.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from handlog.engine.commands import AwardPots, Command, DealHole
from handlog.engine.errors import RuleViolation
from handlog.engine.hand import begin, decide
from handlog.engine.hand_start import hand_started_event
from handlog.engine.hand_state import HandSetup
from handlog.engine.limits import check_name
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
from handlog.engine.words import render_rule
from handlog.replay.fold import fold_effective, level_of
from handlog.replay.phh import PhhEntry, PhhHand
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
class IntoLog:
    """What an import records: the events of each new stream, and the hands left out."""

    streams: dict[str, list[Any]] = field(default_factory=dict)
    recorded: list[dict[str, Any]] = field(default_factory=list)
    not_recorded: list[NotRecorded] = field(default_factory=list)
    _states: dict[str, TableState] = field(default_factory=dict)

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
        events = _hand_events(state, entry, entry.rules or rules, number, fmt, label)
    except RuleViolation as violation:
        into.not_recorded.append(NotRecorded(
            result.file, label, "not recorded",
            f"{violation.message} [{render_rule(violation.rule)}]"))
        return
    except Exception as error:  # noqa: BLE001  # one hand never stops an import
        into.not_recorded.append(NotRecorded(result.file, label, "not recorded",
                                             f"{type(error).__name__}: {error}"))
        return
    problem = _dry_fold(stream, before, opening + events)
    if problem:
        into.not_recorded.append(NotRecorded(result.file, label, "not recorded", problem))
        return
    for event in events:
        state = apply_table(state, event)
    into._states[stream] = state
    into.streams.setdefault(stream, []).extend(opening + events)
    into.recorded.append({"file": result.file, "hand": label, "format": fmt,
                          "stream": stream, "number": number})


def _seats(hand: PhhHand) -> tuple[int, ...]:
    """The players' seats as the file gives them, else 1.. in PHH's order."""
    count = hand.player_count
    if len(hand.seats) == count and max(hand.seats) <= MAX_SEATS:
        return hand.seats
    return tuple(range(1, count + 1))


def _hand_events(state: TableState, hand: PhhHand, profile: str, number: int, fmt: str,
                 label: str) -> list[Any]:
    """The events of one imported hand on `state`: the mark, the seats, the hand.

    The table is set as the hand found it: a player no longer there leaves, one who came sits
    down at his seat, a stack that is not the last hand's is adjusted. When the table played
    the hand before, the engine places the button and the blinds as it did live (TDA 32: a
    dead small blind, a dead button); a table's first hand, or one the engine would place
    otherwise (a hand missing between them), has the button placed before its last player,
    as PHH orders them."""
    count = hand.player_count
    if count > MAX_SEATS:
        raise RuleViolation("seating", f"{count} players: a table seats at most {MAX_SEATS}")
    events: list[Any] = [HandImported(hand.source, label, fmt, hand.played_at)]
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
    commands = hand_commands(hand)
    for index, command in enumerate(commands):
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
