"""Hand events: facts in the past tense, with stable snake_case type names and int chips.

Players are positions in the hand (see engine.commands); cards are text ("As") so that the log
reads without a decoder. Each class carries `TYPE` (its stored name, never renamed) and
`VERSION` (bumped with an upcaster in schema/ when its fields change).
"""

from __future__ import annotations

from typing import ClassVar

from handlog.engine.values import record


@record
class HandStarted:
    """What the hand started with: enough to replay it on its own."""

    TYPE: ClassVar[str] = "hand_started"
    VERSION: ClassVar[int] = 4  # 2: dead_money; 3: rules_digest, handlog_version; 4: denominations
    hand_number: int
    players: tuple[str, ...]
    seats: tuple[int, ...]
    stacks: tuple[int, ...]
    blinds: tuple[int, ...]
    antes: tuple[int, ...]
    min_bet: int
    chip_unit: int
    profile: str
    button_seat: int
    level: int = 0
    small_blind_seat: int = 0
    big_blind_seat: int = 0
    absent: tuple[int, ...] = ()
    dead_money: int = 0  # in the pot before anything is posted, nobody's (a color-up carry)
    # The rules that decided the hand: the digest of the profile's parameters
    # (engine.profiles.profile_digest) and the handlog release; empty in hands recorded before
    # version 3, which are re-decided under today's profile of that name.
    rules_digest: str = ""
    handlog_version: str = ""
    # The values of the chips in play at the hand's level, smallest first (empty before
    # version 4: only chip_unit was recorded, and any multiple of it was a chip).
    denominations: tuple[int, ...] = ()


@record
class ChipsPosted:
    """A forced post: kind is "ante", "small_blind", "big_blind" or "straddle"."""

    TYPE: ClassVar[str] = "chips_posted"
    VERSION: ClassVar[int] = 1
    player: int
    kind: str
    amount: int
    all_in: bool = False


@record
class ChipsPushed:
    """What the dealer saw (the chips put out, in how many motions, what was said, the bounty
    chip) and how the engine ruled it under the profile: `ruled` ("check", "call", "bet" or
    "raise") to `to` (the street total; 0 for a check or call), for `reason` (a code, see
    engine.hand_push.REASONS) citing `rule`. The action event it is ruled as follows it."""

    TYPE: ClassVar[str] = "chips_pushed"
    VERSION: ClassVar[int] = 1
    player: int
    chips: tuple[int, ...]
    motions: tuple[int, ...]
    said: str
    said_to: int
    bounty_chip: bool
    ruled: str
    to: int
    reason: str
    rule: str


@record
class ActedOutOfTurn:
    """A player acted before his turn: `action` ("fold", "check", "call", "bet", "raise", with
    `to`) at bet `level`; pending until the action reaches him (`rule`: what then decides)."""

    TYPE: ClassVar[str] = "acted_out_of_turn"
    VERSION: ClassVar[int] = 1
    player: int
    action: str
    to: int
    level: int
    rule: str


@record
class HoleCardsDealt:
    """Two cards dealt to a player; `cards` is empty when they are not known to the recorder."""

    TYPE: ClassVar[str] = "hole_cards_dealt"
    VERSION: ClassVar[int] = 1
    player: int
    cards: tuple[str, ...] = ()


@record
class PlayerFolded:
    TYPE: ClassVar[str] = "player_folded"
    VERSION: ClassVar[int] = 1
    player: int


@record
class PlayerChecked:
    TYPE: ClassVar[str] = "player_checked"
    VERSION: ClassVar[int] = 1
    player: int


@record
class PlayerCalled:
    """Chips put in to match the bet: `amount` is what was added, `all_in` when short."""

    TYPE: ClassVar[str] = "player_called"
    VERSION: ClassVar[int] = 1
    player: int
    amount: int
    all_in: bool = False


@record
class BetMade:
    """First bet of a street, to `to` (the player's street total)."""

    TYPE: ClassVar[str] = "bet_made"
    VERSION: ClassVar[int] = 1
    player: int
    to: int
    all_in: bool = False


@record
class RaiseMade:
    """A raise to `to` (street total); `full` is False for an all-in short of a full raise."""

    TYPE: ClassVar[str] = "raise_made"
    VERSION: ClassVar[int] = 1
    player: int
    to: int
    all_in: bool = False
    full: bool = True


@record
class BoardDealt:
    TYPE: ClassVar[str] = "board_dealt"
    VERSION: ClassVar[int] = 1
    cards: tuple[str, ...]


@record
class CardsShown:
    TYPE: ClassVar[str] = "cards_shown"
    VERSION: ClassVar[int] = 1
    player: int
    cards: tuple[str, ...]


@record
class CardsMucked:
    TYPE: ClassVar[str] = "cards_mucked"
    VERSION: ClassVar[int] = 1
    player: int


