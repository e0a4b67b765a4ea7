"""Invariants of generated legal hands (2 to 10 players, random stacks, blinds, antes, profiles).

Every hand is played through decide/apply with commands drawn from what the engine says is
legal (tests/strategies.py); the properties hold at every step of every hand.
"""

from __future__ import annotations

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from strategies import PlayedHand, hand_setups, played_hands, pushes

from handlog.engine.commands import BetRaise, CheckCall, Fold, PushChips
from handlog.engine.errors import RuleViolation
from handlog.engine.events import ChipsPushed, PotAwarded
from handlog.engine.hand import (
    BETTING,
    MISDEALT,
    VOID,
    HandState,
    apply,
    decide,
    legal_actions,
    pots,
    replay_events,
)
from handlog.replay.fold import command_for

# A played hand is a big example by nature (set-up, deck, every action): Hypothesis's size
# health checks are about strategies that could be smaller, not about this one.
SETTINGS = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.large_base_example])


def accepts(state: HandState, command: BetRaise | CheckCall | Fold) -> bool:
    try:
        decide(state, command)
    except RuleViolation:
        return False
    return True


def check_step(hand: PlayedHand, state: HandState) -> None:
    total = sum(hand.setup.stacks) + hand.setup.dead_money
    assert state.chips_in_play() == total
    assert min(state.stacks) >= 0
    assert min(state.bets) >= 0
    assert min(state.committed) >= 0
    assert sum(state.stacks) + state.pot_total == total


@SETTINGS
@given(played_hands())
def test_chips_are_conserved_at_every_step(hand: PlayedHand) -> None:
    """Behind plus in the pot equals the starting total at every step; nothing goes negative;
    the pushed pots hold the dead money the hand started with."""
    for state in hand.states:
        check_step(hand, state)
    assert hand.final.is_complete
    assert sum(hand.final.stacks) == sum(hand.setup.stacks) + hand.setup.dead_money


@SETTINGS
@given(played_hands(irregular=True))
def test_chips_are_conserved_with_irregularities(hand: PlayedHand) -> None:
    """Kills, clocks, absences, exposures, misdeals and voids never create or lose a chip."""
    for state in hand.states:
        check_step(hand, state)
    assert hand.final.is_complete
    if hand.final.phase in (MISDEALT, VOID):
        assert hand.final.stacks == hand.setup.stacks  # every chip back to its bettor
        assert hand.final.pot_total == hand.setup.dead_money  # the carry waits for the next
    else:
        assert sum(hand.final.stacks) == sum(hand.setup.stacks) + hand.setup.dead_money


@SETTINGS
@given(played_hands(irregular=True))
def test_pots_equal_what_went_in(hand: PlayedHand) -> None:
    """Before the push the pots hold every chip put in, for live players, nested."""
    for state in hand.states:
        if state.awarded:
            continue
        layers = pots(state)
        assert sum(p.amount for p in layers) == sum(state.committed) + state.dead
        for pot in layers:
            assert pot.amount > 0
            assert all(not state.folded[i] for i in pot.eligible)
        for earlier, later in zip(layers, layers[1:], strict=False):
            assert set(later.eligible) < set(earlier.eligible)


@SETTINGS
@given(played_hands(irregular=True))
def test_awards_push_exactly_the_pots(hand: PlayedHand) -> None:
    """Pushes add up to the pots, shares to each pot, in whole chips, to eligible winners."""
    awards = [e for e in hand.events if isinstance(e, PotAwarded)]
    assume(awards)  # a misdeal or a void pushes nothing
    before = [s for s in hand.states if s.awards_pending][-1]  # just before the push
    assert sum(a.amount for a in awards) == before.pot_total
    assert [a.amount for a in awards] == [p.amount for p in pots(before)]
    unit = hand.setup.chip_unit
    for award in awards:
        assert sum(award.shares) == award.amount
        assert set(award.winners) <= set(award.eligible)
        assert set(award.odd_chips) <= set(award.winners)
        assert all(share % unit == 0 for share in award.shares)
        assert max(award.shares) - min(award.shares) <= unit
    assert sum(hand.final.stacks) == sum(hand.setup.stacks) + hand.setup.dead_money


@SETTINGS
@given(played_hands(irregular=True))
def test_replaying_the_events_gives_the_live_state(hand: PlayedHand) -> None:
    """replay_events over the recorded events equals the live state, with a plain ==."""
    assert replay_events(hand.events) == hand.final
    # And at every step: the fold of the events recorded so far equals the live state then.
    state = replay_events(hand.events[:1])
    applied = 1
    for expected, count in zip(hand.states, hand.event_counts, strict=True):
        for event in hand.events[applied:count]:
            state = apply(state, event)
        applied = count
        assert state == expected


