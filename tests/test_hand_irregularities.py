"""Irregularities: misdeals, cards exposed in the deal or by a player, premature board cards,
absent players, the clock, killed hands and void hands, with each profile's differences.

Each test is named after the rule it pins (TDA 2024 unless a seed document's rule is named).
Positions: four-handed, 0 is the small blind, 1 the big blind, 2 under the gun, 3 the button.
"""

from __future__ import annotations

import pytest
from strategies import call_around, deal, new_hand, play

from handlog.engine.cards import parse_cards
from handlog.engine.commands import (
    AwardPots,
    BetRaise,
    CheckCall,
    Command,
    DealBoard,
    DealHole,
    DeclareMisdeal,
    ExpireClock,
    ExposeBoardEarly,
    ExposeCard,
    Fold,
    KillHand,
    MarkAbsent,
    MarkReturned,
    VoidHand,
)
from handlog.engine.errors import RuleViolation
from handlog.engine.events import (
    BoardExposedEarly,
    CardExposed,
    HandKilled,
    HandVoided,
    MisdealDeclared,
    PlayerChecked,
    PlayerFolded,
)
from handlog.engine.hand import (
    BETTING,
    COMPLETE,
    MISDEALT,
    SHOWDOWN,
    VOID,
    HandState,
    LegalActions,
    apply,
    begin,
    decide,
    legal_actions,
    replay_events,
    start_hand,
)

STACKS = (1000, 1000, 1000, 1000)


def card(text: str) -> int:
    return parse_cards(text)[0]


def legal(state: HandState) -> LegalActions:
    la = legal_actions(state)
    assert la is not None, f"nobody is to act at {state.phase}"
    return la


def refused(state: HandState, command: Command) -> RuleViolation:
    with pytest.raises(RuleViolation) as caught:
        decide(state, command)
    return caught.value


def replayed(state: HandState, *commands: Command) -> HandState:
    """Play the commands from the start of `state`'s hand and fold the recorded events: the
    result must equal the live state (irregular events replay like any other)."""
    events = list(begin(state.setup))
    live = start_hand(state.setup)
    for command in commands:
        for event in decide(live, command):
            live = apply(live, event)
            events.append(event)
    assert replay_events(events) == live
    return live


# --- misdeals: TDA 35 and 36, chairperson ----------------------------------------------------


def test_tda_36_posted_blinds_are_not_action_so_a_misdeal_may_be_declared() -> None:
    """TDA 36: posted blinds do not count towards substantial action."""
    state = new_hand(STACKS)
    (event,) = decide(state, DeclareMisdeal("first card to the wrong seat"))
    assert event == MisdealDeclared("declared", ("tda-35", "tda-36"),
                                    "first card to the wrong seat")


def test_tda_36_two_folds_are_not_substantial_action() -> None:
    """TDA 36: two folds are not substantial action: a misdeal may still be declared."""
    state = play(new_hand(STACKS), Fold(2), Fold(3))
    assert isinstance(decide(state, DeclareMisdeal("button out of position"))[0],
                      MisdealDeclared)


def test_tda_36_one_raise_alone_is_not_substantial_action() -> None:
    """TDA 36: one action, even a raise, is not substantial action."""
    state = play(new_hand(STACKS), BetRaise(2, 300))
    assert isinstance(decide(state, DeclareMisdeal("wrong number of cards"))[0], MisdealDeclared)


def test_tda_36_fold_then_call_is_substantial_action_and_the_hand_plays_on() -> None:
    """TDA 35-D and 36-A: two actions in turn, one putting chips in: no misdeal any more."""
    state = play(new_hand(STACKS), Fold(2), CheckCall(3))
    violation = refused(state, DeclareMisdeal("wrong number of cards"))
    assert violation.rule == "tda-35"
    assert "substantial action" in violation.message
    assert violation.legal == ("position 0: call 50", "position 0: raise to 200 up to 1000",
                               "position 0: fold")


def test_tda_36_three_actions_are_substantial_action() -> None:
    """TDA 36-B: any three actions in turn (three folds) are substantial action."""
    state = play(new_hand((1000,) * 6), Fold(2), Fold(3), Fold(4))
    assert refused(state, DeclareMisdeal("wrong number of cards")).rule == "tda-35"


def test_chairperson_misdeal_only_before_two_players_have_acted() -> None:
    """Chairperson misdeals 1-2: once two players have acted (two folds) no misdeal."""
    state = play(new_hand(STACKS, profile="chairperson"), BetRaise(2, 300))
    assert isinstance(decide(state, DeclareMisdeal("button out of position"))[0],
                      MisdealDeclared)
    state = play(new_hand(STACKS, profile="chairperson"), Fold(2), Fold(3))
    assert refused(state, DeclareMisdeal("button out of position")).rule == (
        "chairperson-misdeal-2")


