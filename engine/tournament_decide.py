"""The tournament's commands decided: each takes the tournament's state and the facts the
command needs from other streams (each table's state by its name, the drawn orders and decks,
the clock now) and returns the tournament's events and the commands each table records in the
same transaction (engine.table_commands). Moves, table breaks, balancing and the color-up are
in engine.tournament_moves.

Randomness comes in as inputs: the recorder shuffles orders and decks from a recorded seed.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from handlog.engine.chip_counts import correct_stack, count_stacks
from handlog.engine.days import BAG_RULE, bag, end_day, start_day
from handlog.engine.deals import make_deal
from handlog.engine.entries import add_on, rebuy
from handlog.engine.errors import RuleViolation
from handlog.engine.events import HandStarted
from handlog.engine.hand_for_hand import (
    TableProgress,
    check_hand_start,
    end_hand_for_hand,
    round_status,
    start_hand_for_hand,
)
from handlog.engine.hand_state import COMPLETE
from handlog.engine.money import (
    HIGH_HAND_RULE,
    NO_POT,
    assign_bounty,
    bounty_for,
    high_hand_proposal,
    high_hands_shown,
    post_high_hands,
)
from handlog.engine.penalties import give_penalty
from handlog.engine.seating import draw_button, draw_seats, seating_order
from handlog.engine.structure import Structure
from handlog.engine.table import TableState
from handlog.engine.table_commands import (
    AdjustStack,
    OpenTable,
    PlaceButton,
    RemovePlayer,
    SeatPlayer,
    StartHand,
    TableCommand,
)
from handlog.engine.tournament import (
    Bust,
    award_high_hand,
    award_prizes,
    eliminate,
    register,
    remove_absent_at_level_end,
    stakes,
    start_level,
    withdraw,
)
from handlog.engine.tournament_events import BountyReferred, PlayerWithdrew
from handlog.engine.tournament_state import TournamentState, apply_tournament

Tables = Mapping[str, TableState]
"""The tournament's tables as they stand, by table name (a table never opened is absent)."""


class Decision(NamedTuple):
    """A tournament command's outcome: the tournament's events, and by table name the
    commands each table records with them (decided there in order, on the table as it is)."""

    events: list[Any]
    commands: dict[str, list[TableCommand]]


def _after(state: TournamentState, events: Sequence[Any]) -> TournamentState:
    for event in events:
        state = apply_tournament(state, event)
    return state


def progress(state: TournamentState, tables: Tables) -> dict[str, TableProgress]:
    """Each table in play: (hands played, a hand in progress)."""
    return {t: (tables[t].hands_played, tables[t].hand_in_progress)
            for t in state.tables if t in tables}


def round_open(state: TournamentState, tables: Tables) -> bool:
    """Hand-for-hand with the round not finished everywhere (its busts not yet out)."""
    return state.hand_for_hand is not None and not round_status(
        state, progress(state, tables)).complete


def stacks_at(state: TournamentState, tables: Tables, rule: str,
              options: tuple[str, ...] = ("finish the hand first",)) -> dict[str, int]:
    """Every seated player's stack, read from the tables; refused while a hand is on."""
    stacks: dict[str, int] = {}
    for table in state.tables:
        tstate = tables.get(table)
        if tstate is None:
            continue
        if tstate.hand_in_progress:
            raise RuleViolation(rule, f"a hand is in progress at table {table}", options)
        stacks.update({s.player: s.stack for s in tstate.seats})
    return stacks


def pays_prizes(structure: Structure) -> bool:
    """Whether the structure pays prizes: a payout table, or a satellite's seats."""
    return bool(structure.payouts or structure.satellite.seat_value)


def prizes_if_over(state: TournamentState, events: Sequence[Any]) -> list[Any]:
    """The prizes, when `events` finish the tournament and no bounty waits. A league
    without a payout table (BSE plays for points) has no prizes; a field the payout table
    does not cover gets none either, and the replay reports the prizes missing."""
    after = _after(state, events)
    if after.finished and pays_prizes(after.structure) and not after.bounties_referred:
        with contextlib.suppress(RuleViolation):
            return [award_prizes(after)]
    return []


