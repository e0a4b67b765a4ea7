"""Entries beyond the first (issue 25): re-entries, rebuys and the add-on as the structure offers
them and the profile allows, one person with one live entry at a time, and the money of each
carried to the cent."""

from __future__ import annotations

from dataclasses import replace

import pytest
from test_tournament import Log, example, run_to_level, started

from handlog.engine.entries import add_on, rebuy
from handlog.engine.errors import RuleViolation
from handlog.engine.money import money_block
from handlog.engine.structure import ReEntry, structure_problems
from handlog.engine.tournament import (
    Bust,
    award_prizes,
    eliminate,
    record_penalty,
    register,
    start_break,
    withdraw,
)
from handlog.engine.tournament_decide import decide_register
from handlog.engine.words import render_rule, rule_title
from handlog.recorder.structure import StructureError, loads_structure


def _out(log: Log, player: str) -> None:
    log.add(*eliminate(log.state, [Bust(player, 100, "A", 1)]))


# --- the structure's keys -----------------------------------------------------------------


def test_example_structures_offer_re_entry_rebuys_and_an_add_on() -> None:
    """examples/tda-re-entry.toml and tda-rebuy.toml read into the structure's keys (money in
    cents: each price with its share of the pool, the rest the house's)."""
    re_entry = example("tda-re-entry").re_entry
    assert (re_entry.per_person, re_entry.last_level, re_entry.cost, re_entry.prize_pool) == \
        (2, 4, 2200, 2000)
    s = example("tda-rebuy")
    assert (s.rebuy.first_level, s.rebuy.last_level, s.rebuy.stack_at_most, s.rebuy.per_entry,
            s.rebuy.chips, s.rebuy.cost, s.rebuy.prize_pool) == (1, 4, 5000, 3, 5000, 2200, 2000)
    assert (s.add_on.after_level, s.add_on.chips, s.add_on.cost, s.add_on.prize_pool) == \
        (4, 10000, 2500, 2000)


def test_a_bad_entry_key_is_named_with_what_is_allowed() -> None:
    """An add-on with no break after its level, and a pool share over the price, are refused
    naming the field."""
    s = example("tda-rebuy")
    bad = replace(s, add_on=replace(s.add_on, after_level=2),
                  rebuy=replace(s.rebuy, prize_pool=3000))
    paths = {p.path for p in structure_problems(bad)}
    assert {"add_on.after_level", "rebuy.cost"} <= paths
    text = (EXAMPLE_TEXT := (example_text("tda-rebuy"))).replace("chips = 10000", "chips = 7")
    with pytest.raises(StructureError, match=r"add_on\.chips.*multiple of the smallest chip"):
        loads_structure(text, "x.toml")
    with pytest.raises(StructureError, match=r"rebuy.*unknown_key"):
        loads_structure(EXAMPLE_TEXT.replace("[rebuy]\n", "[rebuy]\nunknown_key = 1\n"), "x.toml")


def example_text(name: str) -> str:
    from test_tournament import EXAMPLES

    return (EXAMPLES / f"{name}.toml").read_text(encoding="utf-8")


# --- re-entry -------------------------------------------------------------------------------


def test_tda_8_a_re_entry_is_a_new_entry_of_the_same_person_with_a_full_stack() -> None:
    """TDA 2024 Rule 8-A: 're-entries will be sold full stacks'. The out entry keeps its
    place; the re-entry is a new entry id of the same person, entry 2, paid at its price."""
    log = started(example("tda-re-entry"), 6, tables=("A",))
    first = log.state.entrant("p01")
    assert first is not None and first.who == "t1.p01"
    _out(log, "p06")
    decision = decide_register(log.state, "p06", "", False)
    entry = decision.events[0]
    assert (entry.player, entry.person, entry.entry, entry.name, entry.stack) == \
        ("p7", "t1.p06", 2, "P06", 5000)
    assert entry.late and "tda-8" in entry.rule
    log.add(*decision.events)
    assert log.state.entrant("p06").place == 6  # type: ignore[union-attr]
    block = money_block(log.state)
    assert (block.buy_ins, block.re_entries, block.fees) == (6 * 2000, 2200, 200)
    assert log.state.prize_pool == 7 * 2000


def test_the_same_person_cannot_hold_two_live_entries() -> None:
    """A person (the room's id) holds one live entry: a second is refused while the first
    plays, under another entry id and another name too."""
    log = Log(example("tda-re-entry"))
    log.add(register(log.state, "p1", "Ann", person="R-100"))
    with pytest.raises(RuleViolation, match="already holds a live entry") as refused:
        register(log.state, "p2", "Ann B", person="R-100")
    assert refused.value.rule == "registration"
    assert refused.value.legal == ("re-enter once p1 is out",)


def test_re_entry_refused_past_its_count_and_its_level_naming_the_structure_key() -> None:
    log = started(example("tda-re-entry"), 4, tables=("A",))
    for _ in range(2):
        _out(log, log.state.remaining[-1].player)
        log.add(*decide_register(log.state, "", "", False, "t1.p04").events)
    assert [e.entry for e in log.state.entrants if e.who == "t1.p04"] == [1, 2, 3]
    _out(log, log.state.remaining[-1].player)
    with pytest.raises(RuleViolation, match="re-entered 2 time") as refused:
        register(log.state, "p9", "", person="t1.p04")
    assert refused.value.rule == "re_entry:per_person"
    assert rule_title(refused.value.rule) == "the structure's [re_entry] per_person"

    late = started(example("tda-re-entry"), 4, tables=("A",))
    _out(late, "p04")
    run_to_level(late, 4)
    late.add(start_break(late.state))
    with pytest.raises(RuleViolation) as closed:
        register(late.state, "p9", "", person="t1.p04")
    assert closed.value.rule == "re_entry:last_level"


