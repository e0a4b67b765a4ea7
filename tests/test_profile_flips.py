"""The profile is the only switch: flipping any parameter of any profile changes a decision.

For every parameter there is a scenario (a small hand, table or tournament) and a way to flip
the parameter's value; under each of the five profiles, the scenario's outcome (the events, the
legal actions or the refusal) differs between the profile and the profile with that one value
flipped. The flipped profile is a room profile (`room_profile_ref`: a base plus overrides),
exactly as a structure file carries one, so the test goes through the same lookup as play.

A parameter without a scenario fails `test_every_parameter_has_a_flip_scenario`; one that no
decision reads fails `test_flipping_a_parameter_changes_a_decision`. `handlog rules show` names
the test case that proves each parameter.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pytest

from handlog.engine.cards import parse_cards
from handlog.engine.commands import (
    ActOutOfTurn,
    AwardPots,
    BetRaise,
    CheckCall,
    Command,
    DealBoard,
    DeclareMisdeal,
    ExpireClock,
    ExposeBoardEarly,
    ExposeCard,
    Fold,
    KillHand,
    PushChips,
    ShowCards,
)
from handlog.engine.entries import rebuy
from handlog.engine.errors import RuleViolation
from handlog.engine.hand import (
    BETTING,
    BOARD,
    HandSetup,
    HandState,
    begin,
    decide,
    execute,
    legal_actions,
    propose_awards,
    start_hand,
)
from handlog.engine.profiles import PROFILES, get_profile, parameter_names, room_profile_ref
from handlog.engine.structure import Structure, payouts_for
from handlog.engine.table import Level, apply_table, open_table, plan_hand
from handlog.engine.table_events import ButtonPlaced, PlayerLeft, PlayerSeated, TableOpened
from handlog.engine.tournament import (
    Bust,
    TournamentState,
    apply_tournament,
    button_redraw_due,
    check_deal_allowed,
    color_up,
    create_tournament,
    decide_antes,
    draw_button,
    draw_seats,
    eliminate,
    end_break,
    late_entry_open,
    needs_balancing,
    register,
    remove_absent_player,
    start_break,
    start_level,
    suggest_balance,
)
from handlog.engine.tournament_events import HandForHandStarted
from handlog.recorder.structure import load_structure

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
TEST_NAME = "tests/test_profile_flips.py::test_flipping_a_parameter_changes_a_decision"


def room(base: str, overrides: Mapping[str, object]) -> str:
    """A room profile on `base` with `overrides` (the ref a structure file produces)."""
    return room_profile_ref("flip", base, overrides) if overrides else base


def outcome(decision: Callable[[], Any]) -> Any:
    """What a decision gives, or the rule it was refused under."""
    try:
        return decision()
    except RuleViolation as refused:
        return ("refused", refused.rule)


# --- hands ---------------------------------------------------------------------------------


def hand(profile: str, stacks: tuple[int, ...], blinds: tuple[int, ...] | None = None, *,
         antes: tuple[int, ...] | None = None, chip_unit: int = 1,
         absent: tuple[int, ...] = ()) -> HandState:
    n = len(stacks)
    if blinds is None:
        blinds = (100, 50) if n == 2 else (50, 100) + (0,) * (n - 2)
    return start_hand(HandSetup(stacks, blinds, antes or (0,) * n, 100, chip_unit, profile,
                                absent=absent))


def play(state: HandState, *commands: object) -> HandState:
    for command in commands:
        state = execute(state, command)  # type: ignore[arg-type]
    return state


def limp(state: HandState) -> HandState:
    while state.phase == BETTING and state.street == 0:
        assert state.to_act is not None
        state = execute(state, CheckCall(state.to_act))
    return state


def flop(state: HandState) -> HandState:
    return execute(limp(state), DealBoard(parse_cards("2c7d9h")))


def run_out(state: HandState, board: str) -> HandState:
    full = parse_cards(board)
    while state.phase in (BETTING, BOARD):
        if state.phase == BOARD:
            have = len(state.board)
            state = execute(state, DealBoard(full[have:have + (3 if have == 0 else 1)]))
        else:
            assert state.to_act is not None
            state = execute(state, CheckCall(state.to_act))
    return state


def raise_kind_after_short_all_in(profile: str) -> Any:
    """Flop: position 0 bets 100, position 1 all-in to 160, position 2 calls: may 0 raise?"""
    state = play(flop(hand(profile, (5000, 260, 5000))), BetRaise(0, 100), BetRaise(1, 160),
                 CheckCall(2))
    la = legal_actions(state)
    assert la is not None and la.player == 0
    return la.raise_kind


def raise_kind_of_the_raiser_after_short_all_in(profile: str) -> Any:
    """Flop: 0 bets 100, 1 raises to 200, 2 all-in to 260, 0 calls: may 1 raise again?"""
    state = play(flop(hand(profile, (5000, 5000, 360))), BetRaise(0, 100), BetRaise(1, 200),
                 BetRaise(2, 260), CheckCall(0))
    la = legal_actions(state)
    assert la is not None and la.player == 1
    return la.raise_kind


def min_raise_over_a_short_first_bet(profile: str) -> Any:
    """Flop: position 0's first bet is an all-in for 60 (big blind 100): the smallest raise."""
    state = play(flop(hand(profile, (160, 5000, 5000))), BetRaise(0, 60))
    la = legal_actions(state)
    assert la is not None and la.player == 1
    return la.min_to


