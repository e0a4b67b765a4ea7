"""Hands as records: `handlog hands`, `handlog hand show`, the hands API and the replayer's
data: every step's pots (with who is eligible), the rule the engine applied to a short all-in,
corrections where they happened, and no unshown card for a viewer."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from web_support import Client, make_app, make_recorder, open_table

from handlog.recorder.cli import cli
from handlog.replay.hands import HandFilter, table_hands

STREAM = "table-1"


PLAYERS = [(1, "Ann", 1000), (3, "Bob", 3000), (5, "Cy", 3000), (7, "Dee", 3000)]


def play_short_all_in_hand(client: Client) -> None:
    """Ann (button, 1,000) limps, Bob raises to 700, Cy calls, Dee folds (his Qs Qd were
    recorded at the deal and are never shown), Ann all-in for 1,000: not a full raise, so Bob
    and Cy may only call; a flop bet makes a side pot between Bob and Cy; at the showdown
    every hand is tabled (TDA 16, a player is all-in): Ann's aces win the main pot, Bob's kings
    the side pot. Positions: 0 Bob (small blind), 1 Cy (big blind), 2 Dee, 3 Ann."""
    client.ok(STREAM, {"type": "start_hand"})
    client.ok(STREAM, {"type": "deal_hole", "player": 2, "cards": ["Qs", "Qd"]})
    client.ok(STREAM, {"type": "check_call", "player": 2})
    client.ok(STREAM, {"type": "check_call", "player": 3})
    client.ok(STREAM, {"type": "bet_raise", "player": 0, "to": 700})
    client.ok(STREAM, {"type": "check_call", "player": 1})
    client.ok(STREAM, {"type": "fold", "player": 2})
    client.ok(STREAM, {"type": "bet_raise", "player": 3, "to": 1000})
    client.ok(STREAM, {"type": "check_call", "player": 0})
    client.ok(STREAM, {"type": "check_call", "player": 1})
    client.ok(STREAM, {"type": "deal_board", "cards": "AhKh2d"})
    client.ok(STREAM, {"type": "bet_raise", "player": 0, "to": 500})
    client.ok(STREAM, {"type": "check_call", "player": 1})
    client.ok(STREAM, {"type": "deal_board", "cards": "7c"})
    client.ok(STREAM, {"type": "check_call", "player": 0})
    client.ok(STREAM, {"type": "check_call", "player": 1})
    client.ok(STREAM, {"type": "deal_board", "cards": "3c"})
    client.ok(STREAM, {"type": "check_call", "player": 0})
    client.ok(STREAM, {"type": "check_call", "player": 1})
    client.ok(STREAM, {"type": "show_cards", "player": 0, "cards": "KcKd"})
    client.ok(STREAM, {"type": "show_cards", "player": 1, "cards": "9c9d"})
    client.ok(STREAM, {"type": "show_cards", "player": 3, "cards": "AsAd"})
    client.ok(STREAM, {"type": "award_pots"})


@contextmanager
def served_short_all_in_hand(tmp_path: Path) -> Iterator[str]:
    """A server (its address) whose table-1 has one hand recorded, with a side pot."""
    from handlog.recorder.cli_serve import serve_in_thread

    recorder = make_recorder(tmp_path)
    open_table(recorder, STREAM, PLAYERS)
    app, auth = make_app(recorder)
    with Client(*make_app(recorder, auth=auth)) as director:
        assert director.login("director").status_code == 200
        play_short_all_in_hand(director)
    with serve_in_thread(app) as url:
        yield url
    recorder.store.close()


@pytest.fixture
def recorded(tmp_path: Path) -> Any:
    recorder = make_recorder(tmp_path)
    open_table(recorder, STREAM, PLAYERS)
    app, auth = make_app(recorder)
    with Client(app, auth) as director:
        assert director.login("director").status_code == 200
        play_short_all_in_hand(director)
        yield recorder, app, auth, director
    recorder.store.close()


def test_a_short_all_in_step_says_it_is_not_a_full_raise_and_for_whom_it_is_not_reopened(
        recorded: Any) -> None:
    """TDA 47: Ann's all-in for 1,000 over a raise to 700 is 300 more, short of the 600 a full
    raise needs: the action is not reopened for Bob and Cy, who had acted."""
    recorder, *_ = recorded
    hands = table_hands(STREAM, recorder.store.read(STREAM))
    assert [h.number for h in hands] == [1]
    step = next(s for s in hands[0].steps if s.rulings and
                s.rulings[0]["fact"] == "short_all_in")
    ruling = step.rulings[0]
    assert (ruling["to"], ruling["increase"], ruling["full_raise_needed"]) == (1000, 300, 1300)
    assert sorted(ruling["not_reopened_for"]) == [0, 1] and ruling["reopened_for"] == []
    assert ruling["rule"] == "tda-47"


def test_every_step_carries_the_pots_with_who_is_eligible(recorded: Any) -> None:
    """After the flop call: main pot 3,100 (Dee's 100 dead in it; Bob, Cy and Ann eligible),
    side pot 1,000 (Bob and Cy)."""
    recorder, *_ = recorded
    hand = table_hands(STREAM, recorder.store.read(STREAM))[0]
    flop_call = [s for s in hand.steps if s.street == "flop"][-1]
    assert flop_call.pots == ((3100, (0, 1, 3)), (1000, (0, 1)))
    assert flop_call.pot_total == 4100
    assert hand.all_in_players == (3,)


def test_the_api_hides_unshown_cards_from_a_viewer_and_shows_them_to_the_director(
        recorded: Any) -> None:
    """Dee's Qs Qd were recorded at the deal and never shown: a viewer's hand has no card of
    his at any step; the director's has them."""
    recorder, app, auth, director = recorded
    answer = director.http.get(f"/api/tables/{STREAM}/hands/1")
    assert answer.status_code == 200, answer.text
    mine = answer.json()
    assert mine["public"] is False
    assert mine["steps"][-1]["cards"][2] == ["Qs", "Qd"]
    with Client(app, auth) as viewer:
        assert viewer.login("viewer").status_code == 200
        answer = viewer.http.get(f"/api/tables/{STREAM}/hands/1")
        assert answer.status_code == 200
        body = answer.json()
        assert body["public"] is True
        assert "Qs" not in answer.text and "Qd" not in answer.text
        assert all(step["cards"][2] is None for step in body["steps"])
        assert body["steps"][-1]["cards"][3] == ["As", "Ad"]
        texts = [s["text"] for s in body["steps"]]
        assert any("dealt in" in t for t in texts)
        missing = viewer.http.get(f"/api/tables/{STREAM}/hands/9")
        assert missing.status_code == 404


def test_the_api_finds_a_players_all_in_hands(recorded: Any) -> None:
    _recorder, _app, _auth, director = recorded
    found = director.http.get("/api/hands", params={"player": "ann", "all_in": "true"}).json()
    assert [(h["stream"], h["hand"]) for h in found["hands"]] == [(STREAM, 1)]
    none = director.http.get("/api/hands", params={"player": "bob", "all_in": "true"}).json()
    assert none["count"] == 0


def test_cli_hands_and_hand_show(recorded: Any) -> None:
    recorder, *_ = recorded
    url = recorder.store._url  # noqa: SLF001 - the test's own database
    runner = CliRunner()
    listed = runner.invoke(cli, ["hands", "--db", url, "--all-in", "--player", "Ann"])
    assert listed.exit_code == 0, listed.output
    assert f"{STREAM}#1" in listed.output and "1 hand found" in listed.output
    as_json = runner.invoke(cli, ["hands", "--db", url, "--showdown", "--json"])
    assert json.loads(as_json.output)["count"] == 1
    shown = runner.invoke(cli, ["hand", "show", f"{STREAM}#1", "--db", url])
    assert shown.exit_code == 0, shown.output
    assert "not a full raise (a full raise is to 1,300): the action is not reopened for " \
        "Bob, Cy (TDA 47" in shown.output
    assert "Side pot 1 1,000: Bob, Cy" in shown.output
    assert "Qs Qd" in shown.output
    public = runner.invoke(cli, ["hand", "show", "1", "--table", STREAM, "--public",
                                 "--db", url])
    assert "Qs" not in public.output
    wrong = runner.invoke(cli, ["hand", "show", f"{STREAM}#7", "--db", url])
    assert wrong.exit_code == 1 and "has no hand #7" in wrong.output
    bad = runner.invoke(cli, ["hand", "show", "seven", "--db", url])
    assert bad.exit_code == 2 and "STREAM#N" in bad.output


def test_a_voided_entry_is_a_correction_of_the_hand_it_was_in(recorded: Any) -> None:
    """A director's void of the last check is kept with hand 1: who, why, which version."""
    recorder, _app, _auth, director = recorded
    version = director.table(STREAM)["version"]
    answer = director.send(STREAM, {"type": "void_events", "versions": [version],
                                    "reason": "keyed twice", "rule": "tda-1"})
    assert answer.status_code == 200, answer.text
    hand = table_hands(STREAM, recorder.store.read(STREAM))[0]
    voids = [c for c in hand.corrections if c.kind == "event_voided"]
    assert len(voids) == 1 and voids[0].versions == (version,)
    assert voids[0].reason == "keyed twice" and voids[0].actor
    assert HandFilter(corrections=True).keeps(hand, {})
    assert not HandFilter(rulings=True).keeps(hand, {})
