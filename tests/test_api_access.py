"""Nobody sees or changes what his role must not (issue 11): unshown hole cards reach only that
table's dealers and the directors on every path (JSON, event streams, error bodies); a dealer
session is had only for an open table; a dealer's undo never reverses a director's event."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from web_support import Client, make_app, make_recorder, open_table, record

from handlog.engine.cards import parse_cards
from handlog.engine.commands import DealHole
from handlog.recorder.auth import CSRF_HEADER, SESSION_COOKIE, Auth
from handlog.recorder.cli_serve import serve_in_thread
from handlog.recorder.service import Recorder

STREAM = "table-1"
OTHER = "table-2"
HOLE = {0: "JhTh", 1: "QsKs", 2: "AhAs"}  # Bob, Cy, Ann (positions of the hand)


@pytest.fixture
def recorder(tmp_path: Path) -> Any:
    recorder = make_recorder(tmp_path)
    open_table(recorder, STREAM)
    open_table(recorder, OTHER, [(2, "Dee", 4000), (6, "Eve", 4000)], button=2)
    yield recorder
    recorder.store.close()


@pytest.fixture
def app_auth(recorder: Recorder) -> tuple[FastAPI, Auth]:
    return make_app(recorder)


def _cards(cards: str) -> re.Pattern[str]:
    tokens = [cards[i:i + 2] for i in range(0, len(cards), 2)]
    alternatives = "|".join(re.escape(t) for t in tokens) + "|" + re.escape(cards)
    return re.compile(rf"(?<![A-Za-z0-9])({alternatives})(?![A-Za-z0-9])")


def _holds_a_hole_card(text: str) -> bool:
    return any(_cards(cards).search(text) for cards in HOLE.values())


def _deal_known_cards(director: Client, recorder: Recorder) -> None:
    director.ok(STREAM, {"type": "start_hand"})
    for position, cards in HOLE.items():
        record(recorder, STREAM, DealHole(position, parse_cards(cards)))


def _first_sse_state(base: str, cookies: httpx.Cookies, path: str) -> str:
    with httpx.Client(base_url=base, cookies=cookies, timeout=10) as http:
        with http.stream("GET", path) as response:
            assert response.status_code == 200, path
            for line in response.iter_lines():
                if line.startswith("data:"):
                    return line[5:]
    raise AssertionError(f"no state on {path}")


def _signed_in(base: str, body: dict[str, Any]) -> httpx.Cookies:
    with httpx.Client(base_url=base, timeout=10) as http:
        response = http.post("/api/session", json=body)
        assert response.status_code == 200, response.text
        return http.cookies


# --- hole cards ----------------------------------------------------------------------------


def test_the_dealer_of_another_table_and_a_viewer_get_no_unshown_hole_card(
        recorder: Recorder, app_auth: tuple[FastAPI, Auth]) -> None:
    """Table 2's dealer and a viewer read table 1 (JSON, floor, event streams) without one of
    its dealt cards; table 1's dealer and the director get them (so the test can fail)."""
    app, auth = app_auth
    with Client(app, auth) as director, serve_in_thread(app) as base:
        director.login("director")
        _deal_known_cards(director, recorder)
        others = {
            "dealer of table 2": {"role": "dealer", "table": OTHER, "pin": auth.table_pin(OTHER)},
            "viewer": {"role": "viewer"},
        }
        for who, body in others.items():
            cookies = _signed_in(base, body)
            with httpx.Client(base_url=base, cookies=cookies, timeout=10) as http:
                for path in (f"/api/tables/{STREAM}", "/api/tables", "/api/floor"):
                    response = http.get(path)
                    assert response.status_code == 200, (who, path)
                    assert not _holds_a_hole_card(response.text), (who, path, response.text)
            for path in (f"/api/tables/{STREAM}/events", "/api/floor/events"):
                streamed = _first_sse_state(base, cookies, path)
                assert not _holds_a_hole_card(streamed), (who, path, streamed[:300])
        own = _signed_in(base, {"role": "dealer", "table": STREAM, "pin": auth.table_pin(STREAM)})
        assert _cards(HOLE[0]).search(_first_sse_state(base, own, f"/api/tables/{STREAM}/events"))
        assert _cards(HOLE[2]).search(json.dumps(director.table(STREAM)))


