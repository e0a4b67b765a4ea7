"""The tournament domain: registration, seats, levels, color-ups, eliminations, payouts.

Golden tests are named after the rule they pin (the seed documents in shared/seeds/); the
Hypothesis tests state the invariant they check in their docstring.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from handlog.engine.cards import FULL_DECK, card_text
from handlog.engine.colorup import SeatedStack, color_up_adjustments, race_chips
from handlog.engine.errors import RuleViolation
from handlog.engine.structure import Structure, payout_bracket, place_amounts
from handlog.engine.table import plan_hand
from handlog.engine.tournament import (
    TOURNAMENT_EVENT_TYPES,
    Bust,
    TournamentEvent,
    TournamentState,
    apply_tournament,
    award_high_hand,
    award_prizes,
    chip_ledger,
    close_table,
    color_up,
    color_up_racers,
    create_tournament,
    decide_antes,
    draw_button,
    draw_seats,
    eliminate,
    end_break,
    expected_chip_total,
    fold_tournament,
    late_entry_deduction,
    move_player,
    needs_balancing,
    record_penalty,
    record_ruling,
    redraw_seats,
    register,
    share_prizes,
    stakes,
    start_break,
    start_level,
    suggest_balance,
    withdraw,
)
from handlog.engine.tournament_events import (
    ChipsColoredUp,
    PlayerEliminated,
    PlayerRegistered,
    PlayerWithdrew,
    SeatAssignment,
    TournamentFinished,
)
from handlog.engine.words import rule_words
from handlog.recorder.structure import load_structure

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def example(name: str) -> Structure:
    return load_structure(EXAMPLES / f"{name}.toml")


class Log:
    """A tournament stream being written: every decision's events are folded at once."""

    def __init__(self, structure: Structure) -> None:
        self.events: list[TournamentEvent] = []
        self.state: TournamentState = self.add(create_tournament("t1", structure))

    def add(self, *events: TournamentEvent) -> TournamentState:
        state: TournamentState | None = getattr(self, "state", None)
        for event in events:
            self.events.append(event)
            state = apply_tournament(state, event)
        assert state is not None
        self.state = state
        return state


def players(n: int) -> list[str]:
    return [f"p{i:02d}" for i in range(1, n + 1)]


def started(structure: Structure, n: int, tables: Sequence[str] = ("A", "B", "C")) -> Log:
    """`n` players registered, seated over `tables` and level 1 under way."""
    log = Log(structure)
    for p in players(n):
        log.add(register(log.state, p, p.upper()))
    log.add(draw_seats(log.state, tables, players(n), seed="s1"))
    log.add(start_level(log.state))
    return log


def run_to_level(log: Log, number: int) -> None:
    """Play the schedule up to the start of level `number`: breaks, the ante checkpoint and
    color-ups (every stack at a full starting stack, so no odd chips) as they fall due."""
    while log.state.level < number:
        s = log.state.structure
        level = log.state.level
        if s.ante_checkpoint and s.ante_checkpoint.after_level == level and \
                log.state.antes_used is None:
            log.add(decide_antes(log.state))
        if s.break_after(level) and level not in log.state.breaks_taken:
            log.add(start_break(log.state))
            log.add(end_break(log.state))
        step = s.color_up_after(level)
        if step and not (step.unless_antes and log.state.antes_used) and \
                level not in log.state.color_ups_done:
            stacks = {e.player: s.starting_stack for t in log.state.tables
                      for e in log.state.seated_at(t)}
            log.add(color_up(log.state, stacks))
        log.add(start_level(log.state))


# --- late entry ----------------------------------------------------------------------------


def test_bse_late_arrival_loses_five_big_blinds() -> None:
    """BSE Playing Chips: 'Members arriving late will be deducted chips at five (5) times the
    big blind at the time.'"""
    log = started(example("bse"), 12)
    run_to_level(log, 2)  # 50/100
    event = register(log.state, "late", "Late Larry")
    assert (event.late, event.chips_deducted, event.stack, event.level) == (True, 500, 3500, 2)
    assert event.rule == "bse:late_entry_penalty_big_blinds"
    assert "five (5) times the big blind" in rule_words(event.rule)
    log.add(event)
    assert log.state.ledger.late_deductions == 500
    assert log.state.ledger.total == 13 * 4000 - 500


def test_bse_late_arrival_during_break_pays_the_blinds_after_the_break() -> None:
    """BSE: 'Those arriving during break will be deducted chips according to blinds after
    break.' The break follows level 4 (100/200); level 5 is 200/400."""
    log = started(example("bse"), 12)
    run_to_level(log, 4)
    log.add(start_break(log.state))
    assert late_entry_deduction(log.state) == 5 * 400
    assert register(log.state, "late", "L").stack == 2000


def test_bse_late_entry_closes_at_the_end_of_the_break() -> None:
    """BSE: 'Members are allowed in up until the end of the break.'"""
    log = started(example("bse"), 12)
    run_to_level(log, 4)
    log.add(start_break(log.state))
    log.add(end_break(log.state))
    with pytest.raises(RuleViolation, match="late entry closed"):
        register(log.state, "late", "L")


def test_octobermuck_late_arrival_keeps_his_stack_and_loses_blinds_at_the_table() -> None:
    """Octobermuck: 'If you are late we'll assign you a seat and you will lose blinds as your
    turn comes around. You'll be picked up after the third round.'"""
    log = started(example("octobermuck"), 24)
    run_to_level(log, 3)
    event = register(log.state, "late", "L")
    assert (event.late, event.chips_deducted, event.stack) == (True, 0, 5000)
    assert event.rule == "octobermuck:absent_hand_killed_at_deal"
    assert "lose blinds" in rule_words(event.rule)
    log.add(start_break(log.state))  # the 10-minute break after round 3
    with pytest.raises(RuleViolation, match="late entry closed"):
        register(log.state, "later", "L2")


