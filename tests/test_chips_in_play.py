"""The chips in play are state: amounts must be made of them, and color-ups change them.

The structure's denominations are all multiples of the smallest (engine/structure.py checks it
after every color-up), so an amount the chips in play can make is a multiple of the smallest
chip in play; it travels with the level to the table and every hand (`chip_unit`).
"""

from __future__ import annotations

import pytest

from handlog.engine.cards import parse_cards
from handlog.engine.commands import BetRaise, CheckCall, DealBoard
from handlog.engine.errors import RuleViolation
from handlog.engine.events import BetMade, RaiseMade
from handlog.engine.hand import HandSetup, HandState, decide, execute, legal_actions, start_hand
from handlog.engine.profiles import PROFILES

ALL = list(PROFILES)


def new_hand(profile: str, stacks: tuple[int, ...], chip_unit: int = 25) -> HandState:
    n = len(stacks)
    return start_hand(HandSetup(stacks, (25, 50) + (0,) * (n - 2), (0,) * n, 50, chip_unit,
                                profile))


@pytest.mark.parametrize("profile", ALL)
def test_a_raise_the_chips_in_play_cannot_make_is_refused_unless_all_in(profile: str) -> None:
    """Smallest chip 25: a raise to 137 cannot be pushed in chips and is refused, naming the
    amounts either side; a raise to 150 is recorded; an all-in of 137 is what it is."""
    state = new_hand(profile, (5000, 5000, 5000))
    with pytest.raises(RuleViolation, match="cannot be made with the chips in play") as refused:
        decide(state, BetRaise(2, 137))
    assert refused.value.rule == "tda-25"
    assert refused.value.legal[:2] == ("raise to 125", "raise to 150")
    assert decide(state, BetRaise(2, 150)) == (RaiseMade(2, 150, False, True),)
    short = new_hand(profile, (5000, 5000, 137))
    assert decide(short, BetRaise(2, 137)) == (RaiseMade(2, 137, True, True),)


@pytest.mark.parametrize("profile", ALL)
def test_legal_actions_offer_only_amounts_the_chips_in_play_can_make(profile: str) -> None:
    """After an all-in raise of an odd amount, the next minimum raise is rounded up to what the
    chips in play can make (the chips pushed a multiple of the smallest chip)."""
    state = new_hand(profile, (5000, 5000, 5000, 5000, 180))
    state = execute(state, BetRaise(2, 150))
    state = execute(state, CheckCall(3))
    state = execute(state, BetRaise(4, 180))  # an all-in of an odd amount, short of a raise
    la = legal_actions(state)
    assert la is not None and la.player == 0
    # The small blind (25 in) may raise to 180 + the last full raise of 100 = 280: 255 more,
    # which no chips of 25 make; the smallest offered is 300 (275 more).
    assert la.min_to == 300
    with pytest.raises(RuleViolation, match="at least 300 .*chips in play make no less"):
        decide(state, BetRaise(0, 280))
    assert decide(state, BetRaise(0, 300))


def test_a_bet_made_of_the_smallest_chip_is_accepted_and_recorded() -> None:
    """A bet of 75 when the smallest chip is 25: three chips, recorded as a bet to 75."""
    state = new_hand("tda", (5000, 5000, 5000))
    while state.street == 0 and state.to_act is not None:
        state = execute(state, CheckCall(state.to_act))
    state = execute(state, DealBoard(parse_cards("2c7d9h")))
    assert decide(state, BetRaise(0, 75)) == (BetMade(0, 75, False),)
    with pytest.raises(RuleViolation, match="smallest chip is 25"):
        decide(state, BetRaise(0, 80))