# --- registration and the seat draw -------------------------------------------------------


def new_entry_id(state: TournamentState) -> str:
    """The next free entry id (`p<n>`)."""
    n = len(state.entrants) + 1
    while state.entrant(f"p{n}") is not None:
        n += 1
    return f"p{n}"


def decide_register(state: TournamentState, player: str, name: str,
                    high_hand: bool, person: str = "") -> Decision:
    """An entry; once play has started the late entrant is drawn into the free seat at the
    shortest table at once. `player` naming an entry that is out is that person's re-entry
    (a new entry id), where the structure and the profile allow one."""
    known = state.entrant(player) if player else None
    if known is not None and not known.alive:
        person, name, player = person or known.who, name or known.name, ""
    entry = register(state, player or new_entry_id(state), name, high_hand, person)
    if not entry.late or not state.tables:
        return Decision([entry], {})
    after = apply_tournament(state, entry)
    counts = {t: len(after.seated_at(t)) for t in after.tables}
    table = min(after.tables, key=lambda t: counts[t])
    drawn = draw_seats(after, [table], [entry.player], seed="late entry")
    (seat,) = drawn.assignments
    return Decision([entry, drawn], {table: [SeatPlayer(seat.seat, entry.player, entry.stack,
                                                        True, "late_entry")]})


def unseated(state: TournamentState) -> list[str]:
    """The players a seat draw seats, in the order the recorder shuffles."""
    return sorted(e.player for e in state.remaining if not e.table)


def decide_draw_seats(state: TournamentState, names: Sequence[str], drawn_order: Sequence[str],
                      seed: str, tables: Tables,
                      decks: Sequence[Sequence[str]]) -> Decision:
    """The seat draw over the tables `names` (`drawn_order`: `unseated` shuffled), each table
    opened (unless open already) with its players at the starting stack less any deduction,
    and the draw for the button (`decks`: one shuffled deck per table, in `names`' order)."""
    order, seed_recorded = seating_order(state, drawn_order, seed)
    drawn = draw_seats(state, names, order, seed=seed_recorded)
    after = apply_tournament(state, drawn)
    events: list[Any] = [drawn]
    structure = state.structure
    commands: dict[str, list[TableCommand]] = {
        name: [] if tables.get(name) is not None else
        [OpenTable(name, structure.seats_per_table, structure.profile, state.tournament)]
        for name in drawn.tables}
    deducted = {e.player: e.chips_deducted for e in after.entrants}
    drawn_seats: dict[str, set[int]] = {name: set() for name in drawn.tables}
    carried = {e.player: e.carried for e in after.entrants if e.carried}
    for a in drawn.assignments:
        # A next day's player sits down with his bagged chips.
        commands[a.table].append(SeatPlayer(
            a.seat, a.player,
            carried.get(a.player) or structure.starting_stack - deducted[a.player]))
        drawn_seats.setdefault(a.table, set()).add(a.seat)
    for name, deck in zip(drawn.tables, decks, strict=False):
        cards = list(deck)
        # Seat order, as the cards are dealt: the players drawn there and any already seated.
        seated = sorted(drawn_seats[name] | set(state.occupied(name)))
        if len(seated) < 2:
            continue
        button = draw_button(after, name, {seat: cards.pop() for seat in seated})
        events.append(button)
        commands[name].append(PlaceButton(button.seat, "button_draw"))
    return Decision(events, commands)


def _seat_of(state: TournamentState, player: str, tables: Tables, what: str
             ) -> tuple[str, int, int]:
    """(table, seat, stack) of a seated player, between hands."""
    entrant = state.entrant(player)
    tstate = tables.get(entrant.table) if entrant is not None and entrant.seated else None
    seat = tstate.seat_of(player) if tstate is not None else None
    if tstate is None or seat is None:
        raise RuleViolation("seating", f"{player} is not seated: {what} goes to a stack at a "
                            "table", tuple(e.player for e in state.remaining if e.seated))
    if tstate.hand_in_progress:
        raise RuleViolation("hand-in-progress", f"a hand is in progress at table "
                            f"{tstate.table}: {what} when it is over", ("finish the hand first",))
    return tstate.table, seat.seat, seat.stack