def min_raise_after_a_short_all_in(profile: str) -> Any:
    """Flop: 0 bets 1,000, 1 all-in to 1,200: the smallest raise for 2."""
    state = play(flop(hand(profile, (5000, 1300, 5000))), BetRaise(0, 1000), BetRaise(1, 1200))
    la = legal_actions(state)
    assert la is not None and la.player == 2
    return la.min_to


def call_facing_a_short_big_blind(profile: str) -> Any:
    state = hand(profile, (1000, 60, 1000))
    la = legal_actions(state)
    assert la is not None
    return la.call_amount


def short_big_blind_with_big_blind_ante(profile: str) -> Any:
    state = hand(profile, (1000, 150, 1000), antes=(0, 100, 0))
    return state.bets, state.dead


def preflop_min_raise(profile: str) -> Any:
    la = legal_actions(hand(profile, (5000,) * 4))
    assert la is not None
    return la.min_to


def killed_raiser_stack(profile: str) -> Any:
    state = play(hand(profile, (5000,) * 3), BetRaise(2, 1000), Fold(0),
                 KillHand(2, "cards exposed with action pending", "bse-mucked-cards"))
    return state.stacks


def odd_chip_winner(profile: str) -> Any:
    state = hand(profile, (1000, 1000, 10), (25, 50, 0), chip_unit=25)
    state = play(state, CheckCall(2), CheckCall(0), CheckCall(1))
    state = run_out(state, "AhKhQhJhTh")
    state = play(state, ShowCards(2, parse_cards("2c3d")), ShowCards(0, parse_cards("4c5d")),
                 ShowCards(1, parse_cards("6c7d")))
    return propose_awards(state)[0].shares


def odd_chip_of_a_larger_split(profile: str) -> Any:
    """Chips of 25: the button all-in for 75 ties the small blind; nine chips to split."""
    state = hand(profile, (1000, 1000, 75), (25, 50, 0), chip_unit=25)
    state = run_out(play(state, BetRaise(2, 75), CheckCall(0), CheckCall(1)), "2h7c9dJdKs")
    state = play(state, ShowCards(2, parse_cards("AcAd")), ShowCards(0, parse_cards("AhAs")),
                 ShowCards(1, parse_cards("3c4d")))
    return propose_awards(state)[0].shares


