"""Seats and tables: the seat draw, the button draw, moves, balancing, closing tables.

Randomness comes in as inputs: the drawn order of the players (the caller derives it from a
recorded seed), the cards of a button draw or of a high-card draw for who moves.
"""

from __future__ import annotations

import heapq
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from handlog.engine.cards import SUITS, Card, card_rank, card_suit, parse_card
from handlog.engine.errors import RuleViolation
from handlog.engine.profiles import Profile, get_profile
from handlog.engine.tournament_events import (
    ButtonDrawn,
    PlayerMoved,
    SeatAssignment,
    SeatCard,
    SeatsDrawn,
    TableClosed,
)
from handlog.engine.tournament_state import Entrant, TournamentState
from handlog.engine.words import cite


def _profile(state: TournamentState) -> Profile:
    return get_profile(state.structure.profile)


def draw_order(profile: Profile, card: Card) -> tuple[int, int]:
    """How high a drawn card is: by rank, then by the profile's suit order (a higher suit
    earlier in seat_draw_suit_order)."""
    order = profile.seat_draw_suit_order
    suit = SUITS[card_suit(card)]
    return card_rank(card), len(order) - order.index(suit) if suit in order else 0


def _check_running(state: TournamentState) -> None:
    if state.finished:
        raise RuleViolation("tournament", f"{state.tournament} is over: {state.winner} won")


def _check_tables(state: TournamentState, tables: Sequence[str]) -> None:
    if not tables or any(not t.strip() for t in tables):
        raise RuleViolation("seating", "name at least one table; table names must not be empty")
    if len(set(tables)) != len(tables):
        raise RuleViolation("seating", "a table is listed twice")


def _check_order(order: Sequence[str], expected: Collection[str], what: str) -> None:
    missing = sorted(set(expected) - set(order))
    extra = sorted(set(order) - set(expected))
    if missing or extra or len(order) != len(set(order)):
        detail = []
        if missing:
            detail.append(f"missing {', '.join(missing)}")
        if extra:
            detail.append(f"not to be seated {', '.join(extra)}")
        if len(order) != len(set(order)):
            detail.append("a player appears twice")
        raise RuleViolation("seating", f"the drawn order must be a permutation of {what}: "
                            + "; ".join(detail), tuple(sorted(expected)))


def _assign(state: TournamentState, order: Sequence[str], tables: Sequence[str],
            occupied: dict[str, set[int]]) -> tuple[SeatAssignment, ...]:
    """The i-th drawn player takes the lowest free seat at the table with fewest players
    (ties: the table listed first), so the tables end up balanced."""
    seats = state.structure.seats_per_table
    free = sum(seats - len(occupied[t]) for t in tables)
    if free < len(order):
        raise RuleViolation("seating", f"{len(order)} players to seat but {free} free seats "
                            f"at {len(tables)} table(s) of {seats}", ("open another table",))
    result: list[SeatAssignment] = []
    # The shortest table first, ties to the one listed first: a heap keeps that choice cheap
    # for a thousand tables.
    heap = [(len(occupied[t]), k, t) for k, t in enumerate(tables) if len(occupied[t]) < seats]
    heapq.heapify(heap)
    for player in order:
        count, k, table = heapq.heappop(heap)
        seat = next(s for s in range(1, seats + 1) if s not in occupied[table])
        occupied[table].add(seat)
        result.append(SeatAssignment(player, table, seat))
        if count + 1 < seats:
            heapq.heappush(heap, (count + 1, k, table))
    short = [t for t in tables if len(occupied[t]) < 2]
    if short:
        players = sum(len(occupied[t]) for t in tables)
        raise RuleViolation(
            "seating", f"a draw of {players} players over {len(tables)} tables leaves "
            f"{short[0]} with fewer than two players: no hand could be dealt there",
            (f"at most {max(1, players // 2)} table(s)",))
    return tuple(result)


def _place_fixed(state: TournamentState, fixed: Sequence[SeatAssignment], candidates: set[str],
                 tables: Sequence[str], occupied: dict[str, set[int]]) -> None:
    for f in fixed:
        if f.player not in candidates:
            raise RuleViolation("seating", f"{f.player} is not a player to be seated")
        if f.table not in tables:
            raise RuleViolation("seating", f"{f.player}'s table {f.table} is not in the draw",
                                tuple(tables))
        if not 1 <= f.seat <= state.structure.seats_per_table or f.seat in occupied[f.table]:
            raise RuleViolation("seating", f"seat {f.seat} at {f.table} is not a free seat")
        occupied[f.table].add(f.seat)


