"""Tables break and merge (engine/breaking.py): after an elimination the engine says whether the
field fits on fewer tables, which table breaks and where its players go, per the profile; the
final table's draw; who is due the big blind."""

from __future__ import annotations

from math import ceil

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_tournament import Log, example, started

from handlog.engine.breaking import break_table, due_big_blind, table_to_break
from handlog.engine.cards import FULL_DECK, card_text
from handlog.engine.errors import RuleViolation
from handlog.engine.table import Level, apply_table, open_table, plan_hand
from handlog.engine.table_events import ButtonPlaced, PlayerSeated, TableOpened
from handlog.engine.tournament import Bust, eliminate
from handlog.engine.tournament_events import ButtonDrawn, PlayerMoved, SeatsDrawn, TableClosed

DECK = [card_text(c) for c in FULL_DECK]


def bust_at(log: Log, table: str, count: int) -> None:
    for e in list(log.state.seated_at(table))[:count]:
        log.add(*eliminate(log.state, [Bust(e.player, 100, table, 3)]))


def stacks(log: Log) -> dict[str, int]:
    return {e.player: 5000 for e in log.state.remaining if e.table}


def test_tda_12_no_table_breaks_while_every_table_is_needed() -> None:
    """19 players on three tables of 9 need three tables: nothing breaks."""
    log = started(example("tda-demo"), 27)
    bust_at(log, "C", 8)
    assert table_to_break(log.state) is None
    bust_at(log, "C", 1)
    plan = table_to_break(log.state)
    assert plan is not None and plan.table == "C"  # 18 fit two tables: the empty C breaks
    log.add(*break_table(log.state, plan, [], stacks(log), DECK))
    assert table_to_break(log.state) is None
    with pytest.raises(RuleViolation, match="no table breaks now"):
        break_table(log.state, plan, [], stacks(log), DECK)


def test_tda_12_broken_table_players_draw_seats_at_the_receiving_tables() -> None:
    """18 players fit two tables of 9: the shortest table breaks; its players take drawn seats
    at the others, the tables stay balanced, the broken table closes."""
    log = started(example("tda-demo"), 27)
    bust_at(log, "C", 5)
    bust_at(log, "A", 2)
    bust_at(log, "B", 2)  # 7, 7, 4
    plan = table_to_break(log.state)
    assert plan is not None
    assert (plan.table, plan.to_tables, plan.final_table, plan.seating) == (
        "C", ("A", "B"), False, "drawn")
    assert plan.label == "Break table C: seats drawn"
    movers = [e.player for e in log.state.seated_at("C")]
    events = break_table(log.state, plan, list(reversed(movers)), stacks(log), DECK)
    moves = [e for e in events if isinstance(e, PlayerMoved)]
    assert [m.player for m in moves] == list(reversed(movers))
    assert {(m.reason, m.rule) for m in moves} == {("table_broken", "tda-12")}
    assert isinstance(events[-1], TableClosed) and events[-1].table == "C"
    log.add(*events)
    assert log.state.tables == ("A", "B")
    assert sorted(len(log.state.seated_at(t)) for t in log.state.tables) == [9, 9]


def test_tda_12_equal_tables_break_in_the_reverse_of_the_order_they_opened() -> None:
    log = started(example("tda-demo"), 27)
    for table in ("A", "B", "C"):
        bust_at(log, table, 3)  # 6, 6, 6
    plan = table_to_break(log.state)
    assert plan is not None and plan.table == "C"


def test_the_drawn_order_must_name_the_broken_tables_players() -> None:
    log = started(example("tda-demo"), 27)
    bust_at(log, "C", 9)
    plan = table_to_break(log.state)
    assert plan is not None and plan.table == "C"
    bust_at(log, "B", 1)
    plan = table_to_break(log.state)
    assert plan is not None
    with pytest.raises(RuleViolation) as refused:
        break_table(log.state, plan, ["p01"], stacks(log), DECK)
    assert refused.value.rule == "tda-12"


def test_tda_final_table_is_redrawn_and_its_button_drawn_by_high_card() -> None:
    """TDA: random redraw for the final table, button by high card."""
    log = started(example("tda-demo"), 18, tables=("A", "B"))
    bust_at(log, "A", 5)
    bust_at(log, "B", 4)  # 4 and 5: nine fit one table
    plan = table_to_break(log.state)
    assert plan is not None
    assert (plan.table, plan.to_tables, plan.final_table, plan.redraw) == ("A", ("B",), True,
                                                                          True)
    everyone = [e.player for e in log.state.remaining]
    events = break_table(log.state, plan, everyone, stacks(log), DECK, seed="9")
    assert [type(e) for e in events] == [TableClosed, SeatsDrawn, ButtonDrawn]
    drawn = events[1]
    assert isinstance(drawn, SeatsDrawn) and drawn.reason == "final_table"
    assert [a.player for a in drawn.assignments] == everyone
    log.add(*events)
    assert log.state.tables == ("B",) and len(log.state.seated_at("B")) == 9
    assert dict(log.state.buttons)["B"] == events[2].seat  # type: ignore[union-attr]


