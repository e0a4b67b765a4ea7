"""One hand of No-Limit Texas Hold'em: frozen state, `decide` (command -> events) and `apply`.

Positions: 0 is the first player left of the button and the last is the button; heads-up, 0 is
the big blind and 1 the button, who posts the small blind (the PHH convention).

`decide` validates a command against the state and the house-rule profile and returns the events
it causes, or RuleViolation naming the rule and the legal options. `apply` is total and pure: it
folds one event into the state. The legal-actions query the tablet uses (`legal_actions`) is the
same code `decide` validates with.

This module is the hand as the rest of handlog uses it: starting one, `execute` (decide and
apply) and replaying its events. The parts live beside it: hand_state.py (the state),
hand_start.py (set-up and forced posts), hand_decide.py (decide and the legal actions),
hand_pots.py (pots and awards) and hand_apply.py (apply).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, cast

from handlog.engine.cards import Card
from handlog.engine.commands import (
    AwardPots,
    BetRaise,
    CheckCall,
    Command,
    DealHole,
    Fold,
)
from handlog.engine.errors import RuleViolation
from handlog.engine.events import (
    HandEvent,
    HandStarted,
    PlayerCalled,
    PlayerChecked,
)
from handlog.engine.hand_apply import (
    _APPLIERS,
    _apply_award,
    _apply_bet,
    _apply_call,
    _apply_check,
    _apply_fold,
    _apply_hole,
    _post,
    _started,
    apply,
)
from handlog.engine.hand_decide import (
    _decide_award,
    _decide_bet_raise,
    _decide_check_call,
    _decide_fold,
    _hole_dealt,
    decide,
    legal_actions,
    next_steps,
)
from handlog.engine.hand_pots import pots, propose_awards, showdown_order
from handlog.engine.hand_start import (
    _deal_kills,
    _new_values,
    _validate_setup,
    begin,
    forced_posts,
    hand_started_event,
    initial_state,
    new_hand,
    setup_from_event,
)
from handlog.engine.hand_state import (
    _HOLE,
    _KNOWN,
    _OVER,
    _POSTS_DUE,
    _TEXT_OF_CARD,
    BETTING,
    BOARD,
    COMPLETE,
    MISDEALT,
    NOT_ACTED,
    POSTING,
    SHOWDOWN,
    STREETS,
    VOID,
    HandSetup,
    HandState,
    LegalActions,
    Pot,
    _build,
    _values,
)

__all__ = [
    "BETTING",
    "BOARD",
    "COMPLETE",
    "HandSetup",
    "HandState",
    "LegalActions",
    "MISDEALT",
    "NOT_ACTED",
    "POSTING",
    "Pot",
    "SHOWDOWN",
    "STREETS",
    "VOID",
    "_APPLIERS",
    "_started",
    "apply",
    "begin",
    "deal_hole",
    "deal_holes",
    "decide",
    "execute",
    "forced_posts",
    "hand_started_event",
    "initial_state",
    "legal_actions",
    "new_hand",
    "next_steps",
    "pots",
    "propose_awards",
    "replay_events",
    "setup_from_event",
    "showdown_order",
    "start_hand",
]


def start_hand(setup: HandSetup) -> HandState:
    """A hand with its antes and blinds posted, ready for the deal and the first action: the
    events of `begin` after hand_started, applied."""
    profile = _validate_setup(setup)
    v = _new_values(setup, profile)
    _post(v, v[_POSTS_DUE])  # what applying the chips_posted events one by one does
    state = _build(v)
    if setup.absent:
        for kill in _deal_kills(setup, profile):
            state = _apply_fold(state, kill)
    return state


# The classes execute dispatches on, as Final names: compiled, those are constants, where an
# imported name is looked up in the module's dict at every use.
_FOLD: Final = Fold
_CHECK_CALL: Final = CheckCall
_BET_RAISE: Final = BetRaise
_DEAL_HOLE: Final = DealHole
_AWARD_POTS: Final = AwardPots
_CHECKED: Final = PlayerChecked


def execute(state: HandState, command: Command) -> HandState:
    """Decide and apply: the state after a legal command."""
    # The commands of every hand call their decider and applier directly (compiled, a direct
    # call; see setup.py); the events are the ones those deciders can return.
    # (cast, not assert isinstance: the `is` has checked the class, and compiled, an assert
    # would look the class up again.)
    kind = type(command)
    if state.phase not in _OVER:
        if kind is _FOLD:
            return _apply_fold(state, _decide_fold(state, cast(Fold, command))[0])
        if kind is _CHECK_CALL:
            answer = _decide_check_call(state, cast(CheckCall, command))[0]
            if type(answer) is _CHECKED:
                return _apply_check(state, answer)
            return _apply_call(state, cast(PlayerCalled, answer))
        if kind is _BET_RAISE:
            return _apply_bet(state, _decide_bet_raise(state, cast(BetRaise, command))[0])
        if kind is _DEAL_HOLE:
            deal = cast(DealHole, command)
            return _apply_hole(state, _hole_dealt(state, deal.player, deal.cards)[0])
        if kind is _AWARD_POTS:
            for award in _decide_award(state, cast(AwardPots, command)):
                state = _apply_award(state, award)
            return state
    for event in decide(state, command):
        state = _APPLIERS[type(event)](state, event)
    return state


def deal_hole(state: HandState, player: int, cards: tuple[Card, ...] | None) -> HandState:
    """execute(state, DealHole(player, cards)) without building the command: a replay deals
    six hands for every hand it plays."""
    if state.phase in _OVER:
        return execute(state, DealHole(player, cards))
    return _apply_hole(state, _hole_dealt(state, player, cards)[0])


def deal_holes(state: HandState,
               deals: Sequence[tuple[int, tuple[Card, ...] | None]]) -> HandState | None:
    """The state after deal_hole for each (position, cards) in turn, built once: a replay's
    pre-flop deal. None unless every deal is the usual one (two known cards, new to the hand,
    to a position without cards): the caller then deals them one by one, which refuses the
    odd one with its rule."""
    if state.phase in _OVER:
        return None
    hole = list(state.hole)
    known = state.known
    for player, cards in deals:
        if not cards or len(cards) != 2 or not 0 <= player < len(hole) or \
                hole[player] is not None:
            return None
        first, second = cards
        if first == second or _TEXT_OF_CARD.get(first) is None or \
                _TEXT_OF_CARD.get(second) is None:
            return None
        bits = 1 << first | 1 << second
        if known & bits:
            return None
        hole[player] = (first, second)  # as _apply_hole sets it from the event
        known |= bits
    v = _values(state)
    v[_HOLE] = tuple(hole)
    v[_KNOWN] = known
    return _build(v)


def replay_events(events: list[HandEvent] | tuple[HandEvent, ...]) -> HandState:
    """Fold a hand's events, starting from its HandStarted."""
    first = events[0]
    if not isinstance(first, HandStarted):
        raise RuleViolation("log", "a hand's events start with hand_started")
    state = _started(first)
    for event in events[1:]:
        state = apply(state, event)
    return state
