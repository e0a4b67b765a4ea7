"""Deals at the final table (engine/deals.py): ICM (Malmuth-Harville, exact), chip chop, chip
chop with the last place guaranteed, typed amounts, an amount kept to play for; consent by
name; the amounts add up to the unpaid prize money; payouts then follow the deal."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pokerkit
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_tournament import Log, example, started

from handlog.engine.deals import deal_amounts, icm_equities, make_deal, unpaid_prizes
from handlog.engine.errors import RuleViolation
from handlog.engine.money import money_block
from handlog.engine.tournament import Bust, award_prizes, eliminate

STACKS = (400_000, 300_000, 200_000, 100_000)
PRIZES = (160_000, 100_000, 60_000, 40_000)  # $1,600 / $1,000 / $600 / $400 in cents


def test_icm_published_vector_to_the_cent() -> None:
    """Stacks 400k/300k/200k/100k, prizes 1,600/1,000/600/400: ICM 1,110.79 / 997.38 /
    848.25 / 643.57 (each within a cent; the cents add up to the 3,600 shared)."""
    amounts = deal_amounts("icm", STACKS, PRIZES)
    published = (111_079, 99_738, 84_825, 64_357)
    assert all(abs(a - p) <= 1 for a, p in zip(amounts, published, strict=True))
    assert sum(amounts) == sum(PRIZES)
    exact = icm_equities(STACKS, PRIZES)
    assert sum(exact) == sum(PRIZES)  # exact fractions: nothing lost
    assert [round(float(e)) for e in exact] == [111_079, 99_738, 84_825, 64_357]


def test_chip_chop_vector() -> None:
    assert deal_amounts("chip_chop", STACKS, PRIZES) == (144_000, 108_000, 72_000, 36_000)


def test_chip_chop_with_last_place_guaranteed_vector() -> None:
    assert deal_amounts("chip_chop_last_guaranteed", STACKS, PRIZES) == (
        120_000, 100_000, 80_000, 60_000)


def test_an_amount_kept_to_play_for_is_not_shared() -> None:
    """$200 kept for the winner: the deal shares $3,400; ICM then values first place less."""
    amounts = deal_amounts("icm", STACKS, PRIZES, kept=20_000)
    assert sum(amounts) == sum(PRIZES) - 20_000
    assert deal_amounts("chip_chop", STACKS, PRIZES, kept=20_000) == (
        136_000, 102_000, 68_000, 34_000)
    with pytest.raises(RuleViolation, match="between 0 and the first prize"):
        deal_amounts("icm", STACKS, PRIZES, kept=PRIZES[0] + 1)


def test_typed_amounts_must_add_up_to_the_money_shared() -> None:
    assert deal_amounts("typed", STACKS, PRIZES, typed=(100_000,) * 3 + (60_000,)) == (
        100_000, 100_000, 100_000, 60_000)
    with pytest.raises(RuleViolation) as refused:
        deal_amounts("typed", STACKS, PRIZES, typed=(100_000,) * 4)
    assert "add up to 400000" in refused.value.message
    assert refused.value.legal == ("amounts adding up to 360000",)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(1, 10_000), min_size=2, max_size=7),
       st.lists(st.integers(0, 100_000), min_size=1, max_size=7))
def test_icm_equals_pokerkit_and_adds_up_exactly(stacks: list[int], prizes: list[int]) -> None:
    """The exact Malmuth-Harville equities equal pokerkit's ICM (floats) and sum to the prizes
    paid to the players left; the cents add up exactly."""
    prizes = sorted(prizes, reverse=True)
    ours = icm_equities(stacks, prizes)
    paid = prizes[:len(stacks)]
    theirs = pokerkit.calculate_icm(paid + [0] * (len(stacks) - len(paid)), stacks)
    assert all(abs(float(a) - b) < 1e-6 * max(1, b) for a, b in zip(ours, theirs, strict=True))
    assert sum(ours) == Fraction(sum(paid))
    assert sum(deal_amounts("icm", stacks, prizes)) == sum(paid)


def _final_three() -> Log:
    """Octobermuck, 24 entrants ($45 each in the prize pool), down to three at one table."""
    log = started(example("octobermuck"), 24, tables=("A", "B", "C"))
    for table in ("A", "B", "C"):
        for e in list(log.state.seated_at(table)):
            if len(log.state.remaining) == 3:
                break
            log.add(*eliminate(log.state, [Bust(e.player, 100, table, 1)]))
    survivors = [e.player for e in log.state.remaining]
    log.state = replace(log.state, tables=("C",), entrants=tuple(
        replace(e, table="C") if e.player in survivors else e for e in log.state.entrants))
    return log


def test_octobermuck_final_table_deal_by_consent_and_the_payouts_follow_it() -> None:
    """Octobermuck: 'Players at the final table may make deals'. Each player consents by name;
    the deal shares the three unpaid prizes; the payouts then follow it, the winner adding the
    amount kept; every cent is accounted for."""
    log = _final_three()
    left = log.state.remaining
    stacks = {e.player: s for e, s in zip(left, (60_000, 40_000, 20_000), strict=True)}
    consents = {e.player: e.name for e in left}
    prizes = unpaid_prizes(log.state)
    with pytest.raises(RuleViolation, match="no consent from"):
        make_deal(log.state, "chip_chop", stacks, consents | {left[0].player: "someone"}, "TD")
    deal = make_deal(log.state, "chip_chop", stacks, consents, "TD", kept=1_000)
    assert deal.unpaid == sum(prizes) and sum(x.amount for x in deal.shares) == sum(prizes) - 1_000
    log.add(deal)
    third, second, winner = left[2].player, left[1].player, left[0].player
    log.add(*eliminate(log.state, [Bust(third, 20_000, "C", 9)]))
    log.add(*eliminate(log.state, [Bust(second, 40_000, "C", 10)]))
    assert log.state.winner == winner
    prizes_event = award_prizes(log.state)
    paid = {a.player: a.amount for a in prizes_event.awards}
    dealt = {x.player: x.amount for x in deal.shares}
    assert paid[third] == dealt[third] and paid[second] == dealt[second]
    assert paid[winner] == dealt[winner] + 1_000
    log.add(prizes_event)
    assert sum(paid.values()) == 24 * 4500
    assert money_block(log.state).prizes_paid == 24 * 4500


def test_deals_only_where_the_profile_allows_them() -> None:
    """TDA has no rule on deals: `deals_allowed` is false and a deal is refused, citing the
    profile's rule (the recorder's deal command goes through make_deal)."""
    log = started(example("tda-demo"), 3, tables=("A",))
    with pytest.raises(RuleViolation) as refused:
        make_deal(log.state, "icm", {e.player: 5000 for e in log.state.remaining},
                  {e.player: e.name for e in log.state.remaining}, "TD")
    assert refused.value.rule == "tda-deals" and "deals_allowed is false" in str(refused.value)
