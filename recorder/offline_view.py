"""The JSON view of a table's state for a role, built from engine state alone: the seats, the
hand (legal actions, pots, showdown, proposed awards) and the next hand's plan. views.py adds
the stream's facts (version, recent events) around it; the dealer's tablet, offline, builds the
same view with this module in Pyodide (/vendor/engine.zip) from the state its own engine
reached, so the screen offline is the server's view code, not a copy of it.

Engine imports only (no I/O, no third-party package): it runs in the browser."""

from __future__ import annotations

from typing import Any

from handlog.engine import offers, words
from handlog.engine.cards import card_text
from handlog.engine.errors import RuleViolation
from handlog.engine.events import PotAwarded
from handlog.engine.hand import (
    BETTING,
    SHOWDOWN,
    STREETS,
    HandState,
    LegalActions,
    legal_actions,
    next_steps,
    pots,
    propose_awards,
    showdown_order,
)
from handlog.engine.profiles import action_clock, get_profile
from handlog.engine.table import Level, Seat, TableState, plan_hand, start_hold


def cards_view(cards: tuple[int, ...] | None) -> list[str] | None:
    return None if cards is None else [card_text(c) for c in cards]


def bet_sizes(hand: HandState, legal: LegalActions) -> list[dict[str, Any]]:
    """The quick sizes a tablet offers (engine/offers.py): each a legal total the chips in play
    make, with its size in big blinds; the all-in says which presets it caps."""
    return [{"label": size.label, "to": size.to, "big_blinds": size.big_blinds,
             "all_in": size.all_in, "capped": list(size.capped)}
            for size in offers.bet_sizes(hand, legal)]


def legal_view(hand: HandState, seat_of: tuple[int, ...],
           names: dict[str, str]) -> dict[str, Any] | None:
    legal = legal_actions(hand)
    if legal is None:
        return None
    return {
        "player": legal.player,
        "seat": seat_of[legal.player],
        "name": names.get(hand.setup.players[legal.player], hand.setup.players[legal.player])
        if hand.setup.players else f"position {legal.player}",
        "fold": legal.can_fold,
        "check": legal.can_check,
        "call": legal.call_amount,
        "call_all_in": legal.call_all_in,
        "raise_kind": legal.raise_kind,
        "min_to": legal.min_to,
        "max_to": legal.max_to,
        "all_in_to": legal.max_to if legal.raise_kind else 0,
        "sizes": bet_sizes(hand, legal),
        # What the keypad may send: totals from min_to to max_to whose chips (the total less
        # the player's bet) are a multiple of `step`, the smallest chip in play, or all-in.
        "step": hand.setup.chip_unit if hand.setup.chips_checked else 1,
        "bet": hand.bets[legal.player],
        "big_blind": hand.setup.min_bet,
        "describe": list(legal.describe()),
    }


def hand_view(hand: HandState, public: bool, names: dict[str, str]) -> dict[str, Any]:
    seats = hand.setup.seats or tuple(range(1, hand.player_count + 1))
    # The pots in the middle: what was collected from earlier streets (this street's bets are
    # still in front of the players; the pots gather them when the street ends).
    collected = hand._replace(committed=tuple(
        c - b for c, b in zip(hand.committed, hand.bets, strict=True)))
    pot_list = [
        {"amount": p.amount, "eligible": list(p.eligible),
         "eligible_seats": [seats[i] for i in p.eligible],
         "name": words.pot_name(k)}
        for k, p in enumerate(pots(collected))
    ] if not hand.is_complete else []
    view: dict[str, Any] = {
        "number": hand.setup.hand_number,
        "phase": hand.phase,
        "street": STREETS[min(hand.street, 3)],
        "complete": hand.is_complete,
        "board": cards_view(hand.board) or [],
        "pots": pot_list,
        "pot_total": hand.pot_total if not hand.is_complete else 0,
        "current_bet": hand.current_bet,
        "to_act": hand.to_act,
        "to_act_seat": seats[hand.to_act] if hand.to_act is not None else None,
        "legal": legal_view(hand, seats, names) if hand.phase == BETTING else None,
        "board_due": 0,
        "betting_closed": hand.betting_closed,
        "next_steps": list(next_steps(hand)),
        "showdown": None,
        "awards": [award_view(a, seats) for a in hand.awards],
        "button_seat": hand.setup.button_seat,
        "small_blind_seat": hand.setup.small_blind_seat,
        "big_blind_seat": hand.setup.big_blind_seat,
        "known_cards": known_cards(hand, public),
        "level": hand.setup.level,
        "min_bet": hand.setup.min_bet,
        "chip_unit": hand.setup.chip_unit,
        # The chips in play at this level (after its color-ups), smallest first: the chip tray
        # offers these and no others (empty: the table has no structure; any multiple of
        # chip_unit is a chip).
        "denominations": list(hand.setup.denominations),
    }
    if hand.phase == "board":
        view["board_due"] = 3 if not hand.board else 1
    if hand.phase == SHOWDOWN or (hand.betting_closed and not hand.is_complete):
        view["showdown"] = showdown_view(hand, seats, names)
    return view


