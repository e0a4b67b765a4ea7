"""A table as a person reads it at one moment (`handlog table show`, `handlog floor show`):
players by name, the button and blinds with why they are where they are, the pots with their
totals and who is eligible, what the player to act may do and the reopening rule the engine
applies under the table's profile."""

from __future__ import annotations

from typing import Any

from handlog.engine import words
from handlog.engine.cards import cards_text
from handlog.engine.errors import RuleViolation
from handlog.engine.hand import NOT_ACTED, HandState, legal_actions, pots, showdown_order
from handlog.engine.hand_decide import reopening
from handlog.engine.profiles import get_profile
from handlog.engine.table import Level, TableState, plan_hand


def _name(names: dict[str, str], player: str) -> str:
    return names.get(player, player)


def button_reasons(state: TableState, button: int, small_blind: int, big_blind: int,
                   players: int) -> list[str]:
    """Why the button and blinds are where they are, as a floor person explains it."""
    occupied = {s.seat for s in state.seats if s.stack > 0}
    reasons = []
    if players == 2:
        reasons.append("heads-up: the button posts the small blind and acts first before the "
                       "flop (TDA 34)")
    if button and button not in occupied:
        reasons.append(f"dead button: seat {button} is empty, the button stays there so "
                       "that nobody skips the big blind (TDA 32)")
    if not small_blind and players > 2:
        reasons.append("dead small blind: the player due it is out; the big blind moves on "
                       "(TDA 32)")
    elif small_blind and small_blind not in occupied:
        reasons.append(f"dead small blind on seat {small_blind} (TDA 32)")
    waiting = [s.seat for s in state.seats if s.waits and s.stack > 0]
    if waiting:
        reasons.append("waiting to be dealt in (a new player waits for the big blind or the "
                       f"button to pass, TDA 10-A): seat {', '.join(map(str, waiting))}")
    return reasons


def describe_table(state: TableState, names: dict[str, str] | None = None,
                   level: Level | None = None) -> dict[str, Any]:
    """One line per seat, then the hand, or what the next hand will be (with `level`)."""
    names = names or {}
    try:
        rules = get_profile(state.profile).name  # a room's own profile: its name
    except KeyError:
        rules = state.profile
    lines: list[str] = [f"table {state.table} ({rules} rules), {state.hands_played} "
                        "hands played"]
    hand = state.hand if state.hand_in_progress else None
    facts: dict[str, Any] = {"hand_in_progress": hand is not None}
    if hand is not None:
        setup = hand.setup
        lines.append(f"hand #{setup.hand_number}: button seat {setup.button_seat}, small blind "
                     f"seat {setup.small_blind_seat or '-'}, big blind seat "
                     f"{setup.big_blind_seat}")
        reasons = button_reasons(state, setup.button_seat, setup.small_blind_seat,
                                 setup.big_blind_seat, len(setup.seats))
        facts |= {"button_seat": setup.button_seat, "small_blind_seat": setup.small_blind_seat,
                  "big_blind_seat": setup.big_blind_seat}
    else:
        reasons = []
        if state.hand is not None:
            last = state.hand.setup
            lines.append(f"last hand #{last.hand_number}: button seat {last.button_seat}")
        if level is not None:
            try:
                planned = plan_hand(state, level, state.hands_played + 1, final_table=True)
            except RuleViolation as violation:
                lines.append(f"next hand cannot start: {violation.message} "
                             f"[{words.render_rule(violation.rule)}]")
            else:
                lines.append(f"next hand: button seat {planned.button_seat}, small blind seat "
                             f"{planned.small_blind_seat or '-'}, big blind seat "
                             f"{planned.big_blind_seat}")
                reasons = button_reasons(state, planned.button_seat, planned.small_blind_seat,
                                         planned.big_blind_seat, len(planned.seats))
                facts |= {"next_button_seat": planned.button_seat,
                          "next_small_blind_seat": planned.small_blind_seat,
                          "next_big_blind_seat": planned.big_blind_seat}
    lines.extend(f"  ({reason})" for reason in reasons)
    facts["button_reasons"] = reasons
    in_hand: dict[int, int] = {}
    if hand is not None:
        in_hand = {seat: i for i, seat in enumerate(hand.setup.seats)}
    for seat in state.seats:
        position = in_hand.get(seat.seat)
        who = _name(names, seat.player)
        if hand is not None and position is not None:
            lines.append(_seat_line(hand, position, seat.seat, who))
        else:
            out = " (out)" if seat.stack == 0 else ""
            lines.append(f"  seat {seat.seat}: {who} {seat.stack:,}{out}"
                         + (" (waiting)" if seat.waits else ""))
    if hand is not None:
        lines.extend(_hand_lines(hand, names))
    elif state.carry:
        lines.append(f"  carried into the next pot: {state.carry} (odd chips of a color-up, "
                     "nobody's until the next hand is won)")
    return {"lines": lines, "facts": facts}


def _seat_line(hand: HandState, position: int, seat: int, who: str) -> str:
    marks = []
    if seat == hand.setup.button_seat:
        marks.append("button")
    if seat == hand.setup.small_blind_seat:
        marks.append("small blind")
    if seat == hand.setup.big_blind_seat:
        marks.append("big blind")
    state = "folded" if hand.folded[position] else (
        "all-in" if hand.stacks[position] == 0 else "")
    text = (f"  seat {seat}: {who} behind {hand.stacks[position]:,}, in front "
            f"{hand.bets[position]:,}, in the pot {hand.committed[position]:,}")
    if marks:
        text += f" [{', '.join(marks)}]"
    if state:
        text += f" {state}"
    if hand.to_act == position:
        text += "  <- to act"
    return text


def _hand_lines(hand: HandState, names: dict[str, str]) -> list[str]:
    setup = hand.setup

    def who(position: int) -> str:
        return _name(names, setup.players[position])

    lines = [f"hand {setup.hand_number}: {hand.phase}, board "
             f"{cards_text(hand.board) or '(none)'}"]
    if setup.dead_money:
        lines.append(f"  carried into this pot: {setup.dead_money} (odd chips of a "
                     "color-up, in the main pot)")
    all_pots = pots(hand)
    for index, pot in enumerate(all_pots):
        name = "main pot" if index == 0 else f"side pot {index}"
        eligible = ", ".join(who(i) for i in pot.eligible)
        lines.append(f"  {name}: {pot.amount:,} (eligible: {eligible})")
    lines.append(f"  pots in all: {sum(p.amount for p in all_pots):,}")
    legal = legal_actions(hand)
    if legal is not None:
        lines.append(f"  {who(legal.player)} may: {'; '.join(legal.describe())}")
        is_open, rule_id = reopening(hand, legal.player)
        rule = words.rule_title(rule_id)
        if hand.acted_level[legal.player] != NOT_ACTED and hand.current_bet:
            if is_open:
                lines.append(f"  the betting is open again for {who(legal.player)} ({rule})")
            else:
                lines.append(f"  a short all-in did not reopen the betting for "
                             f"{who(legal.player)}: call or fold only ({rule})")
        if legal.raise_kind:
            lines.append(f"  a raise must be to at least {legal.min_to:,} (the last full raise "
                         f"is {hand.last_full_raise:,}, TDA 43)")
    if hand.phase == "showdown":
        order = ", ".join(who(i) for i in showdown_order(hand))
        lines.append(f"  showdown order (TDA 16): {order}")
    return lines
