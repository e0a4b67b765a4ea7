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

from handlog.engine.cards import Card
from handlog.engine.commands import (
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
    PlayerChecked,
)
from handlog.engine.hand_apply import (
    _APPLIERS,
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
    state = _build(HandState, v)
    if setup.absent:
        for kill in _deal_kills(setup, profile):
            state = _apply_fold(state, kill)
    return state


def execute(state: HandState, command: Command) -> HandState:
    """Decide and apply: the state after a legal command."""
    # The commands of every hand call their decider and applier directly (compiled, a direct
    # call; see setup.py); the events are the ones those deciders can return.
    kind = type(command)
    if state.phase not in _OVER:
        if kind is Fold:
            assert isinstance(command, Fold)
            return _apply_fold(state, _decide_fold(state, command)[0])
        if kind is CheckCall:
            assert isinstance(command, CheckCall)
            answer = _decide_check_call(state, command)[0]
            if isinstance(answer, PlayerChecked):
                return _apply_check(state, answer)
            return _apply_call(state, answer)
        if kind is BetRaise:
            assert isinstance(command, BetRaise)
            return _apply_bet(state, _decide_bet_raise(state, command)[0])
        if kind is DealHole:
            assert isinstance(command, DealHole)
            return _apply_hole(state, _hole_dealt(state, command.player, command.cards)[0])
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
    v = list(state)
    v[_HOLE] = tuple(hole)
    v[_KNOWN] = known
    return _build(HandState, v)


def replay_events(events: list[HandEvent] | tuple[HandEvent, ...]) -> HandState:
    """Fold a hand's events, starting from its HandStarted."""
    first = events[0]
    if not isinstance(first, HandStarted):
        raise RuleViolation("log", "a hand's events start with hand_started")
    state = _started(first)
    for event in events[1:]:
        state = apply(state, event)
    return state