def test_octobermuck_final_table_everyone_reseated_randomly_with_a_random_button() -> None:
    """Octobermuck Seating: 'When combining for the final table, all players ... will be
    reseated randomly and a new button will be randomly assigned.'"""
    log = started(example("octobermuck"), 14, tables=("A", "B"))
    bust_at(log, "A", 4)
    plan = table_to_break(log.state)
    assert plan is not None and plan.redraw and plan.button_tables == ("B",)
    assert plan.rule == "button_redraw_at"
    events = break_table(log.state, plan, [e.player for e in log.state.remaining],
                         stacks(log), DECK)
    assert any(isinstance(e, ButtonDrawn) for e in events)


def test_bse_ed_combines_tables_and_draws_for_the_dealer_at_the_final_two_and_final_table(
        ) -> None:
    """BSE: 'EDs will assign seats' (the engine proposes them in seat order); 'Members will
    draw for the dealer position ... at the start of the final 2 tables and at the start of
    the final table.'"""
    log = started(example("bse"), 30)
    bust_at(log, "C", 6)
    bust_at(log, "A", 2)
    bust_at(log, "B", 2)  # 8, 8, 4
    plan = table_to_break(log.state)
    assert plan is not None
    assert (plan.seating, plan.redraw, plan.button_tables) == ("assigned", False, ("A", "B"))
    assert plan.label == "Break table C: seats assigned"
    events = break_table(log.state, plan, [], stacks(log), DECK)
    moved = [e.player for e in events if isinstance(e, PlayerMoved)]
    assert moved == [e.player for e in log.state.seated_at("C")]  # seat order
    assert [e.table for e in events if isinstance(e, ButtonDrawn)] == ["A", "B"]
    log.add(*events)
    bust_at(log, "A", 5)
    bust_at(log, "B", 5)  # 5 and 5 fit one table of 10
    plan = table_to_break(log.state)
    assert plan is not None and plan.final_table and not plan.redraw
    events = break_table(log.state, plan, [], stacks(log), DECK)
    assert [type(e) for e in events][-2:] == [TableClosed, ButtonDrawn]
    assert plan.label.startswith("Break table B: seats assigned, final table A")


def test_a_plan_not_due_now_is_refused() -> None:
    log = started(example("tda-demo"), 27)
    bust_at(log, "C", 9)
    plan = table_to_break(log.state)
    assert plan is not None
    other = type(plan)("A", ("B", "C"), False, "drawn", False, (), "tda-12")
    with pytest.raises(RuleViolation, match="the table due to break is C"):
        break_table(log.state, other, [], stacks(log), DECK)


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=10, max_value=45), st.data())
def test_breaking_tables_as_players_bust_keeps_the_fewest_tables_the_field_needs(
        field: int, data: st.DataObject) -> None:
    """Bust players anywhere and break whatever the engine says: the tables in play are always
    ceil(players / seats) once no break is due, and none holds more than its seats."""
    seats = 9
    log = started(example("tda-demo"), field, tables=tuple("ABCDEF"[:ceil(field / seats)]))
    while len(log.state.remaining) > 2:
        table = data.draw(st.sampled_from([t for t in log.state.tables
                                           if log.state.seated_at(t)]))
        bust_at(log, table, 1)
        while (plan := table_to_break(log.state)) is not None:
            order = [e.player for t in (plan.table,) + (plan.to_tables if plan.redraw else ())
                     for e in log.state.seated_at(t)]
            log.add(*break_table(log.state, plan, order, stacks(log), DECK))
        players = len(log.state.remaining)
        assert len(log.state.tables) == ceil(players / seats)
        assert all(len(log.state.seated_at(t)) <= seats for t in log.state.tables)


def test_due_big_blind_before_the_first_hand_follows_the_drawn_button() -> None:
    """Issue 12: before a table's first hand the player due the big blind is the one the hand
    plan puts there (the second seat after the button), not the small blind."""
    state = open_table(TableOpened("T", 9, "tda"))
    for seat in (2, 3, 5, 6, 8):
        state = apply_table(state, PlayerSeated(seat, f"S{seat}", 1000))
    state = apply_table(state, ButtonPlaced(3))
    setup = plan_hand(state, Level(50, 100), 1)
    assert setup.big_blind_seat == 6
    assert due_big_blind(state) == "S6"
