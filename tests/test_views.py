"""The JSON views of a table for each role, built from the fold: what a tablet, the floor and a
viewer are shown."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from web_support import LEVEL, SHORT_STACK_TABLE, make_recorder, open_table, record

from handlog.engine import commands as hc
from handlog.engine.cards import parse_cards
from handlog.engine.events import (
    BetMade,
    CardExposed,
    ChipsPosted,
    HandStarted,
    HoleCardsDealt,
    PlayerCalled,
    PotAwarded,
    RaiseMade,
)
from handlog.engine.hand import LegalActions, begin, execute, legal_actions, start_hand
from handlog.engine.table import Level
from handlog.engine.table_commands import SetAbsence, StartHand, Undo
from handlog.recorder.floor import TournamentDesk, setup_demo
from handlog.recorder.views import (
    EventLog,
    _Names,
    bet_sizes,
    event_text,
    notable_rows,
    table_summary,
    table_view,
)
from handlog.replay.fold import TableFold

STREAM = "table-1"


@pytest.fixture
def recorder(tmp_path: Path) -> Any:
    recorder = make_recorder(tmp_path)
    open_table(recorder, STREAM, SHORT_STACK_TABLE)
    yield recorder
    recorder.store.close()


def view(recorder: Any, role: str = "dealer", level: Level | None = LEVEL) -> dict[str, Any]:
    fold = recorder.table(STREAM)
    return table_view(fold, EventLog(recorder.store).recent(STREAM, fold.version), role, level,
                      dealer_of=STREAM if role == "dealer" else None)


def test_between_hands_the_markers_show_the_next_hands_button_and_blinds(recorder: Any) -> None:
    """TDA 32: who will post what is on screen before the dealer starts the hand."""
    v = view(recorder)
    assert v["next_hand"] == {"ready": True, "button_seat": 1, "small_blind_seat": 3,
                              "big_blind_seat": 5, "seats": [3, 5, 1],
                              "starts_by_itself": False, "hold": "first_hand",
                              "hold_text": "the first hand: start it when the table is ready"}
    marked = {s["seat"]: (s["button"], s["small_blind"], s["big_blind"]) for s in v["seats"]}
    assert marked[1] == (True, False, False) and marked[3] == (False, True, False)
    assert marked[5] == (False, False, True)
    assert len(v["seats"]) == 9 and v["seats"][1] == {
        "seat": 2, "player": None, "button": False, "small_blind": False, "big_blind": False}


def test_the_pots_in_the_middle_hold_what_earlier_streets_collected(recorder: Any) -> None:
    """Bets of the street in progress stay in front of the players, not in a side pot."""
    record(recorder, STREAM, StartHand(LEVEL))
    record(recorder, STREAM, hc.BetRaise(2, 1000))  # Ann all-in
    hand = view(recorder)["hand"]
    assert hand["pots"] == [] and hand["pot_total"] == 1150
    record(recorder, STREAM, hc.CheckCall(0))
    record(recorder, STREAM, hc.CheckCall(1))
    record(recorder, STREAM, hc.DealBoard(parse_cards("AhKhQd")))
    record(recorder, STREAM, hc.BetRaise(0, 500))
    v = view(recorder)
    assert [(p["name"], p["amount"], p["eligible_seats"]) for p in v["hand"]["pots"]] == [
        ("Main pot", 3000, [3, 5, 1])]
    assert {s["player"]: s["bet"] for s in v["seats"] if s["player"]} == {
        "Ann": 0, "Bob": 500, "Cy": 0}
    assert next(s for s in v["seats"] if s["player"] == "Ann")["all_in"]
    record(recorder, STREAM, hc.CheckCall(1))
    pots = view(recorder)["hand"]["pots"]
    assert [(p["name"], p["amount"], p["eligible_seats"]) for p in pots] == [
        ("Main pot", 3000, [3, 5, 1]), ("Side pot 1", 1000, [3, 5])]


def _legal(**changes: Any) -> LegalActions:
    base = dict(player=0, can_fold=True, can_check=False, call_amount=100, call_all_in=False,
                raise_kind="raise", min_to=200, max_to=5000)
    return LegalActions(**(base | changes))  # type: ignore[arg-type]


def test_quick_sizes_preflop_are_multiples_of_the_big_blind_and_all_in_says_what_it_caps(
        ) -> None:
    """Unopened: 2 (the minimum), 2.5, 3 and 4 big blinds, then all-in; a short stack's all-in
    names the presets it cut down, never "4 BB" for less than four big blinds."""
    from handlog.engine.hand import HandSetup

    state = start_hand(HandSetup(stacks=(5000, 5000, 5000), blinds=(50, 100, 0),
                                 antes=(0, 0, 0), min_bet=100))
    legal = legal_actions(state)
    assert legal is not None
    sizes = bet_sizes(state, legal)
    assert [(s["label"], s["to"], s["big_blinds"]) for s in sizes] == [
        ("Min", 200, 2.0), ("2.5 BB", 250, 2.5), ("3 BB", 300, 3.0), ("4 BB", 400, 4.0),
        ("All-in", 5000, 50.0)]
    assert [s["all_in"] for s in sizes] == [False] * 4 + [True]
    short = legal_actions(start_hand(HandSetup(stacks=(5000, 5000, 300), blinds=(50, 100, 0),
                                               antes=(0, 0, 0), min_bet=100)))
    assert short is not None
    capped = bet_sizes(state, short)
    assert [(s["label"], s["to"], s["capped"]) for s in capped] == [
        ("Min", 200, []), ("2.5 BB", 250, []), ("All-in", 300, ["3 BB", "4 BB"])]
    assert bet_sizes(state, _legal(raise_kind="")) == []


def test_quick_sizes_after_the_flop_are_pot_fractions_the_chips_in_play_make(
        recorder: Any) -> None:
    """Smallest chip 25: ½ pot, ¾ pot and pot, each rounded down to what the chips make."""
    from handlog.engine.hand import HandSetup
    from handlog.engine.offers import makeable_at_most

    state = start_hand(HandSetup(stacks=(5000, 5000, 5000), blinds=(25, 50, 0),
                                 antes=(0, 0, 0), min_bet=50, chip_unit=25))
    for command in (hc.CheckCall(2), hc.CheckCall(0), hc.CheckCall(1),
                    hc.DealBoard(parse_cards("AhKhQd"))):
        state = execute(state, command)
    legal = legal_actions(state)
    assert legal is not None and state.pot_total == 150
    sizes = bet_sizes(state, legal)
    assert [(s["label"], s["to"]) for s in sizes] == [
        ("Min", 50), ("½ pot", 75), ("¾ pot", 100), ("Pot", 150), ("All-in", 4950)]
    assert all(s["to"] % 25 == 0 for s in sizes)
    assert makeable_at_most(state, legal, 137) == 125
    assert makeable_at_most(state, legal, 10) == 50  # never below the minimum
    assert makeable_at_most(state, legal, 9999) == 4950  # nor above all-in


def test_a_viewer_gets_no_dealt_or_exposed_cards_and_the_dealer_does(recorder: Any) -> None:
    record(recorder, STREAM, StartHand(LEVEL))
    record(recorder, STREAM, hc.DealHole(0, parse_cards("JhTh")))
    record(recorder, STREAM, hc.ExposeCard(1, parse_cards("9d")[0], False))
    viewer, dealer = view(recorder, "viewer"), view(recorder, "dealer")
    bob_v = next(s for s in viewer["seats"] if s["player"] == "Bob")
    bob_d = next(s for s in dealer["seats"] if s["player"] == "Bob")
    assert bob_v["hole"] is None and bob_d["hole"] == ["Jh", "Th"]
    text = json.dumps(viewer)
    assert "Jh" not in text and "9d" not in text
    assert "Jh" in json.dumps(dealer) and "9d" in json.dumps(dealer)
    assert "Jh" not in viewer["hand"]["known_cards"] and "Jh" in dealer["hand"]["known_cards"]


def test_showdown_lists_the_order_and_what_is_missing_before_the_award(recorder: Any) -> None:
    record(recorder, STREAM, StartHand(LEVEL))
    record(recorder, STREAM, hc.BetRaise(2, 1000))
    record(recorder, STREAM, hc.CheckCall(0))
    record(recorder, STREAM, hc.Fold(1))
    v = view(recorder)
    assert v["hand"]["phase"] == "board" and v["hand"]["betting_closed"]
    assert v["hand"]["board_due"] == 3
    assert v["hand"]["showdown"]["order_seats"] == [1, 3]  # the all-in raiser shows first
    record(recorder, STREAM, hc.DealBoard(parse_cards("2c3c4c")))
    record(recorder, STREAM, hc.DealBoard(parse_cards("5d")))
    record(recorder, STREAM, hc.DealBoard(parse_cards("9s")))
    showdown = view(recorder)["hand"]["showdown"]
    assert showdown["proposed"] is None
    assert showdown["pending"]["rule"] == "tda-16"
    record(recorder, STREAM, hc.ShowCards(2, parse_cards("AsAd")))
    record(recorder, STREAM, hc.ShowCards(0, parse_cards("KhQh")))  # all-in: no muck (TDA 16)
    proposed = view(recorder)["hand"]["showdown"]["proposed"]
    assert [(a["winner_seats"], a["shares"]) for a in proposed] == [([1], [2100])]


def test_last_events_say_who_recorded_them_and_show_corrections(recorder: Any) -> None:
    from handlog.recorder.service import Actor

    dealer = Actor("Dana", "dealer", "tablet-7")
    record(recorder, STREAM, StartHand(LEVEL), dealer)
    record(recorder, STREAM, hc.Fold(2), dealer)
    record(recorder, STREAM, Undo(), dealer)
    events = view(recorder)["events"]
    assert events[0]["text"].startswith("correction: #") and events[0]["correction"]
    assert events[1]["text"] == "Ann folds" and events[1]["voided"]
    assert (events[1]["actor"], events[1]["device"]) == ("Dana", "tablet-7")
    assert events[2]["text"] == "Cy posts big blind 100"


def test_a_kept_row_is_made_again_once_its_event_is_voided_and_never_changed(
        recorder: Any) -> None:
    """Rows are kept with their stored events between taps (one log, as a server keeps it):
    the fold's void makes a new row, the one an earlier answer holds stays as it was, and the
    floor's rows (which add the table) are their own."""
    log = EventLog(recorder.store)
    recorder.on_appended(log.add)
    record(recorder, STREAM, StartHand(LEVEL))
    record(recorder, STREAM, hc.Fold(2))

    def rows() -> list[dict[str, Any]]:
        fold = recorder.table(STREAM)
        return table_view(fold, log.recent(STREAM, fold.version), "dealer",
                          LEVEL, dealer_of=STREAM)["events"]

    before = rows()
    assert rows()[0] is before[0] and not before[0]["voided"]  # (kept: the same row)
    fold = recorder.table(STREAM)
    floor = notable_rows(fold, log.recent(STREAM, fold.version))
    assert floor[0]["table"] and "table" not in rows()[0]
    record(recorder, STREAM, Undo())
    after = rows()
    assert after[1]["version"] == before[0]["version"] and after[1]["voided"]
    assert not before[0]["voided"] and after[1] is not before[0]
    assert [json.dumps(r) for r in after[2:]] == [json.dumps(r) for r in before[1:len(after) - 1]]


