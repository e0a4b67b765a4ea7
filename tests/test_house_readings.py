"""The house documents read as written: golden tests named after their sentences, per profile.

Each test pins one sentence of a seed document (or the TDA rule the engine falls back on where
the document is silent) under every profile it distinguishes, so a profile that reads the
sentence differently fails here by name.
"""

from __future__ import annotations

import pytest

from handlog.engine.cards import parse_cards
from handlog.engine.commands import (
    BetRaise,
    CheckCall,
    DealBoard,
    DeclareMisdeal,
    ExposeBoardEarly,
    Fold,
    KillHand,
)
from handlog.engine.errors import RuleViolation
from handlog.engine.events import MisdealDeclared
from handlog.engine.hand import (
    BETTING,
    HandSetup,
    HandState,
    decide,
    execute,
    legal_actions,
    start_hand,
)
from handlog.engine.profiles import PROFILES, get_profile
from handlog.engine.words import render_rule

ALL = list(PROFILES)


def new_hand(profile: str, stacks: tuple[int, ...],
             blinds: tuple[int, ...] | None = None) -> HandState:
    n = len(stacks)
    if blinds is None:
        blinds = (50, 100) + (0,) * (n - 2)
    return start_hand(HandSetup(stacks, blinds, (0,) * n, 100, 1, profile))


def play(state: HandState, *commands: object) -> HandState:
    for command in commands:
        state = execute(state, command)  # type: ignore[arg-type]
    return state


def limp_to_flop(state: HandState) -> HandState:
    while state.phase == BETTING and state.street == 0:
        assert state.to_act is not None
        state = execute(state, CheckCall(state.to_act))
    return execute(state, DealBoard(parse_cards("2c7d9h")))


def refusal(state: HandState, command: object) -> RuleViolation:
    with pytest.raises(RuleViolation) as refused:
        decide(state, command)  # type: ignore[arg-type]
    return refused.value


# --- BSE Mucked Cards ----------------------------------------------------------------------


@pytest.mark.parametrize("profile", ALL)
def test_bse_once_hole_cards_are_dead_all_chips_in_action_on_that_hand_are_lost(
        profile: str) -> None:
    """BSE Mucked Cards: 'Once a player's hole cards are considered dead and mucked, all the
    player's chips in action on that hand are lost.' A hand killed after an uncalled raise to
    1,000 loses all 1,000 under BSE; elsewhere (TDA) the uncalled 900 goes back to it."""
    state = play(new_hand(profile, (5000,) * 3), BetRaise(2, 1000), Fold(0),
                 KillHand(2, "exposed a card with action pending", "bse-mucked-cards"))
    lost = 5000 - state.stacks[2]
    assert lost == (1000 if profile == "bse" else 100)
    assert state.returned[2] == (0 if profile == "bse" else 900)
    assert state.chips_in_play() == 15_000


# --- Octobermuck's 50% ----------------------------------------------------------------------


@pytest.mark.parametrize("profile", ALL)
def test_octobermuck_short_all_in_opens_the_action_only_for_the_original_bettor(
        profile: str) -> None:
    """Octobermuck: 'A short All-In bet does not open the action for the original bettor to
    re-raise unless the All-In is at least 50% more than the original bet.' It speaks of the
    original bettor only: a player who checked and then faces an all-in bet below a full bet
    is ruled by TDA 47 (Octobermuck is silent here), and may not raise."""
    # Flop: position 0 checks, 1 bets all-in 60 (less than the 100 minimum bet), 2 calls.
    state = limp_to_flop(new_hand(profile, (1000, 160, 1000)))
    state = play(state, CheckCall(0), BetRaise(1, 60), CheckCall(2))
    la = legal_actions(state)
    assert la is not None and (la.player, la.call_amount, la.raise_kind) == (0, 60, "")
    refused = refusal(state, BetRaise(0, 150))
    expected = get_profile(profile).rule("reopen")
    if profile == "octobermuck":
        expected = "tda-47"
        assert "TDA 47 (Octobermuck is silent here)" in refused.message
    assert refused.rule == expected


@pytest.mark.parametrize("profile", ALL)
def test_octobermuck_a_limper_facing_a_short_all_in_is_not_the_original_bettor(
        profile: str) -> None:
    """Octobermuck's 50% is for the original bettor: a player who limped 100 and faces a 150
    all-in (not a full raise) may not raise to 250 under any profile (TDA 47)."""
    state = new_hand(profile, (1000, 1000, 1000, 150))
    state = play(state, CheckCall(2), BetRaise(3, 150), Fold(0), CheckCall(1))
    la = legal_actions(state)
    assert la is not None and (la.player, la.call_amount, la.raise_kind) == (2, 50, "")
    assert refusal(state, BetRaise(2, 250)).rule in ("tda-47", get_profile(profile).rule(
        "reopen"))


