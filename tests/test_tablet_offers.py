"""What the server's table view offers the tablet so that a hand takes fewer taps, and the
guards the engine decides: the next hand starts by itself after the push unless a level, a
break or a move is due; an uncontested pot is pushed by itself; the pending showdown and the
conflict list are said with names."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from web_support import LEVEL, Client, make_app, make_recorder, open_table, record

from handlog.engine import commands as hc
from handlog.engine.cards import parse_cards
from handlog.engine.table import Level
from handlog.engine.table_commands import StartHand
from handlog.recorder.floor import TournamentDesk, setup_demo
from handlog.recorder.service import Actor
from handlog.recorder.tournament_service import Tournaments
from handlog.recorder.views import EventLog, table_view

STREAM = "table-1"
DIRECTOR = Actor("director", "director", "test")


@pytest.fixture
def recorder(tmp_path: Path) -> Iterator[Any]:
    recorder = make_recorder(tmp_path)
    open_table(recorder, STREAM)  # Ann 1000 (button, seat 1), Bob 3000 (SB), Cy 3000 (BB)
    yield recorder
    recorder.store.close()


def view(recorder: Any, level: Level | None = LEVEL, due: tuple[str, ...] = ()) -> dict[str, Any]:
    fold = recorder.table(STREAM)
    return table_view(fold, EventLog(recorder.store).recent(STREAM, fold.version), "dealer",
                      level, dealer_of=STREAM, due=due)


def walk(recorder: Any) -> None:
    """Ann and Bob fold to Cy's big blind."""
    record(recorder, STREAM, StartHand(LEVEL))
    record(recorder, STREAM, hc.Fold(2))
    record(recorder, STREAM, hc.Fold(0))


def test_a_walk_is_pushed_by_itself_and_the_next_hand_starts_by_itself(recorder: Any) -> None:
    """Nobody contests the pot: nothing to show or decide, the tablet pushes it without a tap;
    then the next hand, at the same level with nothing due, starts without a tap too."""
    assert view(recorder)["next_hand"]["hold"] == "first_hand"  # the first hand waits
    walk(recorder)
    showdown = view(recorder)["hand"]["showdown"]
    assert showdown["awards_by_itself"] and showdown["proposed"][0]["winner_seats"] == [5]
    record(recorder, STREAM, hc.AwardPots())
    nxt = view(recorder)["next_hand"]
    assert (nxt["ready"], nxt["starts_by_itself"], nxt["hold"]) == (True, True, "")


def test_a_contested_pot_waits_for_the_cards_said_with_names_and_the_pots_name(
        recorder: Any) -> None:
    """'pot 0 ... position 0 has not shown both cards' reads 'Main pot is contested: Bob has
    not shown both cards'; the pot is not pushed by itself."""
    record(recorder, STREAM, StartHand(LEVEL))
    record(recorder, STREAM, hc.CheckCall(2))  # Ann calls
    record(recorder, STREAM, hc.CheckCall(0))  # Bob completes
    record(recorder, STREAM, hc.CheckCall(1))  # Cy checks
    for cards in ("AhKhQd", "2c", "3c"):
        record(recorder, STREAM, hc.DealBoard(parse_cards(cards)))
        for player in (0, 1, 2):
            record(recorder, STREAM, hc.CheckCall(player))
    showdown = view(recorder)["hand"]["showdown"]
    assert showdown["proposed"] is None and not showdown["awards_by_itself"]
    pending = showdown["pending"]
    assert pending["rule"] == "tda-16"
    assert pending["message"] == "Main pot is contested: Bob has not shown both cards"
    assert "position" not in pending["message"] and "pot 0" not in pending["message"]


@pytest.mark.parametrize(("level", "due", "hold"), [
    (Level(100, 200, number=2), (), "level"),  # the stakes went up since the last hand
    (LEVEL, ("level",), "level"),  # the level's time is up
    (LEVEL, ("break",), "break"),
    (LEVEL, ("move",), "move"),
    (LEVEL, ("level", "move"), "move"),  # a move before new blinds: the floor first
])
def test_the_next_hand_waits_for_a_tap_when_a_level_a_break_or_a_move_is_due(
        recorder: Any, level: Level, due: tuple[str, ...], hold: str) -> None:
    walk(recorder)
    record(recorder, STREAM, hc.AwardPots())
    nxt = view(recorder, level, due)["next_hand"]
    assert (nxt["starts_by_itself"], nxt["hold"]) == (False, hold)
    assert nxt["hold_text"] and nxt["hold_text"] != hold  # said in words (engine/words.py)