def decide_rebuy(state: TournamentState, player: str, tables: Tables) -> Decision:
    """A rebuy (engine.entries.rebuy) on the stack his table has, the chips added there."""
    entrant = state.entrant(player)
    if entrant is None or not entrant.seated:
        rebuy(state, player, 0)  # the refusal that names the rule, if there is one
    table, seat, stack = _seat_of(state, player, tables, "a rebuy")
    bought = rebuy(state, player, stack)
    return Decision([bought], {table: [AdjustStack(seat, bought.chips, "rebuy", bought.rule)]})


def decide_add_on(state: TournamentState, player: str, tables: Tables) -> Decision:
    """The add-on (engine.entries.add_on), the chips added at his table."""
    bought = add_on(state, player)
    table, seat, _stack = _seat_of(state, player, tables, "an add-on")
    return Decision([bought], {table: [AdjustStack(seat, bought.chips, "add_on", bought.rule)]})


# --- the end of a day and the next day -----------------------------------------------------


def decide_bag(state: TournamentState, player: str, chips: int, bag_number: str,
               confirmed_by: str, tables: Tables) -> Decision:
    """`player`'s counted stack bagged (engine.days.bag), between hands at his table."""
    entrant = state.entrant(player)
    if entrant is None or not entrant.seated:
        bag(state, player, chips, bag_number, confirmed_by, 0)  # the refusal naming the rule
    _table, _seat, stack = _seat_of(state, player, tables, "bagging his stack")
    return Decision([bag(state, player, chips, bag_number, confirmed_by, stack)], {})


def decide_end_day(state: TournamentState, tables: Tables) -> Decision:
    """The day ends (engine.days.end_day) once every stack is bagged and no hand is on."""
    stacks_at(state, tables, BAG_RULE)
    return Decision([end_day(state)], {})


def decide_start_day(state: TournamentState, sources: Sequence[TournamentState]) -> Decision:
    """The next day takes the earlier logs' survivors with their bags (engine.days)."""
    return Decision(list(start_day(state, sources)), {})


# --- levels, penalties, money, counts -----------------------------------------------------


def decide_start_level(state: TournamentState, ruling: str, tables: Tables,
                       hands: Mapping[str, Sequence[HandStarted]]) -> Decision:
    """The next level and (where the house removes a player who played no hand for a whole
    level) each such player's chips turned in and his seat emptied. `hands`: each table's
    hands started, as its log has them now. A player whose table is in a hand is left to the
    next level's end."""
    events: list[Any] = [start_level(state, ruling)]
    played: dict[str, Sequence[HandStarted]] = {}
    stacks: dict[str, int] = {}
    seats: dict[str, tuple[str, int]] = {}
    for table in state.tables:
        tstate = tables.get(table)
        if tstate is None or tstate.hand_in_progress:
            continue
        played[table] = hands.get(table, ())
        for seat in tstate.seats:
            stacks[seat.player] = seat.stack
            seats[seat.player] = (table, seat.seat)
    removed = remove_absent_at_level_end(state, played, stacks)
    commands: dict[str, list[TableCommand]] = {}
    for event in removed:
        if isinstance(event, PlayerWithdrew):
            table, seat_number = seats[event.player]
            commands.setdefault(table, []).append(RemovePlayer(seat_number, "withdrawn"))
    return Decision(events + list(removed), commands)


def decide_penalty(state: TournamentState, player: str, penalty: str, rule: str, text: str,
                   by: str, hands: int, tables: Tables) -> Decision:
    """A penalty; a disqualified player's chips leave play with him, his seat emptied."""
    given = give_penalty(state, player, penalty, rule, text, by, hands)
    if penalty != "disqualification":
        return Decision([given], {})
    entrant = state.entrant(player)
    assert entrant is not None
    tstate = tables.get(entrant.table) if entrant.table else None
    seat = tstate.seat_of(player) if tstate is not None else None
    if tstate is not None and tstate.hand_in_progress:
        raise RuleViolation("hand-in-progress", "disqualify him when the hand is over",
                            ("finish the hand first",))
    out = withdraw(apply_tournament(state, given), player, seat.stack if seat else 0)
    commands: dict[str, list[TableCommand]] = (
        {entrant.table: [RemovePlayer(seat.seat, "withdrawn")]} if seat is not None else {})
    return Decision([given, *out], commands)


