"""The director's tournament commands, defined once: the floor sends them as JSON with these
field names (`{"type": "move", "player": "p7", "to_table": "2"}`), the HTTP layer validates
them as these types (the limits ride on the fields, engine/limits.py) and the recorder
records each through the engine's decision.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any, ClassVar, Literal

from handlog.engine.limits import (
    MAX_NAME_KEY,
    Chips,
    Limit,
    Name,
    Reason,
    Rule,
    SeatOrNone,
    described,
    reason_problem,
)
from handlog.engine.table import MAX_SEATS


def _type_required(schema: dict[str, Any], _cls: type) -> None:
    # `type` has a default for the engine's callers, but every JSON command must say it.
    schema["required"] = ["type", *schema.get("required", [])]


# Unknown fields are refused, `type` is required (pydantic reads this plain dict).
_STRICT: dict[str, Any] = {"extra": "forbid", "json_schema_extra": _type_required}


@dataclass(frozen=True, kw_only=True)
class Register:
    __pydantic_config__: ClassVar[dict[str, Any]] = _STRICT
    type: Literal["register"] = "register"
    name: Name
    high_hand: Annotated[bool, described("paid the high-hand jackpot's fee")] = False
    person: Annotated[str, Limit(max_length=MAX_NAME_KEY, description="the room's player id "
                                 "(generated when omitted); a person out re-enters with it")] = ""


@dataclass(frozen=True, kw_only=True)
class ReEnter:
    """A re-entry: a new entry of the person whose entry `player` is out."""

    __pydantic_config__: ClassVar[dict[str, Any]] = _STRICT
    type: Literal["re_enter"] = "re_enter"
    player: Annotated[str, Limit(min_length=1, max_length=MAX_NAME_KEY)]


@dataclass(frozen=True, kw_only=True)
class Rebuy:
    """A rebuy by `player` (an entry in play), at the stack his table has."""

    __pydantic_config__: ClassVar[dict[str, Any]] = _STRICT
    type: Literal["rebuy"] = "rebuy"
    player: Annotated[str, Limit(min_length=1, max_length=MAX_NAME_KEY)]


@dataclass(frozen=True, kw_only=True)
class AddOn:
    """The add-on by `player`, at the structure's break."""

    __pydantic_config__: ClassVar[dict[str, Any]] = _STRICT
    type: Literal["add_on"] = "add_on"
    player: Annotated[str, Limit(min_length=1, max_length=MAX_NAME_KEY)]


@dataclass(frozen=True, kw_only=True)
class DrawSeats:
    __pydantic_config__: ClassVar[dict[str, Any]] = _STRICT
    type: Literal["draw_seats"] = "draw_seats"
    tables: Annotated[int, Limit(ge=1, le=10_000)]
    seed: Annotated[int | None, Limit(ge=0, le=2**63 - 1, description="recorded with the "
                                      "draw; random when omitted")] = None


@dataclass(frozen=True, kw_only=True)
class StartLevel:
    __pydantic_config__: ClassVar[dict[str, Any]] = _STRICT
    type: Literal["start_level"] = "start_level"
    ruling: Annotated[Reason, described("the director's reason to skip a scheduled break or "
                                        "color-up")] = ""


@dataclass(frozen=True, kw_only=True)
class StartBreak:
    __pydantic_config__: ClassVar[dict[str, Any]] = _STRICT
    type: Literal["start_break"] = "start_break"
    minutes: Annotated[int, Limit(ge=0, le=24 * 60,
                                  description="0: the scheduled break's length")] = 0


@dataclass(frozen=True, kw_only=True)
class EndBreak:
    __pydantic_config__: ClassVar[dict[str, Any]] = _STRICT
    type: Literal["end_break"] = "end_break"


@dataclass(frozen=True, kw_only=True)
class ColorUp:
    __pydantic_config__: ClassVar[dict[str, Any]] = _STRICT
    type: Literal["color_up"] = "color_up"


@dataclass(frozen=True, kw_only=True)
class DecideAntes:
    """The ante checkpoint: the engine counts the players left against the structure's."""

    __pydantic_config__: ClassVar[dict[str, Any]] = _STRICT
    type: Literal["decide_antes"] = "decide_antes"


