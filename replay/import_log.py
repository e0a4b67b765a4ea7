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
from handlog.engine.events import (
    ButtonPlaced,
    HandImported,
    PlayerLeft,
    PlayerSeated,
    PotCarried,
    SeatAbsenceChanged,
)
from handlog.engine.hand import begin, decide
from handlog.engine.hand_start import hand_started_event
from handlog.engine.table import (
    MAX_SEATS,
    TableState,
    apply_table,
    open_table,
    plan_hand,
    table_opened,
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


def stream_for(source: str) -> str:
    """The imported table stream of one file: its name and a digest of its path."""
    name = re.sub(r"[^A-Za-z0-9.-]+", "-", Path(source).name).strip("-.")[:80] or "file"
    digest = hashlib.sha256(os.path.abspath(source).encode()).hexdigest()[:8]
    return f"import-{name}-{digest}"


def hand_label(entry: PhhHand | HandResult) -> str:
    return "" if entry.hand is None else str(entry.hand)


def add_hand(into: IntoLog, entry: PhhEntry, result: HandResult, fmt: str, rules: str) -> None:
    """Plan the events of one verified hand into its file's stream, or say why not."""
    label = hand_label(result)
    if result.status != "match" or not isinstance(entry, PhhHand):
        into.not_recorded.append(NotRecorded(result.file, label, result.status,
                                             result.reason or "not verified"))
        return
    if result.reason and result.reason.startswith("partial record"):
        into.not_recorded.append(NotRecorded(result.file, label, "partial",
                                             "a partial record: the hand does not end"))
        return
    stream = stream_for(entry.source)
    before = state = into._states.get(stream)
    opening: list[Any] = []
    if state is None:
        opened = table_opened(Path(entry.source).stem[:40] or "imported", MAX_SEATS,
                              entry.rules or rules)
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


def _hand_events(state: TableState, hand: PhhHand, profile: str, number: int, fmt: str,
                 label: str) -> list[Any]:
    """The events of one imported hand on `state`: the mark, the seats, the hand."""
    count = hand.player_count
    if count > MAX_SEATS:
        raise RuleViolation("seating", f"{count} players: a table seats at most {MAX_SEATS}")
    events: list[Any] = [HandImported(hand.source, label, fmt)]
    events.extend(PlayerLeft(s.seat, s.player, s.stack, IMPORTED) for s in state.seats)
    names = _names(hand)
    events.extend(PlayerSeated(i + 1, names[i], hand.starting_stacks[i], reason=IMPORTED)
                  for i in range(count))
    events.extend(SeatAbsenceChanged(p + 1, True) for p in hand.absent)
    events.append(ButtonPlaced(count, IMPORTED))
    if state.carry:
        events.append(PotCarried(-state.carry, IMPORTED))  # the last hand's carry is not ours
    if hand.dead_money:
        # Chips already in this pot, nobody's (a color-up carry), as the record says.
        events.append(PotCarried(hand.dead_money, IMPORTED))
    table = state
    for event in events:
        table = apply_table(table, event)
    setup = setup_for(hand, profile)
    planned = plan_hand(table, level_of(hand_started_event(setup)), number, final_table=True)
    for name in ("seats", "blinds", "antes"):
        if getattr(planned, name) != getattr(setup, name):
            raise RuleViolation("tda-32", f"the hand's {name} {getattr(setup, name)} are not "
                                f"the engine's {getattr(planned, name)} for this table")
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


def _names(hand: PhhHand) -> list[str]:
    """The players' names (PHH `players`, else p1..), each once at the table."""
    names: list[str] = []
    for i in range(hand.player_count):
        name = (hand.players[i] if i < len(hand.players) else "") or f"p{i + 1}"
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
