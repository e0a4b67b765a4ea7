"""Golden tests of the seed documents' distinctive rules, as the hand engine applies them.

Each test is named after the document and the rule, and its docstring quotes the rule. A few
TDA 2024 tests stand beside them where the contrast is the point. Tests marked xfail(strict)
pin a case the engine gets wrong today: they flip to a failure (XPASS) once it is fixed, and the
marker is then removed.

Positions (engine/commands.py): 0 is the first player left of the button, the last is the
button. Four-handed: 0 small blind, 1 big blind, 2 under the gun, 3 button. Heads-up: 0 is the
big blind and 1 the button, who posts the small blind.
"""

from __future__ import annotations

import pytest

from handlog.engine.cards import Card, parse_cards
from handlog.engine.commands import (
    AwardPots,
    BetRaise,
    CheckCall,
    DealBoard,
    DealHole,
    DeclareMisdeal,
    ExpireClock,
    ExposeBoardEarly,
    ExposeCard,
    Fold,
    KillHand,
    MarkReturned,
    MuckCards,
    ShowCards,
    VoidHand,
)
from handlog.engine.errors import RuleViolation
from handlog.engine.events import (
    BoardExposedEarly,
    CardExposed,
    ChipsPosted,
    HandKilled,
    HandVoided,
    MisdealDeclared,
    PlayerCalled,
    PlayerChecked,
)
from handlog.engine.hand import (
    BETTING,
    BOARD,
    COMPLETE,
    MISDEALT,
    SHOWDOWN,
    VOID,
    HandSetup,
    HandState,
    LegalActions,
    Pot,
    begin,
    decide,
    execute,
    legal_actions,
    pots,
    propose_awards,
    showdown_order,
    start_hand,
)
from handlog.engine.profiles import get_profile
from handlog.engine.words import render

# --- helpers -------------------------------------------------------------------------------


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


def card(text: str) -> Card:
    return parse_cards(text)[0]


def new_hand(profile: str, stacks: tuple[int, ...], blinds: tuple[int, ...] | None = None,
             *, antes: tuple[int, ...] | None = None, min_bet: int = 100, chip_unit: int = 1,
             absent: tuple[int, ...] = (), dead_money: int = 0) -> HandState:
    """A hand with its blinds posted; by default 50/100 (heads-up: big blind at 0)."""
    n = len(stacks)
    if blinds is None:
        blinds = (100, 50) if n == 2 else (50, 100) + (0,) * (n - 2)
    return start_hand(HandSetup(
        stacks=stacks, blinds=blinds, antes=antes or (0,) * n, min_bet=min_bet,
        chip_unit=chip_unit, profile=profile, absent=absent, dead_money=dead_money,
    ))


def play(state: HandState, *commands: object) -> HandState:
    for command in commands:
        state = execute(state, command)  # type: ignore[arg-type]
    return state


def legal(state: HandState) -> LegalActions:
    la = legal_actions(state)
    assert la is not None, f"nobody to act at {state.phase}"
    return la


def limp_to_flop(state: HandState, flop: str = "2c 7d 9h") -> HandState:
    """Everybody calls (or checks) pre-flop, then the flop is dealt."""
    while state.phase == BETTING and state.street == 0:
        assert state.to_act is not None
        state = execute(state, CheckCall(state.to_act))
    return execute(state, DealBoard(cards(flop)))


def run_out(state: HandState, board: str) -> HandState:
    """Check (or call) every street down and deal the rest of `board` (all five cards)."""
    full = cards(board)
    while state.phase in (BETTING, BOARD):
        if state.phase == BOARD:
            have = len(state.board)
            state = execute(state, DealBoard(full[have:have + (3 if have == 0 else 1)]))
        else:
            assert state.to_act is not None
            state = execute(state, CheckCall(state.to_act))
    return state


def only_event(events: tuple[object, ...], kind: type) -> object:
    found = [e for e in events if isinstance(e, kind)]
    assert len(found) == 1, events
    return found[0]


# --- BSE tournament rules ------------------------------------------------------------------


def test_bse_preflop_raise_at_least_double_big_blind() -> None:
    """BSE Pre-Flop Action: 'Any pre-flop RAISE must at least double the big blind.'"""
    state = new_hand("bse", (5000,) * 4)
    assert (legal(state).player, legal(state).min_to) == (2, 200)
    with pytest.raises(RuleViolation, match="at least 200"):
        decide(state, BetRaise(2, 150))
    assert play(state, BetRaise(2, 200)).current_bet == 200


def test_bse_reraise_at_least_the_previous_raise_not_bet() -> None:
    """BSE: 'A Re-RAISE must be equal to or greater than the previous raise (not bet).'"""
    state = play(new_hand("bse", (5000,) * 4), BetRaise(2, 300))
    assert legal(state).min_to == 500  # 300 + the raise of 200, not 300 + 300
    with pytest.raises(RuleViolation):
        decide(state, BetRaise(3, 450))


def test_bse_postflop_first_bet_big_blind_first_raise_double() -> None:
    """BSE Post Flop Action: 'Minimum first bet must be equal to or greater than the big blind
    and the first raise must at least double the first bet, unless player is all in.'"""
    state = limp_to_flop(new_hand("bse", (5000,) * 4))
    assert legal(state).min_to == 100
    with pytest.raises(RuleViolation, match="minimum bet is 100"):
        decide(state, BetRaise(0, 50))
    state = play(state, BetRaise(0, 300))
    assert legal(state).min_to == 600


def test_bse_minimum_preflop_call_is_the_big_blind() -> None:
    """BSE Pre-Flop Action: 'Minimum pre-flop CALL must be equal to the big blind.'"""
    state = new_hand("bse", (5000, 60, 5000, 5000))  # the big blind is all-in for 60
    assert legal(state).call_amount == 100


def test_bse_all_in_short_of_a_raise_may_only_be_called() -> None:
    """BSE All-In: 'If a Member's All-In bet does not complete a RAISE, the remaining players
    may CALL the All-In. ... If however, there are additional raises, then they must at least
    complete the RAISE.'"""
    state = limp_to_flop(new_hand("bse", (5000, 1300, 5000)))
    state = play(state, BetRaise(0, 1000), BetRaise(1, 1200))  # all-in, 200 short of a raise
    assert legal(state).min_to == 2200  # a further raise must be a full one
    state = play(state, CheckCall(2))
    la = legal(state)
    assert (la.player, la.call_amount, la.raise_kind) == (0, 200, "")


