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


def test_the_floor_shows_each_witness_and_one_that_is_down(browser: Any,  # noqa: F811
                                                           tmp_path: Path) -> None:
    """Two witnesses, one listening and one down: the director's checkpoint is cosigned by
    the first, and the floor (the director's and a viewer's) shows the second as down with
    the checkpoint waiting for it, retried; the table's tap was not held up."""
    import threading

    from handlog.recorder.signing import sign_checkpoints
    from handlog.recorder.witness import Witness, make_server
    from handlog.recorder.witness_client import WitnessClient
    from handlog.schema.cosignature import WitnessSigningKey

    league = WitnessSigningKey("league.example/treasurer", bytes(range(1, 33)))
    players = WitnessSigningKey("players.example/association", bytes(range(2, 34)))
    recorder = make_recorder(tmp_path)
    open_table(recorder, "table-1")
    store = recorder.store
    key, _ = load_or_create_signing_key(tmp_path / "k", "casino.example/room")
    server = make_server(Witness(league, {key.name: key.verifier}, tmp_path / "w.state"),
                         "127.0.0.1", 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    up = WitnessClient(f"http://127.0.0.1:{server.server_address[1]}", league.verifier, store,
                       tmp_path / "cosigned")
    down = WitnessClient("http://127.0.0.1:9", players.verifier, store, tmp_path / "cosigned")
    signer = sign_checkpoints(recorder, store, key, 3600, after=lambda taken: [
        up.submit(taken), down.submit(taken)])
    app, _auth = make_app(recorder, signing_key=key, witnesses=[up, down])
    try:
        with serve_in_thread(app) as base:
            floor = new_page(browser)
            floor.goto(f"{base}/floor")
            floor.fill("#director-pin", DIRECTOR_PIN)
            floor.click("#signin-form button[type=submit]")
            shows(floor, "#witnesses [data-witness='players.example/association']")
            floor.click("[data-action='checkpoint']")
            shows(floor, "#checkpoint-text")
            size = recorder.store.tree_head().size
            shows(floor, "[data-witness='league.example/treasurer'][data-state='ok']")
            shows(floor, "[data-witness='players.example/association'][data-state='down']")
            assert floor.inner_text("[data-witness='league.example/treasurer']") == \
                f"league.example/treasurer: cosigned {size} events"
            shown = floor.inner_text("[data-witness='players.example/association']")
            assert f"{size} events waiting, retrying" in shown and "down: unreachable" in shown
            viewer = new_page(browser)
            viewer.goto(f"{base}/floor")
            viewer.click("#as-viewer")
            shows(viewer, "[data-witness='players.example/association'][data-state='down']")
            assert floor.errors == [] and viewer.errors == []
    finally:
        signer.close()
        up.close()
        down.close()
        server.shutdown()
        server.server_close()
        store.close()


def test_the_director_signs_off_the_results_on_the_floor(browser: Any,  # noqa: F811
                                                          tmp_path: Path) -> None:
    """The director's *Sign off the results* on the floor page (signed in by PIN) signs the
    tournament's results on a checkpoint taken then, with the director's key, as `handlog
    tournament sign-off` does; the sign-off is read back from the API and the report."""
    from handlog.recorder.demo import run_demo
    from handlog.replay.report import build_report
    from handlog.schema.sign_off import parse_sign_off, result_rows, results_of

    recorder = make_recorder(tmp_path)
    summary = run_demo(recorder, players=6, tables=1, seed=3, hands=3)
    key, _ = load_or_create_signing_key(tmp_path / "k", "casino.example/room")
    app, _auth = make_app(recorder, signing_key=key,
                          director_key_file=tmp_path / "director.key")
    with serve_in_thread(app) as base:
        floor = new_page(browser)
        floor.goto(f"{base}/floor")
        floor.fill("#director-pin", DIRECTOR_PIN)
        floor.click("#signin-form button[type=submit]")
        button = f"[data-action='sign-off'][data-t='{summary.tournament}']"
        shows(floor, button)
        assert "not signed off yet" in floor.inner_text(".sign-off")
        floor.click(button)
        shows(floor, ".sign-off li[data-checkpoint]")
        read = floor.evaluate("fetch('/api/log/sign-offs').then((r) => r.json())")
        assert floor.errors == []
    (signed,) = read["sign_offs"]
    assert signed["tournament"] == summary.tournament
    director_key, _ = load_or_create_signing_key(tmp_path / "director.key", "unused")
    parsed = parse_sign_off(signed["text"], director_key.verifier)
    stream = f"tournament-{summary.tournament}"
    assert list(parsed.results) == results_of(result_rows(recorder.store, stream), stream)
    assert parsed.size == signed["size"]
    report = build_report(recorder.store)
    (shown,) = report.data["sign_offs"]
    assert (shown["checkpoint"], shown["changed"]) == (signed["checkpoint"], [])
    assert report.data["checkpoints"][-1]["reason"] == "director_sign_off"
    recorder.store.close()
