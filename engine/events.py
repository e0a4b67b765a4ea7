"""Hand events: facts in the past tense, with stable snake_case type names and int chips.

Players are positions in the hand (see engine.commands); cards are text ("As") so that the log
reads without a decoder. Each class carries `TYPE` (its stored name, never renamed) and
`VERSION` (bumped with an upcaster in schema/ when its fields change).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from handlog.engine.values import fast_init


@dataclass(frozen=True, slots=True)
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


@dataclass(frozen=True, slots=True)
class ChipsPosted:
    """A forced post: kind is "ante", "small_blind", "big_blind" or "straddle"."""

    TYPE: ClassVar[str] = "chips_posted"
    VERSION: ClassVar[int] = 1
    player: int
    kind: str
    amount: int
    all_in: bool = False


@dataclass(frozen=True, slots=True)
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


@dataclass(frozen=True, slots=True)
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


@dataclass(frozen=True, slots=True)
class HoleCardsDealt:
    """Two cards dealt to a player; `cards` is empty when they are not known to the recorder."""

    TYPE: ClassVar[str] = "hole_cards_dealt"
    VERSION: ClassVar[int] = 1
    player: int
    cards: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class PlayerFolded:
    TYPE: ClassVar[str] = "player_folded"
    VERSION: ClassVar[int] = 1
    player: int


@dataclass(frozen=True, slots=True)
class PlayerChecked:
    TYPE: ClassVar[str] = "player_checked"
    VERSION: ClassVar[int] = 1
    player: int


@dataclass(frozen=True, slots=True)
class PlayerCalled:
    """Chips put in to match the bet: `amount` is what was added, `all_in` when short."""

    TYPE: ClassVar[str] = "player_called"
    VERSION: ClassVar[int] = 1
    player: int
    amount: int
    all_in: bool = False


@dataclass(frozen=True, slots=True)
class BetMade:
    """First bet of a street, to `to` (the player's street total)."""

    TYPE: ClassVar[str] = "bet_made"
    VERSION: ClassVar[int] = 1
    player: int
    to: int
    all_in: bool = False


@dataclass(frozen=True, slots=True)
class RaiseMade:
    """A raise to `to` (street total); `full` is False for an all-in short of a full raise."""

    TYPE: ClassVar[str] = "raise_made"
    VERSION: ClassVar[int] = 1
    player: int
    to: int
    all_in: bool = False
    full: bool = True


@dataclass(frozen=True, slots=True)
class BoardDealt:
    TYPE: ClassVar[str] = "board_dealt"
    VERSION: ClassVar[int] = 1
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class CardsShown:
    TYPE: ClassVar[str] = "cards_shown"
    VERSION: ClassVar[int] = 1
    player: int
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class CardsMucked:
    TYPE: ClassVar[str] = "cards_mucked"
    VERSION: ClassVar[int] = 1
    player: int


@dataclass(frozen=True, slots=True)
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


@dataclass(frozen=True, slots=True)
class MisdealDeclared:
    """The deal is void: every post returned, re-dealt with the same button and limits.

    `cause` is a code (engine/words.py MISDEAL_CAUSES); `reason` the dealer's own words when
    he declared it ("declared"). Version 2: codes and rule identifiers instead of sentences."""

    TYPE: ClassVar[str] = "misdeal_declared"
    VERSION: ClassVar[int] = 2
    cause: str
    rules: tuple[str, ...]
    reason: str = ""


@dataclass(frozen=True, slots=True)
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


@dataclass(frozen=True, slots=True)
class BoardExposedEarly:
    """Board card(s) turned before the betting was complete, and the procedure that follows
    (a code: engine/words.py PROCEDURES). Version 2: codes and rule identifiers."""

    TYPE: ClassVar[str] = "board_exposed_early"
    VERSION: ClassVar[int] = 2
    cards: tuple[str, ...]
    procedure: str
    rules: tuple[str, ...]


@dataclass(frozen=True, slots=True)
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


@dataclass(frozen=True, slots=True)
class PlayerMarkedAbsent:
    TYPE: ClassVar[str] = "player_marked_absent"
    VERSION: ClassVar[int] = 1
    player: int


@dataclass(frozen=True, slots=True)
class PlayerReturned:
    TYPE: ClassVar[str] = "player_returned"
    VERSION: ClassVar[int] = 1
    player: int


@dataclass(frozen=True, slots=True)
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



# --- table events (the table's stream, between and around hands) ---------------------------


@dataclass(frozen=True, slots=True)
class TableOpened:
    """A table opened under the house rules `profile`; `parameters` are those rules as they
    were (canonical JSON of every parameter, engine.profiles.parameters_json), so its hands,
    which name their rules by digest, can be re-decided under them in a later release.
    Version 2 added `parameters` (empty in tables opened before)."""

    TYPE: ClassVar[str] = "table_opened"
    VERSION: ClassVar[int] = 2
    table: str
    seat_count: int
    profile: str
    tournament: str = ""
    parameters: str = ""


@dataclass(frozen=True, slots=True)
class PlayerSeated:
    """A player takes a seat with `stack` chips; `waits` when he must let the button pass."""

    TYPE: ClassVar[str] = "player_seated"
    VERSION: ClassVar[int] = 2  # 2: reason codes (late_entry, not 'late entry')
    seat: int
    player: str
    stack: int
    waits: bool = False
    reason: str = "draw"


@dataclass(frozen=True, slots=True)
class PlayerLeft:
    """A player leaves the table with `stack` chips: eliminated (0), moved, or withdrawn."""

    TYPE: ClassVar[str] = "player_left"
    VERSION: ClassVar[int] = 1
    seat: int
    player: str
    stack: int
    reason: str


@dataclass(frozen=True, slots=True)
class ButtonPlaced:
    """The button's seat for the first hand (from the draw), or moved by a director's ruling."""

    TYPE: ClassVar[str] = "button_placed"
    # 2: reason codes, not sentences; 3: the seat draw's button, stored at 2 as the words
    # 'draw for the button' (the other draws wrote the code), is the code button_draw too.
    VERSION: ClassVar[int] = 3
    seat: int
    reason: str = "button_draw"


@dataclass(frozen=True, slots=True)
class HandImported:
    """The next hand of an imported table stream (`handlog import --into-log`) was read from
    another system's hand history: the file, the hand's id there and its format
    (pokerstars, ohh, phh), and when the file says it was played (`2026-12-06T22:01:14Z`,
    UTC; "" when it does not). A fact about where the hand comes from; the seats, the button
    and the hand itself follow as the usual events."""

    TYPE: ClassVar[str] = "hand_imported"
    VERSION: ClassVar[int] = 2
    source: str
    hand_id: str
    format: str
    played_at: str = ""


@dataclass(frozen=True, slots=True)
class StackAdjusted:
    """Chips added or removed outside a hand (color-up, penalty, late-entry deduction)."""

    TYPE: ClassVar[str] = "stack_adjusted"
    VERSION: ClassVar[int] = 2  # 2: reason code color_up and rule identifiers, not sentences
    seat: int
    player: str
    amount: int
    reason: str
    rule: str = ""


@dataclass(frozen=True, slots=True)
class SeatAbsenceChanged:
    """A seated player is away from (or back at) the table between hands."""

    TYPE: ClassVar[str] = "seat_absence_changed"
    VERSION: ClassVar[int] = 1
    seat: int
    absent: bool


@dataclass(frozen=True, slots=True)
class PotCarried:
    """Chips that go into the table's next pot and belong to nobody until it is won: the odd
    chips forfeited at an Octobermuck buy-down, changed up ("awarded to the winner of the next
    hand")."""

    TYPE: ClassVar[str] = "pot_carried"
    VERSION: ClassVar[int] = 2  # 2: reason codes and rule identifiers, not sentences
    amount: int
    reason: str
    rule: str = ""
    # A hand-on between tables when one breaks: the other table (amount < 0: handed to it;
    # amount > 0: received from it). Empty for a color-up's own carry.
    other_table: str = ""


@dataclass(frozen=True, slots=True)
class EventVoided:
    """A correction: earlier events of this stream no longer count. They stay in the log."""

    TYPE: ClassVar[str] = "event_voided"
    VERSION: ClassVar[int] = 2  # 2: reason code undo, rule identifiers
    versions: tuple[int, ...]
    reason: str
    rule: str = ""


@dataclass(frozen=True, slots=True)
class EventAmended:
    """A correction: an earlier event counts as `replacement` (type, the schema version its
    payload was written at, and the canonical payload). Version 2 added
    `replacement_version` (version 1 amendments all replaced version 1 payloads)."""

    TYPE: ClassVar[str] = "event_amended"
    VERSION: ClassVar[int] = 3  # 3: rule identifiers
    version: int
    replacement_type: str
    replacement_payload: str
    reason: str
    rule: str = ""
    replacement_version: int = 1


CORRECTION_EVENT_TYPES: tuple[type, ...] = (EventVoided, EventAmended)

TABLE_EVENT_TYPES: tuple[type, ...] = (
    TableOpened, PlayerSeated, PlayerLeft, ButtonPlaced, StackAdjusted, SeatAbsenceChanged,
    PotCarried, HandImported,
)

TableEvent = (
    TableOpened | PlayerSeated | PlayerLeft | ButtonPlaced | StackAdjusted | SeatAbsenceChanged
    | PotCarried | HandImported
)


for _event_type in HAND_EVENT_TYPES + TABLE_EVENT_TYPES + CORRECTION_EVENT_TYPES:
    fast_init(_event_type)


def all_event_types() -> tuple[type, ...]:
    """Every event class the log can hold. The tournament's are imported only when asked for
    (the codec, the tablet's engine): replaying hands needs none of them, and they are a third
    of the engine's start-up."""
    from handlog.engine.tournament_events import TOURNAMENT_EVENT_TYPES

    return HAND_EVENT_TYPES + TABLE_EVENT_TYPES + CORRECTION_EVENT_TYPES + TOURNAMENT_EVENT_TYPES