def decide_assign_bounty(state: TournamentState, player: str, to: str, by: str) -> Decision:
    """A bounty the rules left open settled; once none is left open at the end, the prizes."""
    assigned = assign_bounty(state, player, to, by)
    after = apply_tournament(state, assigned)
    events: list[Any] = [assigned]
    if after.finished and pays_prizes(after.structure) and not after.bounties_referred \
            and after.prizes is None:
        events.append(award_prizes(after))
    return Decision(events, {})


def decide_award_high_hand(state: TournamentState, players: Sequence[str]) -> Decision:
    """The high-hand jackpot: the engine's proposal (equal hands split), or the players named."""
    proposed, hand = high_hand_proposal(state)
    chosen = tuple(players) or proposed
    if not chosen:
        raise RuleViolation(HIGH_HAND_RULE, "no flush or better has been shown by a jackpot "
                            "entrant", ("name the players",))
    return Decision([award_high_hand(state, chosen, hand or "named by the director")], {})


def decide_deal(state: TournamentState, method: str, consents: Mapping[str, str], by: str,
                kept: int, amounts: Mapping[str, int] | None, tables: Tables) -> Decision:
    """A deal among the players left, their stacks read from the tables."""
    stacks = stacks_at(state, tables, "deal")
    return Decision([make_deal(state, method, stacks, consents, by, kept, amounts)], {})


def decide_count_stacks(state: TournamentState, table: str, occasion: str,
                        counted: Mapping[str, int], tables: Tables) -> Decision:
    """The floor's counted stacks at `table`, each beside the stack the table's log has."""
    tstate = tables.get(table) if table in state.tables else None
    if tstate is not None and tstate.hand_in_progress:
        raise RuleViolation("chip-count", f"a hand is in progress at table {table}: count the "
                            "stacks when it is over", ("finish the hand first",))
    computed = {s.player: s.stack for s in tstate.seats} if tstate is not None else {}
    return Decision([count_stacks(state, table, occasion, counted, computed)], {})


def decide_correct_stack(state: TournamentState, player: str, reason: str, by: str,
                         stack: int | None, tables: Tables) -> Decision:
    """A player's stack ruled `stack` (the counted one when None), adjusted at his table."""
    entrant = state.entrant(player)
    tstate = tables.get(entrant.table) if entrant is not None and entrant.seated else None
    seat = tstate.seat_of(player) if tstate is not None else None
    if tstate is not None and tstate.hand_in_progress:
        raise RuleViolation("chip-count", f"a hand is in progress at table {tstate.table}: "
                            "correct the stack when it is over", ("finish the hand first",))
    corrected = correct_stack(state, player, reason, by, seat.stack if seat else 0, stack)
    if not corrected.amount or entrant is None or seat is None:
        return Decision([corrected], {})
    return Decision([corrected], {entrant.table: [AdjustStack(
        seat.seat, corrected.amount, "count_correction", corrected.rule)]})


# --- hands: their start, their end, hand-for-hand -----------------------------------------


def hand_start(state: TournamentState, table: str, tables: Tables,
               serving: Sequence[str]) -> StartHand:
    """The next hand at `table` at the stakes in force (refused while hand-for-hand waits for
    another table); `serving`: players serving a penalty, dealt in and their hands killed."""
    if state.finished:
        # A flight ended with its stacks bagged deals no further hand (nor does a finished
        # tournament).
        raise RuleViolation("tournament", f"{state.tournament} is over: no further hand")
    if state.hand_for_hand is not None:
        check_hand_start(state, table, progress(state, tables))
    return StartHand(stakes(state), 0, len(state.tables) == 1, tuple(sorted(serving)))


