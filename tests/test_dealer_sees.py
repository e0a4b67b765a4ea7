"""What the dealer sees: chips pushed and words said, ruled by the engine under each profile.

Golden tests named after the sentence they pin (TDA 44 and 45, BSE Betting, League String
Betting, Octobermuck's one-chip rule and bounty chip), each under every profile it tells
apart. The dealer enters the facts (`PushChips`); the engine records them with its ruling
(`chips_pushed`: what it is ruled as, why, and the rule) and then the action itself.
"""

from __future__ import annotations

import pytest

from handlog.engine.cards import parse_cards
from handlog.engine.commands import ActOutOfTurn, BetRaise, CheckCall, DealBoard, Fold, PushChips
from handlog.engine.errors import RuleViolation
from handlog.engine.events import (
    ActedOutOfTurn,
    BetMade,
    ChipsPushed,
    PlayerCalled,
    PlayerChecked,
    PlayerFolded,
    RaiseMade,
)
from handlog.engine.hand import BETTING, HandSetup, HandState, decide, execute, start_hand
from handlog.engine.profiles import PROFILES
from handlog.replay.fold import command_for

ALL = list(PROFILES)


def facing_1100(profile: str) -> HandState:
    """TDA 45's example: blinds 250-500, smallest chip 100; UTG raises 600 to 1,100."""
    state = start_hand(HandSetup((20_000,) * 4, (250, 500, 0, 0), (0,) * 4, 500, 100, profile))
    return execute(state, BetRaise(2, 1100))


def unopened_flop(profile: str) -> HandState:
    state = start_hand(HandSetup((5000,) * 3, (25, 50, 0), (0,) * 3, 50, 25, profile))
    while state.phase == BETTING:
        assert state.to_act is not None
        state = execute(state, CheckCall(state.to_act))
    return execute(state, DealBoard(parse_cards("2c7d9h")))


def ruled(state: HandState, push: PushChips) -> tuple[ChipsPushed, tuple[object, ...]]:
    events = decide(state, push)
    facts = events[0]
    assert isinstance(facts, ChipsPushed)
    assert decide(state, command_for(facts)) == events  # replaying the facts: same ruling
    return facts, events[1:]


# --- one chip ---------------------------------------------------------------------------


@pytest.mark.parametrize("profile", ALL)
def test_tda_44_a_single_oversized_chip_facing_a_bet_is_a_call(profile: str) -> None:
    """TDA 44 (Octobermuck: 'If you put a $500 chip in the pot to call a $100 bet and do not
    announce any other intention, it is a call and you'll get change'; BSE: 'any single chip
    put out will be considered a call'): one 5,000 chip facing 1,100, nothing said."""
    facts, action = ruled(facing_1100(profile), PushChips(3, (5000,)))
    assert (facts.ruled, facts.reason) == ("call", "one_chip")
    assert facts.rule == {"bse": "bse-betting", "octobermuck": "octobermuck-one-chip",
                          "league": "league-single-chip-bets"}.get(profile, "tda-44")
    assert action == (PlayerCalled(3, 1100, False),)


@pytest.mark.parametrize("profile", ALL)
def test_octobermuck_opening_with_one_chip_the_full_amount_of_the_chip_is_in_play(
        profile: str) -> None:
    """Octobermuck: 'If you open the action by placing a $500 chip into the pot and do not
    announce otherwise, the full amount of the chip is in play' (TDA 44, League after the
    flop: a bet of its value). BSE: 'any single chip put out will be considered a call': with
    no bet to call, a check."""
    facts, action = ruled(unopened_flop(profile), PushChips(0, (500,)))
    if profile == "bse":
        assert (facts.ruled, action) == ("check", (PlayerChecked(0),))
    else:
        assert (facts.ruled, facts.to, action) == ("bet", 500, (BetMade(0, 500, False),))


def big_blinds_option(profile: str) -> HandState:
    """Blinds 25-50, everyone calls to the big blind (seat 1), who has the option."""
    state = start_hand(HandSetup((5000,) * 3, (25, 50, 0), (0,) * 3, 50, 25, profile))
    state = execute(state, CheckCall(2))
    return execute(state, CheckCall(0))


