"""Tournament events: the tournament's stream (registration, seats, levels, color-ups, moves,
eliminations, payouts, rulings).

Same conventions as engine/events.py: frozen slots dataclasses, `TYPE` a stable snake_case name
in the past tense, `VERSION` bumped with an upcaster when fields change, chips and money ints
(money in cents). Players are the tournament's player ids; tables are table names.
"""

from __future__ import annotations

from typing import ClassVar

from handlog.engine.structure import Structure
from handlog.engine.values import record


@record
class TournamentCreated:
    """The tournament and its whole structure, as it was when play was set up.

    A tournament rebuilt from hand histories (`handlog import --into-log`) keeps the number
    and the start (UTC, `2026-12-06T22:01:14Z`) they give it (OHH's `tournament_info`); ""
    for one set up here, whose number and start are its stream's."""

    TYPE: ClassVar[str] = "tournament_created"
    VERSION: ClassVar[int] = 4  # 2: the structure's re_entry, rebuy and add_on; 3: its days,
    # the money's guarantee and the satellite; 4: an imported tournament's number and start
    tournament: str
    structure: Structure
    number: str = ""
    started_at: str = ""


@record
class PlayerRegistered:
    """An entry: `stack` = starting stack - `chips_deducted` (a late entrant's penalty);
    `level` is the level running when he entered (0 before the start). `person` is the room's
    id of the person ("" in logs before v3: the entry is its own person) and `entry` which of
    his entries this is (1: his first; 2 and more: re-entries, paid at the structure's
    re-entry cost)."""

    TYPE: ClassVar[str] = "player_registered"
    VERSION: ClassVar[int] = 3  # 2: rule an identifier; 3: person and entry
    player: str
    name: str
    late: bool
    chips_deducted: int
    stack: int
    level: int = 0
    high_hand: bool = False
    rule: str = ""
    person: str = ""
    entry: int = 1


@record
class RebuyPurchased:
    """A rebuy: `player` (an entry) with `stack_before` chips bought `chips` for `paid` cents,
    `prize_pool` of them to the pool; `number` is the entry's rebuy count with this one, at
    `level`."""

    TYPE: ClassVar[str] = "rebuy_purchased"
    VERSION: ClassVar[int] = 1
    player: str
    chips: int
    paid: int
    prize_pool: int
    stack_before: int
    number: int
    level: int
    rule: str = "rebuy"


@record
class AddOnPurchased:
    """An add-on: `player` bought `chips` for `paid` cents (`prize_pool` to the pool) at the
    break after `after_level`."""

    TYPE: ClassVar[str] = "add_on_purchased"
    VERSION: ClassVar[int] = 1
    player: str
    chips: int
    paid: int
    prize_pool: int
    after_level: int
    rule: str = "add-on"


@record
class SeatAssignment:
    player: str
    table: str
    seat: int


@record
class SeatsDrawn:
    """Seats from a random draw: `order` is the drawn order of the players (derived from
    `seed` by the caller); `tables` are the tables in play from now on (opened if new)."""

    TYPE: ClassVar[str] = "seats_drawn"
    VERSION: ClassVar[int] = 3  # 2: reason codes (initial_draw, final_table_redraw); 3: the same,
    # after version 2 events of a random draw were written with the words "initial draw"
    seed: str
    tables: tuple[str, ...]
    assignments: tuple[SeatAssignment, ...]
    reason: str = "initial_draw"


@record
class TableClosed:
    """A table broken (its players moved or redrawn) or emptied."""

    TYPE: ClassVar[str] = "table_closed"
    VERSION: ClassVar[int] = 2  # 2: reason codes (table_broken, final_table_redraw)
    table: str
    reason: str


@record
class SeatCard:
    seat: int
    player: str
    card: str


@record
class ButtonDrawn:
    """The draw for the button: one card per seat; the highest card (rank, then suit: spades,
    hearts, diamonds, clubs) wins the button."""

    TYPE: ClassVar[str] = "button_drawn"
    VERSION: ClassVar[int] = 2  # 2: rule an identifier
    table: str
    cards: tuple[SeatCard, ...]
    seat: int
    rule: str = ""


@record
class LevelStarted:
    """The stakes now in force (the ante as decided at the checkpoint)."""

    TYPE: ClassVar[str] = "level_started"
    VERSION: ClassVar[int] = 1
    level: int
    small_blind: int
    big_blind: int
    ante: int
    ante_kind: str
    minutes: int
    chip_unit: int
    ruling: str = ""


