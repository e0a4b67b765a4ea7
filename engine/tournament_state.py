"""The tournament's state and its fold: `apply_tournament(state, event) -> state`.

`apply_tournament` trusts the log (the decision functions in engine.tournament validate before
an event is written), so it accepts every tournament event and never raises, except for an event
other than tournament_created on an empty stream. Replay checks are a re-decide, not here.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from handlog.engine.cards import parse_card
from handlog.engine.errors import RuleViolation
from handlog.engine.evaluator import evaluate
from handlog.engine.structure import AnteKind, Structure, re_entry_price
from handlog.engine.table import Level
from handlog.engine.tournament_events import (
    AddOnPurchased,
    AntesDecided,
    BountyAssigned,
    BountyReferred,
    BreakEnded,
    BreakStarted,
    ButtonDrawn,
    ChipsColoredUp,
    ClockPaused,
    ClockResumed,
    DayEnded,
    DayStarted,
    DealRecorded,
    HandForHandEnded,
    HandForHandStarted,
    HighHandAwarded,
    HighHandFeeRecorded,
    HighHandPosted,
    LevelStarted,
    MessagePosted,
    PenaltyRecorded,
    PlayerEliminated,
    PlayerMoved,
    PlayerRegistered,
    PlayerWithdrew,
    PrizesAwarded,
    RebuyPurchased,
    RulingRecorded,
    SeatsDrawn,
    StackBagged,
    StackCarried,
    StackCorrected,
    StackCount,
    StacksCounted,
    TableClosed,
    TimeAdded,
    TournamentCreated,
    TournamentEvent,
    TournamentFinished,
)


@dataclass(frozen=True, slots=True)
class Entrant:
    """One entry: where he sits (table "" when not seated) and, once out, his place; the
    person it belongs to (`person`, the room's id), which of his entries it is (`entry`: 1
    first, 2+ re-entries), its rebuys and whether it took the add-on."""

    player: str
    name: str
    late: bool = False
    chips_deducted: int = 0
    high_hand: bool = False
    table: str = ""
    seat: int = 0
    place: int = 0
    out_table: str = ""
    out_hand: int = 0
    chips_at_start: int = 0
    bounty_to: str = ""
    withdrew: bool = False
    person: str = ""
    entry: int = 1
    rebuys: int = 0
    add_on: bool = False
    carried: int = 0
    """Chips carried from his bags of an earlier day (0: an entry made in this log)."""

    @property
    def who(self) -> str:
        """The person this entry belongs to (a log before persons: the entry itself)."""
        return self.person or self.player

    @property
    def alive(self) -> bool:
        return self.place == 0

    @property
    def seated(self) -> bool:
        return self.alive and bool(self.table)


@dataclass(frozen=True, slots=True)
class ChipLedger:
    """Why the tournament's chip total is what it is: the chip-total invariant.

    total = entries x starting stack - late deductions + color-up changes (signed: a race or a
    round-up adds chips, a forfeit takes them) + odd chips carried into next pots - withdrawn
    + the director's stack corrections after a count + chips bought by rebuys and add-ons
    (a re-entry is an entry: a full starting stack) + the stacks carried from an earlier
    day's bags."""

    entries: int = 0
    starting_stack: int = 0
    late_deductions: int = 0
    color_up_change: int = 0
    carried_to_pots: int = 0
    withdrawn: int = 0
    corrected: int = 0
    bought: int = 0
    carried: int = 0

    @property
    def starting_chips(self) -> int:
        return self.entries * self.starting_stack

    @property
    def total(self) -> int:
        return (self.starting_chips - self.late_deductions + self.color_up_change
                + self.carried_to_pots - self.withdrawn + self.corrected + self.bought
                + self.carried)