def test_a_misdeal_is_re_dealt_on_a_tap(recorder: Any) -> None:
    record(recorder, STREAM, StartHand(LEVEL))
    record(recorder, STREAM, hc.DeclareMisdeal("wrong number of cards"))
    assert view(recorder)["next_hand"]["hold"] == "redeal"


def test_the_raise_offers_carry_what_the_keypad_may_send(recorder: Any) -> None:
    """The legal range, the chip step, the player's bet and the big blind: the tablet offers
    no amount below the minimum or one the chips cannot make."""
    record(recorder, STREAM, StartHand(LEVEL))
    legal = view(recorder)["hand"]["legal"]
    assert (legal["min_to"], legal["max_to"], legal["step"], legal["bet"],
            legal["big_blind"]) == (200, 1000, 1, 0, 100)
    assert [s["label"] for s in legal["sizes"]] == ["Min", "2.5 BB", "3 BB", "4 BB", "All-in"]


@pytest.fixture
def tournament(tmp_path: Path) -> Iterator[tuple[Any, str]]:
    recorder = make_recorder(tmp_path)
    name = setup_demo(recorder, players=10, tables=2, seed=5)
    yield recorder, name
    recorder.store.close()


def play_walk(recorder: Any, stream: str, desk: TournamentDesk) -> None:
    """One hand at a tournament table: everybody folds to the big blind; pushed."""
    context = desk.hand_context(recorder.table(stream))
    record(recorder, stream, StartHand(context.level))
    for _ in range(20):
        hand = recorder.table(stream).state.hand
        if hand.phase != "betting":
            break
        record(recorder, stream, hc.Fold(hand.to_act))
    record(recorder, stream, hc.AwardPots())


def test_the_tournament_says_what_is_due_at_each_table(tournament: tuple[Any, str]) -> None:
    """Nothing due: the next hand starts by itself. The level's time up: a level is due (a
    break after level 4). A table out of balance: the fuller one has a move due."""
    recorder, name = tournament
    desk = TournamentDesk(recorder)
    one, two = f"table-{name}-1", f"table-{name}-2"
    now = datetime.now(UTC)
    play_walk(recorder, one, desk)
    assert desk.start_due(recorder.table(one), now) == ()
    assert desk.start_due(recorder.table(one), now + timedelta(minutes=11)) == ("level",)
    t = Tournaments(recorder)
    for _ in range(3):
        t.start_level(name, DIRECTOR)
    assert desk.start_due(recorder.table(one), now + timedelta(minutes=11)) == ("break",)
    # Level 4 started after the last hand at table one: new blinds, the dealer says so.
    fold = recorder.table(one)
    level = desk.hand_context(fold).level
    hold = table_view(fold, [], "dealer", level, dealer_of=one,
                      due=desk.start_due(fold, now))["next_hand"]["hold"]
    assert hold == "level"
    seated = [s.player for s in recorder.table(two).state.seats]
    t.move(name, seated[0], "1", DIRECTOR)
    t.move(name, seated[1], "1", DIRECTOR)
    assert "move" in desk.start_due(recorder.table(one), now)
    assert "move" not in desk.start_due(recorder.table(two), now)


def test_the_conflict_list_names_the_players_of_a_tournament_table(
        tournament: tuple[Any, str]) -> None:
    """A second tablet recorded first: what it recorded reads 'Hal calls 50', not 'p13 calls
    50', across the end of one hand and the start of the next too."""
    recorder, name = tournament
    stream = f"table-{name}-1"
    app, auth = make_app(recorder, level_for=lambda _s, _f: None)
    with Client(app, auth) as tablet:
        assert tablet.login("director").status_code == 200
        seen = tablet.ok(stream, {"type": "start_hand"})["version"]
        for _ in range(20):
            table = tablet.http.get(f"/api/tables/{stream}").json()
            if not table["hand_in_progress"]:
                break
            hand = table["hand"]
            if hand["phase"] == "showdown":
                tablet.ok(stream, {"type": "award_pots"})
            else:
                tablet.ok(stream, {"type": "fold", "player": hand["legal"]["player"]})
        table = tablet.ok(stream, {"type": "start_hand"})["table"]
        tablet.ok(stream, {"type": "check_call", "player": table["hand"]["legal"]["player"]})
        stale = tablet.send(stream, {"type": "fold", "player": 0}, version=seen)
        assert stale.status_code == 409
        texts = [e["text"] for e in stale.json()["since"]]
    names = set(TournamentDesk(recorder).names(recorder.table(stream)).values())
    assert any(" calls " in t for t in texts) and any(" folds" in t for t in texts)
    players = [t.split(" ")[0] for t in texts if t.endswith(" folds") or " calls " in t]
    assert len(players) >= 2 and set(players) <= names, texts