def test_absent_players_are_marked_and_stay_marked_into_the_hand(recorder: Any) -> None:
    record(recorder, STREAM, SetAbsence(5, True))
    record(recorder, STREAM, StartHand(LEVEL))
    cy = next(s for s in view(recorder)["seats"] if s["player"] == "Cy")
    assert cy["absent"] and cy["in_hand"]


def _fold_with(events: list[Any]) -> TableFold:
    return TableFold("t", len(events), None, (), tuple(enumerate(events, start=1)), frozenset())


@pytest.mark.parametrize(("event", "public", "text"), [
    (ChipsPosted(0, "small_blind", 50), False, "Ada posts small blind 50"),
    (HoleCardsDealt(1, ("As", "Kd")), False, "Bo dealt As Kd"),
    (HoleCardsDealt(1, ("As", "Kd")), True, "Bo dealt in"),
    (PlayerCalled(0, 300, True), True, "Ada calls 300 (all-in)"),
    (BetMade(1, 200), True, "Bo bets 200"),
    (RaiseMade(0, 900, True, False), True, "Ada raises to 900 (all-in), not a full raise"),
    (CardExposed(1, "Qh", False, "play_continues", ("tda-68",)), True,
     "Bo: a card exposed; shown to the table; play continues"),
    (PotAwarded(1, 400, (0, 1), (0,), (400,), (), (5, 12), ""), True,
     "side pot 1 400: Ada 400 (Flush, ace high)"),
])
def test_event_texts_use_names_and_hide_unshown_cards_from_viewers(
        event: Any, public: bool, text: str) -> None:
    started = HandStarted(1, ("p1", "p2"), (1, 2), (1000, 1000), (50, 100), (0, 0), 100, 1,
                          "tda", 2)
    names = _Names(_fold_with([started]), {"p1": "Ada", "p2": "Bo"})
    assert event_text(event, 2, names, public) == text


