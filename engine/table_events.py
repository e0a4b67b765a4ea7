"""Table and correction events: the table's own stream between and around hands (seats,
button, stacks, imports, carried pots) and the corrections of earlier events.

Apart from the hand events (engine/events.py), so that replaying hands (`phh verify`) builds
none of these classes at start-up; `engine.events.all_event_types()` lists them all.
"""

from __future__ import annotations

from typing import ClassVar

from handlog.engine.values import record

# --- table events (the table's stream, between and around hands) ---------------------------


@record
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


@record
class PlayerSeated:
    """A player takes a seat with `stack` chips; `waits` when he must let the button pass."""

    TYPE: ClassVar[str] = "player_seated"
    VERSION: ClassVar[int] = 2  # 2: reason codes (late_entry, not 'late entry')
    seat: int
    player: str
    stack: int
    waits: bool = False
    reason: str = "draw"


@record
class PlayerLeft:
    """A player leaves the table with `stack` chips: eliminated (0), moved, or withdrawn."""

    TYPE: ClassVar[str] = "player_left"
    VERSION: ClassVar[int] = 1
    seat: int
    player: str
    stack: int
    reason: str


@record
class ButtonPlaced:
    """The button's seat for the first hand (from the draw), or moved by a director's ruling."""

    TYPE: ClassVar[str] = "button_placed"
    # 2: reason codes, not sentences; 3: the seat draw's button, stored at 2 as the words
    # 'draw for the button' (the other draws wrote the code), is the code button_draw too.
    VERSION: ClassVar[int] = 3
    seat: int
    reason: str = "button_draw"


@record
class HandImported:
    """The next hand of an imported table stream (`handlog import --into-log`) was read from
    another system's hand history: the file, the hand's id there and its format
    (pokerstars, ohh, phh), and when the file says it was played (`2026-12-06T22:01:14Z`,
    UTC; "" when it does not). A fact about where the hand comes from; the seats, the button
    and the hand itself follow as the usual events.

    `stream` and `versions` are the hand's coordinates in the log that recorded it, when the
    file gives them (handlog's own exports: PHH `_stream` and `_versions`, OHH
    `handlog.stream` and `versions`): the versions of its first and last events, then those
    of the rulings its notes list, in their order ("" and (): the file gives none)."""

    TYPE: ClassVar[str] = "hand_imported"
    VERSION: ClassVar[int] = 3  # 2: played_at; 3: the recording log's stream and versions
    source: str
    hand_id: str
    format: str
    played_at: str = ""
    stream: str = ""
    versions: tuple[int, ...] = ()


@record
class StackAdjusted:
    """Chips added or removed outside a hand (color-up, penalty, late-entry deduction)."""

    TYPE: ClassVar[str] = "stack_adjusted"
    VERSION: ClassVar[int] = 2  # 2: reason code color_up and rule identifiers, not sentences
    seat: int
    player: str
    amount: int
    reason: str
    rule: str = ""


@record
class SeatAbsenceChanged:
    """A seated player is away from (or back at) the table between hands."""

    TYPE: ClassVar[str] = "seat_absence_changed"
    VERSION: ClassVar[int] = 1
    seat: int
    absent: bool


@record
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


@record
class EventVoided:
    """A correction: earlier events of this stream no longer count. They stay in the log."""

    TYPE: ClassVar[str] = "event_voided"
    VERSION: ClassVar[int] = 2  # 2: reason code undo, rule identifiers
    versions: tuple[int, ...]
    reason: str
    rule: str = ""


@record
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