@dataclass(frozen=True, kw_only=True)
class Move:
    __pydantic_config__: ClassVar[dict[str, Any]] = _STRICT
    type: Literal["move"] = "move"
    player: Name
    to_table: Name
    to_seat: SeatOrNone = 0
    reason: Reason = "balance"
    rule: Rule = ""


@dataclass(frozen=True, kw_only=True)
class Balance:
    __pydantic_config__: ClassVar[dict[str, Any]] = _STRICT
    type: Literal["balance"] = "balance"


@dataclass(frozen=True, kw_only=True)
class BreakTable:
    """Break the table the engine names (the floor view's `table_break`): one transaction."""

    __pydantic_config__: ClassVar[dict[str, Any]] = _STRICT
    type: Literal["break_table"] = "break_table"
    seed: Annotated[int | None, described("recorded with the draw; random when omitted")] = None


@dataclass(frozen=True, kw_only=True)
class AssignBounty:
    """The director's decision on a bounty the rules left open (the view's
    `bounties_referred`, with the engine's proposal)."""

    __pydantic_config__: ClassVar[dict[str, Any]] = _STRICT
    type: Literal["assign_bounty"] = "assign_bounty"
    player: str
    to: str


@dataclass(frozen=True, kw_only=True)
class AwardHighHand:
    """Confirm the high-hand jackpot: the engine's proposal, or the players named."""

    __pydantic_config__: ClassVar[dict[str, Any]] = _STRICT
    type: Literal["award_high_hand"] = "award_high_hand"
    players: tuple[str, ...] = ()


@dataclass(frozen=True, kw_only=True)
class HighHandFee:
    """Record that a player paid the high-hand jackpot's fee after his entry (or did not)."""

    __pydantic_config__: ClassVar[dict[str, Any]] = _STRICT
    type: Literal["high_hand_fee"] = "high_hand_fee"
    player: Annotated[str, Limit(max_length=MAX_NAME_KEY)]
    paid: bool = True


@dataclass(frozen=True, kw_only=True)
class Deal:
    """A deal at the final table: the method, each player's consent (player id -> the name
    he gives), an amount kept to play for, and for `typed` the amounts (player id -> cents)."""

    __pydantic_config__: ClassVar[dict[str, Any]] = _STRICT
    type: Literal["deal"] = "deal"
    method: Literal["icm", "chip_chop", "chip_chop_last_guaranteed", "typed"]
    consents: dict[str, str]
    kept: Annotated[int, Limit(ge=0)] = 0
    amounts: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True, kw_only=True)
class Penalty:
    """A penalty: a warning, missed hands or rounds (`count`), or disqualification; the rule
    it rests on and the reason."""

    __pydantic_config__: ClassVar[dict[str, Any]] = _STRICT
    type: Literal["penalty"] = "penalty"
    player: str
    penalty: Literal["warning", "hands", "rounds", "disqualification"]
    count: Annotated[int, Limit(ge=0, le=100)] = 0
    rule: Annotated[str, Limit(min_length=1, max_length=200)] = "tda-71"
    reason: Annotated[str, Limit(max_length=2000)] = ""


@dataclass(frozen=True, kw_only=True)
class Clock:
    """Pause or resume the level clock, or add (take off) seconds."""

    __pydantic_config__: ClassVar[dict[str, Any]] = _STRICT
    type: Literal["clock"] = "clock"
    action: Literal["pause", "resume", "add_time"]
    seconds: Annotated[int, Limit(ge=-4 * 3600, le=4 * 3600)] = 0
    reason: Annotated[str, Limit(max_length=200)] = ""


@dataclass(frozen=True, kw_only=True)
class Message:
    """The director's message to the room, on the clock screen ("": take it down)."""

    __pydantic_config__: ClassVar[dict[str, Any]] = _STRICT
    type: Literal["message"] = "message"
    text: Annotated[str, Limit(max_length=200, problem=reason_problem,
                               description="up to 200 characters; empty: take it down")] = ""


