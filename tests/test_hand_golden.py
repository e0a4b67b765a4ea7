"""Golden tests named after the rule they pin.

The TDA 2024 Illustration Addendum's worked examples for Rules 16, 43, 45 and 47 (text:
fire7964coco-prog/holdem-project, docs/sources/tda-2024-rules-v1.txt), the showdown order of
Rule 17, and the betting, pot and award rules of the engine issue. Amounts are the addendum's.

Positions: 0 is the first player left of the button and the last is the button. Three or more
players: 0 posts the small blind and 1 the big blind. Heads-up: 0 is the big blind and 1 the
button, who posts the small blind. In the addendum's post-flop examples the players A, B, C...
sit at positions 0, 1, 2... so that they act in that order.
"""

from __future__ import annotations

import pytest
from strategies import call_around, deal, new_hand, play

from handlog.engine.cards import parse_cards
from handlog.engine.commands import (
    AwardPots,
    BetRaise,
    CheckCall,
    DealHole,
    Fold,
    MuckCards,
    ShowCards,
)
from handlog.engine.errors import RuleViolation
from handlog.engine.evaluator import PAIR, THREE_OF_A_KIND
from handlog.engine.events import BetMade, PlayerCalled, PotAwarded, RaiseMade
from handlog.engine.hand import (
    BETTING,
    BOARD,
    COMPLETE,
    SHOWDOWN,
    HandState,
    LegalActions,
    Pot,
    decide,
    legal_actions,
    pots,
    propose_awards,
    showdown_order,
)
from handlog.engine.words import hand_name

SEVEN, KING, ACE = 5, 11, 12  # rank codes: 0 deuce .. 12 ace


def legal(state: HandState) -> LegalActions:
    la = legal_actions(state)
    assert la is not None, f"nobody is to act at {state.phase}"
    return la


def refused(state: HandState, command: object) -> RuleViolation:
    with pytest.raises(RuleViolation) as caught:
        decide(state, command)  # type: ignore[arg-type]
    return caught.value


def show(player: int, cards: str) -> ShowCards:
    return ShowCards(player, parse_cards(cards))


def to_flop(state: HandState, flop: str = "2c7d9h") -> HandState:
    return deal(call_around(state), flop)


# --- TDA 16: face up for all-ins -----------------------------------------------------------


def test_tda_16_example_1_all_in_called_on_the_turn_both_hands_tabled_before_the_river() -> None:
    """TDA 16 Ex. 1: heads-up all-in called on the turn: both hands tabled, then the river."""
    state = new_hand((2000, 5000))  # A is the big blind (0), B the button (1)
    state = deal(call_around(to_flop(state)), "3s")
    assert refused(state, show(0, "AsAh")).rule == "tda-16"  # betting still open
    state = play(state, BetRaise(0, 1900), CheckCall(1))
    assert state.phase == BOARD and state.betting_closed and state.board == parse_cards("2c7d9h3s")
    state = play(state, show(0, "AsAh"), show(1, "KsKh"))
    state = deal(state, "4d")
    assert state.phase == SHOWDOWN
    state = play(state, AwardPots())
    assert state.phase == COMPLETE
    assert state.stacks == (4000, 3000)


@pytest.mark.parametrize("profile", ["tda", "bse", "league", "octobermuck", "chairperson"])
def test_tda_16_all_in_hands_are_tabled_not_mucked(profile: str) -> None:
    """TDA 16 (BSE all-in, league, Octobermuck alike): once a player is all-in and the betting
    is over, no hand still in may be mucked, the all-in player's included; without an all-in
    the loser of a showdown may muck."""
    state = new_hand((2000, 5000), profile=profile)
    state = deal(call_around(to_flop(state)), "3s")
    state = play(state, BetRaise(0, 1900), CheckCall(1))
    for player in (0, 1):
        violation = refused(state, MuckCards(player))
        assert violation.rule == "tda-16" and violation.legal[0] == "show the cards"
    state = deal(state, "4d")
    assert state.phase == SHOWDOWN
    assert refused(state, MuckCards(1)).rule == "tda-16"
    no_all_in = deal(call_around(deal(call_around(to_flop(new_hand((2000, 5000)))), "3s")), "4d")
    no_all_in = call_around(no_all_in)
    assert no_all_in.phase == SHOWDOWN
    assert play(no_all_in, MuckCards(0)).folded == (True, False)


