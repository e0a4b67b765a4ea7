"""Escaping by construction on the dealer page (lit-html templates, lit.js): a player
whose name is markup is shown as that text, in the seats, the action panel, the seat sheet and
the last entries, and no element of his name is ever made."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_browser import (  # noqa: F401  (browser is a fixture)
    STREAM,
    Site,
    browser,
    dealer,
    shot,
    tap,
)
from web_support import make_app, make_recorder, open_table

from handlog.recorder.cli_serve import serve_in_thread

pytestmark = pytest.mark.browser

NAME = "<img src=x onerror=alert(1)>"


def test_a_player_named_with_markup_is_shown_as_text(browser: Any, tmp_path: Path) -> None:  # noqa: F811
    recorder = make_recorder(tmp_path)
    open_table(recorder, STREAM, [(1, NAME, 1000), (3, "Bob", 3000), (5, "Cy", 3000)])
    app, auth = make_app(recorder)
    with serve_in_thread(app) as base:
        page = dealer(browser, Site(base, auth, recorder))
        dialogs: list[str] = []
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        tap(page, "[data-action='start']")
        assert page.inner_text(".seat[data-seat='1'] .name") == NAME
        assert page.inner_text(".to-act-title").startswith(f"{NAME} to act")  # first to act
        assert page.inner_text(".felt-note") == f"{NAME} to act"
        page.click(".seat[data-seat='1']")  # the seat's sheet names him too
        assert NAME in page.inner_text(".sheet .sheet-title")
        page.click(".sheet [data-action='close']")
        tap(page, "[data-action='fold']")
        assert any(NAME in text for text in page.locator("#events .text").all_inner_texts())
        shot(page, "dealer-escaping")
        assert page.locator("img").count() == 0  # no element was made of the name
        assert dialogs == [] and page.errors == []
    recorder.store.close()
