"""Hand and table commands as JSON: `{"type": "bet_raise", "player": 2, "to": 600}` validated
straight into the engine's own dataclass (engine/commands.py, engine/table_commands.py).

The engine stays standard-library only (the tablet runs it under Pyodide), so what the wire
adds lives here: each command's JSON tag (`TAGS`), the limits of its fields (`LIMITS`, a
field's name says what it holds; `PER_COMMAND` where a name means something else), and how
text cards become the engine's card numbers. `COMMAND` is one pydantic TypeAdapter over the
union, keyed by the tag; a bad field is a 422 naming it, an unknown card the engine's `cards`
rule. Hand commands name players by position in the hand (engine/commands.py); table
commands name seats.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any, Literal, Union

from pydantic import AfterValidator, Discriminator, Field, GetCoreSchemaHandler, Tag, TypeAdapter
from pydantic_core import core_schema

from handlog.engine import commands as hand
from handlog.engine import table_commands as table
from handlog.engine.cards import Card, parse_card, parse_cards
from handlog.engine.errors import RuleViolation
from handlog.engine.profiles import PROFILES
from handlog.engine.table import MAX_CHIPS, MAX_SEATS, MIN_SEATS, Level
from handlog.recorder.limits import Chips, Name, Position, Reason, Rule, Seat, SignedChips

TAGS: dict[str, type[Any]] = {
    "fold": hand.Fold, "check_call": hand.CheckCall, "bet_raise": hand.BetRaise,
    "push_chips": hand.PushChips, "act_out_of_turn": hand.ActOutOfTurn,
    "deal_hole": hand.DealHole, "deal_board": hand.DealBoard, "show_cards": hand.ShowCards,
    "muck_cards": hand.MuckCards, "award_pots": hand.AwardPots,
    "declare_misdeal": hand.DeclareMisdeal, "expose_card": hand.ExposeCard,
    "expose_board_early": hand.ExposeBoardEarly, "kill_hand": hand.KillHand,
    "expire_clock": hand.ExpireClock, "mark_absent": hand.MarkAbsent,
    "mark_returned": hand.MarkReturned, "void_hand": hand.VoidHand,
    "open_table": table.OpenTable, "seat_player": table.SeatPlayer,
    "remove_player": table.RemovePlayer, "place_button": table.PlaceButton,
    "adjust_stack": table.AdjustStack, "set_absence": table.SetAbsence,
    "start_hand": table.StartHand, "undo": table.Undo, "void_events": table.VoidEvents,
    "amend_amount": table.AmendAmount,
}
"""The JSON `type` of every command a tablet or the floor may send, and its engine class."""
TAG_OF = {cls: tag for tag, cls in TAGS.items()}

# Who may send what is the engine's (engine/table_commands.py DEALERS_COMMANDS), by tag here.
DEALER_COMMANDS = frozenset(tag for tag, cls in TAGS.items() if cls in table.DEALERS_COMMANDS)
DIRECTOR_COMMANDS = frozenset(TAGS)


def _known_profile(value: str) -> str:
    if value not in PROFILES:
        raise ValueError(f"unknown house-rule profile {value!r}; known profiles: "
                         f"{', '.join(PROFILES)}")
    return value


def _as_cards(text: str | list[str]) -> tuple[Card, ...]:
    # An unknown card is the engine's refusal (rule `cards`), not a malformed request: it
    # escapes the validation (RuleViolation is no ValueError) and the route answers it.
    try:
        return parse_cards(text if isinstance(text, str) else "".join(text))
    except ValueError as exc:
        raise RuleViolation("cards", str(exc)) from None


def _as_card(text: str) -> Card:
    try:
        return parse_card(text)
    except ValueError as exc:
        raise RuleViolation("cards", str(exc)) from None


CardsText = Annotated[str, Field(max_length=20)] | Annotated[
    list[Annotated[str, Field(max_length=3)]], Field(max_length=5)]
Cards = Annotated[CardsText, AfterValidator(_as_cards)]
Profile = Annotated[str, Field(max_length=40, description="a house-rule profile: "
                               + ", ".join(PROFILES)), AfterValidator(_known_profile)]
Positions = Annotated[tuple[Position, ...], Field(max_length=10)]

_ABSENT = dataclasses.MISSING


def wire_fields(cls: type[Any]) -> dict[str, tuple[Any, Any]]:
    """The JSON fields of `cls`: name -> (validated as, default or _ABSENT: required)."""
    hints = {f.name: f for f in dataclasses.fields(cls)}
    fields: dict[str, tuple[Any, Any]] = {}
    for name, field in hints.items():
        if name in NOT_SENT.get(cls, ()):
            continue
        annotation, default = PER_COMMAND.get((cls, name)) or LIMITS.get(name) or (
            field.type, _ABSENT)
        if isinstance(annotation, str):
            annotation = {"int": int, "str": str, "bool": bool}[annotation]
        fields[name] = (annotation, field.default if default is _ABSENT else default)
    return fields | EXTRA.get(cls, {})


@dataclasses.dataclass(frozen=True)
class Wire:
    """Annotated metadata: validate the engine dataclass it annotates from its JSON object
    (the `type` tag, then its fields with the wire's limits; nothing else), building the
    engine's instance itself."""

    tag: str | None

    def __get_pydantic_core_schema__(self, source: type[Any],
                                     handler: GetCoreSchemaHandler) -> core_schema.CoreSchema:
        fields: dict[str, core_schema.TypedDictField] = {}
        if self.tag is not None:
            fields["type"] = core_schema.typed_dict_field(core_schema.literal_schema([self.tag]))
        for name, (annotation, default) in wire_fields(source).items():
            schema = handler.generate_schema(annotation)
            if default is not _ABSENT:
                schema = core_schema.with_default_schema(schema, default=default)
            fields[name] = core_schema.typed_dict_field(schema, required=default is _ABSENT)
        shape = core_schema.typed_dict_schema(
            fields, extra_behavior="forbid", ref=f"wire.{source.__name__}",
            config=core_schema.CoreConfig(title=source.__name__))
        reshape = RESHAPE.get(source)

        def build(data: dict[str, Any]) -> Any:
            data.pop("type", None)
            return source(**(reshape(data) if reshape else data))

        return core_schema.no_info_after_validator_function(build, shape)


def _tag(value: Any) -> str | None:
    if isinstance(value, dict):
        tag = value.get("type")
        return tag if isinstance(tag, str) else None
    return TAG_OF.get(type(value))


LevelIn = Annotated[Level, Wire(None)]

LIMITS: dict[str, tuple[Any, Any]] = {
    # field name -> (the type the JSON is validated as, its default; _ABSENT: the class's own)
    "player": (Position, _ABSENT),
    "to": (Annotated[Chips, Field(description="the player's total for this street")], _ABSENT),
    "cards": (Cards, _ABSENT),
    "card": (Annotated[str, Field(max_length=3), AfterValidator(_as_card)], _ABSENT),
    "reason": (Reason, _ABSENT),
    "rule": (Rule, _ABSENT),
    "seat": (Seat, _ABSENT),
    "stack": (Chips, _ABSENT),
    "amount": (SignedChips, _ABSENT),
    "table": (Name, _ABSENT),
}
PER_COMMAND: dict[tuple[type[Any], str], tuple[Any, Any]] = {
    (hand.ActOutOfTurn, "player"): (int, _ABSENT),
    (hand.ActOutOfTurn, "action"): (Literal["fold", "check", "call", "bet", "raise"], _ABSENT),
    (hand.ActOutOfTurn, "to"): (Annotated[int, Field(
        description="the total of a bet or raise out of turn")], _ABSENT),
    (hand.PushChips, "player"): (int, _ABSENT),
    (hand.PushChips, "said"): (
        Literal["nothing", "call", "raise", "raise_to", "raise_by", "all_in"], _ABSENT),
    (hand.PushChips, "said_to"): (Annotated[int, Field(
        description="the number said: 'raise to N' (said raise_to) his street total, "
        "'raise N' (said raise_by) N more than the bet he faces")], _ABSENT),
    (hand.ExposeCard, "player"): (Annotated[int, Field(
        ge=-1, le=MAX_SEATS, description="-1: the player the card's place names")], -1),
    (hand.ExposeCard, "place"): (Annotated[int, Field(
        ge=0, le=2 * MAX_SEATS, description="which card of the deal it was (1: the first "
        "card dealt, left of the button); 0: not said")], 0),
    (hand.DealHole, "cards"): (Annotated[CardsText | None, Field(
        description="omit when the dealer does not know them"),
        AfterValidator(lambda text: _as_cards(text) if text else None)], None),
    (hand.AwardPots, "winners"): (Annotated[tuple[Positions, ...] | None, Field(
        max_length=10, description="a director's override, one list of positions per pot")],
        None),
    (hand.AwardPots, "ruling"): (Rule, ""),
    (hand.DeclareMisdeal, "reason"): (Reason, "misdeal"),
    (hand.ExpireClock, "seconds"): (Annotated[int, Field(
        description="seconds since the clock was called (-1: the floor says the time is up)")],
        _ABSENT),
    (hand.VoidHand, "in_stub"): (Annotated[bool, Field(
        description="the card was found in the stub (undealt): all action stands, nothing is "
        "voided")], _ABSENT),
    (table.OpenTable, "seat_count"): (Annotated[int, Field(ge=MIN_SEATS, le=MAX_SEATS)], _ABSENT),
    (table.OpenTable, "profile"): (Profile, "tda"),
    (table.OpenTable, "tournament"): (Annotated[str, Field(max_length=80)], _ABSENT),
    (table.SeatPlayer, "player"): (Name, _ABSENT),
    (table.StartHand, "level"): (Annotated[LevelIn | None, Field(
        description="a director's explicit level; else the tournament's current level")],
        None),
    (table.StartHand, "hand_number"): (Annotated[int, Field(ge=0, le=10**9)], _ABSENT),
    (table.VoidEvents, "versions"): (Annotated[tuple[Annotated[int, Field(ge=1)], ...], Field(
        min_length=1, max_length=1000)], _ABSENT),
    (table.AmendAmount, "version"): (Annotated[int, Field(ge=1)], _ABSENT),
    (table.AmendAmount, "to"): (Annotated[int, Field(gt=0, le=MAX_CHIPS)], _ABSENT),
    (Level, "small_blind"): (Chips, _ABSENT),
    (Level, "big_blind"): (Annotated[int, Field(gt=0, le=MAX_CHIPS)], _ABSENT),
    (Level, "ante"): (Chips, _ABSENT),
    (Level, "ante_kind"): (Literal["none", "uniform", "big_blind"], _ABSENT),
    (Level, "number"): (Annotated[int, Field(ge=0, le=10_000)], _ABSENT),
    (Level, "chip_unit"): (Annotated[int, Field(gt=0, le=MAX_CHIPS)], _ABSENT),
    (Level, "denominations"): (Annotated[tuple[Annotated[int, Field(gt=0, le=MAX_CHIPS)], ...],
                                         Field(max_length=32, description=(
        "the values of the chips in play, smallest first (the smallest is chip_unit); empty: "
        "any multiple of chip_unit"))], _ABSENT),
}
NOT_SENT: dict[type[Any], frozenset[str]] = {
    # fields the engine fills in, never the wire: the players serving a penalty (the floor's)
    table.StartHand: frozenset({"penalized"}),
    # the chip tray's motions arrive as lists of chips (`_push_chips` makes the two fields)
    hand.PushChips: frozenset({"chips", "motions"}),
}
EXTRA: dict[type[Any], dict[str, tuple[Any, Any]]] = {
    hand.PushChips: {"motions": (Annotated[list[list[int]], Field(
        description="the chips put out, motion by motion: each chip's value, e.g. "
        "[[500, 500], [100]] for two 500s and then a 100")], [])},
}


def _push_chips(fields: dict[str, Any]) -> dict[str, Any]:
    motions: list[list[int]] = fields.pop("motions")
    fields["chips"] = tuple(chip for motion in motions for chip in motion)
    fields["motions"] = tuple(len(m) for m in motions) if len(motions) > 1 else ()
    return fields


RESHAPE: dict[type[Any], Callable[[dict[str, Any]], dict[str, Any]]] = {
    hand.PushChips: _push_chips}



if TYPE_CHECKING:
    CommandIn = table.TableCommand
else:
    CommandIn = Annotated[
        Union[tuple(Annotated[cls, Wire(tag), Tag(tag)] for tag, cls in TAGS.items())],  # noqa: UP007
        Discriminator(_tag),
    ]
"""A hand or table command as JSON, validated into the engine's dataclass."""
COMMAND: TypeAdapter[table.TableCommand] = TypeAdapter(CommandIn)