@pytest.mark.parametrize("profile", ["tda", "bse", "octobermuck", "chairperson", "league"])
def test_bse_76_straddle_blinds_are_not_allowed(profile: str) -> None:
    """BSE Blinds: 'Straddle blinds are not allowed.' No document allows one (TDA 2024 has no
    straddle rule): a hand set up with a third blind is refused before anything is posted."""
    with pytest.raises(RuleViolation, match="straddle") as refused:
        new_hand(profile, (5000,) * 5, (50, 100, 200, 0, 0))
    assert refused.value.rule == get_profile(profile).rule("straddle")
    assert refused.value.rule == ("bse-blinds" if profile == "bse" else "tda-23")
    assert "a small blind and a big blind" in " ".join(refused.value.legal)
    assert new_hand(profile, (5000,) * 5).current_bet == 100  # two blinds: the hand starts


def test_bse_odd_chip_closest_to_dealer_left() -> None:
    """BSE Side / Split Pots: 'In case of an uneven split pot, the extra chip goes to the
    winning player seated closest to the left of the dealer.'"""
    state = new_hand("bse", (1000,) * 3, (25, 50, 0), min_bet=50, chip_unit=25)
    state = play(state, CheckCall(2), Fold(0), CheckCall(1))  # pot 125: five 25 chips
    state = run_out(state, "Ah Kh Qh Jh Th")  # both play the royal flush on the board
    state = play(state, ShowCards(1, cards("2c 3d")), ShowCards(2, cards("4c 5d")))
    (award,) = propose_awards(state)
    assert (award.winners, award.shares, award.odd_chips) == ((1, 2), (75, 50), (1,))


def test_bse_one_hole_card_exposed_in_deal_replaced_as_first_burn() -> None:
    """BSE Misdealt / Exposed Cards: 'If only one card is exposed the dealer should continue to
    deal all the hole cards, then replace the exposed card with a new card and the exposed card
    becomes the first burn card.'"""
    state = new_hand("bse", (1000,) * 4)
    events = decide(state, ExposeCard(0, card("As")))  # even the very first card
    exposed = only_event(events, CardExposed)
    assert isinstance(exposed, CardExposed) and "burn" in exposed.consequence
    assert not any(isinstance(e, MisdealDeclared) for e in events)
    assert play(state, ExposeCard(0, card("As"))).phase == BETTING


def test_bse_two_cards_exposed_while_dealing_is_a_misdeal() -> None:
    """BSE: 'If two or more cards are exposed while dealing hole cards, it is considered a
    misdeal. The cards must be reshuffled and re-dealt.'"""
    state = play(new_hand("bse", (1000,) * 4), ExposeCard(2, card("As")))
    events = decide(state, ExposeCard(3, card("Kd")))
    assert any(isinstance(e, MisdealDeclared) for e in events)


def test_bse_card_exposed_with_action_pending_hand_dead() -> None:
    """BSE Mucked Cards: 'A hand must be declared dead (mucked) when: ... a Member exposes one
    or both of their cards to players in the hand, with action still pending after them.'"""
    state = new_hand("bse", (1000,) * 4)
    events = decide(state, ExposeCard(2, card("As"), in_deal=False))  # 3, 0 and 1 still to act
    assert any(isinstance(e, HandKilled) and e.player == 2 for e in events)


def test_bse_premature_board_card_reshuffled_with_its_burn() -> None:
    """BSE: 'If the flop, turn, or river cards are exposed too early, the card(s) and the
    respective burn card must be reshuffled along with the rest of the deck'"""
    state = new_hand("bse", (1000,) * 4)
    event = only_event(decide(state, ExposeBoardEarly(cards("2c 7d 9h"))), BoardExposedEarly)
    assert isinstance(event, BoardExposedEarly)
    assert "burn card stays" not in event.procedure and "burn" in event.procedure


def test_bse_missing_player_dealt_in_posts_and_is_mucked_at_his_turn() -> None:
    """BSE Missing Player: 'players walking away from the table must be dealt in and post
    blinds if in a blind position. If the member is not back by their turn at action, the hand
    must be mucked (folded).'"""
    state = new_hand("bse", (1000,) * 4, absent=(1,))
    assert state.committed[1] == 100  # the absent big blind posted
    state = play(state, CheckCall(2), CheckCall(3), CheckCall(0))
    la = legal(state)
    assert (la.player, la.can_fold, la.can_check, la.raise_kind) == (1, True, False, "")
    with pytest.raises(RuleViolation):
        decide(state, CheckCall(1))
    state = play(state, Fold(1))
    assert state.folded[1] and state.pot_total == 400


def test_bse_missing_player_back_by_his_turn_plays_his_hand() -> None:
    """BSE Missing Player: the hand is mucked only 'If the member is not back by their turn at
    action'."""
    state = play(new_hand("bse", (1000,) * 4, absent=(2,)), MarkReturned(2))
    assert legal(state).raise_kind == "raise"


def test_bse_both_cards_shown_to_win_a_called_pot() -> None:
    """BSE All-In: 'At showdown both cards from the winning hand must be shown to win the
    pot.'"""
    state = run_out(new_hand("bse", (1000,) * 2), "2c 7d 9h Js Kc")
    with pytest.raises(RuleViolation, match="both cards"):
        decide(state, ShowCards(0, cards("As")))
    state = play(state, ShowCards(0, cards("As Ad")))
    with pytest.raises(RuleViolation, match="TDA 16"):
        propose_awards(state)  # position 1 has neither shown nor mucked


def test_bse_all_in_called_all_cards_face_up() -> None:
    """BSE All-In: 'Once a player's All-In is called and no other betting action remains, all
    those in play must turn their cards face up.'"""
    state = play(new_hand("bse", (1000, 500)), BetRaise(1, 500), CheckCall(0))
    assert state.phase == BOARD and not state.board
    state = play(state, ShowCards(1, cards("As Ad")), ShowCards(0, cards("Kc Kd")))
    assert state.shown[0] and state.shown[1]