def test_a_conflict_body_lists_what_was_recorded_without_cards_for_those_who_may_not_see_them(
        recorder: Recorder, app_auth: tuple[FastAPI, Auth]) -> None:
    """409 `since` and `table`: the table's own dealer gets the dealt cards in them; the table
    view built for anyone else (one filter, `sees_hole_cards`) has none."""
    app, auth = app_auth
    with Client(app, auth) as director, Client(app, auth) as dealer:
        director.login("director")
        dealer.login("dealer", STREAM)
        director.ok(STREAM, {"type": "start_hand"})
        stale = recorder.table(STREAM).version
        record(recorder, STREAM, DealHole(0, parse_cards(HOLE[0])))
        response = dealer.send(STREAM, {"type": "fold", "player": 2}, version=stale)
        assert response.status_code == 409
        body = response.json()
        assert [row["type"] for row in body["since"]] == ["hole_cards_dealt"]
        assert _cards(HOLE[0]).search(json.dumps(body))  # his own table: he dealt them
    with Client(app, auth) as other:
        other.login("dealer", OTHER)
        response = other.send(STREAM, {"type": "fold", "player": 2}, version=stale)
        assert response.status_code == 403 and not _holds_a_hole_card(response.text)


def test_no_dealer_session_for_a_table_that_is_not_open(
        recorder: Recorder, app_auth: tuple[FastAPI, Auth]) -> None:
    """'nosuchtable' (even with the PIN the secret derives for it) and a stream that is not a
    table get no dealer session and no cookie; a pairing code is only made for an open table."""
    app, auth = app_auth
    with Client(app, auth) as client:
        for table in ("nosuchtable", "table-9", "tournament-x"):
            response = client.login("dealer", table, pin=auth.table_pin(table))
            assert response.status_code == 401, table  # as a wrong PIN: names are not probed
            assert "no open table" in response.json()["message"]
            assert SESSION_COOKIE not in response.cookies
        assert client.login("dealer", STREAM).status_code == 200
    with Client(app, auth) as director:
        director.login("director")
        answer = director.http.post("/api/tables/nosuchtable/pairing",
                                    headers={CSRF_HEADER: director.csrf})
        assert answer.status_code == 404
        assert not [c for c in auth.pairing_codes() if c.table == "nosuchtable"]


# --- a director's event ends the dealer's undo -------------------------------------------


def _check_down(client: Client) -> None:
    """Everybody calls or checks to the showdown; the board comes off as it is due."""
    boards = iter(["2c3d4s", "7c", "8d"])
    while True:
        hand = client.table(STREAM)["hand"]
        if hand["phase"] == "betting":
            client.ok(STREAM, {"type": "check_call", "player": hand["legal"]["player"]})
        elif hand["phase"] == "board":
            client.ok(STREAM, {"type": "deal_board", "cards": next(boards)})
        else:
            return


WHY = {"reason": "the floor ruled", "rule": "TDA 1"}


def _kill(director: Client) -> None:
    director.ok(STREAM, {"type": "start_hand"})
    director.ok(STREAM, {"type": "kill_hand", "player": 0, "reason": "foul", "rule": "TDA 66"})


def _void(director: Client) -> None:
    director.ok(STREAM, {"type": "start_hand"})
    director.ok(STREAM, {"type": "void_hand", "reason": "foreign card"})


def _award_by_ruling(director: Client) -> None:
    director.ok(STREAM, {"type": "start_hand"})
    _check_down(director)
    director.ok(STREAM, {"type": "award_pots", "winners": [[1]], "ruling": "TDA 1"})


def _amend(director: Client) -> None:
    director.ok(STREAM, {"type": "start_hand"})
    raised = director.ok(STREAM, {"type": "bet_raise", "player": 2, "to": 300})["version"]
    director.ok(STREAM, {"type": "amend_amount", "version": raised, "to": 400} | WHY)