def three_way_with_a_short_all_in() -> HandState:
    """A (the button, 700) is all-in pre-flop; B (small blind) and C (big blind) call."""
    state = new_hand((5000, 5000, 700))
    state = play(state, BetRaise(2, 700), CheckCall(0), CheckCall(1))
    assert state.committed == (700, 700, 700)
    return play(state, DealHole(0, parse_cards("KsKh")), DealHole(1, parse_cards("QsQh")),
                DealHole(2, parse_cards("AsAh")))


def test_tda_16_example_2_no_tabling_while_two_players_can_still_bet() -> None:
    """TDA 16 Ex. 2: no tabling while two players can bet; all hands up once all-in is called."""
    state = deal(three_way_with_a_short_all_in(), "2c7d9h")
    state = play(state, CheckCall(0), CheckCall(1))
    assert refused(state, show(2, "AsAh")).rule == "tda-16"
    state = deal(state, "3s")
    state = play(state, BetRaise(0, 4300), CheckCall(1))
    assert state.phase == BOARD and state.betting_closed
    state = play(state, show(2, "AsAh"), show(0, "KsKh"), show(1, "QsQh"))
    state = deal(state, "4d")
    assert pots(state) == (Pot(2100, (0, 1, 2)), Pot(8600, (0, 1)))
    # The addendum pushes the side pot first; the engine names each pot by its index.
    awards = decide(state, AwardPots())
    assert [(a.pot, a.amount, a.winners) for a in awards if isinstance(a, PotAwarded)] == [
        (0, 2100, (2,)), (1, 8600, (0,))]
    assert play(state, AwardPots()).stacks == (8600, 0, 2100)


def test_tda_16_example_3_checked_river_tables_every_hand_at_showdown() -> None:
    """TDA 16 Ex. 3: hands tabled at a checked-river showdown; side pot 2000, main pot 2100."""
    state = deal(three_way_with_a_short_all_in(), "2c7d9h")
    state = play(state, CheckCall(0), CheckCall(1))
    state = deal(state, "3s")
    state = play(state, BetRaise(0, 1000), CheckCall(1))
    assert state.phase == BOARD and not state.betting_closed
    assert refused(state, show(2, "AsAh")).rule == "tda-16"
    state = deal(state, "4d")
    state = play(state, CheckCall(0), CheckCall(1))
    assert state.phase == SHOWDOWN
    assert pots(state) == (Pot(2100, (0, 1, 2)), Pot(2000, (0, 1)))
    state = play(state, show(2, "AsAh"), show(0, "KsKh"), show(1, "QsQh"), AwardPots())
    assert state.stacks == (4300 - 1000 + 2000, 3300, 2100)


# --- TDA 17: showdown order ----------------------------------------------------------------


def four_handed_to_the_river() -> HandState:
    state = to_flop(new_hand((10000,) * 4))
    state = deal(call_around(state), "3s")
    return deal(call_around(state), "4d")


def test_tda_17_last_aggressor_on_the_river_shows_first() -> None:
    """TDA 17-A: the last aggressor on the final round tables first, then clockwise."""
    state = play(four_handed_to_the_river(), CheckCall(0), BetRaise(1, 300), BetRaise(2, 900),
                 CheckCall(3), Fold(0), CheckCall(1))
    assert state.phase == SHOWDOWN
    assert showdown_order(state) == (2, 3, 1)


def test_tda_17_no_river_bet_first_seat_left_of_the_button_shows_first() -> None:
    """TDA 17-A: no river bet: the first live seat left of the button tables first."""
    state = to_flop(new_hand((10000,) * 4))
    state = deal(call_around(state), "3s")
    state = play(state, CheckCall(0), BetRaise(1, 200), CheckCall(2), CheckCall(3), Fold(0))
    state = deal(state, "4d")
    state = call_around(state)
    assert state.phase == SHOWDOWN
    assert showdown_order(state) == (1, 2, 3)