def test_bse_event_director_decision_overrides_award_only_with_a_ruling() -> None:
    """BSE Event Directors: 'circumstances may require that exceptions be made in the interest
    of fairness. An ED's decision is final.' An award the engine did not compute needs a
    ruling that cites the rule."""
    state = run_out(new_hand("bse", (1000,) * 2), "2c 7d 9h Js Kc")
    state = play(state, ShowCards(0, cards("As Ad")), ShowCards(1, cards("Kh Kd")))
    with pytest.raises(RuleViolation, match="ruling"):
        decide(state, AwardPots(winners=((0, 1),)))
    state = play(state, AwardPots(winners=((0, 1),), ruling="BSE Event Directors: fairness"))
    assert state.phase == COMPLETE and state.awards[0].ruling.startswith("BSE")


def test_bse_acting_out_of_turn_is_refused() -> None:
    """BSE Table Etiquette: 'Do not act out of turn.' The tablet records actions in turn only."""
    state = new_hand("bse", (1000,) * 4)
    with pytest.raises(RuleViolation, match="position 2's turn"):
        decide(state, CheckCall(3))


def test_bse_no_board_card_before_the_action_is_complete() -> None:
    """BSE Dealer Responsibilities: 'the dealer may not discard burn cards or put out any board
    cards until all action necessary has taken place.'"""
    state = play(new_hand("bse", (1000,) * 3), CheckCall(2))
    with pytest.raises(RuleViolation, match="not complete"):
        decide(state, DealBoard(cards("2c 7d 9h")))


def test_bse_killed_hand_loses_its_chips_in_the_pot() -> None:
    """BSE Mucked Cards: 'Once a player's hole cards are considered dead and mucked, all the
    player's chips in action on that hand are lost.'"""
    state = play(new_hand("bse", (1000,) * 3), BetRaise(2, 300))
    state = play(state, KillHand(2, "cards touched the muck", "BSE Mucked Cards"))
    assert state.folded[2] and state.stacks[2] == 700 and state.pot_total == 450


# --- Octobermuck ---------------------------------------------------------------------------


@pytest.mark.parametrize(("all_in", "reopens"), [(3000, True), (2800, False)])
def test_octobermuck_short_all_in_50_percent_reopens_original_bettor(all_in: int,
                                                                    reopens: bool) -> None:
    """Octobermuck: 'A short All-In bet does not open the action for the original bettor to
    re-raise unless the All-In is at least 50% more than the original bet.'"""
    state = limp_to_flop(new_hand("octobermuck", (10_000, all_in + 100, 10_000)))
    state = play(state, BetRaise(0, 2000), BetRaise(1, all_in), CheckCall(2))
    la = legal(state)
    assert (la.player, la.call_amount) == (0, all_in - 2000)
    assert (la.raise_kind == "raise") is reopens


def test_octobermuck_players_behind_the_all_in_may_reraise_and_reopen() -> None:
    """Octobermuck: 'Players behind the All-In have the option of re-raising and other players
    may have raised enough to allow Player A to re-raise.'"""
    state = limp_to_flop(new_hand("octobermuck", (10_000, 2900, 10_000)))
    state = play(state, BetRaise(0, 2000), BetRaise(1, 2800))
    assert legal(state).raise_kind == "raise"  # C, behind the all-in
    state = play(state, BetRaise(2, 4800))
    assert legal(state).player == 0 and legal(state).raise_kind == "raise"


def test_tda_47_short_all_in_does_not_reopen_betting() -> None:
    """TDA 47-A: an all-in short of a full raise does not reopen the betting for players who
    already acted (Octobermuck's 3000 over 2000 reopens; the TDA's does not)."""
    state = limp_to_flop(new_hand("tda", (10_000, 3100, 10_000)))
    state = play(state, BetRaise(0, 2000), BetRaise(1, 3000), CheckCall(2))
    assert legal(state).raise_kind == ""


def test_octobermuck_50_percent_more_than_the_original_bet_total_preflop() -> None:
    """Octobermuck: '... unless the All-In is at least 50% more than the original bet.' A
    pre-flop raise to 2000 needs an all-in to 3000; 2960 is only 48% more."""
    state = new_hand("octobermuck", (10_000, 10_000, 10_000, 2960))
    state = play(state, BetRaise(2, 2000), BetRaise(3, 2960), Fold(0), CheckCall(1))
    la = legal(state)
    assert la.player == 2 and la.raise_kind == ""


def test_octobermuck_card_exposed_in_deal_replaced_becomes_first_burn() -> None:
    """Octobermuck: 'If a card is exposed during the deal, the card is taken out of play and the
    player is dealt the top card after everyone has been dealt. The exposed card becomes the
    first burn card.'"""
    state = new_hand("octobermuck", (1000,) * 4)
    events = decide(state, ExposeCard(0, card("As")))
    exposed = only_event(events, CardExposed)
    assert isinstance(exposed, CardExposed) and "burn" in exposed.consequence
    assert play(state, ExposeCard(0, card("As"))).phase == BETTING


def test_tda_35_first_card_exposed_by_dealer_is_a_misdeal() -> None:
    """TDA 35-A(7): a misdeal if 1 of the first 2 cards dealt off the deck is exposed by dealer
    error (Octobermuck and BSE replace it instead)."""
    state = new_hand("tda", (1000,) * 4)
    assert play(state, ExposeCard(0, card("As"))).phase == MISDEALT


def test_octobermuck_player_exposing_own_cards_keeps_every_option() -> None:
    """Octobermuck: 'If a player exposes his own cards(s), everyone has the opportunity to see
    the card(s).' The hand plays on, with every option."""
    state = new_hand("octobermuck", (1000,) * 4)
    state = play(state, ExposeCard(2, card("As"), in_deal=False),
                 ExposeCard(2, card("Ad"), in_deal=False))
    assert legal(state).raise_kind == "raise"


def test_octobermuck_minimum_bet_is_the_round_big_blind() -> None:
    """Octobermuck: 'Minimum bet is equal to that round's BB.' and 'Raises can be no less then
    the previous bet (unless all-in)'."""
    state = limp_to_flop(new_hand("octobermuck", (5000,) * 3))
    with pytest.raises(RuleViolation):
        decide(state, BetRaise(0, 50))
    state = play(state, BetRaise(0, 400))
    assert legal(state).min_to == 800