def award_view(award: PotAwarded, seats: tuple[int, ...]) -> dict[str, Any]:
    return {
        "pot": award.pot, "amount": award.amount, "winners": list(award.winners),
        "winner_seats": [seats[w] for w in award.winners], "shares": list(award.shares),
        "odd_chips": list(award.odd_chips), "hand_rank": list(award.hand_rank),
        "hand_name": words.hand_name(award.hand_rank),
        "ruling": award.ruling,
    }


def showdown_view(hand: HandState, seats: tuple[int, ...],
              names: dict[str, str]) -> dict[str, Any]:
    """Who shows in what order, the engine's proposed awards or what is still pending (said
    with names: "Main pot is contested: Bob has not shown both cards"), and whether the pots
    go without a tap (`awards_by_itself`: nobody is left to contest them)."""
    result: dict[str, Any] = {
        "order": list(showdown_order(hand)),
        "order_seats": [seats[i] for i in showdown_order(hand)],
        "proposed": None,
        "pending": None,
        "awards_by_itself": False,
    }
    if hand.phase != SHOWDOWN:
        return result
    try:
        result["proposed"] = [award_view(a, seats) for a in propose_awards(hand)]
        result["awards_by_itself"] = offers.awards_by_itself(hand)
    except RuleViolation as violation:
        players = hand.setup.players

        def who(position: int) -> str:
            player = players[position] if 0 <= position < len(players) else ""
            return names.get(player, player) or f"seat {seats[position]}"

        pending = violation.as_dict()
        pending["message"] = (words.violation_text(violation.code, violation.facts, who)
                              or violation.message)
        result["pending"] = pending
    return result


def known_cards(hand: HandState, public: bool) -> list[str]:
    """Cards the picker greys out: the board, shown cards, and (not for viewers) dealt ones."""
    seen = set(hand.board)
    groups = list(hand.shown) + ([] if public else list(hand.hole))
    for cards in groups:
        if cards:
            seen.update(cards)
    return sorted(card_text(c) for c in seen)


def next_plan(state: TableState, level: Level | None,
               due: tuple[str, ...] = ()) -> dict[str, Any] | None:
    """Who has the button and the blinds next hand, or why no hand can start; and whether it
    starts by itself after the push (`starts_by_itself`) or why the dealer starts it (`hold`,
    engine.table.start_hold, and its words)."""
    try:
        plan = plan_hand(state, level or Level(1, 2), state.hands_played + 1)
    except RuleViolation as violation:
        return {"ready": False, "why": violation.as_dict(), "starts_by_itself": False}
    hold = start_hold(state, level, due)
    return {"ready": True, "button_seat": plan.button_seat,
            "small_blind_seat": plan.small_blind_seat, "big_blind_seat": plan.big_blind_seat,
            "seats": list(plan.seats), "starts_by_itself": not hold, "hold": hold,
            "hold_text": words.START_HOLDS.get(hold, hold)}


def level_dict(level: Level | None) -> dict[str, Any] | None:
    if level is None:
        return None
    return {"number": level.number, "small_blind": level.small_blind,
            "big_blind": level.big_blind, "ante": level.ante, "ante_kind": level.ante_kind,
            "chip_unit": level.chip_unit, "denominations": list(level.denominations)}