def test_a_disqualified_person_does_not_re_enter() -> None:
    """A disqualification puts the person out of the event: his re-entry is refused citing
    the penalty's rule."""
    log = started(example("tda-re-entry"), 4, tables=("A",))
    log.add(*withdraw(log.add(record_penalty(log.state, "p04", "disqualification", "tda-71",
                                             "abuse", "director")), "p04", 5000))
    with pytest.raises(RuleViolation, match="was disqualified") as refused:
        decide_register(log.state, "p04", "", False)
    assert refused.value.rule == "tda-71"


def test_no_re_entry_where_the_structure_offers_none() -> None:
    """The TDA demo offers no re-entry: a player out is refused citing TDA 8."""
    log = started(example("tda-demo"), 4, tables=("A",))
    _out(log, "p04")
    with pytest.raises(RuleViolation, match="re_entry.per_person is 0") as refused:
        decide_register(log.state, "p04", "", False)
    assert refused.value.rule == "tda-8"


def test_octobermuck_re_buys_none_refuses_re_entry_and_rebuys() -> None:
    """Octobermuck: 'Re-Buys: None (When you are out of chips, you are out of the tourney.)'
    Its profile refuses even a structure that offers them (re_entries_and_rebuys false)."""
    s = example("octobermuck")
    offering = replace(s, re_entry=ReEntry(per_person=1),
                       rebuy=replace(example("tda-rebuy").rebuy, chips=5000))
    assert structure_problems(offering) == ()
    log = started(offering, 6, tables=("A",))
    _out(log, "p06")
    with pytest.raises(RuleViolation, match="re_entries_and_rebuys is false") as refused:
        decide_register(log.state, "p06", "", False)
    assert refused.value.rule == "octobermuck-re-buys"
    assert render_rule(refused.value.rule) == "Octobermuck Re-Buys"
    with pytest.raises(RuleViolation, match="rebuys or add-ons under the octobermuck") as no_rebuy:
        rebuy(log.state, "p01", 100)
    assert no_rebuy.value.rule == "octobermuck-re-buys"


# --- rebuys and the add-on -----------------------------------------------------------------


def test_a_rebuy_at_the_stack_or_below_during_the_rebuy_levels() -> None:
    log = started(example("tda-rebuy"), 4, tables=("A",))
    made = rebuy(log.state, "p01", 5000)
    assert (made.chips, made.paid, made.prize_pool, made.number, made.level) == \
        (5000, 2200, 2000, 1, 1)
    log.add(made)
    assert log.state.entrant("p01").rebuys == 1  # type: ignore[union-attr]
    assert log.state.ledger.total == 4 * 5000 + 5000


def test_a_rebuy_refused_names_the_rule() -> None:
    """Over the stack, past the count, after the rebuy levels: each refusal names its key."""
    log = started(example("tda-rebuy"), 4, tables=("A",))
    with pytest.raises(RuleViolation, match="has 5001 chips: a rebuy needs 5000 or fewer") as r:
        rebuy(log.state, "p01", 5001)
    assert r.value.rule == "rebuy:stack_at_most"
    for _ in range(3):
        log.add(rebuy(log.state, "p01", 100))
    with pytest.raises(RuleViolation) as count:
        rebuy(log.state, "p01", 100)
    assert count.value.rule == "rebuy:per_entry"
    run_to_level(log, 4)
    log.add(start_break(log.state))
    with pytest.raises(RuleViolation, match="levels 1 to 4") as closed:
        rebuy(log.state, "p02", 100)
    assert closed.value.rule == "rebuy:last_level"
    _out(log, "p04")
    with pytest.raises(RuleViolation, match="p04 is out"):
        rebuy(log.state, "p04", 0)


def test_the_add_on_once_per_entry_at_the_break_after_its_level() -> None:
    log = started(example("tda-rebuy"), 4, tables=("A",))
    with pytest.raises(RuleViolation, match="break after level 4") as early:
        add_on(log.state, "p01")
    assert early.value.rule == "add_on:after_level"
    run_to_level(log, 4)
    log.add(start_break(log.state))
    log.add(add_on(log.state, "p01"))
    with pytest.raises(RuleViolation, match="already: one per entry"):
        add_on(log.state, "p01")


def test_money_of_rebuys_add_ons_and_re_entries_is_accounted_to_the_cent() -> None:
    """Prize pool = every entry's, rebuy's and add-on's share; fees the rest; once the prizes
    are paid nothing is unaccounted."""
    structure = replace(example("tda-rebuy"), re_entry=example("tda-re-entry").re_entry)
    log = started(structure, 3, tables=("A",))
    log.add(rebuy(log.state, "p01", 5000), rebuy(log.state, "p02", 5000))
    _out(log, "p03")
    log.add(*decide_register(log.state, "p03", "", False).events)
    run_to_level(log, 4)
    log.add(start_break(log.state))
    log.add(add_on(log.state, "p01"))
    assert log.state.prize_pool == 4 * 2000 + 2 * 2000 + 2000
    _out(log, "p4")
    log.add(*eliminate(log.state, [Bust("p02", 100, "A", 2)]))
    log.add(award_prizes(log.state))
    block = money_block(log.state)
    assert (block.buy_ins, block.re_entries, block.rebuys, block.add_ons) == \
        (3 * 2000, 2200, 2 * 2200, 2500)
    assert block.fees == 200 + 2 * 200 + 500
    assert block.prizes_paid == log.state.prize_pool == 14000
    assert block.unaccounted == 0
