"""Players moving between tables, decided: a move, a table's break, the next balancing step
and the color-up, each as the tournament's events and every table's commands
(engine.tournament_decide.Decision). Drawn orders and decks come in from the recorder.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from handlog.engine.breaking import (
    REASON_BROKEN,
    TableBreak,
    break_table,
    due_big_blind,
    table_to_break,
)
from handlog.engine.errors import RuleViolation
from handlog.engine.hand_for_hand import hand_for_hand_rule
from handlog.engine.seating import BalanceMove, free_seats, move_player, suggest_balance
from handlog.engine.table_commands import (
    AdjustStack,
    CarryToPot,
    PlaceButton,
    RemovePlayer,
    SeatPlayer,
    TableCommand,
)
from handlog.engine.tournament import color_up, color_up_racers
from handlog.engine.tournament_decide import (
    Decision,
    Tables,
    color_up_outs,
    round_open,
    stacks_at,
)
from handlog.engine.tournament_events import ButtonDrawn, PlayerMoved, SeatsDrawn
from handlog.engine.tournament_state import TournamentState
from handlog.engine.words import profile_rule


def decide_move(state: TournamentState, player: str, to_table: str, to_seat: int, reason: str,
                rule: str, tables: Tables) -> Decision:
    """A player moves with his exact stack (to `to_seat`, or the first free seat); he waits if
    he lands between the blinds and the button."""
    entrant = state.entrant(player)
    if entrant is None or not entrant.seated:
        raise RuleViolation("moves", f"{player} is not seated")
    source = tables.get(entrant.table)
    assert source is not None
    seat = source.seat_of(player)
    if seat is None:
        raise RuleViolation("moves", f"{player} is not at table {entrant.table}")
    seat_to = to_seat or next(iter(free_seats(state, to_table)), 0)
    moved = move_player(state, player, to_table, seat_to, seat.stack, reason, rule)
    return Decision([moved], {
        moved.from_table: [RemovePlayer(moved.from_seat, "moved")],
        moved.to_table: [SeatPlayer(moved.to_seat, moved.player, moved.stack, True, "moved")]})


def break_drawers(state: TournamentState, plan: TableBreak) -> list[str]:
    """The players who draw seats in `plan`, in the order the recorder shuffles."""
    involved = (plan.table, *plan.to_tables) if plan.redraw else (plan.table,)
    return [e.player for t in involved for e in state.seated_at(t)]


def decide_break(state: TournamentState, plan: TableBreak, tables: Tables,
                 order: Sequence[str], deck: Sequence[str], seed: str) -> Decision:
    """`plan`'s break over every table it touches: the tournament's moves (or the final
    table's redraw) and button draws, each player leaving the broken table and taking his seat
    at the receiving one, the broken table's chips waiting for a next pot handed on, the new
    buttons placed. `order`: `break_drawers` shuffled; `deck`: the button draws' cards."""
    if round_open(state, tables):
        raise RuleViolation(hand_for_hand_rule(state), "hand-for-hand: break the table when "
                            "every table has finished the round's hand",
                            ("finish the round first",))
    involved = (plan.table, *plan.to_tables)
    busy = [t for t in involved if (s := tables.get(t)) is not None and s.hand_in_progress]
    if busy:
        raise RuleViolation("hand-in-progress", f"a hand is in progress at table {busy[0]}: "
                            "break the table when it is over", ("finish the hand first",))
    stacks = {s.player: s.stack for t in involved if (ts := tables.get(t)) is not None
              for s in ts.seats}
    events = break_table(state, plan, order, stacks, deck, seed)
    commands: dict[str, list[TableCommand]] = {t: [] for t in involved}
    commands[plan.table].extend(RemovePlayer(e.seat, "moved")
                                for e in state.seated_at(plan.table))
    last_to = plan.to_tables[0]
    for event in events:
        if isinstance(event, SeatsDrawn):
            for t in plan.to_tables:
                commands[t].extend(RemovePlayer(e.seat, "moved") for e in state.seated_at(t))
            for a in event.assignments:
                commands[a.table].append(
                    SeatPlayer(a.seat, a.player, stacks[a.player], False, "moved"))
                last_to = a.table
        elif isinstance(event, PlayerMoved):
            commands[event.to_table].append(
                SeatPlayer(event.to_seat, event.player, event.stack, True, "moved"))
            last_to = event.to_table
    broken = tables.get(plan.table)
    carry = broken.carry if broken is not None else 0
    if carry:
        # Octobermuck: odd chips waiting for the broken table's next pot go to the next pot
        # of the table its last player went to ('forfeited to the next pot').
        carry_rule = profile_rule(state.structure.profile, "color_up")
        commands[plan.table].append(CarryToPot(-carry, REASON_BROKEN, carry_rule, last_to))
        commands[last_to].append(CarryToPot(carry, REASON_BROKEN, carry_rule, plan.table))
    for event in events:
        if isinstance(event, ButtonDrawn):
            commands[event.table].append(PlaceButton(event.seat, "button_draw"))
    return Decision(list(events), {t: c for t, c in commands.items() if c})


def balance_step(state: TournamentState, tables: Tables,
                 deck_for: Callable[[str], Sequence[str]]) -> TableBreak | BalanceMove | None:
    """What balancing does next: break a table when the others can take its players (the
    break is decided with its own draw, `decide_break`), else move one player from the
    fullest table (the first of them by name) to the shortest; None when nothing is due or a
    hand (or a hand-for-hand round) is in progress where it would matter. `deck_for(table)`:
    a shuffled deck for a high-card draw among that table's players."""
    playing = [t for t in state.tables if state.seated_at(t)]
    if any((s := tables.get(t)) is not None and s.hand_in_progress for t in playing) \
            or round_open(state, tables):
        return None
    plan = table_to_break(state)
    if plan is not None:
        return plan
    due = {t: due_big_blind(s) if (s := tables.get(t)) is not None else "" for t in playing}
    counts = {t: len(state.seated_at(t)) for t in playing}
    fullest = max(counts.values()) if counts else 0
    source = min(t for t in playing if counts[t] == fullest) if playing else ""
    cards = list(deck_for(source))
    high_cards = {e.player: cards.pop() for e in state.seated_at(source)}
    try:
        return suggest_balance(state, due_big_blind=due, from_table=source,
                               high_cards=high_cards)
    except RuleViolation:
        return None


def decide_color_up(state: TournamentState, tables: Tables, deck: Sequence[str]) -> Decision:
    """The scheduled color-up: every stack's change recorded at its table as a stack
    adjustment, the odd chips carried to a next pot, and a stack left with nothing out."""
    stacks = stacks_at(state, tables, "color-up", ())
    cards = list(deck)
    # TDA 24: only players holding odd chips race (one card each here: the engine ranks
    # racers by their best card); none where the house rounds up or forfeits odd chips.
    race_cards = {p: [cards.pop()] for p in color_up_racers(state, stacks)}
    event = color_up(state, stacks, race_cards=race_cards)
    commands: dict[str, list[TableCommand]] = {}
    for adjustment in event.adjustments:
        if adjustment.amount == 0:
            continue
        entrant = state.entrant(adjustment.player)
        assert entrant is not None
        commands.setdefault(entrant.table, []).append(AdjustStack(
            entrant.seat, adjustment.amount, "color_up", event.rule))
    for carry in event.next_pots:
        # Octobermuck: "All odd green chips in the pot will be replaced with black chips and
        # awarded to the winner of the next hand."
        commands.setdefault(carry.table, []).append(CarryToPot(
            carry.amount, "color_up_carry", event.rule))
    events: list[Any] = [event]
    # A stack of nothing but odd chips forfeited is out (Octobermuck: 'manage your stack
    # accordingly').
    out = [a for a in event.adjustments if a.stack_before + a.amount == 0]
    if out:
        events.extend(color_up_outs(state, events, [(a.player, a.stack_before, a.table)
                                                    for a in out]))
        for a in out:
            entrant = state.entrant(a.player)
            assert entrant is not None
            commands.setdefault(a.table, []).append(RemovePlayer(entrant.seat, "eliminated"))
    return Decision(events, commands)