def misdeal_after_two_folds(profile: str) -> Any:
    state = play(hand(profile, (1000,) * 4), Fold(2), Fold(3))
    return outcome(lambda: type(decide(state, DeclareMisdeal("button out of position"))[-1]))


def first_card_exposed_in_deal(profile: str) -> Any:
    events = decide(hand(profile, (1000,) * 4), ExposeCard(0, parse_cards("As")[0]))
    return tuple(type(e).__name__ for e in events)


def both_cards_exposed_then_raise(profile: str) -> Any:
    state = play(hand(profile, (1000,) * 4), ExposeCard(2, parse_cards("As")[0], in_deal=False),
                 ExposeCard(2, parse_cards("Ad")[0], in_deal=False))
    la = legal_actions(state)
    return la.raise_kind if la is not None else None


def player_exposes_with_action_pending(profile: str) -> Any:
    events = decide(hand(profile, (1000,) * 4), ExposeCard(2, parse_cards("As")[0],
                                                            in_deal=False))
    return tuple(type(e).__name__ for e in events)


def turn_card_turned_early(profile: str) -> Any:
    state = play(flop(hand(profile, (1000,) * 3)), CheckCall(0))
    early = parse_cards("Ks")
    events = decide(state, ExposeBoardEarly(early))
    state = play(state, ExposeBoardEarly(early), CheckCall(1), CheckCall(2))
    return events, outcome(lambda: decide(state, DealBoard(early)))


def facing_1100(profile: str) -> HandState:
    """Blinds 250-500, smallest chip 100: position 2 raises 600 to 1,100; 3 is to act."""
    state = start_hand(HandSetup((20_000,) * 4, (250, 500, 0, 0), (0,) * 4, 500, 100, profile))
    return execute(state, BetRaise(2, 1100))


def pushed(state: HandState, command: PushChips) -> Any:
    return outcome(lambda: decide(state, command))


def one_chip_unopened(profile: str) -> Any:
    state = flop(hand(profile, (5000,) * 3, chip_unit=25))
    return pushed(state, PushChips(0, (500,)))


def three_500s_facing_1100(profile: str) -> Any:
    return pushed(facing_1100(profile), PushChips(3, (500, 500, 500)))


def two_motions_facing_1100(profile: str) -> Any:
    """A 5,000 chip and then three 100s: the first motion alone is one oversized chip (a call
    under TDA 44), or well over the bet (the league: a minimum raise)."""
    return pushed(facing_1100(profile), PushChips(3, (5000, 100, 100, 100), motions=(1, 3)))


def call_after_raising_out_of_turn(profile: str) -> Any:
    """Position 3 raised to 400 out of turn; 2 calls, nothing changed: may 3 now just call?"""
    state = hand(profile, (5000,) * 4)
    state = play(state, ActOutOfTurn(3, "raise", 400), CheckCall(2))
    return outcome(lambda: decide(state, CheckCall(3)))


def bounty_chip_alone(profile: str) -> Any:
    return pushed(facing_1100(profile), PushChips(3, bounty_chip=True))


def absent_at_the_deal(profile: str) -> Any:
    return hand(profile, (1000,) * 4, absent=(2,)).folded


def absent_big_blind_when_checked_to(profile: str) -> Any:
    state = hand(profile, (1000,) * 3, absent=(1,))
    state = play(state, CheckCall(2), CheckCall(0))
    la = legal_actions(state)
    return (la.player, la.can_check) if la is not None else None


def clock_after(seconds: int) -> Callable[[str], Any]:
    def scenario(profile: str) -> Any:
        state = hand(profile, (1000,) * 3)
        return outcome(lambda: decide(state, ExpireClock(2, seconds)))
    return scenario


def clock_expires_unbet(profile: str) -> Any:
    state = play(flop(hand(profile, (1000,) * 3)))
    return tuple(type(e).__name__ for e in decide(state, ExpireClock(0)))


# --- tables --------------------------------------------------------------------------------

LEVEL = Level(50, 100)