@pytest.mark.parametrize("profile", ALL)
def test_league_before_the_flop_a_single_chip_greater_than_the_big_blind_is_only_a_call(
        profile: str) -> None:
    """League Single Chip Bets: 'Before the flop, if a player bets a single chip greater than
    the big blind without announcing a raise, then this is only a call.' The big blind's one
    500 chip on his option, nothing said: a call of nothing, that is a check (issue 24: was
    ruled a raise). TDA 44 and Octobermuck: not facing a bet, a bet of the chip's value (on
    top of his blind: a raise to 550); BSE: any single chip a call."""
    state = big_blinds_option(profile)
    assert state.to_act == 1
    facts, action = ruled(state, PushChips(1, (500,)))
    if profile in ("league", "bse"):
        assert (facts.ruled, facts.reason, action) == ("check", "one_chip", (PlayerChecked(1),))
        assert facts.rule == ("league-single-chip-bets" if profile == "league"
                              else "bse-betting")
    else:
        assert (facts.ruled, facts.to) == ("raise", 550)  # the chip on top of his blind


# --- several chips ------------------------------------------------------------------------


@pytest.mark.parametrize("profile", ALL)
def test_tda_45_facing_1100_a_silent_1500_is_a_raise_to_1700_and_a_silent_1300_a_call(
        profile: str) -> None:
    """TDA 45 and 43's 50% standard: facing 1,100 (a raise of 600), fifteen 100 chips put out
    silently (400 over the call, 50% of 600 reached) are a raise, held to a full raise to
    1,700; thirteen (200 over) are a call. BSE: 'If multiple chips are put out, this will be
    considered a raise for the total amount put out': both are raises (held to 1,700)."""
    fifteen, action = ruled(facing_1100(profile), PushChips(3, (100,) * 15))
    assert (fifteen.ruled, fifteen.to) == ("raise", 1700)
    assert action == (RaiseMade(3, 1700, False, True),)
    thirteen, action = ruled(facing_1100(profile), PushChips(3, (100,) * 13))
    if profile == "bse":
        assert (thirteen.ruled, thirteen.to, thirteen.reason) == ("raise", 1700,
                                                                  "raise_for_total")
    else:
        assert (thirteen.ruled, thirteen.reason, thirteen.rule) == (
            "call", "under_fifty_percent", "tda-45")
        assert action == (PlayerCalled(3, 1100, False),)


@pytest.mark.parametrize("profile", ALL)
def test_tda_45_multiple_chips_are_a_call_if_every_chip_is_needed(profile: str) -> None:
    """TDA 45: facing 1,100, three 500 chips: removing one leaves 1,000, short of the call, so
    every chip is needed: a call (BSE: a raise for the total, held to a full raise)."""
    facts, _ = ruled(facing_1100(profile), PushChips(3, (500, 500, 500)))
    if profile == "bse":
        assert (facts.ruled, facts.to) == ("raise", 1700)
    else:
        assert (facts.ruled, facts.reason) == ("call", "every_chip_needed")


# --- string bets ---------------------------------------------------------------------------


@pytest.mark.parametrize("profile", ALL)
def test_league_string_bet_near_the_bet_a_call_well_over_it_a_minimum_raise(
        profile: str) -> None:
    """League String Betting: 'The first motion of the Chips into the betting area within
    reason will be considered the bet. If it is an amount under or near the current bet
    amount, it will be judged a call. If the amount is over the current bet by a reasonable
    amount, the bet will be considered a minimum raise.' Facing 1,100: a 5,000 chip and then
    three 100s: the first motion is well over the bet, a minimum raise. TDA 42 (Octobermuck
    'No string raises', BSE 'in one motion'): only the first motion counts, one oversized
    chip, a call."""
    facts, action = ruled(facing_1100(profile), PushChips(3, (5000, 100, 100, 100),
                                                          motions=(1, 3)))
    assert facts.reason == "string_bet"
    if profile == "league":
        assert (facts.ruled, facts.to, facts.rule) == ("raise", 1700, "league-string-betting")
        assert action == (RaiseMade(3, 1700, False, True),)
    else:
        assert (facts.ruled, action) == ("call", (PlayerCalled(3, 1100, False),))