def test_octobermuck_all_in_call_for_less_makes_a_side_pot() -> None:
    """Octobermuck All-Ins: 'You can call any bet even if you don't have enough chips to match
    the bet. You will be eligible to receive any matching bets and a side pot(s) will be created
    for bets over and above your All-In amount.'"""
    state = limp_to_flop(new_hand("octobermuck", (5000, 500, 5000)))
    state = play(state, BetRaise(0, 1000), CheckCall(1), CheckCall(2))
    assert state.stacks[1] == 0
    assert pots(state) == (Pot(1500, (0, 1, 2)), Pot(1200, (0, 2)))


def test_octobermuck_buy_down_odd_chips_are_awarded_to_the_winner_of_the_next_hand() -> None:
    """Octobermuck Chip Buy-downs: 'Any odd chips are forfeited to the next pot. ... All odd
    green chips in the pot will be replaced with black chips and awarded to the winner of the
    next hand. (In this case, there would be 1 extra black chip in the next pot.)'"""
    state = new_hand("octobermuck", (5000,) * 3, dead_money=100)
    assert state.pot_total == 250  # the blinds and the extra black chip
    state = play(state, Fold(2), Fold(0), AwardPots())
    assert state.phase == COMPLETE
    assert state.stacks == (4950, 5150, 5000)  # the big blind wins the blinds and the carry
    assert sum(state.stacks) == 3 * 5000 + 100


def test_octobermuck_carried_chips_are_in_the_main_pot_only() -> None:
    """The carried chips belong to nobody: they sit in the main pot, which every live hand can
    win, never in a side pot."""
    state = limp_to_flop(new_hand("octobermuck", (5000, 500, 5000), dead_money=100))
    state = play(state, BetRaise(0, 1000), CheckCall(1), CheckCall(2))
    assert pots(state) == (Pot(1600, (0, 1, 2)), Pot(1200, (0, 2)))
    state = run_out(state, "2c 7d 9h 3s 4s")
    state = play(state, ShowCards(0, cards("Kc Kd")), ShowCards(1, cards("Ac Ad")),
                 ShowCards(2, cards("Qc Jd")), AwardPots())
    assert state.stacks == (5100, 1600, 3900)  # aces win the main pot, the kings the side


def test_octobermuck_carried_chips_wait_through_a_misdeal() -> None:
    """A misdeal returns every post; the carried chips stay in the pot for the exact re-deal."""
    state = new_hand("octobermuck", (5000,) * 3, dead_money=100)
    state = play(state, DeclareMisdeal("two cards exposed in the deal"))
    assert state.phase == MISDEALT
    assert state.stacks == (5000,) * 3 and state.pot_total == 100
    assert state.chips_in_play() == 15100


def test_dead_money_is_never_negative() -> None:
    with pytest.raises(RuleViolation, match="dead money must not be negative"):
        new_hand("octobermuck", (5000,) * 3, dead_money=-25)


def test_octobermuck_late_player_loses_blinds_as_turn_comes_around() -> None:
    """Octobermuck: 'If you are late we'll assign you a seat and you will lose blinds as your
    turn comes around.'"""
    state = new_hand("octobermuck", (5000,) * 4, absent=(1,))
    state = play(state, CheckCall(2), CheckCall(3), CheckCall(0))
    la = legal(state)
    assert (la.player, la.can_check) == (1, False)  # not checked through: his hand is killed
    state = play(state, Fold(1))
    assert state.stacks[1] == 4900 and state.pot_total == 400


def test_octobermuck_check_raise_allowed() -> None:
    """Octobermuck General Rules: '- Check/raising allowed'."""
    state = limp_to_flop(new_hand("octobermuck", (5000,) * 3))
    state = play(state, CheckCall(0), BetRaise(1, 200), CheckCall(2))
    assert (legal(state).player, legal(state).raise_kind) == (0, "raise")


def test_octobermuck_no_rabbit_hunting() -> None:
    """Octobermuck: 'No rabbit hunting (we will not see what the rest of the hand "would have
    been")': once everybody else folds no board card can be recorded."""
    state = play(new_hand("octobermuck", (5000,) * 3), BetRaise(2, 300), Fold(0), Fold(1))
    assert state.phase == SHOWDOWN
    with pytest.raises(RuleViolation):
        decide(state, DealBoard(cards("2c 7d 9h")))


# --- Event chairperson's procedures --------------------------------------------------------


def test_chairperson_all_in_for_part_of_big_blind_callers_match_full_big_blind() -> None:
    """Chairperson: 'If a player goes all-in for a portion of the big blind, then subsequent
    action shall be made as if the player had posted the full big blind.'"""
    state = new_hand("chairperson", (5000, 60, 5000, 5000))
    la = legal(state)
    assert (la.player, la.call_amount, la.min_to) == (2, 100, 200)
    state = play(state, CheckCall(2))
    assert state.bets[2] == 100


def test_chairperson_misdeal_only_before_two_players_acted() -> None:
    """Chairperson misdeals: 'provided attention is called to the error before two players have
    acted on their hands' and 'Once action occurs, a misdeal can no longer be declared.'"""
    state = play(new_hand("chairperson", (1000,) * 4), Fold(2))
    assert isinstance(decide(state, DeclareMisdeal("button out of position"))[0],
                      MisdealDeclared)
    state = play(state, Fold(3))
    with pytest.raises(RuleViolation, match=r"\(Chairperson misdeals 1-2\)") as refused:
        decide(state, DeclareMisdeal("button out of position"))
    assert refused.value.rule == "chairperson-misdeal-2"


def test_tda_36_two_folds_are_not_substantial_action() -> None:
    """TDA 36: substantial action is 2 actions in turn at least one putting chips in, or 3
    actions; two folds are neither, so a misdeal can still be declared (not so for the
    chairperson)."""
    state = play(new_hand("tda", (1000,) * 4), Fold(2), Fold(3))
    assert isinstance(decide(state, DeclareMisdeal("button out of position"))[0],
                      MisdealDeclared)
    state = play(new_hand("tda", (1000,) * 4), Fold(2), CheckCall(3))
    with pytest.raises(RuleViolation, match=r"\(TDA 35\)") as refused:
        decide(state, DeclareMisdeal("button out of position"))
    assert refused.value.rule == "tda-35"