def amounts_around(state: HandState) -> set[int]:
    la = legal_actions(state)
    assert la is not None
    unit = state.setup.chip_unit
    base = {0, unit, state.current_bet, state.current_bet + unit, state.setup.min_bet}
    if la.raise_kind:
        for edge in (la.min_to, la.max_to):
            base |= {edge - unit, edge - 1, edge, edge + 1, edge + unit}
        base.add((la.min_to + la.max_to) // 2)
    else:
        top = state.bets[la.player] + state.stacks[la.player]
        base |= {top - 1, top, top + 1}
    return {a for a in base if a >= 0}


@SETTINGS
@given(played_hands(irregular=True), st.data())
def test_legal_actions_accept_exactly_what_decide_accepts(hand: PlayedHand,
                                                          data: st.DataObject) -> None:
    """decide accepts an action exactly when legal_actions allows it, amounts included."""
    for state in hand.states:
        if state.phase != BETTING:
            continue
        la = legal_actions(state)
        assert la is not None
        player = la.player
        assert state.to_act == player
        extra = data.draw(st.integers(0, la.max_to + 10 * state.setup.chip_unit))
        unit = state.setup.chip_unit
        for to in amounts_around(state) | {extra}:
            # Amounts the chips in play cannot make are refused, all-in aside.
            makeable = (to - state.bets[player]) % unit == 0
            legal = bool(la.raise_kind) and (
                (la.min_to <= to <= la.max_to and makeable) or to == la.max_to)
            assert accepts(state, BetRaise(player, to)) == legal, (to, la)
        if la.raise_kind and la.min_to != la.max_to:
            assert (la.min_to - state.bets[player]) % unit == 0  # only makeable amounts
        assert accepts(state, CheckCall(player)) == (la.can_check or la.call_amount > 0)
        assert accepts(state, Fold(player)) == la.can_fold
        for other in range(state.player_count):
            if other != player:
                assert not accepts(state, CheckCall(other))
                assert not accepts(state, Fold(other))
                assert not accepts(state, BetRaise(other, la.max_to))


@SETTINGS
@given(played_hands(hand_setups(short_stacks=False), muck=False))
def test_legal_bounds_are_consistent(hand: PlayedHand) -> None:
    """The legal call and raise bounds follow from the stacks, the bet and the last raise."""
    for state in hand.states:
        if state.phase != BETTING:
            continue
        la = legal_actions(state)
        assert la is not None
        stack = state.stacks[la.player]
        assert 0 <= la.call_amount <= stack
        assert la.call_all_in == (la.call_amount > 0 and la.call_amount == stack)
        assert not (la.can_check and la.call_amount)
        if la.raise_kind:
            assert la.max_to == state.bets[la.player] + stack
            assert la.max_to > state.current_bet
            step = state.setup.min_bet if la.raise_kind == "bet" else state.last_full_raise
            assert la.min_to == min(state.current_bet + step, la.max_to)


@SETTINGS
@given(played_hands(hand_setups(short_stacks=False), muck=False), st.data())
def test_a_ruling_from_physical_facts_is_a_legal_action_and_replays_alike(
        hand: PlayedHand, data: st.DataObject) -> None:
    """Chips pushed and words said are ruled as one of the legal actions (a check, a call, or
    a bet or raise the legal bounds allow), recorded with the facts; the action is exactly what
    the declared command would record; replaying the recorded facts gives the same ruling; and
    chips are conserved."""
    for state in hand.states:
        if state.phase != BETTING:
            continue
        la = legal_actions(state)
        assert la is not None
        push = data.draw(pushes(state))
        try:
            events = decide(state, push)
        except RuleViolation:
            continue
        facts, *action = events
        assert isinstance(facts, ChipsPushed)
        assert (facts.chips, facts.motions, facts.said, facts.bounty_chip) == (
            push.chips, push.motions, push.said, push.bounty_chip)
        if facts.ruled in ("check", "call"):
            assert (facts.ruled == "check") == (la.call_amount == 0)
            declared: BetRaise | CheckCall = CheckCall(la.player)
        else:
            assert facts.ruled == la.raise_kind
            assert la.min_to <= facts.to <= la.max_to or facts.to == la.max_to
            declared = BetRaise(la.player, facts.to)
        assert tuple(action) == decide(state, declared)
        assert decide(state, command_for(facts)) == events  # the facts replay to the ruling
        after = state
        for event in events:
            after = apply(after, event)
        assert after.chips_in_play() == state.chips_in_play()


@settings(SETTINGS, max_examples=80)
@given(played_hands(physical=True, irregular=True))
def test_hands_recorded_from_physical_facts_conserve_chips_and_replay(hand: PlayedHand) -> None:
    """Whole hands whose betting is entered as chips pushed and words said (mixed with declared
    actions and irregularities): no chip is created or lost at any step, every ruling recorded
    is followed by the action it rules, and the recorded events replay to the live state at
    every step."""
    for state in hand.states:
        check_step(hand, state)
    assert hand.final.is_complete
    for k, event in enumerate(hand.events):
        if isinstance(event, ChipsPushed):
            follower = hand.events[k + 1]
            assert type(follower).__name__ in {
                "check": ("PlayerChecked",), "call": ("PlayerCalled",), "bet": ("BetMade",),
                "raise": ("RaiseMade",)}[event.ruled]
    assert replay_events(hand.events) == hand.final
    state = replay_events(hand.events[:1])
    applied = 1
    for expected, count in zip(hand.states, hand.event_counts, strict=True):
        for event in hand.events[applied:count]:
            state = apply(state, event)
        applied = count
        assert state == expected


@settings(SETTINGS, max_examples=60)
@given(played_hands(hand_setups(short_stacks=False), muck=False), st.data())
def test_a_chip_not_in_play_is_always_refused_and_changes_nothing(
        hand: PlayedHand, data: st.DataObject) -> None:
    """Where the hand carries its level's chips in play, a chip of any other value pushed (2 or
    3 times the smallest: a multiple of it, but no chip) is refused citing the chips-in-play
    rule, whatever was said."""
    in_play = hand.setup.denominations
    assume(in_play)
    for state in hand.states:
        if state.phase != BETTING:
            continue
        push = data.draw(pushes(state))
        odd = data.draw(st.sampled_from((2 * in_play[0], 3 * in_play[0])))
        if odd > state.stacks[push.player]:
            continue
        wrong = PushChips(push.player, (odd,), (), push.said, push.said_to, False)
        try:
            decide(state, wrong)
        except RuleViolation as refused:
            assert refused.rule == state.profile.rule("chips_in_play") or \
                refused.rule in ("push", "table-stakes", "tda-30")  # TDA 30: he is away
        else:
            raise AssertionError(f"a chip of {odd} was accepted; in play: {in_play}")
