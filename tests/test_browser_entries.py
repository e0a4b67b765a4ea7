"""Re-entries, rebuys and the add-on from the floor page, in a real browser (issue 25), while
the hands are tapped in through the tablets' API: a re-entry event (a player out re-enters;
the same entry again is refused, naming the rule) and a rebuy-and-add-on event (a rebuy; a
second one over the stack limit refused, naming the rule; the add-on at the break after level
4), each played to its winner; `handlog replay` exits 0 and nothing is unaccounted."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from test_api_tournament import play_hand
from test_browser import browser, new_page, shows  # noqa: F401 - the browser fixture
from test_browser_tournament import T, advance, click, current, settle, view
from web_support import DIRECTOR_PIN, Client, make_app, make_recorder

from handlog.recorder.cli import cli
from handlog.recorder.cli_serve import serve_in_thread
from handlog.recorder.service import Recorder

pytestmark = pytest.mark.browser

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def open_floor(page_maker: Any, base: str, structure: str, players: int) -> Any:
    """The director signs in, creates the tournament from `structure`, registers `players`,
    draws one table and starts level 1, all on the page."""
    floor = new_page(page_maker)
    floor.goto(f"{base}/floor")
    floor.fill("#director-pin", DIRECTOR_PIN)
    floor.click("#signin-form button[type=submit]")
    floor.wait_for_selector("#new-tournament:not([hidden])")
    floor.fill("#new-tournament-form input[name='id']", T)
    floor.set_input_files("#new-tournament-form input[name='structure']",
                          str(EXAMPLES / structure))
    floor.click("#new-tournament-form button")
    shows(floor, f".tournament[data-tournament='{T}']")
    form = f"[data-form='register'][data-t='{T}']"
    for k in range(players):
        shows(floor, form)
        floor.fill(f"{form} input[name='name']", f"Player {k + 1}")
        floor.click(f"{form} button")
        settle(floor)
    draw = f"[data-form='draw'][data-t='{T}']"
    shows(floor, draw)
    floor.fill(f"{draw} input[name='tables']", "1")
    floor.click(f"{draw} button")
    settle(floor)
    click(floor, "start_level")
    return floor


def send(floor: Any, api: Client, kind: str, player: str) -> None:
    """Pick `player` in the entries box's form `kind` and send it."""
    current(floor, api)
    form = f".entries-desk [data-form='{kind}'][data-t='{T}']"
    shows(floor, f"{form} option[value='{player}']")
    floor.select_option(f"{form} select[name='player']", player)
    floor.click(f"{form} button")
    floor.wait_for_function("() => window.__floorPending === 0")


def refused(floor: Any) -> str:
    shows(floor, "#alert")
    text: str = floor.inner_text("#alert")
    floor.click("#alert [data-action='dismiss']")
    return text


def play_to_the_end(floor: Any, api: Client, rng: random.Random, until: Any = None,
                    level_every: int = 8) -> None:
    """Hands through the API, a level every `level_every` hands (0: none), until the prizes
    are awarded (or `until(view)` is true)."""
    for hands in range(3000):
        v = view(api)
        if v["prizes"] or (until is not None and until(v)):
            return
        if v["on_break"]:
            advance(floor, api)
            continue
        play_hand(api, v["table_streams"][v["tables"][0]], rng)
        if level_every and hands % level_every == level_every - 1 and v["level"] < 10:
            advance(floor, api)
    raise AssertionError("no winner in 3000 hands")


def replayed_clean(recorder: Recorder, tmp_path: Path) -> dict[str, Any]:
    runner = CliRunner()
    replayed = runner.invoke(cli, ["replay", "--db", recorder.store.url])
    assert replayed.exit_code == 0, replayed.output
    out = tmp_path / "report.json"
    assert runner.invoke(cli, ["report", "--db", recorder.store.url, "--format", "json",
                               "--out", str(out)]).exit_code == 0
    (tournament,) = json.loads(out.read_text())["tournaments"]
    assert tournament["money"]["unaccounted"] == 0
    found: dict[str, Any] = tournament
    return found


def test_a_re_entry_event_from_the_floor_page(browser: Any, tmp_path: Path) -> None:  # noqa: F811
    recorder = make_recorder(tmp_path)
    app, auth = make_app(recorder, level_for=lambda _s, _f: None)
    rng = random.Random(3)
    with serve_in_thread(app) as base, Client(app, auth) as api:
        assert api.login("director").status_code == 200
        floor = open_floor(browser, base, "tda-re-entry.toml", 6)
        play_to_the_end(floor, api, rng, until=lambda v: v["eliminations"], level_every=0)
        out = view(api)["eliminations"][0]["player"]
        send(floor, api, "re-enter", out)
        assert not floor.locator("#alert").is_visible()
        v = view(api)
        assert v["entries"] == 7 and v["money"]["re_entries"] == 2200
        # The same entry again: its person holds a live entry now; the engine says no.
        send(floor, api, "re-enter", out)
        assert "already holds a live entry" in refused(floor)
        play_to_the_end(floor, api, rng)
        shows(floor, ".money [data-money='re_entries']")
        assert floor.errors == []
    tournament = replayed_clean(recorder, tmp_path)
    people = {p["person"]: p for p in tournament["entries"]}
    kinds = [e["kind"] for p in people.values() for e in p["entries"]]
    assert kinds.count("re_entry") == 1 and len(people) == 6
    recorder.store.close()


def test_a_rebuy_and_add_on_event_from_the_floor_page(browser: Any,  # noqa: F811
                                                      tmp_path: Path) -> None:
    recorder = make_recorder(tmp_path)
    app, auth = make_app(recorder, level_for=lambda _s, _f: None)
    rng = random.Random(5)
    with serve_in_thread(app) as base, Client(app, auth) as api:
        assert api.login("director").status_code == 200
        floor = open_floor(browser, base, "tda-rebuy.toml", 5)
        player = view(api)["players"][0]["player"]
        send(floor, api, "rebuy", player)
        assert not floor.locator("#alert").is_visible()
        assert view(api)["money"]["rebuys"] == 2200
        send(floor, api, "rebuy", player)  # 10,000 chips now: over the limit
        text = refused(floor)
        assert "a rebuy needs 5000 or fewer" in text and "stack_at_most" in text
        send(floor, api, "add-on", player)  # not at its break yet
        assert "break after level 4" in refused(floor)
        while view(api)["level"] < 4:
            advance(floor, api)
        click(floor, "start_break", api)
        for p in view(api)["players"]:
            send(floor, api, "add-on", p["player"])
            assert not floor.locator("#alert").is_visible()
        v = view(api)
        assert v["money"]["add_ons"] == 2500 * len(v["players"])
        advance(floor, api)
        play_to_the_end(floor, api, rng)
        assert floor.errors == []
    tournament = replayed_clean(recorder, tmp_path)
    money = tournament["money"]
    assert money["rebuys"] == 2200 and money["add_ons"] == 5 * 2500
    assert money["prizes_paid"] == 5 * 2000 + 2000 + 5 * 2000
    recorder.store.close()