def test_chairperson_first_or_second_pocket_card_exposed_is_a_misdeal() -> None:
    """Chairperson: 'If the first or second pocket card dealt is exposed, a misdeal results.'"""
    for position in (0, 1):
        state = new_hand("chairperson", (1000,) * 4)
        events = decide(state, ExposeCard(position, card("As")))
        assert isinstance(events[-1], MisdealDeclared)


def test_chairperson_other_pocket_card_exposed_deal_continues_card_is_burn() -> None:
    """Chairperson: 'If any other pocket card is exposed due to dealer error, the deal
    continues. ... the exposed card is then used for the burncard.'"""
    state = play(new_hand("chairperson", (1000,) * 4), DealHole(0), DealHole(1))
    events = decide(state, ExposeCard(2, card("As")))
    exposed = only_event(events, CardExposed)
    assert isinstance(exposed, CardExposed) and "burn" in exposed.consequence
    assert not any(isinstance(e, MisdealDeclared) for e in events)


def test_chairperson_more_than_one_pocket_card_face_up_is_a_misdeal() -> None:
    """Chairperson: 'If more than one pocket cards are dealt face up during the hand, the dealer
    shall announce a misdeal'; misdeals 1(b): 'Two or more cards have been exposed by the
    dealer.'"""
    state = play(new_hand("chairperson", (1000,) * 4), DealHole(0), DealHole(1),
                 ExposeCard(2, card("As")))
    events = decide(state, ExposeCard(3, card("Kd")))
    assert any(isinstance(e, MisdealDeclared) for e in events)


def test_tda_35_two_downcards_exposed_is_a_misdeal() -> None:
    """TDA 35-A(7): a misdeal if '... any other 2 downcards are exposed by dealer error'."""
    state = play(new_hand("tda", (1000,) * 4), DealHole(0), DealHole(1),
                 ExposeCard(2, card("As")))
    events = decide(state, ExposeCard(3, card("Kd")))
    assert any(isinstance(e, MisdealDeclared) for e in events)


def test_chairperson_different_back_voids_hand_chips_returned() -> None:
    """Chairperson: 'If a card with a different color back appears during a hand, all action is
    void and all chips in the pot are returned to the respective bettors.'"""
    setup_stacks = (1000, 1000, 1000, 1000)
    state = play(new_hand("chairperson", setup_stacks), BetRaise(2, 300), CheckCall(3))
    assert state.pot_total == 750
    state = play(state, VoidHand("a red-backed card in a blue deck"))
    assert state.phase == VOID
    assert state.stacks == setup_stacks and state.pot_total == 0


def test_chairperson_duplicate_card_voids_hand_chips_returned() -> None:
    """Chairperson: 'If two cards of the same rank and suit are found, all action is void, and
    all chips in the pot are returned to the players who wagered them.'"""
    state = play(new_hand("chairperson", (1000,) * 3), DealHole(0, cards("As Ah")),
                 BetRaise(2, 300))
    with pytest.raises(RuleViolation) as raised:
        decide(state, DealHole(1, cards("As Kd")))
    assert "void the hand" in raised.value.legal
    events = decide(state, VoidHand("two aces of spades"))
    assert isinstance(events[0], HandVoided)
    assert play(state, VoidHand("two aces of spades")).stacks == (1000, 1000, 1000)


def test_chairperson_odd_chip_first_hand_clockwise_from_button() -> None:
    """Chairperson: 'If two or more hands tie, any odd chip will be awarded to the first hand
    clockwise from the button.'"""
    state = new_hand("chairperson", (1000,) * 3, (25, 50, 0), min_bet=50, chip_unit=25)
    state = play(state, CheckCall(2), CheckCall(0), CheckCall(1), DealBoard(cards("Ac Kc Qc")),
                 BetRaise(0, 75), CheckCall(1), CheckCall(2), DealBoard(cards("Jc")),
                 BetRaise(0, 50), Fold(1), CheckCall(2))  # pot 475: nineteen 25 chips
    state = run_out(state, "Ac Kc Qc Jc Tc")
    state = play(state, ShowCards(2, cards("2d 3d")), ShowCards(0, cards("4d 5d")))
    (award,) = propose_awards(state)
    assert (award.winners, award.shares, award.odd_chips) == ((0, 2), (250, 225), (0,))


def test_chairperson_suits_never_break_a_tie() -> None:
    """Chairperson: 'Suits never break a tie for winning a pot.'"""
    state = run_out(new_hand("chairperson", (1000,) * 2), "2c 5d 9h Jc 3s")
    state = play(state, ShowCards(0, cards("Ah Kd")), ShowCards(1, cards("As Kc")))
    (award,) = propose_awards(state)
    assert award.winners == (0, 1) and award.shares == (100, 100)


def test_chairperson_last_aggressor_shows_first_else_first_to_act() -> None:
    """Chairperson: 'If everyone checks (or is all-in) on the final betting round, the player
    who acted first is the first to show the hand. If there is wagering on the final betting
    round, the last player to take aggressive action by a bet or raise is the first to show.'"""
    checked = run_out(new_hand("chairperson", (1000,) * 3), "2c 5d 9h Jc 3s")
    assert showdown_order(checked)[0] == 0
    state = limp_to_flop(new_hand("chairperson", (1000,) * 3), "2c 5d 9h")
    state = play(state, CheckCall(0), CheckCall(1), CheckCall(2), DealBoard(cards("Jc")),
                 CheckCall(0), CheckCall(1), CheckCall(2), DealBoard(cards("3s")),
                 CheckCall(0), BetRaise(1, 200), CheckCall(2), CheckCall(0))
    assert state.phase == SHOWDOWN
    assert showdown_order(state) == (1, 2, 0)


def test_chairperson_betting_starts_left_of_big_blind_then_left_of_button() -> None:
    """Chairperson: 'The first betting round begins with the player to the left of the big
    blind.' and 'The second betting round begins with the player to the left of the button.'"""
    state = new_hand("chairperson", (1000,) * 4)
    assert legal(state).player == 2
    assert legal(limp_to_flop(state)).player == 0


