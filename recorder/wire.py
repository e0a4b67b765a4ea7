"""Commands as JSON: the one place where `{"type": "bet_raise", "player": 2, "to": 600}` becomes
the engine's or the recorder's command dataclass.

Hand commands name players by position in the hand (0 is the first player left of the button,
see engine.commands); table commands name seats. Cards are text, "AsKd" or ["As", "Kd"].
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from handlog.engine import commands as hand
from handlog.engine import table_commands
from handlog.engine.cards import Card, parse_card, parse_cards
from handlog.engine.errors import RuleViolation
from handlog.engine.profiles import PROFILES
from handlog.engine.table import MAX_CHIPS, MAX_SEATS, MIN_SEATS, Level
from handlog.engine.tournament_commands import TournamentCommand
from handlog.recorder.limits import Chips, Name, Position, Reason, Rule, Seat, SignedChips

MAX_NAME_KEY = 80
"""The longest player id a command names."""

Cards = Annotated[str, Field(max_length=20)] | Annotated[
    list[Annotated[str, Field(max_length=3)]], Field(max_length=5)]


def _known_profile(value: str) -> str:
    if value not in PROFILES:
        raise ValueError(f"unknown house-rule profile {value!r}; known profiles: "
                         f"{', '.join(PROFILES)}")
    return value


Profile = Annotated[str, Field(max_length=40, description="a house-rule profile: "
                               + ", ".join(PROFILES)), AfterValidator(_known_profile)]


class _Command(BaseModel):
    model_config = ConfigDict(extra="forbid")


class FoldIn(_Command):
    type: Literal["fold"]
    player: Position


class CheckCallIn(_Command):
    type: Literal["check_call"]
    player: Position


class BetRaiseIn(_Command):
    type: Literal["bet_raise"]
    player: Position
    to: Chips = Field(description="the player's total for this street")


class ActOutOfTurnIn(_Command):
    type: Literal["act_out_of_turn"]
    player: int
    action: Literal["fold", "check", "call", "bet", "raise"]
    to: int = Field(0, description="the total of a bet or raise out of turn")


class PushChipsIn(_Command):
    type: Literal["push_chips"]
    player: int
    motions: list[list[int]] = Field(
        default_factory=list, description="the chips put out, motion by motion: each chip's "
        "value, e.g. [[500, 500], [100]] for two 500s and then a 100")
    said: Literal["nothing", "call", "raise", "raise_to", "all_in"] = "nothing"
    said_to: int = Field(0, description="the N of 'raise N' (said raise_to): his street total")
    bounty_chip: bool = False


class DealHoleIn(_Command):
    type: Literal["deal_hole"]
    player: Position
    cards: Cards | None = Field(None, description="omit when the dealer does not know them")


class DealBoardIn(_Command):
    type: Literal["deal_board"]
    cards: Cards


class ShowCardsIn(_Command):
    type: Literal["show_cards"]
    player: Position
    cards: Cards


class MuckCardsIn(_Command):
    type: Literal["muck_cards"]
    player: Position


class AwardPotsIn(_Command):
    type: Literal["award_pots"]
    winners: list[Annotated[list[Position], Field(max_length=10)]] | None = Field(
        None, max_length=10, description="a director's override, one list of positions per pot")
    ruling: Rule = ""


class DeclareMisdealIn(_Command):
    type: Literal["declare_misdeal"]
    reason: Reason = "misdeal"


class ExposeCardIn(_Command):
    type: Literal["expose_card"]
    player: Position
    card: str = Field(max_length=3)
    in_deal: bool = True


class ExposeBoardEarlyIn(_Command):
    type: Literal["expose_board_early"]
    cards: Cards


class KillHandIn(_Command):
    type: Literal["kill_hand"]
    player: Position
    reason: Reason
    rule: Rule


class ExpireClockIn(_Command):
    type: Literal["expire_clock"]
    player: Position
    seconds: int = Field(-1, description="seconds since the clock was called (-1: the floor "
                         "says the time is up)")


class MarkAbsentIn(_Command):
    type: Literal["mark_absent"]
    player: Position


class MarkReturnedIn(_Command):
    type: Literal["mark_returned"]
    player: Position


class VoidHandIn(_Command):
    type: Literal["void_hand"]
    reason: Reason
    in_stub: bool = Field(False, description="the card was found in the stub (undealt): "
                          "all action stands, nothing is voided")


class OpenTableIn(_Command):
    type: Literal["open_table"]
    table: Name
    seat_count: int = Field(ge=MIN_SEATS, le=MAX_SEATS)
    profile: Profile = "tda"
    tournament: str = Field("", max_length=80)


class SeatPlayerIn(_Command):
    type: Literal["seat_player"]
    seat: Seat
    player: Name
    stack: Chips
    waits: bool = False
    reason: Reason = "draw"


class RemovePlayerIn(_Command):
    type: Literal["remove_player"]
    seat: Seat
    reason: Reason


class PlaceButtonIn(_Command):
    type: Literal["place_button"]
    seat: Seat
    reason: Reason = "button_draw"


class AdjustStackIn(_Command):
    type: Literal["adjust_stack"]
    seat: Seat
    amount: SignedChips
    reason: Reason
    rule: Rule = ""


class SetAbsenceIn(_Command):
    type: Literal["set_absence"]
    seat: Seat
    absent: bool


class LevelIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    small_blind: Chips
    big_blind: int = Field(gt=0, le=MAX_CHIPS)
    ante: Chips = 0
    ante_kind: Literal["none", "uniform", "big_blind"] = "none"
    number: int = Field(0, ge=0, le=10_000)
    chip_unit: int = Field(1, gt=0, le=MAX_CHIPS)
    denominations: tuple[Annotated[int, Field(gt=0, le=MAX_CHIPS)], ...] = Field(
        (), max_length=32, description="the values of the chips in play, smallest first (the "
        "smallest is chip_unit); empty: any multiple of chip_unit")


class StartHandIn(_Command):
    type: Literal["start_hand"]
    level: LevelIn | None = Field(
        None, description="a director's explicit level; else the tournament's current level")
    hand_number: int = Field(0, ge=0, le=10**9)
    final_table: bool = False


class UndoIn(_Command):
    type: Literal["undo"]
    reason: Reason = "undo"


class VoidEventsIn(_Command):
    type: Literal["void_events"]
    versions: list[Annotated[int, Field(ge=1)]] = Field(min_length=1, max_length=1000)
    reason: Reason
    rule: Rule


class AmendAmountIn(_Command):
    """A bet or raise keyed wrong: the entry at `version` becomes a bet or raise to `to`."""

    type: Literal["amend_amount"]
    version: int = Field(ge=1)
    to: int = Field(gt=0, le=MAX_CHIPS)
    reason: Reason
    rule: Rule


CommandIn = Annotated[
    FoldIn | CheckCallIn | BetRaiseIn | PushChipsIn | ActOutOfTurnIn | DealHoleIn | DealBoardIn
    | ShowCardsIn | MuckCardsIn | AwardPotsIn | DeclareMisdealIn | ExposeCardIn
    | ExposeBoardEarlyIn | KillHandIn | ExpireClockIn | MarkAbsentIn | MarkReturnedIn
    | VoidHandIn | OpenTableIn | SeatPlayerIn | RemovePlayerIn | PlaceButtonIn | AdjustStackIn
    | SetAbsenceIn | StartHandIn | UndoIn | VoidEventsIn | AmendAmountIn,
    Field(discriminator="type"),
]

# Who may send what. A dealer records the play of the hand at his own table; everything that
# changes seats, stacks or earlier entries, or rules on a hand, is the director's.
DEALER_COMMANDS = frozenset({
    "fold", "check_call", "bet_raise", "push_chips", "act_out_of_turn", "deal_hole", "deal_board",
    "show_cards", "muck_cards", "award_pots", "declare_misdeal", "expose_card",
    "expose_board_early", "expire_clock", "mark_absent", "mark_returned", "set_absence",
    "start_hand", "undo",
})
DIRECTOR_COMMANDS = DEALER_COMMANDS | {
    "kill_hand", "void_hand", "open_table", "seat_player", "remove_player", "place_button",
    "adjust_stack", "void_events", "amend_amount",
}


def needs_director(command: CommandIn) -> bool:
    """True when only a director may record `command` (rulings, corrections, seating)."""
    if command.type not in DEALER_COMMANDS:
        return True
    if isinstance(command, AwardPotsIn) and (command.winners is not None or command.ruling):
        return True  # an award by a ruling is the director's (and ends the dealer's undo)
    return isinstance(command, StartHandIn) and command.level is not None


def _cards(text: Cards) -> tuple[Card, ...]:
    joined = text if isinstance(text, str) else "".join(text)
    try:
        return parse_cards(joined)
    except ValueError as exc:
        raise RuleViolation("cards", str(exc)) from None


def _card(text: str) -> Card:
    try:
        return parse_card(text)
    except ValueError as exc:
        raise RuleViolation("cards", str(exc)) from None


def to_command(command: CommandIn, level: Level | None = None) -> table_commands.TableCommand:
    """The dataclass `command` stands for. `level` is the level a start_hand without one
    plays at (the tournament's current level)."""
    c = command
    if isinstance(c, FoldIn):
        return hand.Fold(c.player)
    if isinstance(c, CheckCallIn):
        return hand.CheckCall(c.player)
    if isinstance(c, BetRaiseIn):
        return hand.BetRaise(c.player, c.to)
    if isinstance(c, DealHoleIn):
        return hand.DealHole(c.player, _cards(c.cards) if c.cards else None)
    if isinstance(c, DealBoardIn):
        return hand.DealBoard(_cards(c.cards))
    if isinstance(c, ShowCardsIn):
        return hand.ShowCards(c.player, _cards(c.cards))
    if isinstance(c, MuckCardsIn):
        return hand.MuckCards(c.player)
    if isinstance(c, AwardPotsIn):
        winners = tuple(tuple(w) for w in c.winners) if c.winners is not None else None
        return hand.AwardPots(winners, c.ruling)
    if isinstance(c, DeclareMisdealIn):
        return hand.DeclareMisdeal(c.reason)
    if isinstance(c, ExposeCardIn):
        return hand.ExposeCard(c.player, _card(c.card), c.in_deal)
    if isinstance(c, ExposeBoardEarlyIn):
        return hand.ExposeBoardEarly(_cards(c.cards))
    if isinstance(c, KillHandIn):
        return hand.KillHand(c.player, c.reason, c.rule)
    if isinstance(c, ExpireClockIn):
        return hand.ExpireClock(c.player, c.seconds)
    if isinstance(c, ActOutOfTurnIn):
        return hand.ActOutOfTurn(c.player, c.action, c.to)
    if isinstance(c, PushChipsIn):
        chips = tuple(chip for motion in c.motions for chip in motion)
        motions = tuple(len(m) for m in c.motions) if len(c.motions) > 1 else ()
        return hand.PushChips(c.player, chips, motions, c.said, c.said_to, c.bounty_chip)
    if isinstance(c, MarkAbsentIn):
        return hand.MarkAbsent(c.player)
    if isinstance(c, MarkReturnedIn):
        return hand.MarkReturned(c.player)
    if isinstance(c, VoidHandIn):
        return hand.VoidHand(c.reason, c.in_stub)
    if isinstance(c, OpenTableIn):
        return table_commands.OpenTable(c.table, c.seat_count, c.profile, c.tournament)
    if isinstance(c, SeatPlayerIn):
        return table_commands.SeatPlayer(c.seat, c.player, c.stack, c.waits, c.reason)
    if isinstance(c, RemovePlayerIn):
        return table_commands.RemovePlayer(c.seat, c.reason)
    if isinstance(c, PlaceButtonIn):
        return table_commands.PlaceButton(c.seat, c.reason)
    if isinstance(c, AdjustStackIn):
        return table_commands.AdjustStack(c.seat, c.amount, c.reason, c.rule)
    if isinstance(c, SetAbsenceIn):
        return table_commands.SetAbsence(c.seat, c.absent)
    if isinstance(c, StartHandIn):
        chosen = Level(**c.level.model_dump()) if c.level is not None else level
        if chosen is None:
            raise RuleViolation("level", "no level is known for this table: the director "
                                "starts the tournament's levels first", ("start the clock",))
        return table_commands.StartHand(chosen, c.hand_number, c.final_table)
    if isinstance(c, UndoIn):
        return table_commands.Undo(c.reason)
    if isinstance(c, AmendAmountIn):
        return table_commands.AmendAmount(c.version, c.to, c.reason, c.rule)
    assert isinstance(c, VoidEventsIn)
    return table_commands.VoidEvents(tuple(c.versions), c.reason, c.rule)


# --- the floor's tournament commands (director only) ---------------------------------------
# Defined once, in engine/tournament_commands.py (their limits ride on their fields); the API
# validates a body's command as one of them, told apart by `type`.

TournamentCommandIn = Annotated[TournamentCommand, Field(discriminator="type")]