@pytest.mark.parametrize("profile", ALL)
def test_league_the_first_motion_is_the_bet_exactly_the_call_then_more_is_a_call(
        profile: str) -> None:
    """League String Betting: 'The first motion ... will be considered the bet': exactly the
    call of 1,100 in the first motion and 1,000 more in a second is a call under every
    profile (issue 24: the league's was ruled a raise on the whole amount)."""
    facts, action = ruled(facing_1100(profile), PushChips(3, (100,) * 21, motions=(11, 10)))
    assert (facts.ruled, facts.reason, action) == (
        "call", "string_bet", (PlayerCalled(3, 1100, False),))


def test_league_string_bet_just_over_the_bet_is_a_call() -> None:
    """League: 'under or near the current bet amount': 1,100 and then 100 more is a call."""
    facts, _ = ruled(facing_1100("league"), PushChips(3, (100,) * 12, motions=(11, 1)))
    assert (facts.ruled, facts.reason) == ("call", "string_bet")


# --- words said -------------------------------------------------------------------------


@pytest.mark.parametrize("profile", ALL)
def test_a_declared_raise_short_of_the_minimum_is_held_to_a_full_raise(profile: str) -> None:
    """Under-raises are ruled, not refused: 'raise 1,500' facing 1,100 (a 600 raise) is held to
    the minimum raise to 1,700, citing the profile's minimum-raise rule."""
    facts, action = ruled(facing_1100(profile), PushChips(3, (500, 500, 500), said="raise_to",
                                                          said_to=1500))
    assert (facts.ruled, facts.to, facts.reason) == ("raise", 1700, "held_to_minimum")
    assert facts.rule == PROFILES[profile].rule("min_raise")
    assert action == (RaiseMade(3, 1700, False, True),)


@pytest.mark.parametrize("profile", ALL)
def test_words_decide_over_chips_call_is_a_call_and_all_in_is_all_in(profile: str) -> None:
    """A declared action is binding (TDA 40; Octobermuck 'Announce your actions'): 'call' with
    a 5,000 chip is a call; 'all-in' is a raise to the whole stack."""
    facts, _ = ruled(facing_1100(profile), PushChips(3, (5000,), said="call"))
    assert (facts.ruled, facts.reason) == ("call", "declared")
    facts, action = ruled(facing_1100(profile), PushChips(3, said="all_in"))
    assert (facts.ruled, facts.to) == ("raise", 20_000)
    assert action == (RaiseMade(3, 20_000, True, True),)


# --- the bounty chip -----------------------------------------------------------------------


@pytest.mark.parametrize("profile", ALL)
def test_octobermuck_simply_placing_the_bounty_chip_in_the_pot_is_an_all_in(
        profile: str) -> None:
    """Octobermuck Bounties: 'simply placing the Bounty chip in the pot is considered an All-In
    bet.' No other house has a bounty chip: the entry is refused, saying what to record."""
    state = facing_1100(profile)
    if profile != "octobermuck":
        with pytest.raises(RuleViolation, match="no bounty chip"):
            decide(state, PushChips(3, bounty_chip=True))
        return
    facts, action = ruled(state, PushChips(3, bounty_chip=True))
    assert (facts.ruled, facts.to, facts.reason, facts.rule) == (
        "raise", 20_000, "bounty_chip", "octobermuck-bounties")
    assert action == (RaiseMade(3, 20_000, True, True),)


# --- facts that cannot be --------------------------------------------------------------------


def test_impossible_facts_are_refused_naming_what_is_wrong() -> None:
    """More chips than the stack, a chip not in play, motions that do not add up, an unknown
    word: each refused with a clear reason; a push out of turn is refused like any action."""
    state = facing_1100("tda")
    for push, words in (
            (PushChips(3, (20_000, 100)), "has 20000 behind"),
            (PushChips(3, (150,)), "chip in play"),
            (PushChips(3, (100, 100), motions=(1, 2)), "add up"),
            (PushChips(3, (100,), said="maybe"), "allowed: nothing, call"),
            (PushChips(3), "record a check or a fold"),
            (PushChips(0, (500,)), "turn")):
        with pytest.raises(RuleViolation, match=words):
            decide(state, push)