@pytest.mark.parametrize("directors_event", [_kill, _void, _award_by_ruling, _amend],
                         ids=["kill_hand", "void_hand", "award_by_ruling", "amend_amount"])
def test_a_dealers_undo_never_reverses_a_directors_event(
        recorder: Recorder, app_auth: tuple[FastAPI, Auth], directors_event: Any) -> None:
    """Architecture: "a director's event is never undone by a dealer". The dealer's undo is
    refused (403, rule `undo`, saying a director must do it) and records nothing; the director
    reverses it only with his reason."""
    app, auth = app_auth
    with Client(app, auth) as director, Client(app, auth) as dealer:
        director.login("director")
        dealer.login("dealer", STREAM)
        directors_event(director)
        before = recorder.table(STREAM)
        refused = dealer.send(STREAM, {"type": "undo"})
        assert refused.status_code == 403, refused.text
        body = refused.json()
        assert body["rule"] == "undo" and "a director must do it" in body["message"]
        assert body["legal"] == ["call the director"]
        assert recorder.table(STREAM).version == before.version
        assert recorder.table(STREAM).state == before.state
        no_reason = director.send(STREAM, {"type": "undo"})
        assert no_reason.status_code == 422 and no_reason.json()["rule"] == "correction"
        assert recorder.table(STREAM).version == before.version
        undone = director.ok(STREAM, {"type": "undo", "reason": "ruled in error"})
        assert undone["events"][0]["type"] == "event_voided"
        assert undone["events"][0]["actor"] == "director"


def test_a_dealers_own_entries_are_still_undone_in_one_tap(
        recorder: Recorder, app_auth: tuple[FastAPI, Auth]) -> None:
    """The refusal is about the director's events only: after a kill, the dealer's next entry
    is his to undo."""
    app, auth = app_auth
    with Client(app, auth) as director, Client(app, auth) as dealer:
        director.login("director")
        dealer.login("dealer", STREAM)
        _kill(director)
        player = dealer.to_act(STREAM)
        dealer.ok(STREAM, {"type": "check_call", "player": player})
        assert dealer.send(STREAM, {"type": "undo"}).status_code == 200
        assert dealer.send(STREAM, {"type": "undo"}).status_code == 403


def test_a_dealers_undo_does_not_take_back_a_directors_penalty(
        recorder: Recorder, app_auth: tuple[FastAPI, Auth]) -> None:
    """A chip penalty (adjust_stack) between hands: the dealer's undo is refused with 403
    saying a director must do it; nothing recorded."""
    app, auth = app_auth
    with Client(app, auth) as director, Client(app, auth) as dealer:
        director.login("director")
        dealer.login("dealer", STREAM)
        director.ok(STREAM, {"type": "start_hand"})
        director.ok(STREAM, {"type": "fold", "player": 2})
        director.ok(STREAM, {"type": "fold", "player": 0})
        if director.table(STREAM)["hand_in_progress"]:
            director.ok(STREAM, {"type": "award_pots"})
        director.ok(STREAM, {"type": "adjust_stack", "seat": 1, "amount": -100,
                             "reason": "penalty: abusive language", "rule": "TDA 71"})
        version = recorder.table(STREAM).version
        refused = dealer.send(STREAM, {"type": "undo"})
        assert refused.status_code == 403, refused.text
        assert "a director must do it" in refused.json()["message"]
        assert recorder.table(STREAM).version == version


def test_a_directors_void_records_why(
        recorder: Recorder, app_auth: tuple[FastAPI, Auth]) -> None:
    app, auth = app_auth
    with Client(app, auth) as director:
        director.login("director")
        _kill(director)
        version = recorder.table(STREAM).version
        response = director.send(STREAM, {"type": "void_events", "versions": [version],
                                          "reason": " ", "rule": "TDA 1"})
        assert response.status_code == 422 and response.json()["rule"] == "reason"
        assert recorder.table(STREAM).version == version
        director.ok(STREAM, {"type": "void_events", "versions": [version],
                             "reason": "killed the wrong hand", "rule": "TDA 1"})