def test_no_misdeal_once_the_flop_is_dealt() -> None:
    """TDA 35-D: after the flop a misdeal cannot be declared (the hand is played out)."""
    state = deal(call_around(new_hand((1000, 1000, 1000))), "2c7d9h")
    assert refused(state, DeclareMisdeal("wrong number of cards")).rule == "tda-35"


@pytest.mark.parametrize("big_blind_ante", [0, 100])
def test_tda_35c_misdeal_returns_every_chip_for_an_exact_redeal(big_blind_ante: int) -> None:
    """TDA 35-C: a misdeal returns every post for an exact re-deal; the hand is closed."""
    state = new_hand(STACKS, big_blind_ante=big_blind_ante)
    state = replayed(state, BetRaise(2, 300), DeclareMisdeal("first card to the wrong seat"))
    assert state.phase == MISDEALT
    assert state.stacks == STACKS
    assert (state.bets, state.committed, state.dead, state.pot_total) == (
        (0,) * 4, (0,) * 4, 0, 0)
    assert refused(state, CheckCall(3)).rule == "hand-complete"
    redeal = start_hand(state.setup)
    assert begin(state.setup) == begin(new_hand(STACKS, big_blind_ante=big_blind_ante).setup)
    assert redeal.bets == (50, 100, 0, 0) and legal(redeal).player == 2


# --- cards exposed in the deal: TDA 35-A-7, chairperson, BSE, Octobermuck, league -------------


@pytest.mark.parametrize("position", [0, 1])
def test_tda_35_first_or_second_card_exposed_by_the_dealer_is_a_misdeal(position: int) -> None:
    """TDA 35-A-7: a misdeal if one of the first two cards dealt is exposed by dealer error."""
    state = new_hand(STACKS)
    events = decide(state, ExposeCard(position, card("As")))
    assert events == (
        CardExposed(position, "As", True, "misdeal", ("tda-35",)),
        MisdealDeclared("first_two_exposed", ("tda-35",)),
    )
    state = replayed(state, ExposeCard(position, card("As")))
    assert state.phase == MISDEALT and state.stacks == STACKS


def test_tda_35_another_card_exposed_is_replaced_and_becomes_the_burn() -> None:
    """TDA 35: another card the dealer exposes is replaced and becomes the burn card."""
    state = play(new_hand(STACKS), DealHole(0), DealHole(1))
    (event,) = decide(state, ExposeCard(2, card("As")))
    assert event == CardExposed(2, "As", True, "replaced_as_burn", ("tda-35",))
    after = replayed(state, DealHole(0), DealHole(1), ExposeCard(2, card("As")))
    assert after.phase == BETTING and legal(after).player == 2
    assert (after.stacks, after.exposed, after.call_only) == (
        state.stacks, state.exposed, state.call_only)


@pytest.mark.parametrize("profile", ["tda", "chairperson", "bse", "octobermuck"])
def test_tda_35_two_downcards_exposed_by_the_dealer_are_a_misdeal(profile: str) -> None:
    """TDA 35-A-7, chairperson 1(b), BSE: a second card exposed in the deal is a misdeal."""
    state = play(new_hand(STACKS, profile=profile), DealHole(0), DealHole(1),
                 ExposeCard(2, card("As")))
    events = decide(state, ExposeCard(3, card("Kd")))
    assert events == (
        CardExposed(3, "Kd", True, "misdeal", ("tda-35",)),
        MisdealDeclared("second_card_exposed", ("tda-35",)),
    )
    assert play(state, ExposeCard(3, card("Kd"))).stacks == STACKS


@pytest.mark.parametrize("profile", ["bse", "octobermuck"])
def test_seed_first_card_exposed_in_the_deal_is_replaced_not_a_misdeal(profile: str) -> None:
    """BSE and Octobermuck: even the first card exposed in the deal is just replaced."""
    state = new_hand(STACKS, profile=profile)
    (event,) = decide(state, ExposeCard(0, card("As")))
    assert isinstance(event, CardExposed) and event.consequence == "replaced_as_burn"


def test_league_any_card_exposed_in_the_deal_is_a_misdeal() -> None:
    """League misdeals: any card flipped over during the initial deal is a misdeal."""
    state = play(new_hand(STACKS, profile="league"), DealHole(0), DealHole(1), DealHole(2))
    events = decide(state, ExposeCard(3, card("As")))
    assert events == (CardExposed(3, "As", True, "misdeal", ("league-misdeals",)),
                      MisdealDeclared("card_exposed_in_deal", ("league-misdeals",)))


