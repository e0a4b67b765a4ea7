"""The floor page in Debian's chromium: the director signs a checkpoint with one click and the
floor shows the latest one in full; a viewer sees it but has no button."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_browser import browser, new_page, shows  # noqa: F401  (the module's browser fixture)
from web_support import DIRECTOR_PIN, make_app, make_recorder, open_table

from handlog.recorder.cli_serve import serve_in_thread
from handlog.schema.checkpoint import load_or_create_signing_key, parse_checkpoint

pytestmark = pytest.mark.browser


def test_the_director_signs_a_checkpoint_on_the_floor_and_everyone_sees_it(
        browser: Any, tmp_path: Path) -> None:  # noqa: F811
    recorder = make_recorder(tmp_path)
    open_table(recorder, "table-1")
    key, _ = load_or_create_signing_key(tmp_path / "k", "casino.example/room")
    app, _auth = make_app(recorder, signing_key=key)
    with serve_in_thread(app) as base:
        floor = new_page(browser)
        floor.goto(f"{base}/floor")
        floor.fill("#director-pin", DIRECTOR_PIN)
        floor.click("#signin-form button[type=submit]")
        shows(floor, "[data-action='checkpoint']")
        assert "none yet" in floor.inner_text(".checkpoint")
        floor.click("[data-action='checkpoint']")
        shows(floor, "#checkpoint-text")
        text = floor.inner_text("#checkpoint-text")
        signed = parse_checkpoint(text.rstrip("\n") + "\n", key.verifier)
        assert signed.size == recorder.store.tree_head().size
        assert floor.errors == []
        viewer = new_page(browser)
        viewer.goto(f"{base}/floor")
        viewer.click("#as-viewer")
        shows(viewer, "#checkpoint-text")
        assert viewer.inner_text("#checkpoint-text") == text
        assert viewer.locator("[data-action='checkpoint']").count() == 0
    recorder.store.close()
