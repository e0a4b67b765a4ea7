"""The floor page follows the live floor's deltas (GET /api/floor/events `changes` frames,
issue 17): a registration and a table's hand appear without a reload and without reading the
whole floor again."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_browser import browser, new_page, shows  # noqa: F401 - the browser fixture
from web_support import DIRECTOR_PIN, make_app, make_recorder

from handlog.recorder.cli_serve import serve_in_thread
from handlog.recorder.floor import DEMO_DIRECTOR, setup_demo
from handlog.recorder.tournament_service import Tournaments, table_stream

pytestmark = pytest.mark.browser


def test_the_floor_page_follows_registrations_and_hands_live(browser: Any,  # noqa: F811
                                                             tmp_path: Path) -> None:
    """A late entrant registered and a hand started elsewhere show on the open floor page
    through `changes` frames: no reload, no GET /api/floor."""
    recorder = make_recorder(tmp_path)
    tournament = setup_demo(recorder, players=12, tables=2, seed=3)
    app, _auth = make_app(recorder, level_for=lambda _s, _f: None)
    t = Tournaments(recorder)
    with serve_in_thread(app) as base:
        floor = new_page(browser)
        floor.goto(f"{base}/floor")
        floor.fill("#director-pin", DIRECTOR_PIN)
        floor.click("#signin-form button[type=submit]")
        floor.wait_for_selector(".table-card")
        reads: list[str] = []
        floor.on("request", lambda r: reads.append(r.url) if r.url.endswith("/api/floor")
                 else None)
        floor.evaluate("() => { window.__sameDocument = true; }")
        player, _ = t.register(tournament, "Late Lou", DEMO_DIRECTOR)
        seated = next(e.table for e in t.state(tournament).entrants if e.player == player)
        shows(floor, f".table-card[data-stream='{table_stream(tournament, seated)}'] "
                     ":text('Late Lou')")
        other = next(x for x in t.state(tournament).tables if x != seated)
        t.start_hand(tournament, other, DEMO_DIRECTOR)
        shows(floor, f".table-card.in-hand[data-stream='{table_stream(tournament, other)}']")
        assert floor.evaluate("() => window.__sameDocument") is True  # never reloaded
        assert floor.evaluate("() => window.__floorLive") >= 2
        assert reads == []  # the deltas sufficed
        assert floor.errors == []