@record
class BreakStarted:
    TYPE: ClassVar[str] = "break_started"
    VERSION: ClassVar[int] = 1
    after_level: int
    minutes: int
    scheduled: bool = True


@record
class BreakEnded:
    TYPE: ClassVar[str] = "break_ended"
    VERSION: ClassVar[int] = 1
    after_level: int


@record
class AntesDecided:
    """The checkpoint: antes are played after `after_level` only with enough players left."""

    TYPE: ClassVar[str] = "antes_decided"
    VERSION: ClassVar[int] = 1
    after_level: int
    players_remaining: int
    players_at_least: int
    antes_used: bool


@record
class ChipAdjustment:
    """One player's change at a color-up: `odd_chips` is what he held below the new unit,
    `amount` the signed change to his stack; `cards` his race cards (TDA chip race)."""

    player: str
    table: str
    stack_before: int
    odd_chips: int
    amount: int
    reason: str
    cards: tuple[str, ...] = ()


@record
class PotCarry:
    """Forfeited odd chips, changed up, going into the next pot at `table`."""

    table: str
    amount: int


@record
class ChipsColoredUp:
    """Denominations leaving play. The chips in play change by the sum of the adjustments plus
    the carries; `removed` is what left play altogether (positive) or was added (negative)."""

    TYPE: ClassVar[str] = "chips_colored_up"
    VERSION: ClassVar[int] = 2  # 2: rule an identifier, adjustment reasons codes
    after_level: int
    colours: tuple[str, ...]
    old_unit: int
    new_unit: int
    method: str
    adjustments: tuple[ChipAdjustment, ...]
    next_pots: tuple[PotCarry, ...]
    removed: int
    rule: str


@record
class PlayerMoved:
    TYPE: ClassVar[str] = "player_moved"
    VERSION: ClassVar[int] = 2  # 2: rule an identifier
    player: str
    from_table: str
    from_seat: int
    to_table: str
    to_seat: int
    stack: int
    reason: str = "balance"
    rule: str = ""


@record
class PlayerEliminated:
    """Out in hand `hand_number` at `table` (0: outside a hand), having started it with
    `chips_at_start`; `bounty_to` collects his bounty."""

    TYPE: ClassVar[str] = "player_eliminated"
    VERSION: ClassVar[int] = 2  # 2: rule an identifier
    player: str
    place: int
    table: str
    hand_number: int
    chips_at_start: int
    bounty_to: str = ""
    rule: str = ""


@record
class PlayerWithdrew:
    """A player leaving the tournament: his chips are removed from play."""

    TYPE: ClassVar[str] = "player_withdrew"
    VERSION: ClassVar[int] = 2  # 2: rule an identifier
    player: str
    place: int
    chips_removed: int
    rule: str = ""


@record
class PrizeAward:
    place: int
    player: str
    amount: int


@record
class SeatAward:
    """A seat in the satellite's `target` event, worth `value` cents, won at `place`."""

    place: int
    player: str
    value: int
    target: str


@record
class BountyAward:
    player: str
    bounties: int
    amount: int


@record
class PrizesAwarded:
    """The prize pool paid out (cents): places, shared places split, bounties collected."""

    TYPE: ClassVar[str] = "prizes_awarded"
    VERSION: ClassVar[int] = 3  # 2: rule an identifier (payouts:MIN-MAX); 3: overlay, seats
    pool: int
    field_size: int
    awards: tuple[PrizeAward, ...]
    bounties: tuple[BountyAward, ...] = ()
    unclaimed_bounties: int = 0
    rule: str = ""
    overlay: int = 0
    """The house's money added to reach the guarantee (part of `pool`)."""
    seats: tuple[SeatAward, ...] = ()
    """A satellite's seats (their value is part of `pool`; `awards` hold the cash)."""


@record
class JackpotShare:
    player: str
    amount: int


@record
class HighHandAwarded:
    """The high-hand jackpot (cents), split between equal hands."""

    TYPE: ClassVar[str] = "high_hand_awarded"
    VERSION: ClassVar[int] = 1
    hand: str
    pool: int
    shares: tuple[JackpotShare, ...]


@record
class RulingRecorded:
    """A director's decision, the rule it rests on, and the stream/version it affects."""

    TYPE: ClassVar[str] = "ruling_recorded"
    VERSION: ClassVar[int] = 2  # 2: rule identifiers
    rule: str
    text: str
    by: str
    stream: str = ""
    version: int = 0