def test_registration_before_the_start_is_not_late_and_ids_are_unique() -> None:
    log = Log(example("tda-demo"))
    event = register(log.state, "p1", "Ann")
    assert (event.late, event.chips_deducted, event.stack) == (False, 0, 5000)
    log.add(event)
    with pytest.raises(RuleViolation, match="already registered"):
        register(log.state, "p1", "Ann again")


# --- seats and the button ------------------------------------------------------------------


def test_seat_draw_balances_players_over_tables() -> None:
    """20 players over 3 tables of 9: 7, 7 and 6, each player in one seat."""
    log = Log(example("tda-demo"))
    for p in players(20):
        log.add(register(log.state, p, p))
    order = list(reversed(players(20)))
    event = draw_seats(log.state, ("A", "B", "C"), order, seed="abc")
    log.add(event)
    counts = sorted(len(log.state.seated_at(t)) for t in ("A", "B", "C"))
    assert counts == [6, 7, 7]
    assert len({(a.table, a.seat) for a in event.assignments}) == 20
    assert event.assignments[0] == SeatAssignment("p20", "A", 1)  # the order decides
    assert event.seed == "abc"


def test_seat_draw_order_must_be_a_permutation_of_the_unseated_players() -> None:
    log = Log(example("tda-demo"))
    for p in players(4):
        log.add(register(log.state, p, p))
    with pytest.raises(RuleViolation, match="permutation") as info:
        draw_seats(log.state, ("A",), ["p01", "p02", "p02", "p04"])
    assert "missing p03" in info.value.message


def test_seat_draw_refuses_more_players_than_seats() -> None:
    log = Log(example("tda-demo"))
    for p in players(10):
        log.add(register(log.state, p, p))
    with pytest.raises(RuleViolation, match="free seats") as info:
        draw_seats(log.state, ("A",), players(10))
    assert info.value.legal == ("open another table",)


def test_octobermuck_designated_dealers_are_placed_before_the_draw() -> None:
    """Octobermuck Seating: 'Designated player/dealers will be assigned a table - others will be
    assigned tables and seats randomly.'"""
    log = Log(example("octobermuck"))
    for p in players(6):
        log.add(register(log.state, p, p))
    fixed = (SeatAssignment("p01", "A", 1), SeatAssignment("p02", "B", 1))
    event = draw_seats(log.state, ("A", "B"), ["p06", "p05", "p04", "p03"], fixed=fixed)
    log.add(event)
    assert log.state.entrant("p01") is not None
    assert [e.player for e in log.state.seated_at("A")] == ["p01", "p06", "p04"]
    assert [e.player for e in log.state.seated_at("B")] == ["p02", "p05", "p03"]


def test_late_entrant_is_drawn_into_the_shortest_table() -> None:
    log = started(example("tda-demo"), 17)  # 6, 6, 5
    log.add(register(log.state, "late", "L"))
    event = draw_seats(log.state, log.state.tables, ["late"])
    assert event.assignments == (SeatAssignment("late", "C", 6),)


def test_bse_button_draw_spades_hearts_diamonds_clubs() -> None:
    """BSE Drawing for Dealer: 'The member drawing the highest card will start the deal ... The
    suits rank in descending order of, spades, hearts, diamonds and clubs.'"""
    log = started(example("bse"), 12, tables=("A", "B"))  # 6 at each table, seats 1-6
    cards = {1: "Ac", 2: "Ad", 3: "Ah", 4: "As", 5: "Ks", 6: "2c"}
    event = draw_button(log.state, "A", cards)
    assert event.seat == 4
    assert [c.card for c in event.cards] == ["Ac", "Ad", "Ah", "As", "Ks", "2c"]
    assert draw_button(log.state, "A", cards | {4: "Kh"}).seat == 3
    assert draw_button(log.state, "A", cards | {4: "Kh", 3: "Qs"}).seat == 2
    log.add(event)
    assert log.state.buttons == (("A", 4),)


def test_button_draw_needs_one_distinct_card_per_occupied_seat() -> None:
    log = started(example("bse"), 12, tables=("A", "B"))
    with pytest.raises(RuleViolation) as info:
        draw_button(log.state, "A", {1: "As", 2: "Ks"})
    assert info.value.legal == tuple(f"seat {s}" for s in range(1, 7))
    with pytest.raises(RuleViolation, match="twice"):
        draw_button(log.state, "A", {s: "As" if s < 3 else f"{s}c" for s in range(1, 7)})


# --- levels, breaks, antes -----------------------------------------------------------------


def test_level_stakes_feed_the_table() -> None:
    """The level in force is what engine.table.plan_hand deals with (blinds, antes, chip)."""
    log = started(example("tda-demo"), 18)
    run_to_level(log, 4)
    level = stakes(log.state)
    assert (level.small_blind, level.big_blind, level.ante, level.ante_kind, level.chip_unit) \
        == (100, 200, 25, "uniform", 25)
    assert level.number == 4