def test_card_exposed_after_substantial_action_is_shown_and_play_continues() -> None:
    """TDA 35-D: after substantial action there is no misdeal; the card is simply shown."""
    state = play(new_hand(STACKS), Fold(2), CheckCall(3))
    (event,) = decide(state, ExposeCard(0, card("As")))
    assert isinstance(event, CardExposed)
    assert (event.consequence, event.rules) == ("play_continues", ("tda-68",))


# --- a player exposing his own cards: TDA 68, league, BSE ------------------------------------


def test_tda_68_player_exposing_both_cards_keeps_every_option() -> None:
    """TDA 68: a player who exposes both cards keeps a live hand and every option."""
    state = play(new_hand(STACKS), ExposeCard(2, card("As"), in_deal=False),
                 ExposeCard(2, card("Kd"), in_deal=False))
    la = legal(state)
    assert (la.player, la.raise_kind, la.min_to) == (2, "raise", 200)


def test_league_both_cards_exposed_may_only_call_or_fold() -> None:
    """League: one card exposed, play on; both cards exposed: call or fold only."""
    state = new_hand(STACKS, profile="league")
    (first,) = decide(state, ExposeCard(2, card("As"), in_deal=False))
    assert isinstance(first, CardExposed)
    assert first.consequence == "play_continues"
    state = play(state, ExposeCard(2, card("As"), in_deal=False))
    assert legal(state).raise_kind == "raise"
    (second,) = decide(state, ExposeCard(2, card("Kd"), in_deal=False))
    assert isinstance(second, CardExposed)
    assert (second.consequence, second.rules) == ("call_or_fold", ("league-exposed-cards",))
    state = replayed(state, ExposeCard(2, card("As"), in_deal=False),
                     ExposeCard(2, card("Kd"), in_deal=False))
    la = legal(state)
    assert (la.call_amount, la.raise_kind, la.can_fold) == (100, "", True)
    violation = refused(state, BetRaise(2, 300))
    assert violation.rule == "league-exposed-cards"
    assert violation.legal == ("call 100", "fold")
    assert play(state, CheckCall(2)).bets[2] == 100


def test_bse_card_exposed_with_action_pending_kills_the_hand() -> None:
    """BSE mucked cards: a card exposed with action pending after him kills the hand."""
    state = new_hand(STACKS, profile="bse")
    events = decide(state, ExposeCard(1, card("As"), in_deal=False))  # 2, 3 and 0 to act
    assert [type(e) for e in events] == [CardExposed, HandKilled]
    assert events[1] == HandKilled(1, "exposed_with_action_pending", ("bse-mucked-cards",))
    state = replayed(state, ExposeCard(1, card("As"), in_deal=False))
    assert state.folded[1] and state.committed[1] == 100 and legal(state).player == 2


def test_bse_card_exposed_by_the_last_to_act_is_only_shown() -> None:
    """BSE: a card exposed with no action pending after him is only shown."""
    state = play(new_hand(STACKS, profile="bse"), CheckCall(2), CheckCall(3), CheckCall(0))
    (event,) = decide(state, ExposeCard(1, card("As"), in_deal=False))
    assert isinstance(event, CardExposed)
    assert event.consequence == "play_continues"


# --- board cards turned early: TDA RP-5 and the seeds ---------------------------------------


@pytest.mark.parametrize(("profile", "rule", "says"), [
    ("tda", "tda-rp-5", "reshuffle_keep_burn"),
    ("octobermuck", "tda-rp-5", "reshuffle_keep_burn"),
    ("bse", "bse-misdealt-exposed-cards", "reshuffle_with_burn"),
    ("chairperson", "chairperson-premature-board-cards", "flop_mixed_back"),
    ("league", "league-accidental-reveals", "reshuffle_then_top_card"),
])
def test_premature_flop_procedure_per_profile(profile: str, rule: str, says: str) -> None:
    """TDA RP-5-A and the seeds: the procedure recorded for a premature flop."""
    state = play(new_hand(STACKS, profile=profile), CheckCall(2))
    (event,) = decide(state, ExposeBoardEarly(parse_cards("2c7d9h")))
    assert isinstance(event, BoardExposedEarly)
    assert (event.cards, event.rules) == (("2c", "7d", "9h"), (rule,))
    assert event.procedure == says
    assert play(state, ExposeBoardEarly(parse_cards("2c7d9h"))) == state