def table_after_bust(profile: str, seats: dict[int, int], bust: int | tuple[int, ...], *,
                     final_table: bool = True) -> Any:
    state = open_table(TableOpened("T", 9, profile))
    for seat, stack in seats.items():
        state = apply_table(state, PlayerSeated(seat, f"S{seat}", stack))
    state = apply_table(state, ButtonPlaced(1))
    first = plan_hand(state, LEVEL, 1, final_table=True)
    for event in begin(first):
        state = apply_table(state, event)
    while state.hand_in_progress:
        assert state.hand is not None
        la = legal_actions(state.hand)
        if la is not None:
            command: Command = Fold(la.player) if la.call_amount else CheckCall(la.player)
        else:
            command = AwardPots()
        for event in decide(state.hand, command):
            state = apply_table(state, event)
    for out in (bust,) if isinstance(bust, int) else bust:
        seat = next(s for s in state.seats if s.seat == out)
        state = apply_table(state, PlayerLeft(out, seat.player, seat.stack, "eliminated"))
    setup = outcome(lambda: plan_hand(state, LEVEL, 2, final_table=final_table))
    if isinstance(setup, HandSetup):
        return setup.button_seat, setup.small_blind_seat, setup.big_blind_seat, setup.seats
    return setup


def newcomer_dealt(profile: str) -> Any:
    """For each of the first three seats: is a player who just sat down there dealt in?"""
    dealt = []
    for newcomer in (1, 2, 3):
        state = open_table(TableOpened("T", 9, profile))
        for seat in range(1, 7):
            state = apply_table(state, PlayerSeated(seat, f"S{seat}", 1000, seat == newcomer))
        state = apply_table(state, ButtonPlaced(1))
        setup = plan_hand(state, LEVEL, 1, final_table=True)
        dealt.append(newcomer in setup.seats)
    return tuple(dealt)


# --- tournaments ---------------------------------------------------------------------------


def example(name: str, profile: str) -> Structure:
    return replace(load_structure(EXAMPLES / f"{name}.toml"), profile=profile)


class Log:
    def __init__(self, structure: Structure) -> None:
        self.state: TournamentState = apply_tournament(None, create_tournament("t", structure))

    def add(self, *events: Any) -> TournamentState:
        for event in events:
            self.state = apply_tournament(self.state, event)
        return self.state


def players(n: int) -> list[str]:
    return [f"p{i:02d}" for i in range(1, n + 1)]


def started(profile: str, n: int, tables: tuple[str, ...] = ("A", "B")) -> Log:
    log = Log(example("tda-demo", profile))
    for p in players(n):
        log.add(register(log.state, p, p))
    log.add(draw_seats(log.state, tables, players(n), seed="1"))
    log.add(start_level(log.state))
    return log


def to_level(log: Log, number: int) -> None:
    while log.state.level < number:
        s = log.state.structure
        level = log.state.level
        if s.ante_checkpoint and s.ante_checkpoint.after_level == level and \
                log.state.antes_used is None:
            log.add(decide_antes(log.state))
        if s.break_after(level) and level not in log.state.breaks_taken:
            log.add(start_break(log.state))
            log.add(end_break(log.state))
        step = s.color_up_after(level)
        if step and level not in log.state.color_ups_done:
            return
        log.add(start_level(log.state))


def color_up_with_odd_chips(profile: str) -> Any:
    log = started(profile, 3, ("A",))
    to_level(log, 5)
    stacks = {e.player: 5000 + 5 * (i + 1) for i, e in enumerate(log.state.remaining)}
    event = outcome(lambda: color_up(log.state, stacks))
    return event if isinstance(event, tuple) else (event.method, event.adjustments)


def color_up_of_a_stack_of_odd_chips(profile: str) -> Any:
    log = started(profile, 3, ("A",))
    to_level(log, 5)
    stacks = {e.player: 5 if i == 0 else 5000 for i, e in enumerate(log.state.remaining)}
    event = outcome(lambda: color_up(log.state, stacks))
    return event if isinstance(event, tuple) else tuple(
        (a.amount, a.reason) for a in event.adjustments)


