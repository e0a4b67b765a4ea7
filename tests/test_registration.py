"""Registration on the floor: a duplicate name is refused unless disambiguated; the jackpot
fee is recorded with the entry."""

from __future__ import annotations

import pytest
from test_tournament import Log, example

from handlog.engine.errors import RuleViolation
from handlog.engine.tournament import register


def test_a_second_entrant_with_the_same_name_is_refused_unless_told_apart() -> None:
    """Issue 12: two entrants named "Abe" were accepted silently."""
    log = Log(example("tda-demo"))
    log.add(register(log.state, "p1", "Abe"))
    with pytest.raises(RuleViolation) as refused:
        register(log.state, "p2", " abe ")
    assert refused.value.rule == "registration"
    assert len(refused.value.legal) == 2
    log.add(register(log.state, "p2", "Abe 2"))
    assert [e.name for e in log.state.entrants] == ["Abe", "Abe 2"]


def test_the_high_hand_fee_is_recorded_at_registration() -> None:
    log = Log(example("octobermuck"))
    log.add(register(log.state, "p1", "Ann", high_hand=True))
    assert log.state.entrants[0].high_hand
    tda = Log(example("tda-demo"))
    with pytest.raises(RuleViolation, match="no high-hand jackpot"):
        register(tda.state, "p1", "Ann", high_hand=True)
