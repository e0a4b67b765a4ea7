"""The structure's denominations per level travel with the table: the tournament's stakes carry
the chips in play (after each color-up), every hand records them (hand_started v4), a chip pushed
that is not in play is refused, and the tablet's view offers only those chips and only amounts
they can make (all-in aside)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_tournament import example, run_to_level, started
from web_support import SHORT_STACK_TABLE, make_recorder, open_table, record

from handlog.engine import commands as hc
from handlog.engine.commands import BetRaise, PushChips
from handlog.engine.errors import RuleViolation
from handlog.engine.events import HandStarted
from handlog.engine.hand import HandSetup, decide, legal_actions, start_hand
from handlog.engine.hand_start import hand_started_event, setup_from_event
from handlog.engine.table import Level, plan_hand
from handlog.engine.table_commands import StartHand
from handlog.engine.tournament import color_up, stakes
from handlog.recorder.views import EventLog, bet_sizes, table_view
from handlog.schema.codec import decode_event

STREAM = "table-1"


def test_the_tournaments_stakes_carry_the_chips_in_play_and_a_color_up_removes_one() -> None:
    """tda-demo plays white 25, red 100, green 500, black 1000; the color-up in level 4
    removes the whites: the stakes then carry 100, 500, 1000 and the hands planned from them
    record exactly those."""
    log = started(example("tda-demo"), 2, tables=("A",))
    assert stakes(log.state).denominations == (25, 100, 500, 1000)
    run_to_level(log, 4)
    assert stakes(log.state).denominations == (25, 100, 500, 1000)
    log.add(color_up(log.state, {"p01": 5000, "p02": 5000}))
    level = stakes(log.state)
    assert (level.chip_unit, level.denominations) == (100, (100, 500, 1000))


def _hand(denominations: tuple[int, ...], stacks: tuple[int, ...] = (5000, 5000, 5000)) -> Any:
    unit = denominations[0]
    return start_hand(HandSetup(stacks, (unit, 2 * unit, 0), (0, 0, 0), 2 * unit, unit,
                                "tda", denominations=denominations))


@pytest.mark.parametrize("chip", [75, 50, 200])
def test_a_chip_pushed_that_is_not_in_play_is_refused_naming_the_chips_in_play(chip: int) -> None:
    """Chips in play 25, 100, 500: a 75, 50 or 200 chip does not exist at this level, though
    each is a multiple of the smallest chip."""
    state = _hand((25, 100, 500))
    with pytest.raises(RuleViolation, match=f"a chip of {chip} is not in play") as refused:
        decide(state, PushChips(2, (chip,)))
    assert refused.value.rule == "tda-25"
    assert refused.value.legal == ("25", "100", "500")


def test_chips_in_play_are_ruled_and_amounts_they_cannot_make_refused_unless_all_in() -> None:
    state = _hand((25, 100, 500), stacks=(5000, 5000, 1010))
    events = decide(state, PushChips(2, (100, 100, 25)))  # 225 silently over a 50 blind
    assert events[0].chips == (100, 100, 25)
    with pytest.raises(RuleViolation, match="cannot be made with the chips in play"):
        decide(state, BetRaise(2, 130))
    assert decide(state, BetRaise(2, 1010))  # all-in for an amount no chips make


def test_hand_started_records_the_denominations_and_replays_them() -> None:
    setup = _hand((25, 100, 500)).setup
    event = hand_started_event(setup)
    assert event.denominations == (25, 100, 500)
    assert setup_from_event(event).denominations == (25, 100, 500)


def test_a_hand_started_before_version_4_has_no_denominations_and_any_multiple_is_a_chip(
) -> None:
    """The upcaster: an older hand recorded only its chip unit, so any multiple of it was a
    chip; it replays as it was played."""
    payload = {"hand_number": 1, "players": ["a", "b"], "seats": [1, 2], "stacks": [500, 500],
               "blinds": [25, 50], "antes": [0, 0], "min_bet": 50, "chip_unit": 25,
               "profile": "tda", "button_seat": 2, "dead_money": 0, "rules_digest": "",
               "handlog_version": ""}
    event = decode_event("hand_started", 3, payload)
    assert isinstance(event, HandStarted) and event.denominations == ()
    state = start_hand(setup_from_event(event))
    assert state.to_act is not None
    assert decide(state, PushChips(state.to_act, (75,)))  # a 75 "chip", as the old log had it


@pytest.mark.parametrize("bad", [(50, 100), (25, 25, 100), (25, 110), (100, 25)])
def test_a_hand_set_up_with_chips_that_cannot_be_in_play_is_refused(bad: tuple[int, ...]) -> None:
    with pytest.raises(RuleViolation, match="chips in play .* smallest first"):
        start_hand(HandSetup((500, 500), (25, 50), (0, 0), 50, 25, denominations=bad))


def test_plan_hand_hands_the_levels_chips_to_the_hand() -> None:
    from handlog.engine.table import Seat, TableState

    table = TableState("t", 9, "tda", seats=(Seat(1, "a", 5000), Seat(2, "b", 5000)), button=1)
    setup = plan_hand(table, Level(50, 100, number=2, chip_unit=25,
                                   denominations=(25, 100, 500)), 1)
    assert setup.denominations == (25, 100, 500)


def test_the_table_view_offers_the_chips_in_play_and_only_makeable_amounts(
        tmp_path: Path) -> None:
    """What the tablet reads: `denominations` (the chip tray's chips, nothing else) and quick
    sizes, minimum and all-in that the chips in play can make, or are all-in."""
    recorder = make_recorder(tmp_path)
    open_table(recorder, STREAM, SHORT_STACK_TABLE)
    level = Level(25, 50, number=3, chip_unit=25, denominations=(25, 100, 500))
    record(recorder, STREAM, StartHand(level))
    fold = recorder.table(STREAM)
    view = table_view(fold, EventLog(recorder.store).recent(STREAM, fold.version), "dealer",
                      level, dealer_of=STREAM)
    hand = view["hand"]
    assert hand["denominations"] == [25, 100, 500]
    assert view["level"]["denominations"] == [25, 100, 500]
    legal = hand["legal"]
    player_bet = 0
    for to in [legal["min_to"]] + [s["to"] for s in legal["sizes"]]:
        assert (to - player_bet) % 25 == 0 or to == legal["max_to"]
    # An odd all-in short stack: every offered size is makeable or the all-in.
    state = _hand((25, 100, 500), stacks=(5000, 5000, 1010))
    la = legal_actions(state)
    assert la is not None
    for size in bet_sizes(state, la):
        assert size["to"] % 25 == 0 or size["to"] == la.max_to
    record(recorder, STREAM, hc.PushChips(legal["player"], (100, 25)))
    with pytest.raises(RuleViolation, match="not in play"):
        record(recorder, STREAM, hc.PushChips(recorder.table(STREAM).state.hand.to_act, (75,)))