@pytest.mark.parametrize(("profile", "says"), [
    ("tda", "reshuffle_keep_burn"),
    ("chairperson", "turn_out_for_the_round"),
])
def test_premature_turn_procedure_per_profile(profile: str, says: str) -> None:
    """TDA RP-5-B reshuffles a premature turn; the chairperson takes it out for the round."""
    state = deal(call_around(new_hand((1000, 1000, 1000), profile=profile)), "2c7d9h")
    (event,) = decide(state, ExposeBoardEarly(parse_cards("Js")))
    assert isinstance(event, BoardExposedEarly)
    assert event.procedure == says


def test_board_card_cannot_be_dealt_before_the_betting_is_complete() -> None:
    """A board card during open betting is refused, pointing to the premature-card entry."""
    state = play(new_hand(STACKS), CheckCall(2))
    violation = refused(state, DealBoard(parse_cards("2c7d9h")))
    assert violation.rule == "betting-incomplete"
    assert violation.legal[-1] == "record the premature card"


# --- absent players: TDA 30, league, BSE ------------------------------------------------------


def test_tda_30_absent_player_posts_and_his_hand_is_killed_when_the_action_reaches_him() -> None:
    """An absent player posts; when the action reaches him he may only fold."""
    state = play(new_hand(STACKS), MarkAbsent(1))
    assert state.committed[1] == 100
    state = play(state, CheckCall(2), CheckCall(3), CheckCall(0))
    la = legal(state)
    assert (la.player, la.can_fold, la.can_check, la.call_amount, la.raise_kind) == (
        1, True, False, 0, "")
    assert refused(state, CheckCall(1)).rule == "tda-30"
    assert refused(state, BetRaise(1, 300)).rule == "tda-30"
    state = replayed(state, MarkAbsent(1), CheckCall(2), CheckCall(3), CheckCall(0), Fold(1))
    assert state.folded[1] and state.pot_total == 400 and state.stacks[1] == 900


def test_league_absent_big_blind_is_checked_through_until_a_bet_reaches_him() -> None:
    """League: an absent BB is checked through until a bet forces his hand to be folded."""
    state = play(new_hand(STACKS, profile="league"), MarkAbsent(1), CheckCall(2),
                 CheckCall(3), CheckCall(0))
    la = legal(state)
    assert (la.can_check, la.can_fold) == (True, False)
    assert refused(state, Fold(1)).rule == "absent-player"
    assert decide(state, CheckCall(1)) == (PlayerChecked(1),)
    state = deal(play(state, CheckCall(1)), "2c7d9h")
    state = play(state, BetRaise(0, 100))
    la = legal(state)
    assert (la.player, la.can_check, la.can_fold) == (1, False, True)
    assert decide(state, Fold(1)) == (PlayerFolded(1),)


def test_returned_player_has_every_option_again() -> None:
    """A player back at his seat before his turn plays his hand as usual."""
    state = play(new_hand(STACKS), MarkAbsent(2), MarkReturned(2))
    la = legal(state)
    assert (la.player, la.call_amount, la.raise_kind) == (2, 100, "raise")
    assert refused(state, MarkReturned(2)).rule == "absent"
    assert refused(play(state, MarkAbsent(2)), MarkAbsent(2)).rule == "absent"


# --- the clock: TDA 29 and the league --------------------------------------------------------


def test_tda_29_clock_expired_facing_a_bet_the_hand_is_dead() -> None:
    """TDA 29: facing a bet when time runs out, the hand is dead; the action moves on."""
    state = new_hand(STACKS)
    assert decide(state, ExpireClock(2)) == (
        HandKilled(2, "clock_expired_facing_bet", ("tda-29",)),)
    state = replayed(state, ExpireClock(2))
    assert state.folded[2] and legal(state).player == 3


def test_tda_29_clock_expired_not_facing_a_bet_the_hand_is_checked() -> None:
    """TDA 29: not facing a bet when time runs out, the hand is checked."""
    state = deal(call_around(new_hand((1000, 1000, 1000))), "2c7d9h")
    assert decide(state, ExpireClock(0)) == (PlayerChecked(0),)


def test_league_clock_expired_the_hand_is_dead_even_not_facing_a_bet() -> None:
    """League timely bets: when the countdown ends the hand is dead, bet or no bet."""
    state = deal(call_around(new_hand((1000, 1000, 1000), profile="league")), "2c7d9h")
    assert decide(state, ExpireClock(0)) == (
        HandKilled(0, "clock_expired", ("league-timely-bets",)),)


def test_clock_only_for_the_player_to_act() -> None:
    """The clock runs on the player whose turn it is (TDA 53 for anyone else)."""
    assert refused(new_hand(STACKS), ExpireClock(0)).rule == "tda-53"


