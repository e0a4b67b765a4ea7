"""The live feed (issue 27): a viewer follows a whole hand at `GET /api/feed` as versioned
facts in commit order, resumes with `Last-Event-ID`, and gets the hole cards only after the
delay the director set (never by default)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from web_support import Client, make_app, make_recorder, open_table, record

from handlog.engine.cards import parse_cards
from handlog.engine.commands import DealHole
from handlog.recorder.auth import CSRF_HEADER
from handlog.recorder.cli_serve import serve_in_thread
from handlog.recorder.routes.feed import FEED_VERSION

STREAM = "table-1"
HOLE = {0: "JhTh", 1: "QsKs", 2: "AhAs"}


@pytest.fixture
def room(tmp_path: Path) -> Iterator[tuple[Any, Any, Any]]:
    recorder = make_recorder(tmp_path)
    open_table(recorder, STREAM)
    app, auth = make_app(recorder)
    yield recorder, app, auth
    recorder.store.close()


def _play_a_hand(director: Client, recorder: Any) -> None:
    """Every player folds to the big blind, with known hole cards; the pot is awarded."""
    director.ok(STREAM, {"type": "start_hand"})
    for position, cards in HOLE.items():
        record(recorder, STREAM, DealHole(position, parse_cards(cards)))
    while (hand := director.table(STREAM)["hand"]) and hand.get("legal"):
        director.ok(STREAM, {"type": "fold", "player": hand["legal"]["player"]})
    hand = director.table(STREAM)["hand"]
    if hand and hand.get("phase") != "complete":
        director.ok(STREAM, {"type": "award_pots"})


def _messages(base: str, cookies: httpx.Cookies, until: str,
              headers: dict[str, str] | None = None) -> list[tuple[str, str, dict[str, Any]]]:
    """(id, event, data) of the feed's messages up to the first of type `until`."""
    found: list[tuple[str, str, dict[str, Any]]] = []
    with httpx.Client(base_url=base, cookies=cookies, timeout=10) as http:
        with http.stream("GET", "/api/feed", headers=headers or {}) as response:
            assert response.status_code == 200
            assert response.headers["content-type"].startswith("text/event-stream")
            ident, event = "", ""
            for line in response.iter_lines():
                if line.startswith("id: "):
                    ident = line[4:]
                elif line.startswith("event: "):
                    event = line[7:]
                elif line.startswith("data: "):
                    data = json.loads(line[6:])
                    found.append((ident, event, data))
                    ident = event = ""
                    if data["type"] == until:
                        return found
    raise AssertionError(f"the feed ended before {until}")


def _viewer(base: str) -> httpx.Cookies:
    with httpx.Client(base_url=base, timeout=10) as http:
        assert http.post("/api/session", json={"role": "viewer"}).status_code == 200
        return http.cookies


def test_a_viewer_follows_a_whole_hand_without_hole_cards_by_default(room: Any) -> None:
    recorder, app, auth = room
    with Client(app, auth) as director, serve_in_thread(app) as base:
        director.login("director")
        _play_a_hand(director, recorder)
        cookies = _viewer(base)
        messages = _messages(base, cookies, until="pot_awarded")
        facts = [data for _id, event, data in messages if event == "fact"]
        types = [f["type"] for f in facts]
        assert types[0] == "table_opened" and "hand_started" in types
        assert types.index("hand_started") < types.index("player_folded") < len(types) - 1
        assert all(f["feed"] == FEED_VERSION and f["stream"] == STREAM for f in facts)
        positions = [f["position"] for f in facts]
        assert positions == sorted(positions) and [m[0] for m in messages] == \
            [str(p) for p in positions]
        dealt = [f for f in facts if f["type"] == "hole_cards_dealt"]
        assert len(dealt) == 3 and all(f["fact"]["cards"] == [] and f["fact"]["cards_withheld"]
                                       for f in dealt)
        text = json.dumps(messages)
        assert not any(cards[:2] in text or cards[2:] in text for cards in HOLE.values())
        # Resuming after the hand's start sends only what came after it.
        start = next(f["position"] for f in facts if f["type"] == "hand_started")
        again = _messages(base, cookies, until="pot_awarded",
                          headers={"Last-Event-ID": str(start)})
        assert again[0][2]["position"] == start + 1


def test_the_hole_cards_follow_once_the_directors_delay_has_passed(room: Any) -> None:
    recorder, app, auth = room
    with Client(app, auth) as director, serve_in_thread(app) as base:
        director.login("director")
        cookies = _viewer(base)
        with httpx.Client(base_url=base, cookies=cookies, timeout=10) as http:
            refused = http.put("/api/feed/settings", json={"hole_cards_after_seconds": 0})
            assert refused.status_code == 403
        answer = director.http.put("/api/feed/settings", headers={CSRF_HEADER: director.csrf},
                                   json={"hole_cards_after_seconds": 0})
        assert answer.status_code == 200, answer.text
        assert director.http.get("/api/feed/settings").json() == {
            "hole_cards_after_seconds": 0}
        _play_a_hand(director, recorder)
        messages = _messages(base, cookies, until="pot_awarded")
        later = []
        with httpx.Client(base_url=base, cookies=cookies, timeout=10) as http:
            with http.stream("GET", "/api/feed") as response:
                for line in response.iter_lines():
                    if line.startswith("data: "):
                        data = json.loads(line[6:])
                        if data["type"] == "hole_cards_released":
                            later.append(data)
                            if len(later) == 3:
                                break
        released = {d["player"]: "".join(d["cards"]) for d in later}
        assert released == HOLE
        dealt = {d["position"] for _i, _e, d in messages if d["type"] == "hole_cards_dealt"}
        assert {d["position"] for d in later} == dealt
        assert all(d["feed"] == FEED_VERSION and "id" not in d for d in later)