def test_table_summary_for_the_floor(recorder: Any) -> None:
    record(recorder, STREAM, StartHand(LEVEL))
    summary = table_summary(recorder.table(STREAM), LEVEL)
    assert summary["hand"]["number"] == 1 and summary["hand"]["to_act"] == "Ann"
    assert [(p["player"], p["stack"]) for p in summary["players"]] == [
        ("Ann", 1000), ("Bob", 2950), ("Cy", 2900)]
    assert summary["chips"] == 7000


def test_a_tournament_table_shows_names_plays_at_the_tournaments_stakes(tmp_path: Path) -> None:
    recorder = make_recorder(tmp_path)
    tournament = setup_demo(recorder, players=6, tables=1, seed=3)
    desk = TournamentDesk(recorder)
    stream = f"table-{tournament}-1"
    fold = recorder.table(stream)
    context = desk.hand_context(fold)
    assert context is not None and context.level is not None
    assert (context.level.small_blind, context.level.big_blind) == (25, 50)
    assert context.final_table and context.blocked is None
    names = desk.names(fold)
    v = table_view(fold, [], "dealer", context.level, names)
    assert {s["player"] for s in v["seats"] if s["player"]} <= set(names.values())
    floor = desk.views(datetime.now(UTC))
    assert floor[0]["id"] == tournament and floor[0]["remaining"] == 6
    assert floor[0]["clock"]["kind"] == "level" and floor[0]["stakes"]["big_blind"] == 50
    recorder.store.close()