# --- killed hands -----------------------------------------------------------------------------


def test_killed_hand_loses_its_chips_and_the_action_skips_it() -> None:
    """A hand ruled dead out of turn keeps its chips in the pot and is skipped by the action."""
    state = play(new_hand(STACKS), BetRaise(2, 300))
    state = replayed(state, BetRaise(2, 300), KillHand(0, "cards mucked by the dealer", "TDA 65"))
    assert state.folded[0] and state.committed[0] == 50
    state = play(state, CheckCall(3), CheckCall(1))
    assert state.street == 0 and state.phase != BETTING  # the round closed without 0
    assert state.pot_total == 950


def test_killing_all_but_one_hand_ends_it_and_pushes_the_pot() -> None:
    """When the kills leave one live hand, the hand is over: that player takes the pot."""
    state = play(new_hand((1000, 1000, 1000)), BetRaise(2, 300),
                 KillHand(0, "fouled", "TDA 65"), KillHand(1, "fouled", "TDA 65"))
    assert state.phase == SHOWDOWN
    assert state.returned[2] == 200  # the raise beyond the big blind was never called
    assert play(state, AwardPots()).stacks == (950, 900, 1150)


def test_last_live_hand_cannot_be_killed() -> None:
    """TDA 17-B: the last live hand wins; killing it would leave the pot to nobody."""
    state = play(new_hand((1000, 1000, 1000)), KillHand(0, "fouled", "TDA 65"),
                 KillHand(1, "fouled", "TDA 65"))
    violation = refused(state, KillHand(2, "fouled", "TDA 65"))
    assert violation.rule == "tda-17"
    assert refused(state, KillHand(0, "fouled", "TDA 65")).rule == "dead-hand"


# --- foreign-back or duplicate card: the hand is void ----------------------------------------


def test_tda_35e_duplicate_card_is_refused_and_voids_the_hand() -> None:
    """TDA 35-E: a duplicate card voids the hand and returns every bet, even after SA."""
    state = play(new_hand(STACKS), DealHole(0, parse_cards("AsKd")), BetRaise(2, 300),
                 CheckCall(3), CheckCall(0), CheckCall(1))
    violation = refused(state, DealBoard(parse_cards("As7d9h")))
    assert violation.rule == "duplicate-card"
    assert violation.legal == ("void the hand", "re-enter")
    (event,) = decide(state, VoidHand("two aces of spades"))
    assert event == HandVoided("two aces of spades", ("tda-35-e",))
    state = play(state, VoidHand("two aces of spades"))
    assert (state.phase, state.stacks, state.pot_total) == (VOID, STACKS, 0)
    assert refused(state, AwardPots()).rule == "hand-complete"


def test_chairperson_different_back_voids_all_action() -> None:
    """Chairperson: a card with a different back voids all action; chips go back."""
    state = new_hand((1000, 2000, 3000), profile="chairperson")
    state = deal(call_around(play(state, BetRaise(2, 500))), "2c7d9h")
    state = replayed(state, BetRaise(2, 500), CheckCall(0), CheckCall(1),
                     DealBoard(parse_cards("2c7d9h")), VoidHand("a red back in a blue deck"))
    assert state.phase == VOID and state.stacks == (1000, 2000, 3000)
    assert state.chips_in_play() == 6000


@pytest.mark.parametrize("profile", ["chairperson", "tda", "bse", "league", "octobermuck"])
def test_chairperson_a_different_back_discovered_in_the_stub_all_action_stands(
        profile: str) -> None:
    """Chairperson: 'If a card with a different color back is discovered in the stub, all
    action stands.' The dealer enters where the card was found: in the stub the void is
    refused, citing the profile's fouled-deck rule, and the hand plays on; in play it voids."""
    state = deal(call_around(play(new_hand((1000, 2000, 3000), profile=profile),
                                  BetRaise(2, 500))), "2c7d9h")
    violation = refused(state, VoidHand("a red back in the stub", in_stub=True))
    assert "all action stands" in violation.message
    assert violation.rule == ("chairperson-fouled-deck" if profile == "chairperson"
                              else "tda-35-e")
    assert play(state, VoidHand("a red back in a hand")).phase == VOID


def test_complete_hand_takes_no_more_commands() -> None:
    """Once the pots are pushed the hand is closed to every command."""
    state = play(new_hand((1000, 1000, 1000)), Fold(2), Fold(0))
    state = play(state, AwardPots())
    assert state.phase == COMPLETE
    for command in (CheckCall(1), VoidHand("late"), DeclareMisdeal("late"), MarkAbsent(1)):
        assert refused(state, command).rule == "hand-complete"