def test_tda_17_heads_up_no_river_bet_big_blind_shows_first() -> None:
    """TDA 17-A and 34-B: heads-up the big blind is the first seat left of the button."""
    state = to_flop(new_hand((1000, 1000)))
    state = deal(call_around(state), "3s")
    state = call_around(deal(call_around(state), "4d"))
    assert showdown_order(state) == (0, 1)


def test_tda_17b_last_live_hand_wins_without_showing_and_cannot_be_mucked() -> None:
    """TDA 17-B: the last live hand wins without tabling; a muck of it is refused."""
    state = play(four_handed_to_the_river(), CheckCall(0), CheckCall(1), CheckCall(2),
                 CheckCall(3), MuckCards(0), MuckCards(1), MuckCards(2))
    violation = refused(state, MuckCards(3))
    assert violation.rule == "tda-17"
    assert violation.legal == ("award the pots",)
    (award,) = propose_awards(state)
    assert (award.amount, award.winners, award.hand_rank) == (400, (3,), ())


# --- TDA 43: raise amounts -----------------------------------------------------------------


def test_tda_43_min_raise_equals_last_full_raise() -> None:
    """TDA 43-A: a raise must be at least the largest prior full bet or raise of the round."""
    state = to_flop(new_hand((10000,) * 3))
    state = play(state, BetRaise(0, 300), BetRaise(1, 1000))
    assert legal(state).min_to == 1000 + 700


def test_tda_43_example_1_reraise_at_least_the_last_raise_not_the_total() -> None:
    """TDA 43 Ex. 1: 600, raise to 1600, re-raise to 3600: D raises to at least 5600."""
    state = to_flop(new_hand((20000,) * 4, 100, 200))
    state = play(state, BetRaise(0, 600), BetRaise(1, 1600), BetRaise(2, 3600))
    la = legal(state)
    assert (la.player, la.call_amount, la.min_to, la.max_to) == (3, 3600, 5600, 19800)
    violation = refused(state, BetRaise(3, 5599))
    assert violation.rule == "tda-43"
    assert "raise to 5600 up to 19800" in violation.legal
    assert decide(state, BetRaise(3, 5600)) == (RaiseMade(3, 5600, all_in=False, full=True),)


def test_tda_43_example_2_short_all_in_raise_leaves_the_big_blind_as_the_minimum() -> None:
    """TDA 43 Ex. 2: UTG all-in for 150 (50 more): the next raise is still to at least 250."""
    state = new_hand((10000, 10000, 150, 10000))
    events = decide(state, BetRaise(2, 150))
    assert events == (RaiseMade(2, 150, all_in=True, full=False),)
    state = play(state, BetRaise(2, 150))
    la = legal(state)
    assert (la.player, la.call_amount, la.min_to) == (3, 150, 250)
    assert refused(state, BetRaise(3, 249)).rule == "tda-43"


def test_tda_43_example_3_min_raise_is_the_raise_increment_on_the_turn() -> None:
    """TDA 43 Ex. 3: a 300 bet raised to 1000 on the turn: C calls 1000 or raises to 1700."""
    state = to_flop(new_hand((10000,) * 3, 100, 200))
    state = deal(call_around(state), "3s")
    state = play(state, BetRaise(0, 300), BetRaise(1, 1000))
    la = legal(state)
    assert (la.player, la.call_amount, la.min_to) == (2, 1000, 1700)


def test_tda_43_example_4a_largest_raise_of_the_round_sets_the_minimum() -> None:
    """TDA 43 Ex. 4-A: raises to 125, 200 and 500 (300 more): D raises to at least 800."""
    state = new_hand((10000,) * 6, 25, 50)
    state = play(state, BetRaise(2, 125), BetRaise(3, 200), BetRaise(4, 500))
    la = legal(state)
    assert (la.player, la.call_amount, la.min_to) == (5, 500, 800)