def test_a_scheduled_break_comes_before_the_next_level() -> None:
    log = started(example("octobermuck"), 24)
    run_to_level(log, 3)
    with pytest.raises(RuleViolation, match="the break after level 3") as info:
        start_level(log.state)
    assert "start the break" not in info.value.legal
    event = start_break(log.state)
    assert (event.after_level, event.minutes, event.scheduled) == (3, 10, True)
    log.add(event)
    with pytest.raises(RuleViolation, match="break .* is on"):
        start_level(log.state)
    log.add(end_break(log.state))
    assert start_level(log.state).level == 4


def test_a_director_may_skip_a_scheduled_break_with_a_ruling() -> None:
    log = started(example("octobermuck"), 24)
    run_to_level(log, 3)
    event = start_level(log.state, ruling="TD: play through, we are late")
    assert (event.level, event.ruling) == (4, "TD: play through, we are late")


def test_extra_breaks_need_their_length() -> None:
    """Octobermuck: 'Breaks as needed' after the last scheduled one."""
    log = started(example("octobermuck"), 24)
    with pytest.raises(RuleViolation, match="minutes"):
        start_break(log.state)
    assert start_break(log.state, minutes=5).scheduled is False


def test_the_structure_ends_at_its_last_level() -> None:
    log = started(example("octobermuck"), 24)
    run_to_level(log, 9)
    with pytest.raises(RuleViolation, match="has 9 levels"):
        start_level(log.state)


def _to_checkpoint(players_left: int) -> Log:
    log = started(example("octobermuck"), 24)
    run_to_level(log, 6)
    alive = [e.player for e in log.state.remaining]
    for player in alive[players_left:]:
        log.add(*eliminate(log.state, [Bust(player, 500, "A", 1)]))
    return log


