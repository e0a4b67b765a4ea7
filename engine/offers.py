"""What a tablet offers the dealer to tap, and what it does without a tap.

For a bet or raise: a few sizes, each a total the rules allow and the chips in play can make,
shown with its size in big blinds; a size the player's stack caps is his all-in and says so.
An uncontested pot is pushed by itself (awards_by_itself).

Nothing here decides: the amounts are legal_actions' range, rounded by the same chips test
decide applies (engine.hand_decide.chips_make)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from handlog.engine.hand_decide import chips_make
from handlog.engine.hand_pots import pots
from handlog.engine.hand_state import HandState, LegalActions

PREFLOP_OPEN = (Fraction(2), Fraction(5, 2), Fraction(3), Fraction(4))  # big blinds
PREFLOP_RAISED = (Fraction(5, 2), Fraction(3))  # times the bet to call
POSTFLOP = ((Fraction(1, 2), "½ pot"), (Fraction(3, 4), "¾ pot"), (Fraction(1), "Pot"))


@dataclass(frozen=True, slots=True)
class Size:
    """One preset: `to` the total, `big_blinds` its size in big blinds (to one decimal),
    `all_in` when it is the player's whole stack; `capped`: the presets the stack cut down to
    it (an all-in for less than '½ pot' says so)."""

    label: str
    to: int
    big_blinds: float
    all_in: bool = False
    capped: tuple[str, ...] = ()


def makeable_at_most(state: HandState, legal: LegalActions, to: int) -> int:
    """The largest total up to `to` (and not below the minimum) the chips in play make."""
    to = max(legal.min_to, min(legal.max_to, to))
    if to == legal.max_to:
        return to
    unit = max(1, state.setup.chip_unit)
    base = state.bets[legal.player]
    while to > legal.min_to and not chips_make(state, legal.player, to, legal.max_to):
        to = base + (to - base) // unit * unit
        if to < legal.min_to:
            to = legal.min_to
    return to


def _bb(amount: int, big_blind: int) -> float:
    return round(amount / big_blind, 1) if big_blind > 0 else 0.0


def _times(k: Fraction, amount: int) -> int:
    """`int(k * amount)` (towards zero) in whole numbers: a tablet's answer works out its
    sizes at every tap, and Fraction's arithmetic was most of their cost."""
    scaled = k.numerator * amount
    return scaled // k.denominator if scaled >= 0 else -(-scaled // k.denominator)


# (the labels, written once)
_PREFLOP_OPEN = tuple((k, f"{k.numerator / k.denominator:g} BB") for k in PREFLOP_OPEN)
_PREFLOP_RAISED = tuple((k, f"{k.numerator / k.denominator:g}×") for k in PREFLOP_RAISED)


def bet_sizes(state: HandState, legal: LegalActions) -> tuple[Size, ...]:
    """Min, then multiples of the big blind before the flop (2, 2.5, 3, 4 BB unopened; 2.5 and
    3 times the bet after a raise) or pot fractions after it, then All-in; each a legal total
    the chips make, none twice."""
    if not legal.raise_kind:
        return ()
    big_blind = state.setup.min_bet
    current = state.current_bet
    candidates: list[tuple[str, int]] = []
    if state.street == 0:
        if current <= big_blind:
            for k, label in _PREFLOP_OPEN:
                candidates.append((label, _times(k, big_blind)))
        else:
            for k, label in _PREFLOP_RAISED:
                candidates.append((label, _times(k, current)))
    else:
        pot_after_call = state.pot_total + legal.call_amount
        for k, label in POSTFLOP:
            candidates.append((label, current + _times(k, pot_after_call)))
    sizes: list[Size] = [Size("Min", legal.min_to, _bb(legal.min_to, big_blind),
                              legal.min_to == legal.max_to)]
    capped: list[str] = []
    for label, raw in candidates:
        if raw >= legal.max_to:
            capped.append(label)
            continue
        to = makeable_at_most(state, legal, raw)
        if all(s.to != to for s in sizes):
            sizes.append(Size(label, to, _bb(to, big_blind)))
    if sizes[0].all_in:
        return (Size("All-in", legal.max_to, _bb(legal.max_to, big_blind), True,
                     tuple(capped)),)
    sizes.append(Size("All-in", legal.max_to, _bb(legal.max_to, big_blind), True, tuple(capped)))
    return tuple(sizes)


def awards_by_itself(state: HandState) -> bool:
    """The pots go without a tap: the hand is at its showdown and every pot has one player
    left in it (the others folded), so there is nothing to show and nothing to decide."""
    return state.phase == "showdown" and all(len(p.eligible) == 1 for p in pots(state))