def test_tda_43_example_4b_one_large_raise_sets_the_minimum() -> None:
    """TDA 43 Ex. 4-B: a raise to 500 and two calls: D calls 500 or raises to at least 950."""
    state = new_hand((10000,) * 6, 25, 50)
    state = play(state, BetRaise(2, 500), CheckCall(3), CheckCall(4))
    la = legal(state)
    assert (la.player, la.call_amount, la.min_to) == (5, 500, 950)


def test_tda_43_minimum_bet_is_the_big_blind() -> None:
    """TDA 43: the smallest bet is the big blind; less is refused unless all-in."""
    state = to_flop(new_hand((10000,) * 3))
    la = legal(state)
    assert (la.raise_kind, la.min_to) == ("bet", 100)
    violation = refused(state, BetRaise(0, 99))
    assert violation.rule == "tda-43"
    assert "the minimum bet is 100" in violation.message
    assert decide(state, BetRaise(0, 100)) == (BetMade(0, 100, all_in=False),)


def test_tda_43_preflop_minimum_raise_is_double_the_big_blind() -> None:
    """TDA 43 with 51-B: the first pre-flop raise is to at least twice the big blind."""
    state = new_hand((10000,) * 4)
    la = legal(state)
    assert (la.player, la.call_amount, la.raise_kind, la.min_to) == (2, 100, "raise", 200)
    assert refused(state, BetRaise(2, 199)).rule == "tda-43"


def test_all_in_bet_for_less_than_the_big_blind_is_legal_and_called_for_its_amount() -> None:
    """All-in for less: a 60 bet (BB 100) is called for 60; a raise is to at least 160."""
    state = to_flop(new_hand((160, 10000, 10000)))
    assert decide(state, BetRaise(0, 60)) == (BetMade(0, 60, all_in=True),)
    state = play(state, BetRaise(0, 60))
    la = legal(state)
    assert (la.call_amount, la.min_to) == (60, 160)


# --- TDA 45: multiple-chip bets (the amounts they lead to) -----------------------------------
# Which chips were pushed is the dealer's reading; the engine checks the amount recorded.


def utg_raised_to_1100() -> HandState:
    """Blinds 250-500: UTG raises 600 to 1100; UTG+1 is to act."""
    return play(new_hand((20000,) * 4, 250, 500), BetRaise(2, 1100))


def test_tda_45_example_2_silent_1500_is_held_to_a_full_raise_to_1700() -> None:
    """TDA 45 Ex. 2: facing 1100, 1500 is held to a full raise to 1700 (1500 is refused)."""
    state = utg_raised_to_1100()
    la = legal(state)
    assert (la.player, la.call_amount, la.min_to) == (3, 1100, 1700)
    violation = refused(state, BetRaise(3, 1500))
    assert violation.rule == "tda-43"
    assert violation.legal == ("call 1100", "raise to 1700 up to 20000", "fold")
    assert decide(state, BetRaise(3, 1700)) == (RaiseMade(3, 1700, all_in=False, full=True),)


def test_tda_45_example_3_short_of_the_50_percent_mark_is_a_call() -> None:
    """TDA 45 Ex. 3: 1300 put out is short of the 50% mark: recorded as a call of 1100."""
    state = utg_raised_to_1100()
    assert decide(state, CheckCall(3)) == (PlayerCalled(3, 1100, all_in=False),)


def test_tda_45_example_4a_1400_opener_min_raise_is_to_2800() -> None:
    """TDA 45 Ex. 4-A: against a 1400 bet, 2500 reaches 50%: the raise must be to 2800."""
    state = to_flop(new_hand((20000,) * 3))
    state = play(state, BetRaise(0, 1400))
    assert legal(state).min_to == 2800
    assert refused(state, BetRaise(1, 2500)).rule == "tda-43"


