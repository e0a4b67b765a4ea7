"""The dealer's tablet when the store cannot take a write (a full disk, the database restarting):
the server answers 503 with Retry-After, and the tablet says so ("the store is busy,
retrying"), waits what the server asked, sends the same entry again by itself and, once the
store is back, records it once."""

from __future__ import annotations

import time
from typing import Any

import pytest
from test_browser import (  # noqa: F401  (browser and site are fixtures)
    STREAM,
    Site,
    browser,
    dealer,
    shot,
    site,
    tap,
)
from test_store_faults import writes_failing

pytestmark = pytest.mark.browser


def _a_command(request: Any) -> bool:
    return bool(request.method == "POST" and request.url.endswith("/commands"))


def test_the_tablet_waits_out_a_busy_store_by_itself_and_says_so(
        browser: Any, site: Site) -> None:  # noqa: F811
    page = dealer(browser, site)
    tap(page, "[data-action='start']")
    version = site.recorder.store.head(STREAM).version
    sent: list[float] = []
    page.on("request", lambda request: sent.append(time.monotonic())
            if _a_command(request) else None)
    with writes_failing(site.recorder.store):
        page.click("[data-action='call']")
        page.wait_for_selector(".outbox.busy", timeout=20_000)
        assert "The store is busy, retrying: 1 entry waiting" in page.inner_text(".outbox")
        assert page.inner_text("#status-text").startswith("store busy, retrying")
        assert page.get_attribute("#status", "data-state") == "busy"
        shot(page, "dealer-1280x800-store-busy")
        with page.expect_request(_a_command, timeout=20_000):
            pass  # sent again by itself, with no tap
        assert site.recorder.store.head(STREAM).version == version  # nothing recorded
    # Not before the Retry-After the server gave (2 s): the first answer came after the send.
    assert sent[1] - sent[0] >= 1.9, sent
    page.wait_for_function("() => window.handlogTable.outbox().length === 0 && "
                           "document.body.dataset.version === "
                           "String(window.handlogTable.state().version)", timeout=30_000)
    page.wait_for_selector(".outbox", state="hidden")
    assert "busy" not in page.inner_text("#status-text")
    assert site.stream_types().count("player_called") == 1
    assert site.recorder.store.head(STREAM).version > version
    assert page.errors == []