def test_chairperson_heads_up_small_blind_is_button_acts_first_then_last() -> None:
    """Chairperson: 'The small blind shall act first on the first betting round and last on all
    other betting rounds. In other words, the small blind is the button'."""
    state = new_hand("chairperson", (1000, 1000))  # 0 big blind, 1 button and small blind
    assert state.committed == (100, 50)
    assert legal(state).player == 1
    assert legal(limp_to_flop(state)).player == 0


def test_chairperson_premature_flop_burn_stays_turn_taken_out_for_the_round() -> None:
    """Chairperson: a premature flop: 'The burncard remains on the table.'; a premature fourth
    card 'is taken out of play for that round'."""
    state = new_hand("chairperson", (1000,) * 3)
    flop = only_event(decide(state, ExposeBoardEarly(cards("2c 7d 9h"))), BoardExposedEarly)
    assert isinstance(flop, BoardExposedEarly) and flop.procedure == "flop_mixed_back"
    assert "burn card stays" in render(flop)["procedure"]
    state = limp_to_flop(state)
    turn = only_event(decide(state, ExposeBoardEarly(cards("Jc"))), BoardExposedEarly)
    assert isinstance(turn, BoardExposedEarly)
    assert turn.procedure == "turn_out_for_the_round"
    assert "taken out of play for this round" in render(turn)["procedure"]


def test_tda_rp5_premature_turn_reshuffled_into_the_stub() -> None:
    """TDA RP-5-B: 'A premature turn card: leave the turn burn card as the burn. Return the
    premature turn card to the deck stub and reshuffle the entire stub.'"""
    state = limp_to_flop(new_hand("tda", (1000,) * 3))
    turn = only_event(decide(state, ExposeBoardEarly(cards("Jc"))), BoardExposedEarly)
    assert isinstance(turn, BoardExposedEarly)
    assert turn.rules == ("tda-rp-5",) and turn.procedure == "reshuffle_keep_burn"
    assert "reshuffled" in render(turn)["procedure"]


def test_chairperson_clock_expired_facing_a_bet_hand_dead() -> None:
    """Chairperson dead hands: '(e) You have the clock on you when facing a bet or raise and
    exceed the specified time limit.'"""
    state = new_hand("chairperson", (1000,) * 4)
    assert isinstance(decide(state, ExpireClock(2))[0], HandKilled)


def test_chairperson_mucked_hand_cannot_be_recalled() -> None:
    """Chairperson: 'A player may not recall a mucked hand.'"""
    state = run_out(new_hand("chairperson", (1000,) * 3), "2c 7d 9h Js Kc")
    state = play(state, ShowCards(0, cards("As Ad")), MuckCards(1))
    with pytest.raises(RuleViolation, match="folded"):
        decide(state, ShowCards(1, cards("Kh Kd")))


def test_chairperson_card_flashed_by_player_plays() -> None:
    """Chairperson: 'A card that is flashed by a player will play.'"""
    state = play(new_hand("chairperson", (1000,) * 4), ExposeCard(2, card("As"), in_deal=False))
    assert not state.folded[2] and legal(state).raise_kind == "raise"


# --- Self-dealt league ---------------------------------------------------------------------


def test_league_odd_chip_single_lowest_chip_to_all_in_player() -> None:
    """League Tied hands: 'a player cannot be eliminated as a result of a split pot. A split pot
    containing a single chip of the lowest denomination in play will be awarded to the all-in
    player regardless of seat position.'"""
    # The button's last 10 chips are less than one 25 chip, so the main pot he ties for is a
    # single 25 chip (and 5 over): seat order would give it to position 0 and bust him.
    for profile, winner in (("league", 2), ("tda", 0)):
        state = new_hand(profile, (1000, 1000, 10), (25, 50, 0), min_bet=50, chip_unit=25)
        state = play(state, CheckCall(2), CheckCall(0), CheckCall(1))
        state = run_out(state, "Ah Kh Qh Jh Th")
        state = play(state, ShowCards(2, cards("2c 3d")), ShowCards(0, cards("4c 5d")),
                     ShowCards(1, cards("6c 7d")))
        main = propose_awards(state)[0]
        assert main.amount == 30 and main.winners == (0, 1, 2)
        assert main.shares[main.winners.index(winner)] == 30, profile


def test_league_odd_chip_otherwise_closest_to_button_clockwise() -> None:
    """League Tied hands: 'If there is an extra chip in a tied hand, it will be given to the
    Player closest to the puck/button (Dealer position) in a clockwise rotation'."""
    state = new_hand("league", (1000, 1000, 50), (25, 50, 0), min_bet=50, chip_unit=25)
    state = play(state, CheckCall(2), Fold(0))  # the button is all-in for 50; pot 125
    state = run_out(state, "Ah Kh Qh Jh Th")
    state = play(state, ShowCards(1, cards("2c 3d")), ShowCards(2, cards("4c 5d")))
    (award,) = propose_awards(state)
    assert (award.shares, award.odd_chips) == ((75, 50), (1,))


def test_league_exposed_both_cards_call_or_fold_only() -> None:
    """League: 'If a player accidentally exposes BOTH of their cards before all players have
    acted, the cards are shown to the table, and that player can NO LONGER bet or raise. Their
    only options are to call or fold.'"""
    state = new_hand("league", (1000,) * 4)
    state = play(state, ExposeCard(2, card("As"), in_deal=False))
    events = decide(state, ExposeCard(2, card("Ad"), in_deal=False))
    exposed = only_event(events, CardExposed)
    assert isinstance(exposed, CardExposed) and exposed.consequence == "call_or_fold"
    assert "call or fold" in render(exposed)["consequence"]
    state = play(state, ExposeCard(2, card("Ad"), in_deal=False))
    la = legal(state)
    assert (la.player, la.call_amount, la.raise_kind, la.can_fold) == (2, 100, "", True)
    with pytest.raises(RuleViolation, match="call or fold"):
        decide(state, BetRaise(2, 300))
    tda = play(new_hand("tda", (1000,) * 4), ExposeCard(2, card("As"), in_deal=False),
               ExposeCard(2, card("Ad"), in_deal=False))
    assert legal(tda).raise_kind == "raise"  # TDA 68: a penalty maybe, never a restriction