def seating_order(state: TournamentState, drawn: Sequence[str], seed: str,
                  ) -> tuple[list[str], str]:
    """Who takes the next free seat first, and the seed to record with the draw. Seats drawn
    at random (`seats_drawn_at_random`): `drawn`, the unseated players in the order a random
    draw gave them (the recorder shuffles by `seed`), with the seed recorded so the draw can be
    checked. Where the director assigns seats (BSE: 'EDs will assign seats'): no draw at all,
    the players in the order they registered (the director's list), and no seed."""
    unseated = [e.player for e in state.remaining if not e.table]
    if not _profile(state).seats_drawn_at_random:
        return unseated, ""
    _check_order(drawn, unseated, "the unseated players")
    return list(drawn), seed


def draw_seats(state: TournamentState, tables: Sequence[str], order: Sequence[str],
               seed: str = "", fixed: Sequence[SeatAssignment] = ()) -> SeatsDrawn:
    """Seat every registered player not yet seated: `order` is their drawn order (a permutation
    supplied by the caller); `fixed` players are placed first (Octobermuck's designated
    dealers). Players already seated keep their seats."""
    _check_running(state)
    _check_tables(state, tables)
    fixed_players = {f.player for f in fixed}
    unseated = {e.player for e in state.remaining if not e.table}
    _check_order(order, unseated - fixed_players, "the unseated players")
    occupied = {t: set(state.occupied(t)) for t in tables}
    _place_fixed(state, fixed, unseated, tables, occupied)
    assignments = tuple(fixed) + _assign(state, order, tables, occupied)
    # Where the house assigns seats (BSE: 'EDs will assign seats'), the order given is the
    # director's and the event says so; else it is a random draw.
    reason = "initial_draw" if _profile(state).seats_drawn_at_random else "assigned"
    return SeatsDrawn(seed=seed, tables=tuple(tables), assignments=assignments, reason=reason)


def redraw_seats(state: TournamentState, tables: Sequence[str], order: Sequence[str],
                 seed: str = "", fixed: Sequence[SeatAssignment] = (),
                 reason: str = "final_table_redraw") -> tuple[TableClosed | SeatsDrawn, ...]:
    """Reseat every player still in at random (Octobermuck: 'When combining for the final
    table, all players except the dealer ... will be reseated randomly'); tables not listed
    close."""
    _check_running(state)
    _check_tables(state, tables)
    everyone = {e.player for e in state.remaining}
    fixed_players = {f.player for f in fixed}
    _check_order(order, everyone - fixed_players, "the players still in")
    occupied: dict[str, set[int]] = {t: set() for t in tables}
    _place_fixed(state, fixed, everyone, tables, occupied)
    assignments = tuple(fixed) + _assign(state, order, tables, occupied)
    closed = tuple(TableClosed(t, reason) for t in state.tables if t not in tables)
    return closed + (SeatsDrawn(seed=seed, tables=tuple(tables), assignments=assignments,
                                reason=reason),)


def draw_button(state: TournamentState, table: str, cards: Mapping[int, str]) -> ButtonDrawn:
    """One card per occupied seat; the highest card by rank, then suit, wins the button."""
    _check_running(state)
    seated = {e.seat: e.player for e in state.seated_at(table)}
    if len(seated) < 2:
        raise RuleViolation("seating", f"table {table} has {len(seated)} player(s) to draw")
    if set(cards) != set(seated):
        raise RuleViolation("bse-drawing-for-dealer",
                            f"table {table}: one card to each occupied seat",
                            tuple(f"seat {s}" for s in sorted(seated)))
    parsed: dict[int, int] = {}
    for seat, text in cards.items():
        try:
            parsed[seat] = parse_card(text)
        except ValueError as exc:
            raise RuleViolation("bse-drawing-for-dealer", f"seat {seat}: {exc}") from None
    if len(set(parsed.values())) != len(parsed):
        raise RuleViolation("bse-drawing-for-dealer", "the same card was drawn twice")
    profile = _profile(state)
    winner = max(parsed, key=lambda s: draw_order(profile, parsed[s]))
    return ButtonDrawn(
        table=table,
        cards=tuple(SeatCard(s, seated[s], cards[s]) for s in sorted(cards)),
        seat=winner,
        rule="bse-drawing-for-dealer",
    )


def move_player(state: TournamentState, player: str, to_table: str, to_seat: int, stack: int,
                reason: str = "balance", rule: str = "") -> PlayerMoved:
    """A player (and his chips) moved to a free seat at another open table."""
    _check_running(state)
    entrant = state.entrant(player)
    if entrant is None or not entrant.seated:
        raise RuleViolation("seating", f"{player} is not seated in the tournament")
    if to_table not in state.tables:
        raise RuleViolation("seating", f"table {to_table} is not open", state.tables)
    if to_table == entrant.table and to_seat == entrant.seat:
        raise RuleViolation("seating", f"{player} already sits at {to_table} seat {to_seat}")
    free = free_seats(state, to_table)
    if to_seat not in free:
        raise RuleViolation("seating", f"seat {to_seat} at {to_table} is not free",
                            tuple(f"seat {s}" for s in free))
    if stack <= 0:
        raise RuleViolation("seating", f"{player} moves with {stack} chips: record his "
                            "elimination instead")
    return PlayerMoved(player, entrant.table, entrant.seat, to_table, to_seat, stack, reason,
                       cite(rule))