def test_tda_45_example_4b_last_chips_are_an_all_in_and_do_not_reopen() -> None:
    """TDA 45 Ex. 4-B and 47: last chips (2000 v 1400) are an all-in that does not reopen."""
    state = to_flop(new_hand((20000, 2100, 20000)))
    state = play(state, BetRaise(0, 1400))
    assert legal(state).max_to == 2000
    assert decide(state, BetRaise(1, 2000)) == (RaiseMade(1, 2000, all_in=True, full=False),)
    state = play(state, BetRaise(1, 2000), CheckCall(2))
    la = legal(state)
    assert (la.player, la.call_amount, la.raise_kind) == (0, 600, "")
    assert refused(state, BetRaise(0, 3400)).rule == "tda-47"


# --- TDA 47: re-opening the bet -----------------------------------------------------------


def test_tda_47_short_all_in_does_not_reopen_for_original_bettor() -> None:
    """TDA 47-A: a short all-in (150 v 100) does not reopen the betting for the bettor."""
    state = to_flop(new_hand((10000, 250, 10000)))
    state = play(state, BetRaise(0, 100), BetRaise(1, 150), CheckCall(2))
    la = legal(state)
    assert (la.player, la.call_amount, la.raise_kind, la.can_fold) == (0, 50, "", True)
    violation = refused(state, BetRaise(0, 300))
    assert violation.rule == "tda-47"
    assert violation.legal == ("call 50", "fold")


def addendum_47_example_1() -> HandState:
    """Blinds 50-100; post-flop A opens 100, B all-in 125, C calls, D all-in 200, E calls."""
    state = to_flop(new_hand((10000, 225, 10000, 300, 10000)))
    return play(state, BetRaise(0, 100), BetRaise(1, 125), CheckCall(2), BetRaise(3, 200),
                CheckCall(4))


def test_tda_47_example_1_short_all_ins_adding_up_to_a_full_raise_reopen() -> None:
    """TDA 47 Ex. 1: short all-ins adding up to a full raise reopen the betting for A."""
    state = addendum_47_example_1()
    la = legal(state)
    assert (la.player, la.call_amount, la.raise_kind, la.min_to) == (0, 100, "raise", 300)


def test_tda_47_example_1a_a_75_increment_does_not_reopen_for_c() -> None:
    """TDA 47 Ex. 1-A: C, who called 125, faces only 75 more: call or fold, no raise."""
    state = play(addendum_47_example_1(), CheckCall(0))
    la = legal(state)
    assert (la.player, la.call_amount, la.raise_kind) == (2, 75, "")
    assert refused(state, BetRaise(2, 400)).rule == "tda-47"


def test_tda_47_example_1b_a_full_raise_reopens_for_c() -> None:
    """TDA 47 Ex. 1-B: A's full raise to 300 reopens the betting for C (to 400 or more)."""
    state = play(addendum_47_example_1(), BetRaise(0, 300))
    la = legal(state)
    assert (la.player, la.call_amount, la.raise_kind, la.min_to) == (2, 175, "raise", 400)


def test_tda_47_example_2_min_raise_stays_the_last_full_bet() -> None:
    """TDA 47 Ex. 2: short all-ins to 500, 650 and 800 keep the minimum raise at 300."""
    state = to_flop(new_hand((10000, 600, 750, 900, 10000, 10000)))
    state = play(state, BetRaise(0, 300), BetRaise(1, 500), BetRaise(2, 650),
                 BetRaise(3, 800), CheckCall(4))
    la = legal(state)
    assert (la.player, la.call_amount, la.min_to) == (5, 800, 1100)


def addendum_47_example_3() -> HandState:
    """Blinds 2000-4000: A calls, B folds, C all-in for 7500, the small blind folds."""
    state = new_hand((50000, 50000, 50000, 50000, 7500), 2000, 4000)
    return play(state, CheckCall(2), Fold(3), BetRaise(4, 7500), Fold(0))


def test_tda_47_example_3a_big_blind_may_raise_but_the_caller_may_not() -> None:
    """TDA 47 Ex. 3-A: the BB may raise a short all-in; A, who acted, may only call or fold."""
    state = addendum_47_example_3()
    la = legal(state)
    assert (la.player, la.call_amount, la.raise_kind, la.min_to) == (1, 3500, "raise", 11500)
    state = play(state, CheckCall(1))
    la = legal(state)
    assert (la.player, la.call_amount, la.raise_kind) == (2, 3500, "")
    assert refused(state, BetRaise(2, 15500)).rule == "tda-47"