@dataclass(frozen=True, kw_only=True)
class Ruling:
    __pydantic_config__: ClassVar[dict[str, Any]] = _STRICT
    type: Literal["ruling"] = "ruling"
    rule: Annotated[Rule, Limit(min_length=1)]
    text: Annotated[Reason, Limit(min_length=1)]
    stream: Annotated[str, Limit(max_length=200,
                                 description="the table stream the ruling affects")] = ""
    version: Annotated[int, Limit(ge=0)] = 0


@dataclass(frozen=True, kw_only=True)
class CountStacks:
    """The floor's counted stacks at a table (player id -> chips), at a break or at the end
    of a day; the engine sets each beside the stack the log computes."""

    __pydantic_config__: ClassVar[dict[str, Any]] = _STRICT
    type: Literal["count_stacks"] = "count_stacks"
    table: Annotated[Name, described("the table's name in the tournament")]
    occasion: Literal["break", "end_of_day"] = "break"
    stacks: Annotated[dict[Annotated[str, Limit(max_length=MAX_NAME_KEY)], Chips],
                      Limit(min_length=1, max_length=MAX_SEATS)]


@dataclass(frozen=True, kw_only=True)
class CorrectStack:
    """The director settles a count that differs from the log: the player's stack is ruled
    `stack` (omitted: the counted stack), with the reason."""

    __pydantic_config__: ClassVar[dict[str, Any]] = _STRICT
    type: Literal["correct_stack"] = "correct_stack"
    player: Annotated[str, Limit(max_length=MAX_NAME_KEY)]
    reason: Annotated[Reason, Limit(min_length=1)]
    stack: Chips | None = None


@dataclass(frozen=True, kw_only=True)
class HandForHand:
    """Hand-for-hand on (every table waits for the others after each hand) or off."""

    __pydantic_config__: ClassVar[dict[str, Any]] = _STRICT
    type: Literal["hand_for_hand"] = "hand_for_hand"
    on: bool


@dataclass(frozen=True, kw_only=True)
class Settle:
    """Settle the hand just ended at a table (eliminations, places, bounties)."""

    __pydantic_config__: ClassVar[dict[str, Any]] = _STRICT
    type: Literal["settle"] = "settle"
    table: Annotated[Name, described("the table's name in the tournament")]


@dataclass(frozen=True, kw_only=True)
class BagStack:
    """At the end of a day: `player`'s counted stack put in bag `bag`, the count confirmed
    by the director giving the command."""

    __pydantic_config__: ClassVar[dict[str, Any]] = _STRICT
    type: Literal["bag_stack"] = "bag_stack"
    player: Annotated[str, Limit(min_length=1, max_length=MAX_NAME_KEY)]
    chips: Chips
    bag: Annotated[str, Limit(min_length=1, max_length=40,
                              description="the number on the bag")]


@dataclass(frozen=True, kw_only=True)
class EndDay:
    """The day (a flight) ends without a winner, every stack in play bagged."""

    __pydantic_config__: ClassVar[dict[str, Any]] = _STRICT
    type: Literal["end_day"] = "end_day"


@dataclass(frozen=True, kw_only=True)
class StartDay:
    """A next day takes the survivors of the logs `sources` (its event's earlier flights or
    day), each with his bagged stack; the seats are then drawn (`draw_seats`)."""

    __pydantic_config__: ClassVar[dict[str, Any]] = _STRICT
    type: Literal["start_day"] = "start_day"
    sources: Annotated[tuple[Annotated[str, Limit(min_length=1, max_length=MAX_NAME_KEY)], ...],
                       Limit(min_length=1, max_length=100)]


TournamentCommand = (
    Register | ReEnter | Rebuy | AddOn | DrawSeats | StartLevel | StartBreak | EndBreak
    | ColorUp | DecideAntes | Move
    | Balance | BreakTable | AssignBounty | AwardHighHand | HighHandFee | Deal | Penalty
    | Clock | Ruling | Settle | CountStacks | CorrectStack | HandForHand | BagStack | EndDay
    | StartDay | Message
)
"""Every tournament command; `type` tells them apart."""
