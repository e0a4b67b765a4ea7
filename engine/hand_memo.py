"""Speed memos of the hand's decisions, kept apart from the rules they serve.

Events are values, and the betting events of the usual amounts (and the deals) recur from hand
to hand: finding one costs less than building it. None of this changes what `decide` answers:
each function returns the same event a fresh construction would. Each memo is emptied when it
fills, so memory stays bounded on any log.
"""

from __future__ import annotations

from typing import Any, Final

from handlog.engine.cards import Card
from handlog.engine.events import (
    BetMade,
    BoardDealt,
    HoleCardsDealt,
    PlayerCalled,
    PlayerChecked,
    PlayerFolded,
    RaiseMade,
)
from handlog.engine.hand_state import _PREBUILT

MEMO_LIMIT: Final = 1 << 16

_FOLDS: Final[tuple[tuple[PlayerFolded], ...]] = tuple(
    (PlayerFolded(i),) for i in range(_PREBUILT))
_CHECKS: Final[tuple[tuple[PlayerChecked], ...]] = tuple(
    (PlayerChecked(i),) for i in range(_PREBUILT))
# Hole-card deals seen so far, per position (at most 52 * 51 each).
_HOLE_DEALT: Final[tuple[dict[tuple[Card, ...], tuple[HoleCardsDealt]], ...]] = tuple(
    {} for _ in range(_PREBUILT))
_CALLS: Final[dict[tuple[int, int, bool], tuple[PlayerCalled]]] = {}
_BETS_MADE: Final[dict[tuple[int, int, bool], tuple[BetMade]]] = {}
_RAISES_MADE: Final[dict[tuple[int, int, bool, bool], tuple[RaiseMade]]] = {}
_BOARDS_DEALT: Final[dict[tuple[str, ...], tuple[BoardDealt]]] = {}


def forget_memos() -> None:
    """Empty the event memos (benchmarks/replay_vs_pokerkit.py times cold rounds with it)."""
    for dealt in _HOLE_DEALT:
        dealt.clear()
    _CALLS.clear()
    _BETS_MADE.clear()
    _RAISES_MADE.clear()
    _BOARDS_DEALT.clear()


def _reused(memo: dict[Any, Any], event_type: type, fields: tuple[Any, ...]) -> Any:
    """`(event_type(*fields),)`, built once per distinct `fields` (until `memo` fills)."""
    event = memo.get(fields)
    if event is None:
        if len(memo) >= MEMO_LIMIT:
            memo.clear()
        event = memo[fields] = (event_type(*fields),)
    return event


def folded(player: int) -> tuple[PlayerFolded]:
    return _FOLDS[player] if player < _PREBUILT else (PlayerFolded(player),)


def checked(player: int) -> tuple[PlayerChecked]:
    return _CHECKS[player] if player < _PREBUILT else (PlayerChecked(player),)


def called(player: int, amount: int, all_in: bool) -> tuple[PlayerCalled]:
    call: tuple[PlayerCalled] = _reused(_CALLS, PlayerCalled, (player, amount, all_in))
    return call


def bet_made(player: int, to: int, all_in: bool) -> tuple[BetMade]:
    bet: tuple[BetMade] = _reused(_BETS_MADE, BetMade, (player, to, all_in))
    return bet


def raise_made(player: int, to: int, all_in: bool, full: bool) -> tuple[RaiseMade]:
    raised: tuple[RaiseMade] = _reused(_RAISES_MADE, RaiseMade, (player, to, all_in, full))
    return raised


def board_dealt(texts: tuple[str, ...]) -> tuple[BoardDealt]:
    dealt = _BOARDS_DEALT.get(texts)
    if dealt is None:
        dealt = _BOARDS_DEALT[texts] = (BoardDealt(texts),)
        if len(_BOARDS_DEALT) > MEMO_LIMIT:
            _BOARDS_DEALT.clear()
    return dealt


def known_hole_deal(player: int, cards: tuple[Card, ...]) -> tuple[HoleCardsDealt] | None:
    """The event of `player` dealt `cards` if it was built before (the caller checks that the
    cards are new to this hand)."""
    return _HOLE_DEALT[player].get(cards) if player < _PREBUILT else None


def remember_hole_deal(player: int, cards: tuple[Card, ...],
                       dealt: tuple[HoleCardsDealt]) -> None:
    if player < _PREBUILT:
        _HOLE_DEALT[player][cards] = dealt