@record
class PotAwarded:
    """One pot pushed: `shares[i]` chips to `winners[i]`; `odd_chips` to whom the odd chips went.

    `hand_rank` is the winning hand when it was shown down: its category code (0 high card ..
    8 straight flush) then the ranks it is named by (0 deuce .. 12 ace); engine/words.py says
    it in words. `ruling` is empty when the dealer confirmed the engine's award, else the
    director's words (with the rule he cited) overriding it. Version 2: `hand_rank` replaced
    the sentence `hand_name`.
    """

    TYPE: ClassVar[str] = "pot_awarded"
    VERSION: ClassVar[int] = 2
    pot: int
    amount: int
    eligible: tuple[int, ...]
    winners: tuple[int, ...]
    shares: tuple[int, ...]
    odd_chips: tuple[int, ...] = ()
    hand_rank: tuple[int, ...] = ()
    ruling: str = ""


@record
class MisdealDeclared:
    """The deal is void: every post returned, re-dealt with the same button and limits.

    `cause` is a code (engine/words.py MISDEAL_CAUSES); `reason` the dealer's own words when
    he declared it ("declared"). Version 2: codes and rule identifiers instead of sentences."""

    TYPE: ClassVar[str] = "misdeal_declared"
    VERSION: ClassVar[int] = 2
    cause: str
    rules: tuple[str, ...]
    reason: str = ""


@record
class CardExposed:
    """A hole card seen by the table; `in_deal` when the dealer exposed it while dealing.

    `consequence` is a code (engine/words.py CONSEQUENCES): "replaced_as_burn", "misdeal",
    "play_continues", "call_or_fold" or "hand_dead". Version 2: codes and rule identifiers;
version 3: the card's place in the deal."""

    TYPE: ClassVar[str] = "card_exposed"
    VERSION: ClassVar[int] = 3
    player: int
    card: str
    in_deal: bool
    consequence: str
    rules: tuple[str, ...]
    place: int = 0  # which card of the deal (1: the first dealt); 0: not said (version 3)


@record
class BoardExposedEarly:
    """Board card(s) turned before the betting was complete, and the procedure that follows
    (a code: engine/words.py PROCEDURES). Version 2: codes and rule identifiers."""

    TYPE: ClassVar[str] = "board_exposed_early"
    VERSION: ClassVar[int] = 2
    cards: tuple[str, ...]
    procedure: str
    rules: tuple[str, ...]


@record
class HandKilled:
    """A player's hand ruled dead; his chips already in stay in the pot.

    `cause` is a code (engine/words.py KILL_CAUSES); "ruling" is a director's, with his words
    in `reason`. Version 2: codes and rule identifiers instead of sentences."""

    TYPE: ClassVar[str] = "hand_killed"
    VERSION: ClassVar[int] = 2
    player: int
    cause: str
    rules: tuple[str, ...]
    reason: str = ""


@record
class PlayerMarkedAbsent:
    TYPE: ClassVar[str] = "player_marked_absent"
    VERSION: ClassVar[int] = 1
    player: int


@record
class PlayerReturned:
    TYPE: ClassVar[str] = "player_returned"
    VERSION: ClassVar[int] = 1
    player: int


@record
class HandVoided:
    """All action void and every chip returned to the player who put it in; `reason` is the
    dealer's words. Version 2: rule identifiers."""

    TYPE: ClassVar[str] = "hand_voided"
    VERSION: ClassVar[int] = 2
    reason: str
    rules: tuple[str, ...]


HandEvent = (
    HandStarted | ChipsPosted | HoleCardsDealt | PlayerFolded | PlayerChecked | PlayerCalled
    | BetMade | RaiseMade | BoardDealt | CardsShown | CardsMucked | PotAwarded | MisdealDeclared
    | CardExposed | BoardExposedEarly | HandKilled | PlayerMarkedAbsent | PlayerReturned
    | HandVoided | ChipsPushed | ActedOutOfTurn
)

HAND_EVENT_TYPES: tuple[type, ...] = (
    HandStarted, ChipsPosted, HoleCardsDealt, PlayerFolded, PlayerChecked, PlayerCalled,
    BetMade, RaiseMade, BoardDealt, CardsShown, CardsMucked, PotAwarded, MisdealDeclared,
    CardExposed, BoardExposedEarly, HandKilled, PlayerMarkedAbsent, PlayerReturned, HandVoided,
    ChipsPushed, ActedOutOfTurn,
)

def all_event_types() -> tuple[type, ...]:
    """Every event class the log can hold. The tournament's are imported only when asked for
    (the codec, the tablet's engine): replaying hands needs none of them, and they are a third
    of the engine's start-up."""
    from handlog.engine.table_events import CORRECTION_EVENT_TYPES, TABLE_EVENT_TYPES
    from handlog.engine.tournament_events import TOURNAMENT_EVENT_TYPES

    return HAND_EVENT_TYPES + TABLE_EVENT_TYPES + CORRECTION_EVENT_TYPES + TOURNAMENT_EVENT_TYPES