def test_league_one_exposed_card_play_continues() -> None:
    """League: 'If a player accidentally exposes ONE of their hole cards before all players
    have acted, the card is shown to the table. Play continues.' The same card shown twice is
    still one card."""
    state = play(new_hand("league", (1000,) * 4), ExposeCard(2, card("As"), in_deal=False))
    assert legal(state).raise_kind == "raise"
    again = play(state, ExposeCard(2, card("As"), in_deal=False))
    assert legal(again).raise_kind == "raise" and not again.call_only[2]


def test_league_absent_big_blind_checked_through() -> None:
    """League: 'In the event a player is absent and is in the Big Blind, and everyone checks
    around, they will also be auto checked. They remain the hand until another player's bet
    forces their hand to be folded - even if it goes to showdown.'"""
    state = new_hand("league", (1000,) * 4, absent=(1,))
    state = play(state, CheckCall(2), CheckCall(3), CheckCall(0))
    la = legal(state)
    assert (la.player, la.can_check, la.can_fold, la.raise_kind) == (1, True, False, "")
    with pytest.raises(RuleViolation):
        decide(state, Fold(1))
    assert isinstance(decide(state, CheckCall(1))[0], PlayerChecked)
    state = run_out(state, "2c 7d 9h Js Kc")
    assert state.phase == SHOWDOWN and not state.folded[1]


def test_league_absent_big_blind_folded_when_a_bet_reaches_him() -> None:
    """League: the absent big blind stays in 'until another player's bet forces their hand to
    be folded'."""
    state = limp_to_flop(new_hand("league", (1000,) * 4, absent=(1,)))
    state = play(state, BetRaise(0, 100))
    la = legal(state)
    assert (la.player, la.can_check, la.call_amount, la.raise_kind) == (1, False, 0, "")
    assert play(state, Fold(1)).folded[1]


def test_league_absent_player_mucked_at_his_turn_blinds_in_pot() -> None:
    """League Leaving the Table: 'If they have not returned by the time it is their turn to
    act, their cards are mucked and their blinds placed in the pot.'"""
    state = new_hand("league", (1000,) * 4, absent=(0,))
    state = play(state, CheckCall(2), CheckCall(3))
    la = legal(state)
    assert (la.player, la.can_check, la.raise_kind) == (0, False, "")
    state = play(state, Fold(0))
    assert state.folded[0] and state.stacks[0] == 950 and state.pot_total == 350


def test_league_any_card_flipped_in_deal_is_a_misdeal() -> None:
    """League Misdeals: 'Any card flipped over during the initial deal is an automatic
    misdeal.'"""
    state = play(new_hand("league", (1000,) * 4), DealHole(0), DealHole(1), DealHole(2))
    assert play(state, ExposeCard(3, card("As"))).phase == MISDEALT
    chair = play(new_hand("chairperson", (1000,) * 4), DealHole(0), DealHole(1), DealHole(2))
    assert play(chair, ExposeCard(3, card("As"))).phase == BETTING


def test_league_every_player_dealt_in_even_when_short() -> None:
    """League Insufficient Chips: 'Every Player must be dealt a hand, even if the chips in their
    possession are insufficient to place a minimum bet.'"""
    events = begin(HandSetup(stacks=(1000, 30, 1000), blinds=(50, 100, 0), antes=(0, 0, 0),
                             min_bet=100, profile="league"))
    posts = [e for e in events if isinstance(e, ChipsPosted)]
    assert (posts[1].player, posts[1].amount, posts[1].all_in) == (1, 30, True)
    state = new_hand("league", (1000, 30, 1000))
    assert not state.folded[1]
    assert state.setup.stacks[1] == 30 and len(state.stacks) == 3


def test_league_preflop_all_in_for_less_than_big_blind_callers_match_big_blind() -> None:
    """League: 'If a player goes all-in pre-flop for less than the big blind, anyone who calls
    must still match the big blind.'"""
    state = new_hand("league", (1000, 1000, 40, 1000))
    state = play(state, CheckCall(2))  # under the gun all-in for 40
    la = legal(state)
    assert (la.player, la.call_amount) == (3, 100)


def test_league_postflop_all_in_for_less_than_big_blind_called_for_its_amount() -> None:
    """League: 'If a player goes all-in after the flop for less than the big blind, the player
    can call the amount of the bet.'"""
    state = limp_to_flop(new_hand("league", (140, 1000, 1000)))
    state = play(state, BetRaise(0, 40))  # all-in
    assert legal(state).call_amount == 40


def test_league_short_all_in_raise_closes_raising_to_those_who_acted() -> None:
    """League Raising: 'If a player raises all in but their bet is less than a full raise,
    raising action is closed to anyone who has already acted.'"""
    state = limp_to_flop(new_hand("league", (5000, 350, 5000)))
    state = play(state, BetRaise(0, 200), BetRaise(1, 250), CheckCall(2))
    la = legal(state)
    assert (la.player, la.call_amount, la.raise_kind) == (0, 50, "")


def test_league_minimum_initial_raise_double_big_blind_then_double_the_bet() -> None:
    """League Raising: 'the minimum initial raise before the flop is always double the big
    blind, and the minimum initial raise after the flop is double the previous bet.'"""
    state = new_hand("league", (5000,) * 3)
    assert legal(state).min_to == 200
    state = play(limp_to_flop(state), BetRaise(0, 250))
    assert legal(state).min_to == 500


def test_league_player_may_always_go_all_in_for_less_than_the_bet() -> None:
    """League Betting: 'if a Player has not acted yet, they may always go All-in as their bet,
    even if it is not enough to cover the previous bet.'"""
    state = play(new_hand("league", (5000, 5000, 5000, 300)), BetRaise(2, 600))
    call = decide(state, CheckCall(3))[0]
    assert isinstance(call, PlayerCalled) and (call.amount, call.all_in) == (300, True)


def test_league_clock_expired_facing_a_bet_hand_dead() -> None:
    """League Timely Bets: 'If the Player has not acted by the end of the (5) second countdown,
    the hand is dead.'"""
    state = new_hand("league", (1000,) * 4)
    assert isinstance(decide(state, ExpireClock(2))[0], HandKilled)