@pytest.mark.parametrize("profile", ALL)
def test_raise_said_over_the_chips_of_a_call_is_held_to_a_minimum_raise(profile: str) -> None:
    """Octobermuck: 'You may say "raise", put the amount of the call in the pot and then
    determine your raise amount'; with no amount added, "raise" with the call's chips is held
    to the minimum raise (to 1,700 facing 1,100), citing the profile's minimum-raise rule."""
    facts, action = ruled(facing_1100(profile), PushChips(3, (100,) * 11, said="raise"))
    assert (facts.ruled, facts.to, facts.reason) == ("raise", 1700, "held_to_minimum")
    assert action == (RaiseMade(3, 1700, False, True),)


# --- action out of turn ---------------------------------------------------------------------


def three_handed(profile: str) -> HandState:
    return start_hand(HandSetup((5000,) * 4, (50, 100, 0, 0), (0,) * 4, 100, 25, profile))


@pytest.mark.parametrize("profile", ALL)
def test_tda_53_action_out_of_turn_is_binding_if_the_action_to_him_does_not_change(
        profile: str) -> None:
    """TDA 53: position 3 raises to 400 before position 2 has acted; it is recorded as pending.
    Position 2 calls: the action to 3 has not changed, so his raise binds (a call is refused).
    League Calling: 'If a player bets out of turn, they can pull their chips back, provided it
    was an honest mistake': he acts anew."""
    state = three_handed(profile)
    pending = decide(state, ActOutOfTurn(3, "raise", 400))
    assert pending == (ActedOutOfTurn(3, "raise", 400, 100, PROFILES[profile].rule(
        "out_of_turn")),)
    state = execute(execute(state, ActOutOfTurn(3, "raise", 400)), CheckCall(2))
    assert decide(state, BetRaise(3, 400)) == (RaiseMade(3, 400, False, True),)
    if profile == "league":
        assert decide(state, CheckCall(3)) == (PlayerCalled(3, 100, False),)
        return
    with pytest.raises(RuleViolation, match="binding") as refused:
        decide(state, CheckCall(3))
    assert (refused.value.rule, refused.value.legal) == ("tda-53", ("raise to 400",))


@pytest.mark.parametrize("profile", ALL)
def test_tda_53_if_the_action_changes_the_out_of_turn_player_may_change_his_action(
        profile: str) -> None:
    """TDA 53: position 3 calls out of turn; position 2 then raises to 300: the action to 3
    changed, so he may fold, call or raise anew."""
    state = execute(three_handed(profile), ActOutOfTurn(3, "call"))
    state = execute(state, BetRaise(2, 300))
    assert decide(state, Fold(3)) == (PlayerFolded(3),)
    assert decide(state, BetRaise(3, 900)) == (RaiseMade(3, 900, False, True),)


def test_an_action_out_of_turn_speaks_for_its_betting_round_only() -> None:
    """A pending action out of turn ends with the round: after the flop he acts freely."""
    state = execute(three_handed("tda"), ActOutOfTurn(0, "call"))
    for command in (CheckCall(2), CheckCall(3), CheckCall(0), CheckCall(1)):
        state = execute(state, command)
    state = execute(state, DealBoard(parse_cards("2c7d9h")))
    assert state.out_of_turn == ()
    assert decide(state, BetRaise(0, 200)) == (BetMade(0, 200, False),)


@pytest.mark.parametrize("profile", ALL)
def test_league_if_you_throw_your_cards_into_the_muck_your_hand_is_folded(profile: str) -> None:
    """League Mucking Your Cards: 'If you throw your cards into the "muck" (the folded cards
    pile), then your hand is folded' (every house alike): the dealer enters the cards mucked
    during the betting; at the player's turn it is his fold, before it a fold out of turn,
    pending as TDA 53 (or the league's pull-back) says."""
    from handlog.engine.commands import MuckCards

    state = three_handed(profile)
    assert state.to_act == 2
    assert decide(state, MuckCards(2)) == (PlayerFolded(2),)
    assert decide(state, MuckCards(3)) == (ActedOutOfTurn(
        3, "fold", 0, 100, PROFILES[profile].rule("out_of_turn")),)
    after = execute(execute(state, MuckCards(3)), CheckCall(2))
    if profile == "league":
        assert decide(after, CheckCall(3)) == (PlayerCalled(3, 100, False),)
    else:
        assert decide(after, Fold(3)) == (PlayerFolded(3),)
        with pytest.raises(RuleViolation, match="binding"):
            decide(after, CheckCall(3))
