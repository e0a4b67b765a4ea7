"""What a dealer or a director asks of a table besides the hand's own commands
(engine/commands.py): open it, seat and remove players, place the button, adjust a stack, carry
chips to the next pot, mark an absence, start a hand, and the corrections (undo, void, amend).
Seats are numbered from 1; amounts are chips."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from handlog.engine import commands as hand_commands
from handlog.engine.errors import RuleViolation
from handlog.engine.events import HandKilled, HandVoided, PotAwarded
from handlog.engine.table import Level
from handlog.engine.table_events import StackAdjusted


@dataclass(frozen=True)
class OpenTable:
    table: str
    seat_count: int
    profile: str
    tournament: str = ""


@dataclass(frozen=True)
class SeatPlayer:
    seat: int
    player: str
    stack: int
    waits: bool = False
    reason: str = "draw"


@dataclass(frozen=True)
class RemovePlayer:
    seat: int
    reason: str  # eliminated, moved, withdrawn


@dataclass(frozen=True)
class PlaceButton:
    seat: int
    reason: str = "button_draw"


@dataclass(frozen=True)
class AdjustStack:
    seat: int
    amount: int
    reason: str
    rule: str = ""


@dataclass(frozen=True)
class AmendAmount:
    """A director's correction of a bet or raise keyed wrong: the entry at `version` counts as
    a bet or raise to `to` (the engine decides it as at that moment); later entries are
    re-validated, the original stays in the log."""

    version: int
    to: int
    reason: str
    rule: str


@dataclass(frozen=True)
class CarryToPot:
    """Chips for the table's next pot, nobody's (Octobermuck: a buy-down's odd chips); a
    negative amount takes them away to another table's next pot (the table breaks)."""

    amount: int
    reason: str
    rule: str = ""
    other_table: str = ""  # a hand-on from (or to) a broken table


@dataclass(frozen=True)
class SetAbsence:
    seat: int
    absent: bool


@dataclass(frozen=True)
class StartHand:
    level: Level
    hand_number: int = 0  # 0: the next number at this table
    final_table: bool = False
    penalized: tuple[str, ...] = ()  # players serving a penalty: dealt in, hand killed (TDA 71)


@dataclass(frozen=True)
class Undo:
    """Void the last entry of the hand in progress (a correction; the original stays). An entry
    that is a director's (a killed or voided hand, an award by a ruling, an amended entry) is
    reversed by a director only, with his reason."""

    reason: str = "undo"  # a code (engine/words.py REASONS), or the dealer's own words


DEFAULT_UNDO_REASON = Undo.reason


class DirectorsCorrection(RuleViolation):
    """A correction only a director may record: a dealer's undo would reverse a director's
    event (the API answers 403)."""


def directors_event(event: Any) -> str:
    """What makes `event` a director's ruling ("" for an observation a dealer records)."""
    if isinstance(event, HandKilled):
        return "a killed hand"
    if isinstance(event, HandVoided):
        return "a voided hand"
    if isinstance(event, PotAwarded) and event.ruling:
        return "an award by a ruling"
    if isinstance(event, StackAdjusted):
        return "a chip adjustment (penalty)"
    return ""


@dataclass(frozen=True)
class VoidEvents:
    """A director's correction: earlier events stop counting; later ones are re-validated."""

    versions: tuple[int, ...]
    reason: str
    rule: str


@dataclass(frozen=True)
class AmendEvent:
    """A director's correction: an earlier event counts as `replacement` from now on; the
    original stays in the log and every later event is re-validated."""

    version: int
    replacement: Any
    reason: str
    rule: str


TableCommand = (
    OpenTable | SeatPlayer | RemovePlayer | PlaceButton | AdjustStack | CarryToPot | SetAbsence
    | StartHand | Undo | VoidEvents | AmendEvent | AmendAmount | hand_commands.Command
)

hc = hand_commands
DEALERS_COMMANDS: frozenset[type[Any]] = frozenset({
    hc.Fold, hc.CheckCall, hc.BetRaise, hc.PushChips, hc.ActOutOfTurn, hc.DealHole, hc.DealBoard,
    hc.ShowCards, hc.MuckCards, hc.AwardPots, hc.DeclareMisdeal, hc.ExposeCard,
    hc.ExposeBoardEarly, hc.ExpireClock, hc.MarkAbsent, hc.MarkReturned, SetAbsence, StartHand,
    Undo,
})
"""What a dealer records: the play of the hand at his own table. Everything that changes seats,
stacks or earlier entries, or rules on a hand, is the director's."""


def needs_director(command: TableCommand) -> bool:
    """True when only a director may record `command` (rulings, corrections, seating).

    >>> needs_director(hand_commands.Fold(0)), needs_director(SeatPlayer(1, "Ann", 100))
    (False, True)
    """
    if type(command) not in DEALERS_COMMANDS:
        return True
    if isinstance(command, hand_commands.AwardPots) and (command.winners is not None
                                                         or command.ruling):
        return True  # an award by a ruling is the director's (and ends the dealer's undo)
    return isinstance(command, StartHand) and command.level is not None


def awaits_level(command: TableCommand) -> bool:
    """A start_hand sent without a level: it plays at the level the table is given."""
    return isinstance(command, StartHand) and command.level is None


def at_level(command: TableCommand, level: Level | None, final_table: bool = False,
             penalized: tuple[str, ...] = ()) -> TableCommand:
    """A start_hand sent without a level plays at `level` (the tournament's current one), at
    the final table when the tournament is at it, with the players serving a penalty; every
    other command as it is."""
    if not isinstance(command, StartHand) or command.level is not None:
        return command
    if level is None:
        raise RuleViolation("level", "no level is known for this table: the director starts "
                            "the tournament's levels first", ("start the clock",))
    return replace(command, level=level, final_table=command.final_table or final_table,
                   penalized=penalized)
