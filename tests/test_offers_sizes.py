"""The tablet's quick sizes (engine/offers.py) in whole numbers: the same totals as the
fractions of the big blind, the bet and the pot they are defined by."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from handlog.engine.offers import POSTFLOP, PREFLOP_OPEN, PREFLOP_RAISED, _times

FRACTIONS = sorted({*PREFLOP_OPEN, *PREFLOP_RAISED, *(k for k, _label in POSTFLOP)})


@given(st.sampled_from(FRACTIONS) | st.fractions(), st.integers(-10**30, 10**30))
def test_a_size_is_the_fraction_of_the_amount_cut_towards_zero(k: Fraction,
                                                                 amount: int) -> None:
    """`_times(k, amount)` is `int(k * amount)`: what the sizes were worked out with."""
    assert _times(k, amount) == int(k * amount)
