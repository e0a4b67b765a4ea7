"""The table's decisions besides the hand's own (engine/hand.py decides those): open the
table, seat and remove players, place the button, adjust a stack, carry chips to the next
pot, mark an absence, start a hand (with the TDA 71 penalty kills). Pure: what a decision
needs from the tournament's other tables comes in as `TableFacts`, gathered by the caller.

The corrections (undo, void, amend) need the table's past, not only its state: the read side
decides them (replay/corrections.py)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from handlog.engine import commands as hand_commands
from handlog.engine.errors import RuleViolation
from handlog.engine.events import PlayerMarkedAbsent, PlayerReturned
from handlog.engine.hand import begin, decide
from handlog.engine.limits import check_chips, check_name, check_words
from handlog.engine.penalties import KILLED_FOR_PENALTY, PENALTY_RULE
from handlog.engine.table import (
    Seat,
    TableState,
    apply_table,
    check_seat,
    check_table_opened,
    open_table,
    plan_hand,
    table_opened,
)
from handlog.engine.table_commands import (
    AdjustStack,
    CarryToPot,
    OpenTable,
    PlaceButton,
    RemovePlayer,
    SeatPlayer,
    SetAbsence,
    StartHand,
)
from handlog.engine.table_events import (
    ButtonPlaced,
    PlayerLeft,
    PlayerSeated,
    PotCarried,
    SeatAbsenceChanged,
    StackAdjusted,
    TableOpened,
)
from handlog.engine.words import cite


@dataclass(frozen=True)
class TableFacts:
    """What a table's decision needs from elsewhere. `seated_elsewhere`: where the
    tournament's players sit (player -> (stream, table, seat)), for a seat taken; `leaving`:
    players the same change takes out of their other tables; `by_director`: the command is a
    director's (a dealer's undo stops at a director's ruling)."""

    stream: str = ""
    seated_elsewhere: Mapping[str, tuple[str, str, int]] = field(default_factory=dict)
    leaving: frozenset[str] = frozenset()
    by_director: bool = False


@dataclass(frozen=True)
class Needs:
    """What deciding a command needs from other streams: `tournament`, the tournament whose
    tables it concerns ("" none); `seating`, where that tournament's players sit; `leaving`, a
    player it takes out of this table (for the other tables of the same change)."""

    tournament: str = ""
    seating: bool = False
    leaving: str = ""


def needs(state: TableState | None, command: Any) -> Needs:
    """What the caller gathers before `decide_table(state, command, facts)`."""
    tournament = state.tournament if state is not None else ""
    if isinstance(command, OpenTable):
        return Needs(command.tournament)
    if isinstance(command, SeatPlayer):
        return Needs(tournament, seating=bool(tournament))
    if isinstance(command, RemovePlayer) and state is not None:
        seat = state.occupant(command.seat)
        return Needs(tournament, leaving=seat.player if seat is not None else "")
    return Needs(tournament)


def settles(before: TableState | None, after: TableState | None) -> bool:
    """Whether the tournament settles its table once it stands at `after`: a hand just ended
    there (eliminations, high hands, a hand-for-hand round), or a seat was left without chips
    between hands."""
    if after is None or not after.tournament or after.hand_in_progress:
        return False
    return (before is not None and before.hand_in_progress) or any(
        s.stack == 0 for s in after.seats)


def no_table(stream: str) -> RuleViolation:
    return RuleViolation("table", f"no table {stream}: open it first", ("open the table",))


def decide_table(state: TableState | None, command: Any, facts: TableFacts) -> list[Any]:
    """The events `command` gives at the table in `state` (None: not opened yet); a
    RuleViolation names the rule when it is refused."""
    check_words(command)
    if isinstance(command, OpenTable):
        check_name(command.table, "table")
        if state is not None:
            raise RuleViolation("table", f"table stream {facts.stream} is already open")
        check_table_opened(TableOpened(command.table, command.seat_count, command.profile,
                                       command.tournament))
        return [table_opened(command.table, command.seat_count, command.profile,
                             command.tournament)]
    if state is None:
        raise no_table(facts.stream)
    if isinstance(command, StartHand):
        return _start_hand(state, command)
    if isinstance(command, SeatPlayer):
        return [_seat(state, command, facts)]
    if isinstance(command, RemovePlayer):
        _between_hands(state, "remove a player")
        seat = _occupant(state, command.seat)
        if command.reason == "eliminated" and seat.stack != 0:
            raise RuleViolation("elimination", f"{seat.player} still has {seat.stack} chips")
        return [PlayerLeft(seat.seat, seat.player, seat.stack, command.reason)]
    if isinstance(command, PlaceButton):
        check_seat(state, command.seat)
        _between_hands(state, "move the button")
        return [ButtonPlaced(command.seat, command.reason)]
    if isinstance(command, AdjustStack):
        check_chips(command.amount, "amount", negative=True)
        _between_hands(state, "adjust a stack")
        seat = _occupant(state, command.seat)
        if seat.stack + command.amount < 0:
            raise RuleViolation("stack", f"{seat.player} has only {seat.stack} chips")
        return [StackAdjusted(seat.seat, seat.player, command.amount, command.reason,
                              cite(command.rule))]
    if isinstance(command, CarryToPot):
        _between_hands(state, "carry chips into the next pot")
        if command.amount == 0 or state.carry + command.amount < 0:
            raise RuleViolation("dead-money", f"the table carries {state.carry} into its "
                                f"next pot: {command.amount} cannot be added to it")
        return [PotCarried(command.amount, command.reason, cite(command.rule),
                           command.other_table)]
    if isinstance(command, SetAbsence):
        return _absence(state, command)
    hand = state.hand
    if hand is None:
        raise RuleViolation("hand", "no hand in progress: start a hand first",
                            ("start a hand",))
    return list(decide(hand, command))