def free_seats(state: TournamentState, table: str) -> tuple[int, ...]:
    taken = state.occupied(table)
    return tuple(s for s in range(1, state.structure.seats_per_table + 1) if s not in taken)


def close_table(state: TournamentState, table: str, reason: str = "table_broken") -> TableClosed:
    if table not in state.tables:
        raise RuleViolation("seating", f"table {table} is not open", state.tables)
    left = state.seated_at(table)
    if left:
        raise RuleViolation("seating", f"table {table} still seats "
                            f"{', '.join(e.player for e in left)}",
                            ("move them first",))
    return TableClosed(table, reason)


@dataclass(frozen=True, slots=True)
class BalanceMove:
    """A suggested move: the floor confirms it with `move_player`."""

    player: str
    from_table: str
    from_seat: int
    to_table: str
    to_seat: int
    free_seats: tuple[int, ...]
    reason: str
    rule: str


def table_counts(state: TournamentState) -> dict[str, int]:
    return {t: len(state.seated_at(t)) for t in state.tables}


def needs_balancing(state: TournamentState) -> bool:
    """One table is the profile's balance_when_short_by players short of another."""
    counts = table_counts(state)
    return len(counts) > 1 and max(counts.values()) - min(counts.values()) >= \
        _profile(state).balance_when_short_by


def suggest_balance(
    state: TournamentState,
    due_big_blind: Mapping[str, str] | None = None,
    high_cards: Mapping[str, str] | None = None,
    exempt: Collection[str] = (),
    from_table: str = "",
) -> BalanceMove | None:
    """Who moves where when the tables are out of balance (None when they are not).

    From the fullest table (`from_table` chooses when several are equally full: the choice is
    random in Octobermuck, so it is an input) to the shortest one (the first listed). Who moves:
    the player due the big blind next at the fuller table (`due_big_blind[table]`, TDA), or the
    high card of a draw among its players less `exempt` (Octobermuck: dealers are exempt).
    """
    if not needs_balancing(state):
        return None
    counts = table_counts(state)
    most = max(counts.values())
    fullest = [t for t in state.tables if counts[t] == most]
    if from_table:
        if from_table not in fullest:
            raise RuleViolation("balancing", f"{from_table} is not one of the fullest tables",
                                tuple(fullest))
        source = from_table
    elif len(fullest) == 1:
        source = fullest[0]
    else:
        raise RuleViolation("balancing", "several tables are equally full: choose one "
                            "(Octobermuck: chosen randomly)", tuple(fullest))
    target = min(state.tables, key=lambda t: counts[t])
    candidates = [e for e in state.seated_at(source) if e.player not in exempt]
    if not candidates:
        raise RuleViolation("balancing", f"every player at {source} is exempt from moving")
    profile = _profile(state)
    if profile.balance_mover == "high_card_draw":
        player, reason, rule = _high_card(profile, source, candidates, high_cards or {})
    else:
        due = (due_big_blind or {}).get(source, "")
        if due not in {e.player for e in candidates}:
            raise RuleViolation("tda-11-a", f"name the player due the big blind "
                                f"next at {source}", tuple(e.player for e in candidates))
        player, reason = due, "due_big_blind"
        rule = "tda-11-a"
    entrant = state.entrant(player)
    assert entrant is not None
    free = free_seats(state, target)
    return BalanceMove(player, source, entrant.seat, target, free[0], free, reason, rule)


def _high_card(profile: Profile, source: str, candidates: Sequence[Entrant],
               cards: Mapping[str, str]) -> tuple[str, str, str]:
    rule = profile.rule("balance")
    players = [e.player for e in candidates]
    missing = [p for p in players if p not in cards]
    if missing:
        raise RuleViolation(rule, f"every player at {source} draws a card",
                            tuple(f"card for {p}" for p in missing))
    try:
        drawn = {p: parse_card(cards[p]) for p in players}
    except ValueError as exc:
        raise RuleViolation(rule, str(exc)) from None
    if len(set(drawn.values())) != len(drawn):
        raise RuleViolation(rule, "the same card was drawn twice")
    winner = max(players, key=lambda p: draw_order(profile, drawn[p]))
    return winner, "high_card", rule