def test_tda_47_example_3b_big_blind_full_raise_reopens_for_the_caller() -> None:
    """TDA 47 Ex. 3-B: the BB's full raise to 11,500 reopens the betting for A."""
    state = play(addendum_47_example_3(), BetRaise(1, 11500))
    la = legal(state)
    assert (la.player, la.call_amount, la.raise_kind, la.min_to) == (2, 7500, "raise", 15500)


@pytest.mark.parametrize(("profile", "all_in_to", "reopened"), [
    ("tda", 199, False), ("tda", 200, True), ("league", 199, False),
    ("octobermuck", 149, False), ("octobermuck", 150, True),
])
def test_short_all_in_reopening_per_profile(profile: str, all_in_to: int,
                                            reopened: bool) -> None:
    """Reopening: TDA 47 and the league at a full raise, Octobermuck at 50% more than the bet."""
    state = to_flop(new_hand((10000, all_in_to + 100, 10000), profile=profile))
    state = play(state, BetRaise(0, 100), BetRaise(1, all_in_to), CheckCall(2))
    assert (legal(state).raise_kind == "raise") is reopened


# --- blinds, pots and awards ---------------------------------------------------------------


@pytest.mark.parametrize("profile", ["tda", "bse", "octobermuck", "chairperson", "league"])
def test_all_in_for_part_of_the_big_blind_callers_match_the_full_big_blind(profile: str) -> None:
    """A BB all-in for 60 of 100: callers still match 100, min raise 200, main pot at 60."""
    state = new_hand((10000, 60, 10000), profile=profile)
    assert state.bets == (50, 60, 0)
    la = legal(state)
    assert (la.player, la.call_amount, la.min_to) == (2, 100, 200)
    state = play(state, CheckCall(2))
    assert legal(state).call_amount == 50  # the small blind completes to 100
    state = play(state, CheckCall(0))
    assert pots(state) == (Pot(180, (0, 1, 2)), Pot(80, (0, 2)))


def test_uncalled_bet_is_returned() -> None:
    """An uncalled bet goes back to its bettor: it is never part of the pot."""
    state = to_flop(new_hand((10000,) * 3))
    state = play(state, BetRaise(0, 500), Fold(1), Fold(2))
    assert state.returned == (500, 0, 0)
    assert state.phase == SHOWDOWN
    assert pots(state) == (Pot(300, (0,)),)
    assert play(state, AwardPots()).stacks == (10200, 9900, 9900)


def test_uncalled_part_of_an_all_in_is_returned() -> None:
    """A 1000 all-in called for 300: the 700 nobody matched goes back before the pots."""
    state = new_hand((1000, 10000, 300))
    state = play(state, BetRaise(2, 300), BetRaise(0, 1000), Fold(1))
    assert state.returned == (700, 0, 0)
    assert pots(state) == (Pot(700, (0, 2)),)


def test_side_pots_in_layers_with_antes_and_folded_chips() -> None:
    """Side pots in layers: antes count toward a claim, folded chips are dead money."""
    state = new_hand((1000, 1000, 110, 310), ante=10)
    # Posts: antes 10 each, small blind 50, big blind 100; UTG (2) has 100 left.
    state = play(state, CheckCall(2), BetRaise(3, 300), CheckCall(0), CheckCall(1))
    assert state.committed == (310, 310, 110, 310)
    state = deal(state, "2c7d9h")
    state = play(state, BetRaise(0, 200), Fold(1))
    assert state.returned == (200, 0, 0, 0)
    assert pots(state) == (Pot(440, (0, 2, 3)), Pot(600, (0, 3)))


def test_tda_rp11_big_blind_ante_is_dead_money_in_the_main_pot() -> None:
    """TDA RP-11: a big-blind ante is dead money in the main pot, no claim for the BB."""
    state = new_hand((10000, 150, 10000), big_blind_ante=100)
    assert (state.bets, state.dead) == ((50, 100, 0), 50)
    state = play(state, BetRaise(2, 1000), CheckCall(0))
    assert pots(state) == (Pot(350, (0, 1, 2)), Pot(1800, (0, 2)))