def test_octobermuck_antes_only_if_16_players_after_level_6() -> None:
    """Octobermuck: 'If there are still 16 or more players active after the sixth round, antes
    will be instituted for the rest of the tourney and the black chips will stay in play.'"""
    with_antes = _to_checkpoint(16)
    with pytest.raises(RuleViolation, match="decide whether antes"):
        start_level(with_antes.state)
    decision = decide_antes(with_antes.state)
    assert (decision.players_remaining, decision.antes_used) == (16, True)
    with_antes.add(decision)
    with_antes.add(start_break(with_antes.state))
    with pytest.raises(RuleViolation, match="stay in play"):
        color_up(with_antes.state, {})
    with_antes.add(end_break(with_antes.state))
    level7 = start_level(with_antes.state)
    assert (level7.big_blind, level7.ante, level7.ante_kind, level7.chip_unit) == \
        (1000, 100, "uniform", 100)

    without = _to_checkpoint(15)
    decision = decide_antes(without.state)
    assert (decision.players_remaining, decision.antes_used) == (15, False)
    without.add(decision)
    without.add(start_break(without.state))
    without.add(end_break(without.state))
    with pytest.raises(RuleViolation, match="color-up of black"):
        start_level(without.state)
    stacks = {e.player: 5000 * 24 // 15 // 100 * 100 for e in without.state.remaining}
    without.add(color_up(without.state, stacks))
    level7 = start_level(without.state)
    assert (level7.ante, level7.ante_kind, level7.chip_unit) == (0, "none", 500)


# --- color-ups -----------------------------------------------------------------------------


def test_bse_color_up_rounds_odd_chips_up() -> None:
    """BSE Coloring Up: 'All remaining odd chips at color up will be rounded up to the next chip
    denomination.'"""
    log = started(example("bse"), 3, tables=("A",))
    run_to_level(log, 4)
    event = color_up(log.state, {"p01": 3175, "p02": 3150, "p03": 3000})
    assert event.colours == ("white",)
    assert (event.old_unit, event.new_unit, event.method) == (25, 100, "round_up")
    assert [(a.player, a.odd_chips, a.amount) for a in event.adjustments] == [
        ("p01", 75, 25), ("p02", 50, 50), ("p03", 0, 0)]
    assert event.removed == -75  # rounding up puts chips into play
    assert event.rule == "bse:color_up" and "rounded up" in rule_words(event.rule)
    log.add(event)
    assert log.state.chip_unit == 100
    assert log.state.ledger.total == 3 * 4000 + 75


def test_tda_24_chip_race() -> None:
    """TDA 2024 Rule 24: odd chips are raced off by card, one chip at most per player, as many
    new chips as the odd chips make (half or more rounds up); nobody is raced out."""
    log = started(example("tda-demo"), 5, tables=("A",))
    run_to_level(log, 4)
    stacks = {"p01": 5075, "p02": 4950, "p03": 25, "p04": 5000, "p05": 9950}
    cards = {"p01": ["Kd", "2c", "3c"], "p02": ["As", "4d"], "p03": ["Ah"], "p05": ["Qs", "5h"]}
    event = color_up(log.state, stacks, race_cards=cards)
    # odd chips: 75 + 50 + 25 + 50 = 200 = two 100 chips: As (p02) and Ah (p03) win them.
    by_player = {a.player: a for a in event.adjustments}
    assert (by_player["p02"].amount, by_player["p02"].reason) == (50, "won_race")
    assert (by_player["p03"].amount, by_player["p03"].reason) == (75, "won_race")
    assert by_player["p01"].amount == -75
    assert by_player["p05"].amount == -50
    assert by_player["p04"].amount == 0
    assert by_player["p01"].cards == ("Kd", "2c", "3c")
    assert event.removed == 0


@pytest.mark.parametrize(("profile", "racers"), [
    ("tda", ("p01", "p02", "p03", "p05")), ("bse", ()), ("octobermuck", ())])
def test_the_engine_names_who_races_at_a_color_up_per_profile(
        profile: str, racers: tuple[str, ...]) -> None:
    """`color_up` = race (TDA 24): the players holding odd chips of the colour leaving are dealt
    race cards (the recorder deals to exactly those); rounding up (BSE) or forfeiting to the
    next pot (Octobermuck) deals nobody cards."""
    log = started(replace(example("tda-demo"), profile=profile), 5, tables=("A",))
    run_to_level(log, 4)
    stacks = {"p01": 5075, "p02": 4950, "p03": 25, "p04": 5000, "p05": 9950}
    assert color_up_racers(log.state, stacks) == racers


def test_tda_chip_race_cannot_race_a_player_out() -> None:
    """TDA 2024 Rule 24: a player who loses his last chips in the race gets one chip."""
    adjustments, _ = color_up_adjustments(
        "race", [SeatedStack("a", "T", 4975), SeatedStack("b", "T", 25)], 100,
        {"a": ["As"], "b": ["2c"]})
    assert [(a.amount, a.reason) for a in adjustments] == [
        (25, "won_race"), (75, "given_one_chip")]
    assert race_chips(49, 100) == 0 and race_chips(50, 100) == 1 and race_chips(250, 100) == 3


def test_tda_chip_race_needs_cards_for_every_player_with_odd_chips() -> None:
    with pytest.raises(RuleViolation, match="race cards") as info:
        color_up_adjustments("race", [SeatedStack("a", "T", 4975), SeatedStack("b", "T", 50)],
                             100, {"a": ["As"]})
    assert info.value.legal == ("deal race cards to b",)


def test_octobermuck_buy_down_odd_chips_forfeited_to_the_next_pot() -> None:
    """Octobermuck Chip Buy-downs: 'Player 1 has 5 green chips after round 4. He will receive 1
    black chip and forfeit the remaining green chip ... Player 2 has 11 green chips. He will
    receive 2 black chips and forfeit the remaining 3 ... (In this case, there would be 1 extra
    black chip in the next pot.)'"""
    log = started(example("octobermuck"), 2, tables=("A",))
    run_to_level(log, 4)
    event = color_up(log.state, {"p01": 4000 + 5 * 25, "p02": 3000 + 11 * 25})
    assert event.colours == ("green",)
    assert [(a.odd_chips, a.amount) for a in event.adjustments] == [(25, -25), (75, -75)]
    assert [(c.table, c.amount) for c in event.next_pots] == [("A", 100)]
    assert event.removed == 0
    log.add(event)
    assert log.state.ledger.total == 10000


def test_octobermuck_forfeited_chips_that_cannot_be_changed_up_leave_play() -> None:
    adjustments, carries = color_up_adjustments(
        "forfeit_to_next_pot", [SeatedStack("a", "A", 1025), SeatedStack("b", "B", 2050)], 100)
    assert [a.amount for a in adjustments] == [-25, -50]
    assert carries == ()  # 25 at table A and 50 at table B: not one black chip each


def test_tda_24_a_a_buy_down_never_takes_out_a_player_whose_every_chip_is_odd() -> None:
    """Octobermuck 'Any odd chips are forfeited to the next pot' is silent on a stack that is
    all odd chips; TDA 24-A ('no player can be raced out of a tournament') decides
    (`color_up_keeps_a_player_in` = true): a 5-chip and a 50-chip stack each become one chip
    of the new unit and play on; only the others' odd chips are forfeited."""
    adjustments, carries = color_up_adjustments(
        "forfeit_to_next_pot", [SeatedStack("a", "A", 5), SeatedStack("b", "A", 50),
                                SeatedStack("c", "A", 10_075)], 100)
    assert [(a.amount, a.reason) for a in adjustments] == [
        (95, "given_one_chip"), (50, "given_one_chip"), (-75, "forfeited_to_next_pot")]
    assert carries == ()  # 75 forfeited: not one black chip


def test_any_odd_chips_are_forfeited_even_a_whole_stack_when_the_director_reads_it_so() -> None:
    """The other reading (`color_up_keeps_a_player_in` = false): the sentence taken as
    written, every odd chip forfeited, a stack of odd chips only included, and they change up
    into the next pot."""
    adjustments, carries = color_up_adjustments(
        "forfeit_to_next_pot", [SeatedStack("a", "A", 5), SeatedStack("b", "A", 50),
                                SeatedStack("c", "A", 10_075)], 100, keep_in=False)
    assert [(a.amount, a.reason) for a in adjustments] == [
        (-5, "all_forfeited"), (-50, "all_forfeited"), (-75, "forfeited_to_next_pot")]
    assert [c.amount for c in carries] == [100]


def test_color_up_refuses_a_chip_the_next_level_needs() -> None:
    log = started(example("octobermuck"), 2, tables=("A",))
    run_to_level(log, 3)  # 25/50: level 4 is 50/100
    with pytest.raises(RuleViolation, match="small blind of level 4"):
        color_up(log.state, {"p01": 5000, "p02": 5000}, colours=["green"])


def test_color_up_wants_every_seated_stack() -> None:
    log = started(example("bse"), 3, tables=("A",))
    run_to_level(log, 4)
    with pytest.raises(RuleViolation, match="missing p03"):
        color_up(log.state, {"p01": 4000, "p02": 4000})


# --- eliminations, places, prizes ----------------------------------------------------------


def test_bse_photo_finish_more_chips_at_start_places_higher() -> None:
    """BSE Photo Finishes: 'When two (or more) Members get out on the same hand, the player with
    the most chips in the hand will get the higher finishing position. If Members have equal
    amounts of chips, they tie for the higher position.'"""
    log = started(example("bse"), 10, tables=("A", "B"))
    events = eliminate(log.state, [Bust("p01", 800, "A", 7), Bust("p02", 1200, "A", 7),
                                   Bust("p03", 800, "A", 7)])
    assert [(e.player, e.place) for e in events if isinstance(e, PlayerEliminated)] == [
        ("p02", 8), ("p01", 9), ("p03", 9)]
    assert all(e.rule == "bse-photo-finishes" and "Photo Finishes" in rule_words(e.rule)
               for e in events if isinstance(e, PlayerEliminated))
    log.add(*events)
    (next_out,) = eliminate(log.state, [Bust("p04", 100, "B", 9)])
    assert isinstance(next_out, PlayerEliminated) and next_out.place == 7
    assert (next_out.table, next_out.hand_number, next_out.chips_at_start) == ("B", 9, 100)


def test_last_elimination_finishes_the_tournament() -> None:
    log = started(example("tda-demo"), 3, tables=("A",))
    log.add(*eliminate(log.state, [Bust("p03", 100, "A", 1)]))
    events = eliminate(log.state, [Bust("p01", 300, "A", 2)])
    assert events[-1] == TournamentFinished("p02")
    log.add(*events)
    assert log.state.finished and log.state.entrant("p02") is not None
    assert {e.player: e.place for e in log.state.entrants} == {"p01": 2, "p02": 1, "p03": 3}
    with pytest.raises(RuleViolation, match="is over"):
        register(log.state, "p9", "late")


def test_everyone_out_at_once_is_refused() -> None:
    log = started(example("tda-demo"), 2, tables=("A",))
    with pytest.raises(RuleViolation, match="at least one player must be left"):
        eliminate(log.state, [Bust("p01", 5000, "A", 1), Bust("p02", 5000, "A", 1)])


def _finish(log: Log) -> None:
    """Eliminate everyone but p01, one at a time, the last-registered first."""
    for player in reversed([e.player for e in log.state.remaining][1:]):
        log.add(*eliminate(log.state, [Bust(player, 1000, "A", 1, _bounty_to(log))]))


def _bounty_to(log: Log) -> str:
    return "p01" if log.state.structure.money.bounty else ""


def test_octobermuck_payouts_by_field_size() -> None:
    """Octobermuck Payout Structure: '24-27: 6 places - 30%, 23%, 15%, 13%, 10%, 9%'; '28-32: 7
    places - 28 %, 21%, 14%, 11%, 10%, 9%, 8%' ($45 of each buy-in to the prize pool)."""
    log = started(example("octobermuck"), 24)
    _finish(log)
    prizes = award_prizes(log.state)
    assert prizes.pool == 24 * 4500
    # $1,080: 324, 248.40, 162, 140.40, 108, 97.20 rounded down to dollars, $1 left to 1st
    assert [(a.place, a.amount) for a in prizes.awards] == [
        (1, 32500), (2, 24800), (3, 16200), (4, 14000), (5, 10800), (6, 9700)]
    assert sum(a.amount for a in prizes.awards) == prizes.pool

    log = started(example("octobermuck"), 30, tables=("A", "B", "C"))
    _finish(log)
    prizes = award_prizes(log.state)
    assert len(prizes.awards) == 7
    assert sum(a.amount for a in prizes.awards) == prizes.pool == 30 * 4500
    assert prizes.rule == "payouts:28-32"  # the 7-place line, scaled: it adds up to 101%
    assert payout_bracket(log.state.structure, 30).scale_to_pool

    log = started(example("octobermuck"), 23)
    _finish(log)
    with pytest.raises(RuleViolation, match="no line for 23 players") as info:
        award_prizes(log.state)
    assert info.value.legal == ("24-27 players", "28-32 players")


def test_octobermuck_bounties_go_to_the_victor() -> None:
    """Octobermuck Bounties: 'the victor gets to add the departed player's Bounty chip to his
    collection ... he will collect $5 for each Bounty chip he holds.'"""
    log = started(example("octobermuck"), 24)
    _finish(log)  # p01 knocks everybody out
    prizes = award_prizes(log.state)
    assert [(b.player, b.bounties, b.amount) for b in prizes.bounties] == [("p01", 24, 12000)]
    assert prizes.unclaimed_bounties == 0


def test_bounty_goes_only_to_a_player_still_in() -> None:
    log = started(example("octobermuck"), 24)
    with pytest.raises(RuleViolation, match="cannot collect"):
        eliminate(log.state, [Bust("p02", 10, "A", 1, bounty_to="p03"),
                              Bust("p03", 10, "A", 1, bounty_to="p04")])


def test_shared_places_split_the_prizes_of_the_places_they_span() -> None:
    """Two players sharing 2nd split 2nd and 3rd; an odd cent goes by player id."""
    awards = share_prizes({"w": 1, "x": 2, "y": 2, "z": 4}, [5000, 3001, 2000, 0])
    assert [(a.place, a.player, a.amount) for a in awards] == [
        (1, "w", 5000), (2, "x", 2501), (2, "y", 2500)]


def test_octobermuck_high_hand_jackpot_is_split_between_equal_hands() -> None:
    """Octobermuck HHJP: 'The HHJP prize pool will be the sum of all HHJP entrants ... In the
    event that 2 players have the exact same high hand, the HHJP money will be split.'"""
    log = Log(example("octobermuck"))
    for i, p in enumerate(players(5)):
        log.add(register(log.state, p, p, high_hand=i < 3))
    event = award_high_hand(log.state, ["p01", "p03"], "quads 9999K")
    assert event.pool == 1500
    assert [(s.player, s.amount) for s in event.shares] == [("p01", 750), ("p03", 750)]
    with pytest.raises(RuleViolation, match="only entrants who paid"):
        award_high_hand(log.state, ["p05"], "quads")


def test_withdrawal_removes_the_chips_from_play() -> None:
    """BSE Missing Player: 'Chips from any Member wishing to withdraw mid-tournament must be
    removed from play.'"""
    log = started(example("bse"), 6, tables=("A",))
    events = withdraw(log.state, "p03", 3800)
    log.add(*events)
    assert isinstance(events[0], PlayerWithdrew) and events[0].place == 6
    assert log.state.ledger.withdrawn == 3800
    assert expected_chip_total(log.events) == 6 * 4000 - 3800


# --- moves and balancing -------------------------------------------------------------------


def _unbalanced(structure: str) -> Log:
    log = started(example(structure), 18, tables=("A", "B"))  # 9 and 9
    for player in [e.player for e in log.state.seated_at("B")][:2]:
        log.add(*eliminate(log.state, [Bust(player, 100, "B", 3)]))
    return log


def test_tda_balancing_moves_the_player_due_the_big_blind_next() -> None:
    log = _unbalanced("tda-demo")
    assert needs_balancing(log.state)
    with pytest.raises(RuleViolation, match="due the big blind"):
        suggest_balance(log.state)
    move = suggest_balance(log.state, due_big_blind={"A": "p05"})
    assert move is not None
    assert (move.player, move.from_table, move.to_table) == ("p05", "A", "B")
    assert move.to_seat == move.free_seats[0]
    event = move_player(log.state, move.player, move.to_table, move.to_seat, 4200)
    log.add(event)
    assert not needs_balancing(log.state)
    assert suggest_balance(log.state) is None


def test_octobermuck_balancing_draws_high_card_and_exempts_the_dealer() -> None:
    """Octobermuck Seating: 'the players at the table with extra people will draw for high card
    ... Dealers are exempt from relocation.'"""
    log = _unbalanced("octobermuck")
    at_a = [e.player for e in log.state.seated_at("A")]
    deck = ["2c", "3c", "4c", "5c", "6c", "7c", "8c", "As", "Ah"]
    cards = dict(zip(at_a, deck, strict=True))
    move = suggest_balance(log.state, high_cards=cards, exempt={at_a[-2]})
    assert move is not None
    assert move.player == at_a[-1]  # the dealer drew the ace of spades but is exempt
    assert (move.reason, move.rule) == ("high_card", "octobermuck-seating")
    assert "high card" in rule_words(move.rule)


def test_move_needs_a_free_seat_at_an_open_table() -> None:
    log = started(example("tda-demo"), 18, tables=("A", "B"))
    with pytest.raises(RuleViolation, match="not free"):
        move_player(log.state, "p01", "B", 1, 5000)
    with pytest.raises(RuleViolation, match="not open"):
        move_player(log.state, "p01", "Z", 1, 5000)


def test_final_table_redraw_reseats_everyone_and_closes_the_other_tables() -> None:
    """Octobermuck: 'When combining for the final table, all players except the dealer ... will
    be reseated randomly.'"""
    log = started(example("octobermuck"), 12, tables=("A", "B"))
    log.add(*eliminate(log.state, [Bust("p01", 10, "A", 5), Bust("p02", 20, "B", 5)]))
    remaining = [e.player for e in log.state.remaining]
    events = redraw_seats(log.state, ["A"], list(reversed(remaining)), seed="final")
    log.add(*events)
    assert log.state.tables == ("A",)
    assert len(log.state.seated_at("A")) == 10
    with pytest.raises(RuleViolation, match="still seats"):
        close_table(log.state, "A")


# --- rulings, the ledger, the log ----------------------------------------------------------


def test_rulings_and_penalties_are_recorded_with_their_rule() -> None:
    log = started(example("tda-demo"), 4, tables=("A",))
    ruling = record_ruling(log.state, "TDA 2024 Rule 1", "the hand stands", "floor:kim",
                           stream="table-A", version=42)
    penalty = record_penalty(log.state, "p02", "warning", "TDA 2024 Rule 65", "exposed a card",
                             "floor:kim")
    log.add(ruling, penalty)
    assert log.state.rulings == (ruling,) and log.state.penalties == (penalty,)
    with pytest.raises(RuleViolation, match="must not be empty"):
        record_ruling(log.state, "", "x", "floor")


def test_chip_ledger_follows_the_tournament() -> None:
    """total = starting stacks - late deductions + color-up changes + carried odd chips -
    withdrawals, folded from the tournament's events."""
    log = started(example("bse"), 4, tables=("A",))
    run_to_level(log, 2)
    log.add(register(log.state, "late", "L"))  # - 500
    log.add(draw_seats(log.state, ("A",), ["late"]))
    run_to_level(log, 4)
    log.add(color_up(log.state, {"p01": 3975, "p02": 4025, "p03": 4000, "p04": 4000,
                                 "late": 3500}))  # + 25 + 75
    ledger = chip_ledger(log.events)
    assert (ledger.entries, ledger.late_deductions, ledger.color_up_change) == (5, 500, 100)
    assert ledger.total == 5 * 4000 - 500 + 100 == expected_chip_total(log.events)
    assert fold_tournament(log.events) == log.state


def test_every_tournament_event_round_trips_through_the_codec() -> None:
    """Encode and decode give back the same event, nested structure included."""
    from handlog.schema.codec import EventCodec

    codec = EventCodec(TOURNAMENT_EVENT_TYPES)
    log = started(example("octobermuck"), 24)
    run_to_level(log, 4)
    log.add(color_up(log.state, {e.player: 5000 for e in log.state.remaining}))
    log.add(draw_button(log.state, "A", {e.seat: card_text(51 - i) for i, e in
                                         enumerate(log.state.seated_at("A"))}))
    log.add(record_ruling(log.state, "r", "t", "b"))
    _finish(log)
    log.add(award_prizes(log.state))
    seen = set()
    for event in log.events:
        seen.add(type(event))
        assert codec.decode(*codec.encode(event)) == event
    assert len(seen) >= 10


def test_apply_needs_the_tournament_first() -> None:
    with pytest.raises(RuleViolation, match="before tournament_created"):
        apply_tournament(None, PlayerRegistered("p", "P", False, 0, 1000))


def test_tournament_stakes_play_a_hand_at_the_table() -> None:
    """A level's stakes go straight into the table's hand plan."""
    from handlog.engine.table import apply_table, open_table
    from handlog.engine.table_events import ButtonPlaced, PlayerSeated, TableOpened

    log = started(example("tda-demo"), 3, tables=("A",))
    run_to_level(log, 4)
    table = open_table(TableOpened("A", 9, "tda", "t1"))
    for e in log.state.seated_at("A"):
        table = apply_table(table, PlayerSeated(e.seat, e.player, 5000))
    table = apply_table(table, ButtonPlaced(1))
    setup = plan_hand(table, stakes(log.state), hand_number=1)
    assert setup.antes == (25, 25, 25) and sorted(setup.blinds) == [0, 100, 200]


# --- properties ----------------------------------------------------------------------------


@given(
    basis_points=st.lists(st.integers(1, 5000), min_size=1, max_size=12),
    pool=st.integers(0, 10**9),
    rounding=st.sampled_from([1, 5, 100, 500, 1000]),
)
def test_payouts_always_sum_to_the_pool(basis_points: list[int], pool: int,
                                        rounding: int) -> None:
    """Place amounts add up to the pool exactly; every place but first is a multiple of the
    rounding and none is negative."""
    amounts = place_amounts(tuple(basis_points), pool, rounding)
    assert sum(amounts) == pool
    assert all(a >= 0 for a in amounts)
    assert all(a % rounding == 0 for a in amounts[1:])


@st.composite
def color_up_cases(draw: st.DrawFn) -> tuple[str, list[SeatedStack], int, dict[str, list[str]]]:
    old_unit = draw(st.sampled_from([1, 5, 25, 100]))
    new_unit = old_unit * draw(st.sampled_from([2, 4, 5, 10]))
    method = draw(st.sampled_from(["race", "round_up", "forfeit_to_next_pot"]))
    n = draw(st.integers(1, 20))
    stacks = [
        SeatedStack(f"p{i}", draw(st.sampled_from(["A", "B", "C"])),
                    old_unit * draw(st.integers(1, 400)))
        for i in range(n)
    ]
    cards: dict[str, list[str]] = {}
    if method == "race":
        decks = {t: iter(draw(st.permutations(FULL_DECK))) for t in ("A", "B", "C")}
        for s in stacks:
            if s.stack % new_unit:
                count = draw(st.integers(1, 2))
                cards[s.player] = [card_text(next(decks[s.table])) for _ in range(count)]
    return method, stacks, new_unit, cards


@settings(max_examples=200)
@given(case=color_up_cases())
def test_color_up_conserves_chips_up_to_the_recorded_change(
        case: tuple[str, list[SeatedStack], int, dict[str, list[str]]]) -> None:
    """After a color-up every stack is a multiple of the new unit; the chips in play change by
    exactly the adjustments plus the carries; nobody is raced or rounded out; a race gives one
    chip at most to a player; a carry is what a table's forfeits change up into."""
    method, stacks, unit, cards = case
    adjustments, carries = color_up_adjustments(method, stacks, unit, cards)
    assert [a.player for a in adjustments] == [s.player for s in stacks]
    after = [s.stack + a.amount for s, a in zip(stacks, adjustments, strict=True)]
    assert all(x % unit == 0 and x >= 0 for x in after)
    assert sum(after) == sum(s.stack for s in stacks) + sum(a.amount for a in adjustments)
    assert all(x > 0 for x in after)  # never out in a color-up (TDA 24-A, issue 24)
    if method != "forfeit_to_next_pot":
        assert carries == ()
    for s, a in zip(stacks, adjustments, strict=True):
        assert a.odd_chips == s.stack % unit
        assert -a.odd_chips <= a.amount <= unit - a.odd_chips
    if method == "race":
        for table in {s.table for s in stacks}:
            seated = [(s, a) for s, a in zip(stacks, adjustments, strict=True)
                      if s.table == table]
            odd = sum(s.stack % unit for s, _ in seated)
            winners = sum(1 for _, a in seated if a.reason == "won_race")
            assert winners == race_chips(odd, unit)
    if method == "forfeit_to_next_pot":
        for carry in carries:
            odd = sum(s.stack % unit for s in stacks
                      if s.table == carry.table and s.stack >= unit)
            assert carry.amount % unit == 0 and odd - unit < carry.amount <= odd


@st.composite
def bust_rounds(draw: st.DrawFn) -> tuple[int, list[list[int]]]:
    """A field size and rounds of chips-at-start for the players out in each round."""
    n = draw(st.integers(2, 30))
    rounds: list[list[int]] = []
    left = n
    while left > 1:
        k = draw(st.integers(1, min(4, left - 1)))
        rounds.append(draw(st.lists(st.sampled_from([100, 200, 300, 500]), min_size=k,
                                    max_size=k)))
        left -= k
    return n, rounds


@given(case=bust_rounds())
def test_places_are_one_to_n_with_shared_places_for_ties(
        case: tuple[int, list[list[int]]]) -> None:
    """Finishing places form a competition ranking of 1..N: a place shared by c players is
    followed by place p + c; within a hand more chips at the start never places lower, and
    places higher unless the hand bursts the bubble (TDA RP-8-A: they share)."""
    n, rounds = case
    log = Log(replace(example("tda-demo"), seats_per_table=12))
    for p in players(n):
        log.add(register(log.state, p, p))
    log.add(draw_seats(log.state, ("A", "B", "C")[:max(1, min(3, n // 2))], players(n)))
    for chips in rounds:
        alive = [e.player for e in log.state.remaining]
        busts = [Bust(player, c, "A", 1) for player, c in zip(alive, chips, strict=False)]
        events = eliminate(log.state, busts)
        out = [e for e in events if isinstance(e, PlayerEliminated)]
        for a in out:
            for b in out:
                if a.chips_at_start > b.chips_at_start:
                    assert a.place < b.place or (a.place == b.place and a.rule == "tda-rp-8")
                if a.chips_at_start == b.chips_at_start:
                    assert a.place == b.place
        log.add(*events)
    assert log.state.finished
    places = sorted(e.place for e in log.state.entrants)
    assert places[0] == 1
    for i, place in enumerate(places):
        assert place == i + 1 or place == places[i - 1]


@given(n=st.integers(2, 27), tables=st.integers(1, 3), data=st.data())
def test_seat_draws_keep_tables_within_one_player(n: int, tables: int,
                                                  data: st.DataObject) -> None:
    """Any drawn order seats everybody once, and table sizes differ by at most one."""
    assume(n <= tables * 9)
    log = Log(example("tda-demo"))
    for p in players(n):
        log.add(register(log.state, p, p))
    order = data.draw(st.permutations(players(n)))
    names = ("A", "B", "C")[:max(1, min(tables, n // 2))]
    event = draw_seats(log.state, names, order)
    log.add(event)
    sizes = [len(log.state.seated_at(t)) for t in names]
    assert sum(sizes) == n and max(sizes) - min(sizes) <= 1
    assert len({(a.table, a.seat) for a in event.assignments}) == n


def test_a_seat_draw_that_leaves_a_table_with_fewer_than_two_players_is_refused() -> None:
    """A table always plays when two or more players can be dealt in: a draw of 5 players
    over 3 tables would leave one with a single player (no hand there, ever), so it is
    refused, saying how many tables the field fills; nothing is recorded."""
    log = Log(example("tda-demo"))
    for p in players(5):
        log.add(register(log.state, p, p))
    with pytest.raises(RuleViolation) as refused:
        draw_seats(log.state, ("A", "B", "C"), players(5))
    assert refused.value.rule == "seating" and refused.value.legal == ("at most 2 table(s)",)
    assert "fewer than two players" in refused.value.message
    assert len(draw_seats(log.state, ("A", "B"), players(5)).assignments) == 5


def test_colored_up_event_is_folded_into_the_chip_unit() -> None:
    log = started(example("tda-demo"), 2, tables=("A",))
    run_to_level(log, 4)
    event = color_up(log.state, {"p01": 5000, "p02": 5000})
    assert isinstance(event, ChipsColoredUp)
    log.add(event)
    assert stakes(log.state).chip_unit == 100 and log.state.in_play == ("red", "green", "black")


def test_tournament_event_types_are_stable_past_tense_names() -> None:
    """Every tournament event is a frozen slots dataclass with a snake_case TYPE in the past
    tense and a VERSION, and no TYPE collides with a hand or table event."""
    import dataclasses
    import re

    from handlog.engine.events import all_event_types
    from handlog.schema.codec import EventCodec

    names = [getattr(cls, "TYPE") for cls in TOURNAMENT_EVENT_TYPES]  # noqa: B009
    for cls, name in zip(TOURNAMENT_EVENT_TYPES, names, strict=True):
        assert re.fullmatch(r"[a-z]+(_[a-z]+)+", name), name
        assert any(w.endswith("ed") or w in ("drawn", "withdrew") for w in name.split("_")), name
        assert getattr(cls, "VERSION") >= 1  # noqa: B009
        params = getattr(cls, "__dataclass_params__")  # noqa: B009
        assert dataclasses.is_dataclass(cls) and params.frozen and "__slots__" in vars(cls)
    assert len(set(names)) == len(names)
    EventCodec(all_event_types())  # raises on a shared TYPE


def test_every_draw_places_the_button_with_the_code_button_draw(tmp_path: Path) -> None:
    """The seat draw's button is placed for the reason button_draw, the same code as a table
    break's draw (it was once stored as the words 'draw for the button')."""
    from web_support import make_recorder

    from handlog.recorder.floor import setup_demo

    recorder = make_recorder(tmp_path)
    tournament = setup_demo(recorder, players=12, tables=2)
    placed = [e for table in ("1", "2")
              for e in recorder.store.read(f"table-{tournament}-{table}")
              if e.type == "button_placed"]
    assert len(placed) == 2
    assert {(e.schema_version, e.payload["reason"]) for e in placed} == {(3, "button_draw")}
    recorder.store.close()