def test_league_clock_expired_hand_dead_even_not_facing_a_bet() -> None:
    """League Timely Bets: 'If the Player has not acted by the end of the (5) second countdown,
    the hand is dead.' (the TDA checks a player not facing a bet)"""
    state = limp_to_flop(new_hand("league", (1000,) * 3))
    assert isinstance(decide(state, ExpireClock(0))[0], HandKilled)


def test_tda_29_clock_expired_not_facing_a_bet_checks() -> None:
    """TDA 29: 'If the player faces a bet and time expires, the hand is dead; if not facing a
    bet, the hand is checked.'"""
    state = limp_to_flop(new_hand("tda", (1000,) * 3))
    assert isinstance(decide(state, ExpireClock(0))[0], PlayerChecked)
    state = play(state, BetRaise(0, 100))
    assert isinstance(decide(state, ExpireClock(1))[0], HandKilled)


def test_league_premature_board_card_reshuffled_top_card_revealed() -> None:
    """League: 'take the exposed community card(s), and re-shuffle them into the deck. Once
    betting completes, the top card(s) on the deck are then revealed.'"""
    state = new_hand("league", (1000,) * 3)
    event = only_event(decide(state, ExposeBoardEarly(cards("2c 7d 9h"))), BoardExposedEarly)
    assert isinstance(event, BoardExposedEarly)
    assert event.procedure == "reshuffle_then_top_card"
    assert "shuffled back" in render(event)["procedure"] and "top card" in render(event)[
        "procedure"]


def test_league_called_at_the_river_last_bettor_shows_first() -> None:
    """League Showing Cards: 'If a player is called at the river, the person who initially bet
    or the last person to raise shows their cards first.'"""
    state = limp_to_flop(new_hand("league", (1000,) * 3), "2c 5d 9h")
    state = play(state, CheckCall(0), CheckCall(1), CheckCall(2), DealBoard(cards("Jc")),
                 CheckCall(0), CheckCall(1), CheckCall(2), DealBoard(cards("3s")),
                 BetRaise(0, 100), BetRaise(1, 300), CheckCall(2), CheckCall(0))
    assert showdown_order(state)[0] == 1


def test_league_all_in_and_called_hands_turned_face_up() -> None:
    """League Showing Cards: 'All hands will be turned face up whenever a player is all-in, and
    the betting action has been completed.'"""
    state = play(new_hand("league", (1000, 400)), BetRaise(1, 400), CheckCall(0))
    assert state.phase == BOARD and not state.board
    state = play(state, ShowCards(0, cards("As Ad")), ShowCards(1, cards("Kc Kd")))
    assert state.shown[0] and state.shown[1]


# --- TDA baseline: what the seeds do not change ----------------------------------------------


def test_tda_rp11_big_blind_ante_blind_posted_first() -> None:
    """TDA RP-11: the big blind ante 'with big-blind-first calculation': a short big blind
    posts his blind before the ante."""
    events = begin(HandSetup(stacks=(1000, 150, 1000), blinds=(50, 100, 0), antes=(0, 100, 0),
                             min_bet=100, profile="tda"))
    posts = [(e.player, e.kind, e.amount) for e in events if isinstance(e, ChipsPosted)]
    assert posts == [(1, "big_blind", 100), (1, "ante", 50), (0, "small_blind", 50)]


def test_tda_30_absent_at_the_deal_hand_killed_even_if_back_before_his_turn() -> None:
    """TDA 30: 'To have a live hand, players must be at their seats when the last card is dealt
    to all players on the initial deal. Players not then at their seats may not look at their
    cards which are killed immediately.'"""
    state = new_hand("tda", (1000,) * 4, absent=(2,))
    if not state.folded[2]:
        state = play(state, MarkReturned(2))  # back before his turn: too late under TDA 30
    assert state.folded[2] and legal(state).player == 3


def test_tda_30_blinds_of_a_hand_killed_at_the_deal_forfeit_to_the_pot() -> None:
    """TDA 30: 'Their posted blinds and antes forfeit to the pot.' The absent big blind's 100
    stays in the pot even when nobody calls it: the small blind wins 150."""
    state = new_hand("tda", (1000,) * 3, absent=(1,))
    assert state.folded[1] and legal(state).call_amount == 100
    state = play(state, Fold(2), AwardPots())
    assert state.phase == COMPLETE and state.stacks == (1100, 900, 1000)


def test_tda_43_addendum_example_1_minimum_reraise_is_the_last_raise() -> None:
    """TDA 43 Addendum Ex. 1: 100-200, A opens 600, B raises to 1600, C re-raises to 3600: D's
    minimum re-raise is C's raise of 2000, to 5600."""
    state = limp_to_flop(new_hand("tda", (20_000,) * 5, (100, 200, 0, 0, 0), min_bet=200))
    state = play(state, BetRaise(0, 600), BetRaise(1, 1600), BetRaise(2, 3600))
    assert legal(state).min_to == 5600


def test_tda_43_addendum_example_2_short_all_in_does_not_raise_the_minimum() -> None:
    """TDA 43 Addendum Ex. 2: 50-100, under the gun all-in for 150: the next raise must still
    be at least 100, to 250."""
    state = play(new_hand("tda", (5000, 5000, 150, 5000)), BetRaise(2, 150))
    assert legal(state).min_to == 250


def test_tda_47_addendum_example_1_cumulative_short_all_ins_reopen() -> None:
    """TDA 47 Addendum Ex. 1: A bets 100, B all-in 125, C calls, D all-in 200, E calls: A faces
    a full raise (100) and may raise; after A calls, C faces only 75 and may not."""
    state = limp_to_flop(new_hand("tda", (5000, 225, 5000, 300, 5000)))
    state = play(state, BetRaise(0, 100), BetRaise(1, 125), CheckCall(2), BetRaise(3, 200),
                 CheckCall(4))
    assert (legal(state).player, legal(state).raise_kind) == (0, "raise")
    state = play(state, CheckCall(0))
    la = legal(state)
    assert (la.player, la.call_amount, la.raise_kind) == (2, 75, "")