@dataclass(frozen=True, slots=True)
class TournamentState:
    tournament: str
    structure: Structure
    entrants: tuple[Entrant, ...] = ()
    tables: tuple[str, ...] = ()
    level: int = 0
    """The level in force (0 before the start); a break is always after this level."""
    on_break: bool = False
    breaks_taken: tuple[int, ...] = ()
    color_ups_done: tuple[int, ...] = ()
    antes_used: bool | None = None
    in_play: tuple[str, ...] = ()
    """Colours still in play."""
    stakes: Level | None = None
    buttons: tuple[tuple[str, int], ...] = ()
    ledger: ChipLedger = ChipLedger()
    winner: str = ""
    prizes: PrizesAwarded | None = None
    high_hand: HighHandAwarded | None = None
    rulings: tuple[RulingRecorded, ...] = ()
    penalties: tuple[PenaltyRecorded, ...] = ()
    bounties_referred: tuple[BountyReferred, ...] = ()
    """Bounties waiting for the director's decision."""
    high_hands: tuple[HighHandPosted, ...] = ()
    """The best hand shown so far (several when equal)."""
    deal: DealRecorded | None = None
    clock_paused: bool = False
    message: str = ""
    """The director's message to the room (the clock screen shows it)."""
    entrant_names: frozenset[str] = frozenset()
    """Every entrant's name, case-folded: a duplicate is found without a scan."""
    persons: frozenset[str] = frozenset()
    """Every person with an entry: a newcomer's first entry is known without a scan."""
    clock_left: int = 0
    """Seconds left on the clock when it was paused."""
    counts: tuple[StacksCounted, ...] = ()
    """Every stack count the floor recorded, in order."""
    differences: tuple[tuple[str, StackCount], ...] = ()
    """(table, count) of each counted stack that differs from the log's and is not settled."""
    corrections: tuple[StackCorrected, ...] = ()
    hand_for_hand: HandForHandStarted | None = None
    """Hand-for-hand is on (since this event), or None."""
    bags: tuple[StackBagged, ...] = ()
    day_ended: DayEnded | None = None
    """The day (a flight) ended without a winner, its survivors bagged."""
    day_started: DayStarted | None = None
    """This log is a next day of an event, taking the survivors of earlier logs."""
    seating: dict[str, tuple[Entrant, ...]] | None = field(
        default=None, compare=False, repr=False)
    """Who sits at each table, by seat: built on first use for this state (every new state,
    `replace` included, starts without it), so that a draw over 1,000 tables does not scan
    the whole field once per table."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "seating", None)

    @property
    def finished(self) -> bool:
        """Over: won, or (a flight, a day) ended with its survivors bagged."""
        return bool(self.winner) or self.day_ended is not None

    @property
    def field_size(self) -> int:
        """The entries the payouts are for: the whole event's on a next day."""
        if self.day_started is not None:
            return self.day_started.entries + sum(1 for e in self.entrants if not e.carried)
        return len(self.entrants)

    def bag_of(self, player: str) -> StackBagged | None:
        return next((b for b in self.bags if b.player == player), None)

    @property
    def prize_pool(self) -> int:
        """The prize pool in cents: what the entries paid into it (`collected_pool`) and the
        house's overlay when that falls short of the structure's guarantee."""
        return self.collected_pool + self.overlay

    @property
    def overlay(self) -> int:
        """What the house adds to reach its guarantee (cents; 0 without one)."""
        return max(0, self.structure.money.guarantee - self.collected_pool)

    @property
    def collected_pool(self) -> int:
        """Each entry's share of the pool (a re-entry's at its price), each rebuy's and
        each add-on's."""
        s = self.structure
        firsts = sum(1 for e in self.entrants if e.entry == 1 and not e.carried)
        carried = self.day_started.prize_pool if self.day_started is not None else 0
        return (carried + firsts * s.money.prize_pool_per_entry
                + sum(1 for e in self.entrants if e.entry > 1) * re_entry_price(s)[1]
                + sum(e.rebuys for e in self.entrants) * s.rebuy.prize_pool
                + sum(1 for e in self.entrants if e.add_on) * s.add_on.prize_pool)

    @property
    def chip_unit(self) -> int:
        """The smallest chip in play: odd chips are split in this unit."""
        values = [d.value for d in self.structure.denominations if d.colour in self.in_play]
        return min(values) if values else 0

    def denominations(self, unit: int) -> tuple[int, ...]:
        """The values of the chips in play, smallest first, when the smallest is `unit` (the
        chip unit a level or color-up recorded); else none are known (empty)."""
        values = tuple(sorted({d.value for d in self.structure.denominations
                               if d.colour in self.in_play}))
        return values if values and values[0] == unit else ()

    @property
    def remaining(self) -> tuple[Entrant, ...]:
        return tuple(e for e in self.entrants if e.alive)

    def entrant(self, player: str) -> Entrant | None:
        return next((e for e in self.entrants if e.player == player), None)

    def seated_at(self, table: str) -> tuple[Entrant, ...]:
        """Players in play at `table`, by seat."""
        seating = self.seating
        if seating is None:
            tables: dict[str, list[Entrant]] = {}
            for e in self.entrants:
                if e.seated:
                    tables.setdefault(e.table, []).append(e)
            seating = {t: tuple(sorted(es, key=lambda e: e.seat)) for t, es in tables.items()}
            object.__setattr__(self, "seating", seating)
        return seating.get(table, ())

    def occupied(self, table: str) -> frozenset[int]:
        return frozenset(e.seat for e in self.seated_at(table))


