"""What a dealer (or an import, or a simulation) asks the engine to record in a hand.

Players are referred to by position in the hand: 0 is the first player left of the button and
the last is the button (heads-up: 0 is the big blind, 1 the button who posts the small blind).
"""

from __future__ import annotations

from handlog.engine.cards import Card
from handlog.engine.values import record


@record
class Fold:
    player: int


@record
class CheckCall:
    """Check when nothing is owed, else call (all-in when the stack is short)."""

    player: int


@record
class BetRaise:
    """Bet or raise to `to`: the player's total for this street."""

    player: int
    to: int


SAID: tuple[str, ...] = ("nothing", "call", "raise", "raise_to", "raise_by", "all_in")
"""What a player may have said with his chips: nothing, "call", "raise", "raise to N"
(raise_to: N his street total), "raise N" (raise_by: N more than the bet he faces), "all-in";
the number said is `said_to`."""


@record
class PushChips:
    """What the dealer saw, for the engine to rule under the profile: the chips the player put
    out (`chips`: each chip's value, in the order pushed), in how many motions (`motions`: the
    number of chips of each motion; empty: one motion), what he said (one of SAID; `said_to`
    the N of "raise N", his total for the street) and, where the house has one, whether the
    bounty chip went in."""

    player: int
    chips: tuple[int, ...] = ()
    motions: tuple[int, ...] = ()
    said: str = "nothing"
    said_to: int = 0
    bounty_chip: bool = False


OUT_OF_TURN_ACTIONS: tuple[str, ...] = ("fold", "check", "call", "bet", "raise")


@record
class ActOutOfTurn:
    """A player acted before his turn (`action`, with `to` for a bet or raise): recorded as
    pending; when the action reaches him it binds, or is given back, as the profile says."""

    player: int
    action: str
    to: int = 0


@record
class DealHole:
    """Hole cards dealt to a player; None when the dealer does not know them (the usual case)."""

    player: int
    cards: tuple[Card, ...] | None = None


@record
class DealBoard:
    cards: tuple[Card, ...]


@record
class ShowCards:
    player: int
    cards: tuple[Card, ...]


@record
class MuckCards:
    player: int


@record
class AwardPots:
    """Confirm the engine's award of every pot, or override it with a ruling.

    `winners` (one tuple of positions per pot) replaces the engine's winners only together with
    a `ruling` naming the rule the director relied on.
    """

    winners: tuple[tuple[int, ...], ...] | None = None
    ruling: str = ""


@record
class DeclareMisdeal:
    reason: str


@record
class ExposeCard:
    """A hole card exposed: by the dealer in the deal (`in_deal`), or by the player himself.
    `place`: which card of the deal it was (1: the first card dealt, to the first player left
    of the button; with four players the big blind's second card is the 6th); 0: not said.
    With a place, `player` may be -1 (the player the place names)."""

    player: int
    card: Card
    in_deal: bool = True
    place: int = 0


@record
class ExposeBoardEarly:
    """Board card(s) turned before the betting round was complete."""

    cards: tuple[Card, ...]


@record
class KillHand:
    """A hand ruled dead (clock, foul, cards mucked by another player...)."""

    player: int
    reason: str
    rule: str


@record
class ExpireClock:
    """The clock ran out on the player to act: dead facing a bet, else checked. `seconds`:
    how long he has had since the clock was called (-1: the floor says the time is up)."""

    player: int
    seconds: int = -1


@record
class MarkAbsent:
    player: int


@record
class MarkReturned:
    player: int


@record
class VoidHand:
    """A foreign-back or duplicate card: all action void, every chip returned to its bettor.
    `in_stub`: the card was found in the stub (the undealt cards), which voids nothing."""

    reason: str
    in_stub: bool = False


Command = (
    Fold | CheckCall | BetRaise | PushChips | ActOutOfTurn | DealHole | DealBoard | ShowCards
    | MuckCards | AwardPots | DeclareMisdeal | ExposeCard | ExposeBoardEarly | KillHand
    | ExpireClock | MarkAbsent | MarkReturned | VoidHand
)