@record
class PenaltyRecorded:
    TYPE: ClassVar[str] = "penalty_recorded"
    VERSION: ClassVar[int] = 2  # 2: rule identifiers
    player: str
    penalty: str
    rule: str
    text: str
    by: str
    hands: int = 0


@record
class TournamentFinished:
    """The tournament is over: `winner` first; in a satellite whose seats are shared equally,
    `sharing` are all the players left (the winner among them), who share first place."""

    TYPE: ClassVar[str] = "tournament_finished"
    VERSION: ClassVar[int] = 2  # 2: sharing
    winner: str
    sharing: tuple[str, ...] = ()


@record
class BountyReferred:
    """A bounty the rules do not settle (`code`: split_pot, no_pot): the director decides;
    `proposal` lists who could collect it, best first (the covering winners)."""

    TYPE: ClassVar[str] = "bounty_referred"
    VERSION: ClassVar[int] = 1
    player: str
    table: str
    hand_number: int
    proposal: tuple[str, ...]
    code: str


@record
class BountyAssigned:
    """The director's decision on a referred bounty: `to` collects `player`'s bounty."""

    TYPE: ClassVar[str] = "bounty_assigned"
    VERSION: ClassVar[int] = 1
    player: str
    to: str
    rule: str
    by: str


@record
class HighHandPosted:
    """A flush or better shown by a jackpot entrant that beats or equals the best so far:
    the five cards that play."""

    TYPE: ClassVar[str] = "high_hand_posted"
    VERSION: ClassVar[int] = 1
    player: str
    table: str
    hand_number: int
    cards: tuple[str, ...]


@record
class DealShare:
    """One player's part of a deal: his stack when it was made, the amount he takes now, and
    his consent (the name he gave)."""

    player: str
    stack: int
    amount: int
    consent: str


@record
class DealRecorded:
    """Players left agree to share the unpaid prize money (`method`: icm, chip_chop,
    chip_chop_last_guaranteed, typed); `kept` stays in play for the winner."""

    TYPE: ClassVar[str] = "deal_recorded"
    VERSION: ClassVar[int] = 1
    method: str
    unpaid: int
    kept: int
    shares: tuple[DealShare, ...]
    rule: str
    by: str


@record
class ClockPaused:
    """The level (or break) clock stopped with `seconds_left` to go."""

    TYPE: ClassVar[str] = "clock_paused"
    VERSION: ClassVar[int] = 1
    level: int
    seconds_left: int
    reason: str = ""


@record
class ClockResumed:
    TYPE: ClassVar[str] = "clock_resumed"
    VERSION: ClassVar[int] = 1
    level: int
    seconds_left: int


@record
class TimeAdded:
    """Seconds added to (negative: taken from) the running level or break."""

    TYPE: ClassVar[str] = "time_added"
    VERSION: ClassVar[int] = 1
    level: int
    seconds: int
    reason: str = ""


@record
class StackCount:
    """One player's counted stack beside the stack the log computes for him."""

    player: str
    counted: int
    computed: int


@record
class StacksCounted:
    """The floor counted the stacks at `table` (`occasion`: break, end_of_day) while level
    `level` was the last one played; a count that differs from the log's is open until the
    director settles it (stack_corrected)."""

    TYPE: ClassVar[str] = "stacks_counted"
    VERSION: ClassVar[int] = 1
    table: str
    occasion: str
    level: int
    counts: tuple[StackCount, ...]
    rule: str = ""


@record
class StackCorrected:
    """The director's stack adjustment settling a count: `amount` (signed) is added to the
    player's stack at `table`, `counted` and `computed` are the count's two numbers."""

    TYPE: ClassVar[str] = "stack_corrected"
    VERSION: ClassVar[int] = 1
    player: str
    table: str
    counted: int
    computed: int
    amount: int
    reason: str
    rule: str
    by: str


@record
class TableHand:
    table: str
    hand_number: int


@record
class HighHandFeeRecorded:
    """The director sets whether `player` paid the high-hand jackpot's fee (after his entry:
    paid late, or a tick lost at registration); the pool follows the entrants who paid."""

    TYPE: ClassVar[str] = "high_hand_fee_recorded"
    VERSION: ClassVar[int] = 1
    player: str
    paid: bool
    by: str = ""


