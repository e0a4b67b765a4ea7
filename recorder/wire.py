"""The floor's tournament commands as JSON (the hand and table commands are validated straight
into the engine's dataclasses: recorder/command_json.py)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from handlog.engine.table import MAX_SEATS
from handlog.recorder.limits import Chips, Name, Reason, Rule

MAX_NAME_KEY = 80
"""The longest player id a command names."""


class _Command(BaseModel):
    model_config = ConfigDict(extra="forbid")


# --- the floor's tournament commands (director only) ---------------------------------------


class RegisterIn(_Command):
    type: Literal["register"]
    name: Name
    high_hand: bool = Field(False, description="paid the high-hand jackpot's fee")


class DrawSeatsIn(_Command):
    type: Literal["draw_seats"]
    tables: int = Field(ge=1, le=10_000)
    seed: int | None = Field(None, ge=0, le=2**63 - 1,
                             description="recorded with the draw; random when omitted")


class StartLevelIn(_Command):
    type: Literal["start_level"]
    ruling: Reason = Field("", description="the director's reason to skip a scheduled break "
                           "or color-up")


class StartBreakIn(_Command):
    type: Literal["start_break"]
    minutes: int = Field(0, ge=0, le=24 * 60, description="0: the scheduled break's length")


class EndBreakIn(_Command):
    type: Literal["end_break"]


class ColorUpIn(_Command):
    type: Literal["color_up"]


class DecideAntesIn(_Command):
    """The ante checkpoint: the engine counts the players left against the structure's."""

    type: Literal["decide_antes"]


class MoveIn(_Command):
    type: Literal["move"]
    player: Name
    to_table: Name
    to_seat: int = Field(0, ge=0, le=MAX_SEATS, description="0: the seat the engine picks")
    reason: Reason = "balance"
    rule: Rule = ""


class BalanceIn(_Command):
    type: Literal["balance"]


class BreakTableIn(_Command):
    """Break the table the engine names (the floor view's `table_break`): one transaction."""

    type: Literal["break_table"]
    seed: int | None = Field(None, description="recorded with the draw; random when omitted")


class AssignBountyIn(_Command):
    """The director's decision on a bounty the rules left open (the view's
    `bounties_referred`, with the engine's proposal)."""

    type: Literal["assign_bounty"]
    player: str
    to: str


class AwardHighHandIn(_Command):
    """Confirm the high-hand jackpot: the engine's proposal, or the players named."""

    type: Literal["award_high_hand"]
    players: list[str] = Field(default_factory=list)


class DealIn(_Command):
    """A deal at the final table: the method, each player's consent (player id -> the name
    he gives), an amount kept to play for, and for `typed` the amounts (player id -> cents)."""

    type: Literal["deal"]
    method: Literal["icm", "chip_chop", "chip_chop_last_guaranteed", "typed"]
    consents: dict[str, str]
    kept: int = Field(0, ge=0)
    amounts: dict[str, int] = Field(default_factory=dict)


class PenaltyIn(_Command):
    """A penalty: a warning, missed hands or rounds (`count`), or disqualification; the rule
    it rests on and the reason."""

    type: Literal["penalty"]
    player: str
    penalty: Literal["warning", "hands", "rounds", "disqualification"]
    count: int = Field(0, ge=0, le=100)
    rule: str = Field("tda-71", min_length=1, max_length=200)
    reason: str = Field("", max_length=2000)


class ClockIn(_Command):
    """Pause or resume the level clock, or add (take off) seconds."""

    type: Literal["clock"]
    action: Literal["pause", "resume", "add_time"]
    seconds: int = Field(0, ge=-4 * 3600, le=4 * 3600)
    reason: str = Field("", max_length=200)


class RulingIn(_Command):
    type: Literal["ruling"]
    rule: Rule = Field(min_length=1)
    text: Reason = Field(min_length=1)
    stream: str = Field("", max_length=200, description="the table stream the ruling affects")
    version: int = Field(0, ge=0)


class CountStacksIn(_Command):
    """The floor's counted stacks at a table (player id -> chips), at a break or at the end
    of a day; the engine sets each beside the stack the log computes."""

    type: Literal["count_stacks"]
    table: Name = Field(description="the table's name in the tournament")
    occasion: Literal["break", "end_of_day"] = "break"
    stacks: dict[Annotated[str, Field(max_length=MAX_NAME_KEY)], Chips] = Field(
        min_length=1, max_length=MAX_SEATS)


class CorrectStackIn(_Command):
    """The director settles a count that differs from the log: the player's stack is ruled
    `stack` (omitted: the counted stack), with the reason."""

    type: Literal["correct_stack"]
    player: Annotated[str, Field(max_length=MAX_NAME_KEY)]
    reason: Reason = Field(min_length=1)
    stack: Chips | None = None


class HandForHandIn(_Command):
    """Hand-for-hand on (every table waits for the others after each hand) or off."""

    type: Literal["hand_for_hand"]
    on: bool


class SettleIn(_Command):
    type: Literal["settle"]
    table: Name = Field(description="the table's name in the tournament")


TournamentCommandIn = Annotated[
    RegisterIn | DrawSeatsIn | StartLevelIn | StartBreakIn | EndBreakIn | ColorUpIn
    | DecideAntesIn | MoveIn
    | BalanceIn | BreakTableIn | AssignBountyIn | AwardHighHandIn | DealIn | PenaltyIn
    | ClockIn | RulingIn | SettleIn | CountStacksIn | CorrectStackIn | HandForHandIn,
    Field(discriminator="type"),
]