def new_tournament(event: TournamentCreated) -> TournamentState:
    structure = event.structure
    return TournamentState(
        tournament=event.tournament, structure=structure,
        in_play=tuple(d.colour for d in structure.denominations),
        ledger=ChipLedger(starting_stack=structure.starting_stack),
    )


def _update(state: TournamentState, player: str, **changes: object) -> TournamentState:
    return replace(state, entrants=tuple(
        replace(e, **changes) if e.player == player else e  # type: ignore[arg-type]
        for e in state.entrants
    ))


def apply_tournament(state: TournamentState | None,
                     event: TournamentEvent) -> TournamentState:
    """Fold one event of the tournament's stream."""
    if isinstance(event, TournamentCreated):
        return new_tournament(event)
    if state is None:
        raise RuleViolation("log", f"{event.TYPE} before tournament_created")
    if isinstance(event, PlayerRegistered):
        entrant = Entrant(event.player, event.name, event.late, event.chips_deducted,
                          event.high_hand, person=event.person, entry=event.entry)
        ledger = replace(state.ledger, entries=state.ledger.entries + 1,
                         late_deductions=state.ledger.late_deductions + event.chips_deducted)
        return replace(state, entrants=state.entrants + (entrant,), ledger=ledger,
                       entrant_names=state.entrant_names | {event.name.strip().casefold()},
                       persons=state.persons | {entrant.who})
    if isinstance(event, StackCarried):
        entrant = Entrant(event.player, event.name, person=event.person, carried=event.chips)
        ledger = replace(state.ledger, carried=state.ledger.carried + event.chips)
        return replace(state, entrants=state.entrants + (entrant,), ledger=ledger,
                       entrant_names=state.entrant_names | {event.name.strip().casefold()},
                       persons=state.persons | {entrant.who})
    if isinstance(event, StackBagged):
        return replace(state, bags=state.bags + (event,))
    if isinstance(event, DayEnded):
        return replace(state, day_ended=event)
    if isinstance(event, DayStarted):
        return replace(state, day_started=event)
    if isinstance(event, RebuyPurchased | AddOnPurchased):
        ledger = replace(state.ledger, bought=state.ledger.bought + event.chips)
        known = state.entrant(event.player)
        rebuys = known.rebuys if known is not None else 0
        new = (_update(state, event.player, rebuys=rebuys + 1)
               if isinstance(event, RebuyPurchased) else _update(state, event.player, add_on=True))
        return replace(new, ledger=ledger)
    if isinstance(event, SeatsDrawn):
        seats = {a.player: a for a in event.assignments}
        tables = state.tables + tuple(t for t in event.tables if t not in state.tables)
        return replace(state, tables=tables, entrants=tuple(
            replace(e, table=seats[e.player].table, seat=seats[e.player].seat)
            if e.player in seats else e
            for e in state.entrants
        ))
    if isinstance(event, TableClosed):
        return replace(state, tables=tuple(t for t in state.tables if t != event.table),
                       buttons=tuple(b for b in state.buttons if b[0] != event.table))
    if isinstance(event, ButtonDrawn):
        buttons = tuple(b for b in state.buttons if b[0] != event.table)
        return replace(state, buttons=buttons + ((event.table, event.seat),))
    if isinstance(event, LevelStarted):
        stakes = Level(small_blind=event.small_blind, big_blind=event.big_blind,
                       ante=event.ante, ante_kind=_ante_kind(event.ante_kind),
                       number=event.level, chip_unit=event.chip_unit,
                       denominations=state.denominations(event.chip_unit))
        return replace(state, level=event.level, on_break=False, stakes=stakes,
                       clock_paused=False, clock_left=0)
    if isinstance(event, BreakStarted):
        return replace(state, on_break=True, clock_paused=False, clock_left=0,
                       breaks_taken=state.breaks_taken + (event.after_level,))
    if isinstance(event, BreakEnded):
        return replace(state, on_break=False)
    if isinstance(event, AntesDecided):
        return replace(state, antes_used=event.antes_used)
    if isinstance(event, ChipsColoredUp):
        return _colored_up(state, event)
    if isinstance(event, PlayerMoved):
        return _update(state, event.player, table=event.to_table, seat=event.to_seat)
    if isinstance(event, PlayerEliminated):
        return _update(state, event.player, place=event.place, out_table=event.table,
                       out_hand=event.hand_number, chips_at_start=event.chips_at_start,
                       bounty_to=event.bounty_to, table="", seat=0)
    if isinstance(event, PlayerWithdrew):
        ledger = replace(state.ledger, withdrawn=state.ledger.withdrawn + event.chips_removed)
        new = _update(state, event.player, place=event.place, withdrew=True, table="", seat=0)
        return replace(new, ledger=ledger)
    if isinstance(event, TournamentFinished):
        ended = state
        for player in event.sharing or (event.winner,):
            ended = _update(ended, player, place=1)
        return replace(ended, winner=event.winner)
    if isinstance(event, PrizesAwarded):
        return replace(state, prizes=event)
    if isinstance(event, MessagePosted):
        return replace(state, message=event.text)
    if isinstance(event, HighHandAwarded):
        return replace(state, high_hand=event)
    if isinstance(event, RulingRecorded):
        return replace(state, rulings=state.rulings + (event,))
    if isinstance(event, PenaltyRecorded):
        return replace(state, penalties=state.penalties + (event,))
    if isinstance(event, BountyReferred):
        return replace(state, bounties_referred=state.bounties_referred + (event,))
    if isinstance(event, BountyAssigned):
        new = _update(state, event.player, bounty_to=event.to)
        return replace(new, bounties_referred=tuple(
            b for b in state.bounties_referred if b.player != event.player))
    if isinstance(event, HighHandPosted):
        return replace(state, high_hands=_posted(state.high_hands, event))
    if isinstance(event, HighHandFeeRecorded):
        return _update(state, event.player, high_hand=event.paid)
    if isinstance(event, DealRecorded):
        return replace(state, deal=event)
    if isinstance(event, StacksCounted):
        counted = {c.player for c in event.counts}
        kept = tuple(d for d in state.differences if d[1].player not in counted)
        differ = tuple((event.table, c) for c in event.counts if c.counted != c.computed)
        return replace(state, counts=state.counts + (event,), differences=kept + differ)
    if isinstance(event, StackCorrected):
        ledger = replace(state.ledger, corrected=state.ledger.corrected + event.amount)
        return replace(state, ledger=ledger, corrections=state.corrections + (event,),
                       differences=tuple(d for d in state.differences
                                         if d[1].player != event.player))
    if isinstance(event, HandForHandStarted):
        return replace(state, hand_for_hand=event)
    if isinstance(event, HandForHandEnded):
        return replace(state, hand_for_hand=None)
    if isinstance(event, ClockPaused):
        return replace(state, clock_paused=True, clock_left=event.seconds_left)
    if isinstance(event, ClockResumed):
        return replace(state, clock_paused=False, clock_left=0)
    if isinstance(event, TimeAdded):
        if state.clock_paused:
            return replace(state, clock_left=max(0, state.clock_left + event.seconds))
        return state
    raise TypeError(f"not a tournament event: {type(event).__name__}")