def table_body(state: TableState, level: Level | None, names: dict[str, str],
               due: tuple[str, ...], public: bool) -> dict[str, Any]:
    """The open table's view (views.table_view adds the stream's version and events)."""
    profile = get_profile(state.profile)
    clock = action_clock(state.profile)
    hand = state.hand
    in_hand = hand is not None and not hand.is_complete
    position = {s: i for i, s in enumerate(hand.setup.seats)} if hand is not None else {}
    seats = []
    occupants = {s.seat: s for s in reversed(state.seats)}  # (the first, as occupant())
    for number in range(1, state.seat_count + 1):
        seat = occupants.get(number)
        row: dict[str, Any] = {"seat": number, "player": None}
        if seat is not None:
            row |= {"player": names.get(seat.player, seat.player), "id": seat.player,
                    "stack": seat.stack, "absent": seat.absent,
                    "waits": seat.waits, "position": None, "bet": 0, "in_hand": False,
                    "folded": False, "all_in": False, "hole": None, "shown": None,
                    "to_act": False}
            p = position.get(number)
            if hand is not None and p is not None:
                row |= {
                    "position": p, "in_hand": True, "folded": hand.folded[p],
                    "shown": cards_view(hand.shown[p]),
                    "hole": None if public else cards_view(hand.hole[p] or None),
                }
                if in_hand:
                    row |= {"stack": hand.stacks[p], "bet": hand.bets[p],
                            "committed": hand.committed[p], "absent": hand.absent[p],
                            "all_in": hand.stacks[p] == 0 and not hand.folded[p],
                            "to_act": hand.to_act == p}
        seats.append(row)
    plan = None
    if in_hand:
        assert hand is not None
        markers = (hand.setup.button_seat, hand.setup.small_blind_seat,
                   hand.setup.big_blind_seat)
    else:
        plan = next_plan(state, level, due)
        if plan is not None and plan["ready"]:
            markers = (plan["button_seat"], plan["small_blind_seat"], plan["big_blind_seat"])
        else:
            markers = (state.button, state.small_blind_seat, state.big_blind_seat)
    for row in seats:
        row["button"] = row["seat"] == markers[0]
        row["small_blind"] = row["seat"] == markers[1]
        row["big_blind"] = row["seat"] == markers[2]
    return {
        "open": True,
        "table": state.table,
        "tournament": state.tournament,
        "carry": state.carry,  # chips waiting for the next pot (Octobermuck color-up)
        "seat_count": state.seat_count,
        "profile": {"name": profile.name, "title": profile.title,
                    "clock_seconds": clock[0], "clock_countdown_seconds": clock[1]},
        "hands_played": state.hands_played,
        "seats": seats,
        "hand": hand_view(hand, public, names) if hand is not None else None,
        "hand_in_progress": in_hand,
        "level": level_dict(level),
        "next_hand": None if in_hand else plan,
        "chips": state.chips(),
    }


def table_snapshot(state: TableState) -> dict[str, Any]:
    """The table's state but its hand, as plain data (the hand goes as its own events,
    views.offline_hand): what the tablet rebuilds the table from offline (`table_of`)."""
    return {"table": state.table, "seat_count": state.seat_count, "profile": state.profile,
            "tournament": state.tournament,
            "seats": [[s.seat, s.player, s.stack, s.waits, s.absent] for s in state.seats],
            "button": state.button, "small_blind_seat": state.small_blind_seat,
            "big_blind_seat": state.big_blind_seat, "hands_played": state.hands_played,
            "carry": state.carry}


def table_of(snapshot: dict[str, Any], hand: HandState | None) -> TableState:
    """The table `table_snapshot` gave, with its hand replayed from the hand's events."""
    seats = tuple(Seat(int(seat), str(player), int(stack), bool(waits), bool(absent))
                  for seat, player, stack, waits, absent in snapshot["seats"])
    return TableState(str(snapshot["table"]), int(snapshot["seat_count"]),
                      str(snapshot["profile"]), str(snapshot["tournament"]), seats,
                      int(snapshot["button"]), int(snapshot["small_blind_seat"]),
                      int(snapshot["big_blind_seat"]), hand, int(snapshot["hands_played"]),
                      int(snapshot["carry"]))


def level_of(level: dict[str, Any] | None) -> Level | None:
    """The inverse of `level_dict`."""
    if level is None:
        return None
    return Level(int(level["small_blind"]), int(level["big_blind"]), int(level["ante"]),
                 level["ante_kind"], int(level["number"]), int(level["chip_unit"]),
                 tuple(int(d) for d in level["denominations"]))