def test_tda_21_each_pot_awarded_separately() -> None:
    """TDA 21: each pot is split on its own; the short all-in can win only the main pot."""
    state = new_hand((5000, 5000, 700))
    state = play(state, BetRaise(2, 700), CheckCall(0), BetRaise(1, 2000), CheckCall(0))
    for board in ("2c7d9h", "3s", "4d"):
        state = call_around(deal(state, board))
    state = play(state, show(2, "AsAh"), show(0, "KsKh"), show(1, "QsQh"))
    awards = propose_awards(state)
    assert [(a.amount, a.eligible, a.winners, a.hand_rank) for a in awards] == [
        (2100, (0, 1, 2), (2,), (PAIR, ACE)), (2600, (0, 1), (0,), (PAIR, KING))]
    assert [hand_name(a.hand_rank) for a in awards] == ["Pair of aces", "Pair of kings"]


def test_tda_12_cards_speak() -> None:
    """TDA 12: cards speak: the best five of seven wins."""
    state = to_flop(new_hand((1000, 1000, 1000)), "7dAc2s")
    state = deal(call_around(state), "9h")
    state = call_around(deal(call_around(state), "Kc"))
    state = play(state, show(0, "AsKd"), show(1, "7c7h"), show(2, "QcJc"))
    (award,) = propose_awards(state)
    assert (award.winners, award.hand_rank) == ((1,), (THREE_OF_A_KIND, SEVEN))
    assert hand_name(award.hand_rank) == "Three of a kind, sevens"


def test_tda_13_contested_pot_needs_both_cards_tabled() -> None:
    """TDA 13-A and 19: a contested pot goes only to a hand tabled with both hole cards."""
    state = to_flop(new_hand((1000, 1000)))
    state = call_around(deal(call_around(deal(call_around(state), "3s")), "4d"))
    state = play(state, show(0, "AsAh"))
    with pytest.raises(RuleViolation) as caught:
        propose_awards(state)
    assert "has not shown both cards" in caught.value.message
    assert refused(state, ShowCards(1, parse_cards("Kd"))).message.startswith(
        "a hand must show both cards")
    assert play(state, MuckCards(1), AwardPots()).stacks == (1100, 900)


def royal_board(state: HandState) -> HandState:
    """Deal AsKsQsJsTs and check it down: every live hand plays the board."""
    for board in ("AsKsQs", "Js", "Ts"):
        state = deal(call_around(state) if state.phase == BETTING else state, board)
    return call_around(state) if state.phase == BETTING else state


def test_tda_20_split_in_the_smallest_chip_odd_chip_left_of_the_button() -> None:
    """TDA 20: 275 split two ways in 25s is 150 and 125, the odd chip left of the button."""
    state = new_hand((1000, 1000, 1000), 25, 50, chip_unit=25)
    state = play(state, BetRaise(2, 125), Fold(0), CheckCall(1))
    state = royal_board(state)
    state = play(state, show(1, "2c3d"), show(2, "4c5d"))
    (award,) = propose_awards(state)
    assert (award.amount, award.winners, award.shares, award.odd_chips) == (
        275, (1, 2), (150, 125), (1,))


def test_tda_20_odd_chips_one_each_clockwise_from_the_button() -> None:
    """TDA 20: 350 three ways is 116 each and two odd chips, one each clockwise."""
    state = play(new_hand((1000,) * 4), CheckCall(2), CheckCall(3), Fold(0), CheckCall(1))
    state = royal_board(state)
    state = play(state, show(1, "2c3d"), show(2, "4c5d"), show(3, "6c7d"))
    (award,) = propose_awards(state)
    assert (award.shares, award.odd_chips) == ((117, 117, 116), (1, 2))


