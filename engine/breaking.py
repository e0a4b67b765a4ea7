"""Tables break and merge: after an elimination, does the field fit on fewer tables, which
table breaks, and where its players go; the final table's draw; who is due the big blind.

The profile decides (no behaviour keyed to its name):
- `seats_drawn_at_random`: the broken table's players draw their seats at the receiving tables
  (TDA 12), else the director assigns them (BSE: 'the ED combines'; the engine proposes the
  seats in seat order, the director confirms);
- the final table: with seats drawn at random everyone still in is redrawn there and the button
  drawn anew (TDA; Octobermuck 'all players ... will be reseated randomly and a new button will
  be randomly assigned'); else the players join it and the button is drawn again when
  `button_redraw_at` says "final_table" (BSE); "final_two_tables" draws the button at both
  tables when a break leaves two.

Randomness comes in as inputs: the drawn order of the players and the deck the button cards
come from (the recorder derives both from a recorded seed).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from handlog.engine.errors import RuleViolation
from handlog.engine.profiles import Profile, get_profile
from handlog.engine.seating import draw_button
from handlog.engine.table import Level, TableState, plan_hand
from handlog.engine.tournament_events import (
    ButtonDrawn,
    PlayerMoved,
    SeatAssignment,
    SeatsDrawn,
    TableClosed,
)
from handlog.engine.tournament_state import TournamentState, apply_tournament

BREAK_RULE = "tda-12"
"""TDA 2024 Rule 12: players from broken tables are assigned seats by random draw at the
receiving tables; tables break in a predetermined order."""
REASON_BROKEN = "table_broken"
REASON_FINAL = "final_table"


@dataclass(frozen=True, slots=True)
class TableBreak:
    """What the engine decides when the field fits on fewer tables.

    `table` breaks; `final_table`: what is left is the final table (`to_tables[0]`);
    `seating`: "drawn" (random) or "assigned" (by the director, proposed by the engine);
    `redraw`: everyone still in is redrawn at the final table; `button_tables`: tables whose
    button is drawn anew after the break."""

    table: str
    to_tables: tuple[str, ...]
    final_table: bool
    seating: str
    redraw: bool
    button_tables: tuple[str, ...]
    rule: str

    @property
    def label(self) -> str:
        """The floor's one action, e.g. 'Break table 3: seats drawn'."""
        if self.redraw:
            return f"Break table {self.table}: final table {self.to_tables[0]}, seats redrawn"
        how = "seats drawn" if self.seating == "drawn" else "seats assigned"
        final = f", final table {self.to_tables[0]}" if self.final_table else ""
        return f"Break table {self.table}: {how}{final}"


def _profile(state: TournamentState) -> Profile:
    return get_profile(state.structure.profile)


def button_redraw_due(state: TournamentState, tables_after: int) -> bool:
    """Whether the button is drawn anew when play goes on at `tables_after` tables (BSE: at the
    final two tables and the final table; Octobermuck: the final table)."""
    stage = {1: "final_table", 2: "final_two_tables"}.get(tables_after, "")
    return bool(stage) and len(state.tables) > tables_after and \
        stage in _profile(state).button_redraw_at


def table_to_break(state: TournamentState) -> TableBreak | None:
    """The break the field calls for now, or None when every table is still needed.

    The field fits on fewer tables when the players seated would fill all tables but one. The
    table with fewest players breaks (ties: the one opened last: tables break in the reverse of
    the order they opened, TDA 12's predetermined order); an open table nobody sits at breaks
    first."""
    if state.finished or len(state.tables) < 2:
        return None
    counts = {t: len(state.seated_at(t)) for t in state.tables}
    seats = state.structure.seats_per_table
    if sum(counts.values()) > seats * (len(state.tables) - 1):
        return None
    order = {t: i for i, t in enumerate(state.tables)}
    breaking = min(state.tables, key=lambda t: (counts[t], -order[t]))
    rest = tuple(t for t in state.tables if t != breaking)
    profile = _profile(state)
    final = len(rest) == 1
    drawn = profile.seats_drawn_at_random
    redraw = final and drawn
    buttons: tuple[str, ...] = ()
    if redraw or button_redraw_due(state, len(rest)):
        buttons = rest
    rule = BREAK_RULE if drawn else "seats_drawn_at_random"
    if final and buttons:
        rule = "button_redraw_at" if "final_table" in profile.button_redraw_at else rule
    return TableBreak(breaking, rest, final, "drawn" if drawn else "assigned", redraw, buttons,
                      rule)