def busts_at(state: TournamentState, tables: Tables, names: Sequence[str]
             ) -> tuple[list[Bust], list[BountyReferred], dict[str, list[TableCommand]]]:
    """The players left without chips at the tables `names` after their last hands: each with
    his chips at the start of that hand and his bounty's collector (or the referral), and the
    seats to empty."""
    busts: list[Bust] = []
    referred: list[BountyReferred] = []
    commands: dict[str, list[TableCommand]] = {}
    bounty = bool(state.structure.money.bounty)
    for t in names:
        tstate = tables.get(t)
        if tstate is None or tstate.hand_in_progress:
            continue
        out = [s for s in tstate.seats if s.stack == 0]
        if not out:
            continue
        hand = tstate.hand
        started = dict(zip(hand.setup.seats, hand.setup.stacks, strict=True)) if hand else {}
        number = hand.setup.hand_number if hand else 0
        for seat in out:
            call = bounty_for(hand, seat.player) if bounty else None
            busts.append(Bust(seat.player, started.get(seat.seat, 0), t, number,
                              call.to if call is not None else ""))
            if call is not None and not call.to:
                referred.append(BountyReferred(seat.player, t, number, call.proposal,
                                               call.code))
        commands[t] = [RemovePlayer(s.seat, "eliminated") for s in out]
    return busts, referred, commands


def _eliminations(state: TournamentState, events: list[Any], tables: Tables,
                  names: Sequence[str]) -> Decision:
    """`events` followed by the busts at the tables `names`, their places and the prizes."""
    busts, referred, commands = busts_at(state, tables, names)
    if not busts:
        return Decision(events, {})
    events = events + list(eliminate(_after(state, events), busts)) + list(referred)
    return Decision(events + prizes_if_over(state, events), commands)


def decide_settlement(state: TournamentState, table: str, tables: Tables) -> Decision:
    """After a hand at `table`: the high hands it showed (a jackpot's flushes or better that
    beat or equal the best so far), the players left with no chips eliminated with their places
    and bounties, their seats emptied; the prizes when one player is left. Nothing while the
    hand is on; under hand-for-hand, nobody out until the round is complete everywhere."""
    tstate = tables.get(table)
    if tstate is None or tstate.hand_in_progress:
        return Decision([], {})
    events: list[Any] = []
    hand = tstate.hand
    if hand is not None and hand.phase == COMPLETE and state.structure.money.high_hand_fee:
        entered = {e.player for e in state.entrants if e.high_hand}
        posted = {(h.player, h.table, h.hand_number) for h in state.high_hands}
        shown = [h for h in high_hands_shown(hand, table, entered)
                 if (h.player, h.table, h.hand_number) not in posted]
        events.extend(post_high_hands(state, shown))
    names = [table]
    if state.hand_for_hand is not None:
        # Hand-for-hand: the players out in a round are placed together once every table has
        # finished the round's hand (TDA RP-8-A, photo finish).
        if round_open(state, tables):
            return Decision(events, {})
        names = [t for t in state.tables if state.seated_at(t)]
    return _eliminations(state, events, tables, names)


def decide_hand_for_hand(state: TournamentState, on: bool, tables: Tables) -> Decision:
    """Hand-for-hand on (from the next hand at every table) or off; turned off, the players
    out in the round so far are placed together."""
    if on:
        return Decision([start_hand_for_hand(state, progress(state, tables))], {})
    ended = end_hand_for_hand(state)
    return _eliminations(state, [ended], tables,
                         [t for t in state.tables if state.seated_at(t)])


def color_up_outs(state: TournamentState, events: list[Any],
                  outs: Sequence[tuple[str, int, str]]) -> list[Any]:
    """The players a color-up left without a chip (player, stack before, table), out in the
    same transaction: outside a hand, so nobody's pot took his bounty and the director
    decides it."""
    after = _after(state, events)
    busts = [Bust(player, before, table, 0) for player, before, table in outs]
    out: list[Any] = list(eliminate(after, busts))
    if state.structure.money.bounty:
        out.extend(BountyReferred(player, table, 0, (), NO_POT) for player, _, table in outs)
    return out + prizes_if_over(state, events + out)