def _start_hand(state: TableState, command: StartHand) -> list[Any]:
    number = command.hand_number or state.hands_played + 1
    if state.hand is not None and state.hand.phase in ("misdealt", "void"):
        # The exact re-deal: same hand number, button and limits.
        number = state.hand.setup.hand_number
    setup = plan_hand(state, command.level, number, command.final_table)
    started = list(begin(setup))
    return started + _penalty_kills(state, started, command.penalized)


def _seat(state: TableState, command: SeatPlayer, facts: TableFacts) -> PlayerSeated:
    check_name(command.player, "player")
    check_chips(command.stack, "stack")
    _between_hands(state, "seat a player")
    if not 1 <= command.seat <= state.seat_count:
        raise RuleViolation("seating", f"seat {command.seat} does not exist (1 to "
                            f"{state.seat_count})")
    if state.occupant(command.seat) is not None:
        free = [s for s in range(1, state.seat_count + 1) if state.occupant(s) is None]
        raise RuleViolation("seating", f"seat {command.seat} is taken",
                            tuple(f"seat {s}" for s in free))
    if state.seat_of(command.player) is not None:
        raise RuleViolation("seating", f"{command.player} is already seated here")
    found = facts.seated_elsewhere.get(command.player)
    if state.tournament and command.player not in facts.leaving and found is not None \
            and found[0] != facts.stream:
        # A tournament's player has one seat: a move takes him out there first.
        raise RuleViolation(
            "seating", f"player: {command.player} is already seated at table {found[1]} of "
            f"tournament {state.tournament} (seat {found[2]})", ("move the player instead",))
    return PlayerSeated(command.seat, command.player, command.stack, command.waits,
                        command.reason)


def _absence(state: TableState, command: SetAbsence) -> list[Any]:
    seat = _occupant(state, command.seat)
    events: list[Any] = [SeatAbsenceChanged(seat.seat, command.absent)]
    hand = state.hand
    if hand is not None and not hand.is_complete and seat.seat in hand.setup.seats:
        position = hand.setup.seats.index(seat.seat)
        if hand.absent[position] != command.absent and not hand.folded[position]:
            events.append(PlayerMarkedAbsent(position) if command.absent
                          else PlayerReturned(position))
    return events


def _penalty_kills(state: TableState, started: list[Any],
                   penalized: tuple[str, ...]) -> list[Any]:
    """TDA 71: a player serving a penalty is dealt in, posts, and has his hand killed at once
    (never the last live hand: that one wins the pot)."""
    if not penalized:
        return []
    trial: TableState | None = state
    for event in started:
        trial = apply_event(trial, event)
    kills: list[Any] = []
    for player in penalized:
        hand = trial.hand if trial is not None else None
        if hand is None or hand.is_complete or player not in hand.setup.players:
            continue
        position = hand.setup.players.index(player)
        try:
            decided = decide(hand, hand_commands.KillHand(position, KILLED_FOR_PENALTY,
                                                          PENALTY_RULE))
        except RuleViolation:
            continue
        for event in decided:
            trial = apply_event(trial, event)
        kills.extend(decided)
    return kills


def _between_hands(state: TableState, what: str) -> None:
    if state.hand_in_progress:
        raise RuleViolation("hand-in-progress", f"cannot {what} during a hand",
                            ("finish the hand first",))


def _occupant(state: TableState, seat_number: int) -> Seat:
    seat = state.occupant(seat_number)
    if seat is None:
        raise RuleViolation("seating", f"seat {seat_number} is empty")
    return seat


def apply_event(state: TableState | None, event: Any) -> TableState | None:
    """`state` after `event` (an opening starts it; nothing applies to no table)."""
    if isinstance(event, TableOpened):
        return open_table(event)
    if state is None:
        return None
    return apply_table(state, event)