@pytest.mark.parametrize("profile", ALL)
def test_octobermuck_the_original_bettor_is_reopened_at_50_percent_more(profile: str) -> None:
    """Octobermuck: the original bettor of 2,000 facing an all-in to 3,000 (50% more, not a
    full raise) may re-raise; under the TDA 47 baseline he may not."""
    state = limp_to_flop(new_hand(profile, (10_000, 3100, 10_000)))
    state = play(state, BetRaise(0, 2000), BetRaise(1, 3000), CheckCall(2))
    la = legal_actions(state)
    assert la is not None and la.player == 0
    assert (la.raise_kind == "raise") is (profile == "octobermuck")


# --- Chairperson misdeals -------------------------------------------------------------------


@pytest.mark.parametrize("profile", ALL)
def test_chairperson_action_occurs_when_two_players_after_the_blinds_have_acted(
        profile: str) -> None:
    """Chairperson misdeals: 'provided attention is called to the error before two players
    have acted' and 'Action is considered to occur when two players after the blinds have acted
    on their hands.' Three-handed, the button calls and the small blind completes: only one
    player after the blinds has acted, so a misdeal may still be declared; under TDA 36 a call
    and a completion are substantial action."""
    state = play(new_hand(profile, (1000,) * 3), CheckCall(2), CheckCall(0))
    if profile == "chairperson":
        assert isinstance(decide(state, DeclareMisdeal("button out of position"))[-1],
                          MisdealDeclared)
    else:
        assert refusal(state, DeclareMisdeal("button out of position")).rule == "tda-35"


def test_chairperson_two_players_after_the_blinds_acting_stops_a_misdeal() -> None:
    """Chairperson: once two players after the blinds have acted (two folds), no misdeal."""
    state = play(new_hand("chairperson", (1000,) * 5), Fold(2), Fold(3))
    assert refusal(state, DeclareMisdeal("wrong count")).rule == "chairperson-misdeal-2"


# --- Chairperson premature turn --------------------------------------------------------------


@pytest.mark.parametrize("profile", ALL)
def test_chairperson_fourth_card_turned_early_is_taken_out_of_play_for_that_round(
        profile: str) -> None:
    """Chairperson: 'If the dealer turns the fourth card on the board before the betting round
    is complete, the card is taken out of play for that round ... The dealer burns and turns
    what would have been the fifth card in the fourth card's place.' It cannot be the turn
    (elsewhere it goes back into the stub and may come again), but it may be the river."""
    state = play(limp_to_flop(new_hand(profile, (1000,) * 3)), CheckCall(0))
    early = parse_cards("Ks")
    state = play(state, ExposeBoardEarly(early), CheckCall(1), CheckCall(2))
    if profile != "chairperson":
        assert decide(state, DealBoard(early))[0].cards == ("Ks",)  # type: ignore[union-attr]
        return
    refused = refusal(state, DealBoard(early))
    assert refused.rule == "chairperson-premature-board-cards"
    assert "out of play for this round" in refused.message
    state = play(state, DealBoard(parse_cards("Qs")), CheckCall(0), CheckCall(1), CheckCall(2))
    assert decide(state, DealBoard(early))[0].cards == ("Ks",)  # type: ignore[union-attr]


# --- Refusals cite the house's own rule -------------------------------------------------------


OWN_MIN_RAISE = {"tda": "tda-43", "bse": "bse-pre-flop-action",
                 "octobermuck": "octobermuck-raises", "chairperson": "tda-43",
                 "league": "league-raising"}


@pytest.mark.parametrize("profile", ALL)
def test_a_refused_raise_cites_the_houses_own_rule_else_tda_43_where_it_is_silent(
        profile: str) -> None:
    """BSE Pre-Flop Action ('Any pre-flop RAISE must at least double the big blind'), League
    Raising ('the minimum initial raise before the flop is always double the big blind') and
    Octobermuck ('Raises can be no less then the previous bet') decide a short raise under
    their profiles; the chairperson's document is silent, so TDA 43 decides and says so."""
    refused = refusal(new_hand(profile, (5000,) * 4), BetRaise(2, 150))
    assert refused.rule == OWN_MIN_RAISE[profile]
    words = render_rule(refused.rule, get_profile(profile))
    assert words in refused.message
    if profile == "chairperson":
        assert words == "TDA 43 (Chairperson is silent here)"
    if profile == "tda":
        assert words == "TDA 43"


def test_rule_identifiers_render_to_words() -> None:
    """Every rule identifier a profile cites has words (events keep the identifier)."""
    for profile in PROFILES.values():
        for concept in ("min_bet", "min_raise", "reopen", "misdeal", "void", "straddle",
                        "premature_board", "clock", "min_players"):
            rule = profile.rule(concept)
            assert render_rule(rule) != rule, rule