def break_table(state: TournamentState, plan: TableBreak, order: Sequence[str],
                stacks: Mapping[str, int], deck: Sequence[str] = (),
                seed: str = "") -> tuple[PlayerMoved | SeatsDrawn | TableClosed | ButtonDrawn,
                                         ...]:
    """The tournament's events of `plan`, which must be the break due now.

    `order`: the players who draw seats, in drawn order (with `redraw`, everyone still in;
    else the broken table's players; when seats are assigned, ignored: seat order); `stacks`
    the stack of each player who moves; `deck`: cards for the button draws, dealt one per
    occupied seat, table by table in seat order."""
    due = table_to_break(state)
    if due is None:
        raise RuleViolation(BREAK_RULE, "every table is still needed: no table breaks now")
    if due != plan:
        raise RuleViolation(BREAK_RULE, f"the table due to break is {due.table}",
                            (due.label,))
    seats = state.structure.seats_per_table
    events: list[PlayerMoved | SeatsDrawn | TableClosed | ButtonDrawn] = []
    if plan.redraw:
        final = plan.to_tables[0]
        everyone = [e.player for e in state.remaining if e.table]
        _check_order(order, everyone)
        _check_stacks(stacks, everyone)
        assignments = tuple(SeatAssignment(p, final, k + 1) for k, p in enumerate(order))
        if len(assignments) > seats:
            raise RuleViolation(BREAK_RULE, f"{len(assignments)} players for {seats} seats")
        events.append(TableClosed(plan.table, REASON_BROKEN))
        events.append(SeatsDrawn(seed, (final,), assignments, REASON_FINAL))
    else:
        movers = [e for e in state.seated_at(plan.table)]
        players = [e.player for e in movers]
        if plan.seating == "drawn":
            _check_order(order, players)
        else:
            order = players
        _check_stacks(stacks, players)
        occupied = {t: set(state.occupied(t)) for t in plan.to_tables}
        by_player = {e.player: e for e in movers}
        for player in order:
            table = min(plan.to_tables, key=lambda t: len(occupied[t]))
            free = [s for s in range(1, seats + 1) if s not in occupied[table]]
            if not free:
                raise RuleViolation(BREAK_RULE, "the receiving tables have no free seat")
            occupied[table].add(free[0])
            entrant = by_player[player]
            events.append(PlayerMoved(player, plan.table, entrant.seat, table, free[0],
                                      stacks[player], REASON_BROKEN, plan.rule))
        events.append(TableClosed(plan.table, REASON_BROKEN))
    after = state
    for event in events:
        after = apply_tournament(after, event)
    cards = list(deck)
    for table in plan.button_tables:
        taken = after.seated_at(table)
        if len(cards) < len(taken):
            raise RuleViolation("button-redraw", f"table {table}: one card to each of "
                                f"{len(taken)} seats", (f"{len(taken)} cards",))
        drawn = {e.seat: cards.pop(0) for e in taken}
        button = draw_button(after, table, drawn)
        events.append(replace(button, rule=plan.rule if plan.final_table else
                              "button_redraw_at"))
        after = apply_tournament(after, button)
    return tuple(events)


def _check_order(order: Sequence[str], players: Sequence[str]) -> None:
    if sorted(order) != sorted(players):
        raise RuleViolation(BREAK_RULE, "the drawn order must name each player who draws a "
                            "seat once", tuple(sorted(players)))


def _check_stacks(stacks: Mapping[str, int], players: Sequence[str]) -> None:
    missing = [p for p in players if stacks.get(p, 0) <= 0]
    if missing:
        raise RuleViolation(BREAK_RULE, f"no stack for {', '.join(missing)}: record the "
                            "elimination first", tuple(missing))


_PROBE = Level(small_blind=1, big_blind=2)


def due_big_blind(table: TableState) -> str:
    """The player the next hand at `table` puts in the big blind ("" when no hand can be
    planned): the same code that plans the hand decides it (TDA 11-A: he is the one who moves
    when balancing; before the first hand the blinds follow the drawn button)."""
    if table.hand_in_progress or not table.button:
        return ""
    try:
        setup = plan_hand(table, _PROBE, table.hands_played + 1, final_table=True)
    except RuleViolation:
        return ""
    seat = table.occupant(setup.big_blind_seat)
    return seat.player if seat is not None else ""