@record
class HandForHandStarted:
    """Hand-for-hand from now on: `hands` is each table's last hand number when it began
    (round 1 is each table's next hand)."""

    TYPE: ClassVar[str] = "hand_for_hand_started"
    VERSION: ClassVar[int] = 1
    hands: tuple[TableHand, ...]
    rule: str


@record
class HandForHandEnded:
    TYPE: ClassVar[str] = "hand_for_hand_ended"
    VERSION: ClassVar[int] = 1
    rule: str


@record
class StackBagged:
    """At the end of a day (or a flight) `player`'s stack at `table` counted (`chips`, the
    log's stack) and put in bag `bag`, the count confirmed by the director `confirmed_by`,
    after level `level`."""

    TYPE: ClassVar[str] = "stack_bagged"
    VERSION: ClassVar[int] = 1
    player: str
    table: str
    chips: int
    bag: str
    confirmed_by: str
    level: int
    rule: str


@record
class DayEnded:
    """The day (or the flight) is over without a winner: `survivors` (entries, each with a
    bagged stack) advance to day `day` + 1 with `chips` between them; `prize_pool` (cents)
    goes with them to the next day."""

    TYPE: ClassVar[str] = "day_ended"
    VERSION: ClassVar[int] = 1
    event: str
    day: int
    flight: str
    survivors: tuple[str, ...]
    chips: int
    prize_pool: int
    level: int
    rule: str


@record
class BagSource:
    """A bag a next day's entry comes from: the earlier day's log, entry and bag, its chips,
    and whether they were carried (False: forfeited under the carry rule)."""

    tournament: str
    player: str
    bag: str
    chips: int
    carried: bool


@record
class DayStarted:
    """Day `day` of `event` takes the survivors of the logs `sources` (the earlier flights or
    day): `entries` entries were made there, `prize_pool` (cents) comes with them."""

    TYPE: ClassVar[str] = "day_started"
    VERSION: ClassVar[int] = 1
    event: str
    day: int
    sources: tuple[str, ...]
    entries: int
    prize_pool: int
    carry: str
    rule: str


@record
class StackCarried:
    """A person's entry into the next day (`player`, a new entry id of this log) with `chips`
    from his bags (`bags`: each bag of his, carried or forfeited under `DayStarted.carry`)."""

    TYPE: ClassVar[str] = "stack_carried"
    VERSION: ClassVar[int] = 1
    player: str
    name: str
    person: str
    chips: int
    bags: tuple[BagSource, ...]


@record
class MessagePosted:
    """The director's message to the room, shown on the clock screen: `text` is his own
    words, kept as typed (like a ruling's text; empty: the message taken down)."""

    TYPE: ClassVar[str] = "message_posted"
    VERSION: ClassVar[int] = 1
    text: str
    by: str


TournamentEvent = (
    TournamentCreated | PlayerRegistered | SeatsDrawn | TableClosed | ButtonDrawn | LevelStarted
    | BreakStarted | BreakEnded | AntesDecided | ChipsColoredUp | PlayerMoved | PlayerEliminated
    | PlayerWithdrew | PrizesAwarded | HighHandAwarded | RulingRecorded | PenaltyRecorded
    | TournamentFinished | BountyReferred | BountyAssigned | HighHandPosted | DealRecorded
    | ClockPaused | ClockResumed | TimeAdded | StacksCounted | StackCorrected
    | HandForHandStarted | HandForHandEnded | HighHandFeeRecorded | RebuyPurchased | AddOnPurchased
    | StackBagged | DayEnded | DayStarted | StackCarried | MessagePosted
)

TOURNAMENT_EVENT_TYPES: tuple[type, ...] = (
    TournamentCreated, PlayerRegistered, SeatsDrawn, TableClosed, ButtonDrawn, LevelStarted,
    BreakStarted, BreakEnded, AntesDecided, ChipsColoredUp, PlayerMoved, PlayerEliminated,
    PlayerWithdrew, PrizesAwarded, HighHandAwarded, RulingRecorded, PenaltyRecorded,
    TournamentFinished, BountyReferred, BountyAssigned, HighHandPosted, DealRecorded,
    ClockPaused, ClockResumed, TimeAdded, StacksCounted, StackCorrected, HandForHandStarted,
    HandForHandEnded, HighHandFeeRecorded, RebuyPurchased, AddOnPurchased,
    StackBagged, DayEnded, DayStarted, StackCarried, MessagePosted,
)