def test_begin_events_match_what_the_view_reports(recorder: Any) -> None:
    """The view is a fold: the hand the view shows is the one the engine started."""
    fold = recorder.table(STREAM)
    assert fold.state is not None
    from handlog.engine.table import plan_hand

    setup = plan_hand(fold.state, LEVEL, 1)
    record(recorder, STREAM, StartHand(LEVEL))
    assert view(recorder)["hand"]["number"] == setup.hand_number == 1
    assert len(begin(setup)) == 3


def test_an_events_words_are_kept_per_names_table_and_audience(recorder: Any) -> None:
    """The last events' words are worked out once and kept with the stored event: the same
    events shown with other names (a tournament's names table) or to a viewer are worded
    again, never the kept words of another reader."""
    record(recorder, STREAM, StartHand(LEVEL))
    record(recorder, STREAM, hc.Fold(2))
    log = EventLog(recorder.store)
    fold = recorder.table(STREAM)
    recent = log.recent(STREAM, fold.version)

    def first(names: dict[str, str] | None, role: str = "dealer") -> str:
        rows = table_view(fold, recent, role, LEVEL, names,
                          dealer_of=STREAM if role == "dealer" else None)["events"]
        return str(rows[0]["text"])

    assert first(None) == "Ann folds"
    assert first({"Ann": "Annie"}) == "Annie folds"
    assert first(None) == "Ann folds" and first(None, "viewer") == "Ann folds"


def test_the_offline_hand_follows_a_correction_in_the_hand(recorder: Any) -> None:
    """The hand's events are encoded once each for the tablet's engine; an entry undone drops
    out of what the tablet is sent, and what it is sent is the fresh encoding."""
    from handlog.engine.events import HandStarted
    from handlog.recorder.views import HAND_EVENT_TYPES, offline_hand
    from handlog.schema.codec import encode_event

    def fresh() -> list[list[Any]]:
        events: list[Any] = []
        for _v, event in reversed(recorder.table(STREAM).effective):
            if isinstance(event, HAND_EVENT_TYPES):
                events.append(event)
                if isinstance(event, HandStarted):
                    break
        return [list(encode_event(e)) for e in reversed(events)]

    record(recorder, STREAM, StartHand(LEVEL))
    record(recorder, STREAM, hc.Fold(2))
    folded = offline_hand(recorder.table(STREAM))
    assert folded == fresh() and folded[-1][0] == "player_folded"
    record(recorder, STREAM, Undo())
    undone = offline_hand(recorder.table(STREAM))
    assert undone == fresh() and len(undone) == len(folded) - 1
    record(recorder, STREAM, hc.CheckCall(2))
    assert offline_hand(recorder.table(STREAM)) == fresh()
