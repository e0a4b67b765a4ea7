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


def test_a_recount_proposes_its_own_count_to_rule_not_the_one_it_replaced(
        browser: Any, tmp_path: Path) -> None:  # noqa: F811
    """A table counted twice (one stack 100 over the log's, then 500 over): the second count
    replaces the difference still open, and its row's box proposes the new count, not the
    first count's number kept from before the redraw; "Correct the stack" rules it (+500)."""
    recorder = make_recorder(tmp_path)
    tournament = setup_demo(recorder, players=6, tables=1, seed=3)
    app, _auth = make_app(recorder, level_for=lambda _s, _f: None)
    t = Tournaments(recorder)
    (table,) = t.state(tournament).tables
    seats = recorder.table(table_stream(tournament, table)).state.seats
    off, stack = seats[0].player, seats[0].stack
    with serve_in_thread(app) as base:
        floor = new_page(browser)
        floor.goto(f"{base}/floor")
        floor.fill("#director-pin", DIRECTOR_PIN)
        floor.click("#signin-form button[type=submit]")
        pick = f"[data-form='count-table'][data-t='{tournament}']"
        form = f"[data-form='count'][data-t='{tournament}'][data-table='{table}']"
        ruled = f".count-differences li[data-player='{off}'] input[name='ruled:{off}']"
        for over in (100, 500):
            shows(floor, pick)
            floor.select_option(f"{pick} select[name='table']", table)
            floor.click(f"{pick} button")
            shows(floor, form)
            floor.select_option(f"{form} select[name='occasion']", "end_of_day")
            for seat in seats:
                floor.fill(f"{form} input[name='stack:{seat.player}']",
                           str(seat.stack + (over if seat.player == off else 0)))
            floor.click(f"{form} button")
            floor.wait_for_function(
                "([row, text]) => (document.querySelector(row) || {textContent: ''})"
                ".textContent.includes(text)",
                arg=[f".count-differences li[data-player='{off}']",
                     f"counted {stack + over:,}"], timeout=15000)
            assert floor.input_value(ruled) == str(stack + over)
        row = f".count-differences li[data-player='{off}']"
        floor.fill(f"{row} input[name='reason:{off}']", "recounted: a 500 chip under his cards")
        floor.click(f"{row} button")
        shows(floor, ".count-corrections li")
        assert [c.amount for c in t.state(tournament).corrections] == [500]
        assert floor.errors == []
