"""A satellite and a guaranteed event run from the floor page in a real browser (issue 25
item 4), the hands tapped in through the tablets' API: the Money box shows the seats'
value and the house's overlay, the prize list marks each seat; `handlog replay` exits 0 and
nothing is unaccounted."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from test_browser import browser, shows  # noqa: F401 - the browser fixture
from test_browser_entries import open_floor, play_to_the_end, replayed_clean
from test_browser_tournament import view
from web_support import Client, make_app, make_recorder

from handlog.recorder.cli_serve import serve_in_thread

pytestmark = pytest.mark.browser


def shows_text(page: Any, selector: str, text: str) -> None:
    """Wait (30 s at most) until `selector` holds `text`: the floor redraws from its feed."""
    page.wait_for_function("([sel, text]) => (document.querySelector(sel) || {}).textContent"
                           "?.includes(text)", arg=[selector, text], timeout=30_000)


def test_a_satellite_from_the_floor_page_shows_its_seats(browser: Any,  # noqa: F811
                                                         tmp_path: Path) -> None:
    """6 entries at $55 to the pool ($330): one $200 seat in the Main Event for 1st, $130
    cash for 2nd."""
    recorder = make_recorder(tmp_path)
    app, auth = make_app(recorder, level_for=lambda _s, _f: None)
    with serve_in_thread(app) as base, Client(app, auth) as api:
        assert api.login("director").status_code == 200
        floor = open_floor(browser, base, "tda-satellite.toml", 6)
        play_to_the_end(floor, api, random.Random(4))
        assert view(api)["money"]["seats_awarded"] == 20000
        shows_text(floor, ".money [data-money='seats_awarded']", "seats awarded USD 200.00")
        shows(floor, "li[data-seat='Main Event']")
        assert "a seat in Main Event" in floor.inner_text("li[data-seat='Main Event']")
        assert floor.errors == []
    tournament = replayed_clean(recorder, tmp_path)
    assert [x["place"] for x in tournament["prizes"]["seats"]] == [1]
    assert [(a["place"], a["amount"]) for a in tournament["prizes"]["awards"]] == [(2, 13000)]
    recorder.store.close()


def test_a_guarantee_from_the_floor_page_shows_its_overlay(browser: Any,  # noqa: F811
                                                           tmp_path: Path) -> None:
    """6 entries at $20 collect $120 of the $1,000 guarantee: the Money box shows the house's
    $880 overlay, the payouts are on $1,000."""
    recorder = make_recorder(tmp_path)
    app, auth = make_app(recorder, level_for=lambda _s, _f: None)
    with serve_in_thread(app) as base, Client(app, auth) as api:
        assert api.login("director").status_code == 200
        floor = open_floor(browser, base, "tda-guarantee.toml", 6)
        shows_text(floor, ".money [data-money='overlay']", "overlay USD 880.00")
        play_to_the_end(floor, api, random.Random(6))
        assert view(api)["money"]["prizes_paid"] == 100000
        assert floor.errors == []
    tournament = replayed_clean(recorder, tmp_path)
    assert tournament["money"]["overlay"] == 88000
    recorder.store.close()