def seat_draw(profile: str) -> Any:
    log = Log(example("tda-demo", profile))
    for p in players(4):
        log.add(register(log.state, p, p))
    # What the recorder's seat draw asks (a shuffle with a recorded seed, or the director's
    # order), and what the draw records.
    from handlog.engine.seating import seating_order

    order, seed = seating_order(log.state, list(reversed(players(4))), "3")
    return tuple(order), seed, draw_seats(log.state, ("A",), order, seed=seed).reason


def button_draw(profile: str) -> Any:
    log = started(profile, 2, ("A",))
    return draw_button(log.state, "A", {1: "As", 2: "Ah"}).seat


def redraw_at_final_table(profile: str) -> Any:
    return button_redraw_due(started(profile, 4, ("A", "B")).state, 1)


def unbalanced(profile: str) -> Log:
    log = started(profile, 18)  # 9 and 9
    for player in [e.player for e in log.state.seated_at("B")][:2]:
        log.add(*eliminate(log.state, [Bust(player, 100, "B", 3)]))
    return log


def balancing_needed(profile: str) -> Any:
    return needs_balancing(unbalanced(profile).state)


def balance_mover(profile: str) -> Any:
    log = unbalanced(profile)
    at_a = [e.player for e in log.state.seated_at("A")]
    deck = ["2c", "3c", "4c", "5c", "6c", "7c", "8c", "9c", "As"]
    move = suggest_balance(log.state, due_big_blind={"A": at_a[0]},
                           high_cards=dict(zip(at_a, deck, strict=True)))
    return move.player if move else None


def late_entry_at_level(level: int) -> Callable[[str], Any]:
    def scenario(profile: str) -> Any:
        log = started(profile, 4)
        to_level(log, level)
        if log.state.level < level:
            log.add(start_level(log.state, ruling="skip"))
        return late_entry_open(log.state), outcome(
            lambda: register(log.state, "late", "late").stack)
    return scenario


def absent_for_a_whole_level(profile: str) -> Any:
    log = started(profile, 4)
    return outcome(lambda: type(remove_absent_player(log.state, "p01", 5000, False)[0]))


def bubble_burst(profile: str) -> Any:
    log = started(profile, 4, ("A",))  # 2-10 entrants: two places paid
    log.add(*eliminate(log.state, [Bust("p04", 100, "A", 4)]))
    # Hand-for-hand at the money (RP-8-A speaks of it; outside it the photo finish places).
    log.add(HandForHandStarted((), "tda-rp-8"))
    # Three left, two out on one hand: the 2nd (paid) and 3rd places.
    events = eliminate(log.state, [Bust("p01", 300, "A", 5), Bust("p02", 200, "A", 5)])
    return tuple(getattr(e, "place", 0) for e in events)


def payouts_of_a_row_adding_to_101_percent(profile: str) -> Any:
    return payouts_for(example("octobermuck", profile), 30, 135_000)


def deal(profile: str) -> Any:
    return outcome(lambda: check_deal_allowed(started(profile, 4).state))


def rebuy_at_level_1(profile: str) -> Any:
    log = Log(example("tda-rebuy", profile))
    for p in players(4):
        log.add(register(log.state, p, p))
    log.add(draw_seats(log.state, ("A",), players(4), seed="1"))
    log.add(start_level(log.state))
    return outcome(lambda: rebuy(log.state, "p01", 1000).chips)