def high_hand_value(hand: HighHandPosted) -> int:
    return evaluate([parse_card(c) for c in hand.cards])


def _posted(best: tuple[HighHandPosted, ...], hand: HighHandPosted) -> tuple[HighHandPosted, ...]:
    """The best hands after `hand` is posted: a higher one replaces them, an equal one joins
    them (suits never break a tie)."""
    if not best:
        return (hand,)
    value, top = high_hand_value(hand), high_hand_value(best[0])
    if value > top:
        return (hand,)
    if value == top:
        return best + (hand,)
    return best


def _ante_kind(text: str) -> AnteKind:
    if text == "uniform":
        return "uniform"
    if text == "big_blind":
        return "big_blind"
    return "none"


def _colored_up(state: TournamentState, event: ChipsColoredUp) -> TournamentState:
    ledger = replace(
        state.ledger,
        color_up_change=state.ledger.color_up_change + sum(a.amount for a in event.adjustments),
        carried_to_pots=state.ledger.carried_to_pots + sum(c.amount for c in event.next_pots),
    )
    in_play = tuple(c for c in state.in_play if c not in event.colours)
    stakes = state.stakes
    after = replace(state, in_play=in_play)
    if stakes is not None:
        stakes = replace(stakes, chip_unit=event.new_unit,
                         denominations=after.denominations(event.new_unit))
    return replace(after, stakes=stakes, ledger=ledger,
                   color_ups_done=state.color_ups_done + (event.after_level,))


def fold_tournament(events: Iterable[TournamentEvent]) -> TournamentState:
    """The state after every event of a tournament's stream (the first is tournament_created)."""
    state: TournamentState | None = None
    for event in events:
        state = apply_tournament(state, event)
    if state is None:
        raise RuleViolation("log", "the tournament's stream is empty")
    return state


def chip_ledger(events: Iterable[TournamentEvent]) -> ChipLedger:
    """The chip ledger of a tournament's events (see ChipLedger)."""
    return fold_tournament(events).ledger


def expected_chip_total(events: Iterable[TournamentEvent]) -> int:
    """How many chips the tables must hold between them after these events: starting stacks
    less late deductions, plus color-up changes and carried odd chips, less withdrawals, plus
    the director's corrections after a count."""
    return chip_ledger(events).total
