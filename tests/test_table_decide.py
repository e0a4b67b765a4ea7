"""engine/table_decide.py decides a table's commands from its state and the facts it is given
(no store, no other table read): what the recorder gathers is all it knows."""

from __future__ import annotations

import pytest

from handlog.engine.errors import RuleViolation
from handlog.engine.table import TableState, table_opened
from handlog.engine.table_commands import RemovePlayer, SeatPlayer
from handlog.engine.table_decide import (
    Needs,
    TableFacts,
    apply_event,
    decide_table,
    needs,
    settles,
)
from handlog.engine.table_events import PlayerLeft, PlayerSeated

STREAM = "table-cup-2"


def _table(tournament: str = "cup") -> TableState:
    state = apply_event(None, table_opened("2", 9, "tda", tournament))
    state = apply_event(state, PlayerSeated(1, "ann", 5000))
    assert state is not None
    return state


def test_a_seat_is_refused_when_the_facts_seat_the_player_at_another_table() -> None:
    state = _table()
    elsewhere = TableFacts(STREAM, {"bob": ("table-cup-1", "1", 4)})
    with pytest.raises(RuleViolation, match="already seated at table 1 of tournament cup"):
        decide_table(state, SeatPlayer(2, "bob", 5000), elsewhere)
    leaving = TableFacts(STREAM, {"bob": ("table-cup-1", "1", 4)}, frozenset({"bob"}))
    assert decide_table(state, SeatPlayer(2, "bob", 5000), leaving) == [
        PlayerSeated(2, "bob", 5000, False, "draw")]
    # Outside a tournament a player may sit at two tables.
    assert decide_table(_table(""), SeatPlayer(2, "bob", 5000), elsewhere)


def test_needs_names_what_the_caller_gathers() -> None:
    state = _table()
    assert needs(state, SeatPlayer(2, "bob", 5000)) == Needs("cup", seating=True)
    assert needs(state, RemovePlayer(1, "moved")) == Needs("cup", leaving="ann")
    assert needs(state, RemovePlayer(3, "moved")) == Needs("cup")


def test_a_table_is_settled_after_a_hand_or_when_a_seat_has_no_chips() -> None:
    state = _table()
    assert not settles(None, state)
    broke = apply_event(state, PlayerSeated(2, "bob", 0))
    assert settles(None, broke)
    out = apply_event(broke, PlayerLeft(2, "bob", 0, "eliminated"))
    assert not settles(broke, out)
    assert not settles(None, apply_event(_table(""), PlayerSeated(2, "bob", 0)))