def muck_at_an_all_in_showdown(profile: str) -> Any:
    from handlog.replay.phh import PhhHand, hand_from_mapping
    from handlog.replay.phh_verify import replay_hand

    hand = hand_from_mapping({
        "variant": "NT", "antes": [0, 0], "blinds_or_straddles": [50, 100], "min_bet": 100,
        "starting_stacks": [1000, 1000],
        "actions": ["d dh p1 AsAd", "d dh p2 KsKd", "p2 cbr 1000", "p1 cc", "d db 2c3c4d",
                    "d db 9h", "d db Td", "p1 sm AsAd", "p2 sm"]}, "flip", None)
    assert isinstance(hand, PhhHand)
    violation = replay_hand(hand, profile).violation
    return None if violation is None else violation.rule


# --- the flips ------------------------------------------------------------------------------


def _other(options: tuple[Any, ...]) -> Callable[[Any], Any]:
    """The first option that is not the current value."""
    return lambda value: next(o for o in options if o != value)


def _toggle(value: Any) -> Any:
    return not value


@dataclass(frozen=True)
class Flip:
    """How to flip a parameter and a scenario that shows it; `context` sets other parameters
    for both sides (where one parameter only matters given another)."""

    other: Callable[[Any], Any]
    scenario: Callable[[str], Any]
    context: Mapping[str, object] = field(default_factory=dict)


