"""The floor page lists the signed-in tablets and signs one out, in a real browser (Debian's
chromium through Playwright): the tablet's next entry is refused and it shows the sign-in."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_support import (
    CHROMIUM,
    CHROMIUM_ARGS,
    DIRECTOR_PIN,
    make_app,
    make_recorder,
    open_table,
    require_chromium,
)

from handlog.recorder.cli_serve import serve_in_thread

pytestmark = pytest.mark.browser

STREAM = "table-1"
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    require_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                              args=CHROMIUM_ARGS)
        yield launched
        launched.close()


def test_the_floor_lists_the_signed_in_tablets_and_signs_one_out(browser: Any,
                                                                  tmp_path: Path) -> None:
    recorder = make_recorder(tmp_path)
    open_table(recorder, STREAM)
    app, auth = make_app(recorder)
    with serve_in_thread(app) as base:
        tablet = browser.new_context(viewport={"width": 768, "height": 1024}).new_page()
        tablet.goto(f"{base}/dealer/{STREAM}")
        tablet.fill("#signin-name", "Dana")
        for digit in auth.table_pin(STREAM):
            tablet.click(f"[data-pin='{digit}']")
        tablet.click("[data-pin='join']")
        tablet.wait_for_selector("[data-action='start']")
        device = tablet.evaluate("() => localStorage.getItem('handlog.device')")

        floor = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
        floor.goto(f"{base}/floor")
        floor.fill("#director-pin", DIRECTOR_PIN)
        floor.click("#signin-form button[type=submit]")
        row = floor.wait_for_selector(f"#tablets tr[data-device='{device}']")
        assert "dealer table-1" in row.inner_text() and "Dana" in row.inner_text()
        assert "this screen" in floor.inner_text("#tablets")  # the director's own session
        ARTIFACTS.mkdir(exist_ok=True)
        floor.screenshot(path=str(ARTIFACTS / "floor-signed-in-tablets.png"))
        floor.click(f"#tablets tr[data-device='{device}'] [data-action='revoke']")
        floor.wait_for_selector(f"#tablets tr[data-device='{device}']", state="detached")

        tablet.click("[data-action='start']")
        tablet.wait_for_selector("[data-pin='join']", timeout=15_000)  # back to the sign-in
        assert [e.type for e in recorder.store.read(STREAM)][-1] == "button_placed"
    recorder.store.close()
