"""The room's clock screen (/clock): read on a TV at 1920x1080 and 1280x720 with no sign-in, it
shows the level, the blinds and the time left, what comes next, the field and the prize pool;
it follows the director's pause and added time from the floor page without a reload, and keeps
counting through a dropped connection."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from test_browser import browser, new_page, shows  # noqa: F401 - the browser fixture
from web_support import DIRECTOR_PIN, make_app, make_recorder

from handlog.recorder.cli_serve import free_port, serve_in_thread
from handlog.recorder.floor import setup_demo

pytestmark = pytest.mark.browser

TV = {"width": 1920, "height": 1080}
SMALL_TV = {"width": 1280, "height": 720}


def _seconds(text: str) -> int:
    found = re.search(r"(\d+):(\d\d)", text)
    assert found, text
    return int(found.group(1)) * 60 + int(found.group(2))


def _clock(page: Any) -> str:
    return str(page.inner_text("[data-clock]"))


def _wait(page: Any, predicate: Any, what: str, timeout_ms: int = 30_000) -> None:
    waited = 0
    while not predicate():
        if waited > timeout_ms:
            raise AssertionError(f"{what} did not happen; the screen shows {_clock(page)!r}")
        page.wait_for_timeout(100)
        waited += 100


@pytest.mark.parametrize("viewport", [TV, SMALL_TV], ids=["1920x1080", "1280x720"])
def test_the_clock_screen_shows_the_level_and_time_left_and_follows_the_director(
        browser: Any, tmp_path: Path, viewport: dict[str, int]) -> None:  # noqa: F811
    recorder = make_recorder(tmp_path)
    tournament = setup_demo(recorder, players=12, tables=2, seed=3)
    app, auth = make_app(recorder, level_for=lambda _s, _f: None)
    port = free_port()
    with serve_in_thread(app, port=port) as base:
        screen = new_page(browser, viewport)
        screen.goto(f"{base}/clock?t={tournament}")
        shows(screen, "[data-clock]")
        # No sign-in asked; the screen reads as a viewer.
        assert screen.locator("input").count() == 0
        text = screen.inner_text("#screen")
        assert "Level 1" in text and "25 / 50" in text  # the demo's first level
        assert "next level" in text.lower() and "50 / 100" in text
        assert "after level 4" in text and "12 of 12" in text and "5,000" in text
        assert "prize pool" in text.lower() and "$240" in text and "1. $120" in text
        left = _seconds(_clock(screen))
        assert 9 * 60 <= left <= 10 * 60
        # Everything fits the screen: nothing scrolls on a TV.
        assert screen.evaluate("() => document.documentElement.scrollHeight") <= viewport[
            "height"]
        assert screen.evaluate("() => document.documentElement.scrollWidth") <= viewport["width"]

        # The director pauses on the floor page and adds a minute: the screen follows.
        floor = new_page(browser)
        floor.goto(f"{base}/floor")
        floor.fill("#director-pin", DIRECTOR_PIN)
        floor.click("#signin-form button[type=submit]")
        floor.wait_for_selector("button:has-text('Pause the clock')")
        floor.click("button:has-text('Pause the clock')")
        shows(screen, "[data-clock][data-paused='true']")
        paused = _seconds(_clock(screen))
        floor.click("button:has-text('+1 min')")
        _wait(screen, lambda: _seconds(_clock(screen)) == paused + 60, "the added minute")
        assert "Clock paused" in screen.inner_text("#screen")
        floor.click("button:has-text('Resume the clock')")
        shows(screen, "[data-clock][data-paused='false']")
    # The server goes away (the room's network drops): the screen says it is reconnecting
    # and the clock keeps counting down; the server back, it follows the floor again.
    _wait(screen, lambda: screen.get_attribute("#status", "data-state") != "live",
          "the screen noticing the dropped connection")
    before = _seconds(_clock(screen))
    _wait(screen, lambda: _seconds(_clock(screen)) <= before - 2, "the clock counting")
    again, _auth = make_app(recorder, auth=auth, level_for=lambda _s, _f: None)
    with serve_in_thread(again, port=port):
        _wait(screen, lambda: screen.get_attribute("#status", "data-state") == "live",
              "the screen reconnecting")
        floor.wait_for_selector("button:has-text('Pause the clock')")
        floor.click("button:has-text('Pause the clock')")
        shows(screen, "[data-clock][data-paused='true']")
        assert screen.errors == [] and floor.errors == []
    recorder.store.close()


def test_the_director_posts_a_message_on_the_floor_page_and_the_clock_screen_shows_it(
        browser: Any, tmp_path: Path) -> None:  # noqa: F811
    """The director types a message in the floor page's clock box and posts it: the clock
    screen shows it without a reload, still fitting a 1280x720 TV; an empty one takes it
    down."""
    recorder = make_recorder(tmp_path)
    tournament = setup_demo(recorder, players=12, tables=2, seed=3)
    app, _auth = make_app(recorder, level_for=lambda _s, _f: None)
    with serve_in_thread(app, port=free_port()) as base:
        screen = new_page(browser, SMALL_TV)
        screen.goto(f"{base}/clock?t={tournament}")
        shows(screen, "[data-clock]")
        assert screen.locator("[data-message]").count() == 0
        floor = new_page(browser)
        floor.goto(f"{base}/floor")
        floor.fill("#director-pin", DIRECTOR_PIN)
        floor.click("#signin-form button[type=submit]")
        form = f"[data-form='message'][data-t='{tournament}']"
        floor.wait_for_selector(form)
        floor.fill(f"{form} input[name=text]", "Dinner break after level 4: 45 minutes")
        floor.click(f"{form} button[type=submit]")
        shows(screen, "[data-message]")
        assert screen.inner_text("[data-message]") == "Dinner break after level 4: 45 minutes"
        assert screen.evaluate("() => document.documentElement.scrollHeight") <= SMALL_TV[
            "height"]
        floor.fill(f"{form} input[name=text]", "")
        floor.click(f"{form} button[type=submit]")
        _wait(screen, lambda: screen.locator("[data-message]").count() == 0,
              "the message taken down")
        assert screen.errors == [] and floor.errors == []
    recorder.store.close()


def test_the_clock_screen_of_a_satellite_shows_seats_and_a_guaranteed_pool(
        browser: Any, tmp_path: Path) -> None:  # noqa: F811
    """A satellite of 6 entries at $55 guaranteed to $1,000: the screen shows the
    guaranteed pool and the first places as seats in the Main Event (five $200 seats)."""
    from dataclasses import replace

    from handlog.recorder.demo import DIRECTOR, SATELLITE_STRUCTURE
    from handlog.recorder.structure import load_structure
    from handlog.recorder.tournament_service import Tournaments

    recorder = make_recorder(tmp_path)
    structure = load_structure(SATELLITE_STRUCTURE)
    structure = replace(structure, money=replace(structure.money, guarantee=100000))
    t = Tournaments(recorder)
    t.create("sat", structure, DIRECTOR)
    for k in range(6):
        t.register("sat", f"Player {k + 1}", DIRECTOR)
    t.draw_seats("sat", 1, 1, DIRECTOR)
    t.start_level("sat", DIRECTOR)
    app, _auth = make_app(recorder, level_for=lambda _s, _f: None)
    with serve_in_thread(app, port=free_port()) as base:
        screen = new_page(browser, TV)
        screen.goto(f"{base}/clock?t=sat")
        shows(screen, "[data-clock]")
        shows(screen, ".clock-payouts li")
        text = screen.inner_text("#screen")
        assert "$1,000" in text
        assert "5. seat in Main Event" in text and "6." not in text
        assert screen.errors == []
    recorder.store.close()