FLIPS: dict[str, Flip] = {
    "reopen_percent": Flip(_other((50, 100)), raise_kind_after_short_all_in),
    "reopen_measure": Flip(_other(("last_full_raise", "own_bet_total")),
                           raise_kind_of_the_raiser_after_short_all_in, {"reopen_percent": 50}),
    "full_big_blind_level": Flip(_toggle, call_facing_a_short_big_blind),
    "big_blind_ante_order": Flip(_other(("big_blind_first", "ante_first")),
                                 short_big_blind_with_big_blind_ante),
    "preflop_min_raise_multiple": Flip(_other((2, 3)), preflop_min_raise),
    "raise_over_a_short_first_bet": Flip(_other(("a_full_bet_more", "double_the_bet")),
                                         min_raise_over_a_short_first_bet),
    "raise_after_a_short_all_in": Flip(_other(("a_full_raise_over_it", "complete_the_raise")),
                                       min_raise_after_a_short_all_in),
    "dead_hand_forfeits_chips_in_action": Flip(_toggle, killed_raiser_stack),
    "single_chip_unannounced": Flip(
        lambda value: "call_or_bet_its_value" if value == "call" else "call", one_chip_unopened),
    "several_chips_unannounced": Flip(_other(("tda_45", "raise_for_total")),
                                      three_500s_facing_1100),
    "string_bet": Flip(_other(("first_motion", "call_or_min_raise")), two_motions_facing_1100),
    "bounty_chip_all_in": Flip(_toggle, bounty_chip_alone),
    "out_of_turn": Flip(_other(("binding_unless_action_changes", "may_be_pulled_back")),
                        call_after_raising_out_of_turn),
    "odd_chip_all_in_first": Flip(_toggle, odd_chip_winner),
    "all_in_hands_tabled": Flip(_toggle, muck_at_an_all_in_showdown),
    "all_in_odd_chip_pots": Flip(_other(("single_chip_pot", "any_split_pot")),
                                 odd_chip_of_a_larger_split, {"odd_chip_all_in_first": True}),
    "misdeal_limit": Flip(_other(("substantial_action", "two_players_acted")),
                          misdeal_after_two_folds),
    "exposed_deal_card": Flip(_other(("replace_as_burn", "misdeal")), first_card_exposed_in_deal),
    "exposed_both_call_or_fold": Flip(_toggle, both_cards_exposed_then_raise,
                                      {"player_exposure_kills_hand": False}),
    "player_exposure_kills_hand": Flip(_toggle, player_exposes_with_action_pending),
    "premature_board_card": Flip(_other(("turn_out_for_the_round", "reshuffle_keep_burn")),
                                 turn_card_turned_early),
    "absent_hand_killed_at_deal": Flip(_toggle, absent_at_the_deal),
    "absent_big_blind_checks": Flip(_toggle, absent_big_blind_when_checked_to,
                                    {"absent_hand_killed_at_deal": False}),
    "clock_seconds": Flip(lambda value: value - 5, clock_after(27)),
    "clock_countdown_seconds": Flip(lambda value: value - 4, clock_after(27)),
    "clock_expired_unbet_hand_checked": Flip(_toggle, clock_expires_unbet),
    "button_rule": Flip(_other(("dead_button", "moving_button")),
                        lambda p: table_after_bust(p, dict.fromkeys(range(1, 7), 1000), 2)),
    "button_when_its_player_and_the_small_blind_bust": Flip(
        _other(("to_the_player_before_the_small_blind", "stays_on_its_seat")),
        lambda p: table_after_bust(p, dict.fromkeys(range(1, 7), 1000), (1, 2)),
        {"button_rule": "moving_button"}),
    "heads_up_transition": Flip(_other(("next_big_blind_keeps_it", "button_moves_on")),
                                lambda p: table_after_bust(p, {1: 1000, 2: 1000, 3: 1000}, 1)),
    "min_players_per_table": Flip(_other((2, 5)), lambda p: table_after_bust(
        p, dict.fromkeys(range(1, 6), 1000), 5, final_table=False)),
    "new_player_waits_between_blind_and_button": Flip(_toggle, newcomer_dealt),
    "new_player_waiting_positions": Flip(
        lambda value: ("big_blind",) if "big_blind" not in value else ("button",),
        newcomer_dealt),
    "color_up": Flip(_other(("race", "round_up")), color_up_with_odd_chips),
    "color_up_keeps_a_player_in": Flip(_toggle, color_up_of_a_stack_of_odd_chips,
                                       {"color_up": "forfeit_to_next_pot"}),
    "seats_drawn_at_random": Flip(_toggle, seat_draw),
    "seat_draw_suit_order": Flip(lambda value: tuple(reversed(value)), button_draw),
    "button_redraw_at": Flip(lambda value: () if value else ("final_table",),
                             redraw_at_final_table),
    "balance_when_short_by": Flip(_other((2, 3)), balancing_needed),
    "balance_mover": Flip(_other(("next_big_blind", "high_card_draw")), balance_mover),
    "late_entry_penalty_big_blinds": Flip(_other((0, 5)), late_entry_at_level(2)),
    "late_entry_closes": Flip(_other(("end_of_level_3", "structure")), late_entry_at_level(4)),
    "absent_eliminated_after_full_level": Flip(_toggle, absent_for_a_whole_level),
    "bubble_busts_share": Flip(_toggle, bubble_burst),
    "payout_percents_not_100": Flip(_other(("scale_to_pool", "last_place_takes_the_rest")),
                                    payouts_of_a_row_adding_to_101_percent),
    "deals_allowed": Flip(_toggle, deal),
    "re_entries_and_rebuys": Flip(_toggle, rebuy_at_level_1),
}


def test_every_parameter_has_a_flip_scenario() -> None:
    """A new parameter needs a scenario here showing that it changes a decision."""
    missing = sorted(set(parameter_names()) - set(FLIPS))
    assert not missing, "parameters without a flip scenario: " + ", ".join(missing)
    assert not set(FLIPS) - set(parameter_names()), "scenarios for parameters that are gone"


@pytest.mark.parametrize("parameter", parameter_names())
def test_flipping_a_parameter_changes_a_decision(parameter: str) -> None:
    """Under each profile, flipping `parameter` (alone, given the scenario's context) changes
    the scenario's outcome."""
    flip = FLIPS[parameter]
    for base in PROFILES:
        before = room(base, flip.context)
        value = getattr(get_profile(before), parameter)
        after = room(base, {**flip.context, parameter: flip.other(value)})
        assert getattr(get_profile(after), parameter) != value
        assert flip.scenario(before) != flip.scenario(after), (
            f"{base}: {parameter} = {value!r} and {flip.other(value)!r} decide alike")