def league_three_way_tie(profile: str) -> HandState:
    """Smallest chip 25 after a color-up; the button has a 10 remnant and calls all-in; the
    blinds limp; the board plays for all three."""
    state = new_hand((1000, 1000, 10), 25, 50, profile=profile, chip_unit=25)
    state = play(state, CheckCall(2), CheckCall(0), CheckCall(1))
    state = royal_board(state)
    return play(state, show(0, "2c3d"), show(1, "4c5d"), show(2, "6c7d"))


def test_league_single_lowest_chip_of_a_split_goes_to_the_all_in_player() -> None:
    """League: a split's single lowest chip goes to the all-in player, not by seat."""
    state = league_three_way_tie("league")
    main = propose_awards(state)[0]
    assert (main.amount, main.eligible, main.shares) == (30, (0, 1, 2), (0, 0, 30))
    assert main.odd_chips == (2,)
    assert play(state, AwardPots()).stacks[2] == 30


def test_tda_20_single_chip_of_a_split_goes_left_of_the_button() -> None:
    """TDA 20, the contrast: the single chip goes left of the button; the all-in gets none."""
    state = league_three_way_tie("tda")
    main = propose_awards(state)[0]
    assert (main.amount, main.shares, main.odd_chips) == (30, (30, 0, 0), (0,))
    assert play(state, AwardPots()).stacks[2] == 0


def test_hand_with_no_pot_completes_without_a_push() -> None:
    """All fold to a BB with no small blind or ante: no pot, the hand is complete."""
    state = new_hand((1000, 1000, 1000), 0, 100)
    state = play(state, Fold(2), Fold(0))
    assert state.phase == COMPLETE
    assert state.stacks == (1000, 1000, 1000)
    assert state.returned == (0, 100, 0)


def test_no_raise_when_nobody_could_call_more() -> None:
    """No raise when no other live player could put in more than the current bet."""
    state = to_flop(new_hand((300, 10000, 300)))
    state = play(state, BetRaise(0, 200))
    la = legal(state)
    assert (la.player, la.call_amount, la.raise_kind) == (1, 200, "")
    assert refused(state, BetRaise(1, 1000)).rule == "tda-43"
    state = play(state, CheckCall(1))
    assert legal(state).raise_kind == ""


def test_deal_hole_is_execute_of_deal_hole() -> None:
    """handlog.engine.hand.deal_hole (the replay's path for a deal) gives what execute gives for
    DealHole, refusals included."""
    from handlog.engine.commands import DealHole as Deal
    from handlog.engine.hand import deal_hole, execute

    state = new_hand((1000, 1000, 1000))
    for player, cards in ((0, parse_cards("AsKs")), (1, None), (2, parse_cards("QdQc"))):
        assert deal_hole(state, player, cards) == execute(state, Deal(player, cards))
        state = deal_hole(state, player, cards)
    for player, cards in ((0, parse_cards("2c3c")), (5, parse_cards("2c3c"))):
        with pytest.raises(RuleViolation) as direct:
            deal_hole(state, player, cards)
        with pytest.raises(RuleViolation) as executed:
            execute(state, Deal(player, cards))
        assert (direct.value.rule, direct.value.message) == (
            executed.value.rule, executed.value.message)


def test_deal_holes_is_deal_hole_in_turn_or_nothing() -> None:
    """handlog.engine.hand.deal_holes (a replay's whole pre-flop deal at once) gives the state that
    dealing one by one gives, and None (deal them one by one) for anything unusual."""
    from handlog.engine.hand import deal_hole, deal_holes

    state = new_hand((1000, 1000, 1000))
    deals = [(0, parse_cards("AsKs")), (1, parse_cards("QdQc")), (2, parse_cards("7h2c"))]
    one_by_one = state
    for player, cards in deals:
        one_by_one = deal_hole(one_by_one, player, cards)
    assert deal_holes(state, deals) == one_by_one
    for odd in ([(0, parse_cards("AsKs")), (1, parse_cards("AsQc"))],  # a duplicate card
                [(0, None), (1, parse_cards("QdQc"))],  # unknown cards
                [(0, parse_cards("AsKs")), (0, parse_cards("QdQc"))],  # dealt twice
                [(7, parse_cards("AsKs"))]):  # no such position
        assert deal_holes(state, odd) is None
