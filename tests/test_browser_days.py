"""Flights and days from the floor page, in a real browser (issue 25 item 3): two flights
(Day 1A and 1B) set up with seated players and a few hands tapped in through the tablets' API;
the director bags every stack on the page (the day cannot end before, the page shows the
refusal naming the rule), ends each flight, then on the Day 2 log takes the survivors of both
flights and draws the seats, all through the floor's command path; the Day 2 stacks are the
bags (a person in both flights carries the larger). Day 2 is played to its winner through the
API; `handlog replay` exits 0 over the three logs and the event's money is accounted."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from test_api_tournament import play_hand
from test_browser import browser, new_page, shows  # noqa: F401 - the browser fixture
from test_browser_tournament import settle
from web_support import DIRECTOR_PIN, Client, make_app, make_recorder

from handlog.recorder.cli import cli
from handlog.recorder.cli_serve import serve_in_thread
from handlog.recorder.demo import DIRECTOR
from handlog.recorder.structure import load_structure
from handlog.recorder.tournament_service import Tournaments

pytestmark = pytest.mark.browser

FLIGHTS = Path(__file__).resolve().parent.parent / "examples" / "tda-flights.toml"


def _view(api: Client, name: str) -> dict[str, Any]:
    found: dict[str, Any] = next(t for t in api.http.get("/api/floor").json()["tournaments"]
                                 if t["id"] == name)
    return found


def _current(floor: Any, api: Client, name: str) -> None:
    shows(floor, f".tournament[data-tournament='{name}']"
                 f"[data-version='{_view(api, name)['version']}']")


def _bag(floor: Any, api: Client, name: str, player: str, chips: int, bag: str) -> None:
    _current(floor, api, name)
    form = f".days-desk [data-form='bag'][data-t='{name}']"
    shows(floor, f"{form} option[value='{player}']")
    floor.select_option(f"{form} select[name='player']", player)
    floor.fill(f"{form} input[name='chips']", str(chips))
    floor.fill(f"{form} input[name='bag']", bag)
    floor.click(f"{form} button")
    settle(floor)


def _end_day(floor: Any, api: Client, name: str) -> None:
    _current(floor, api, name)
    floor.locator(f"button[data-action='t-cmd'][data-t='{name}'][data-type='end_day']").click()
    floor.wait_for_function("() => window.__floorPending === 0")


def test_bags_end_of_flights_and_day_2_redraw_from_the_floor_page(
        browser: Any, tmp_path: Path) -> None:  # noqa: F811
    recorder = make_recorder(tmp_path)
    app, auth = make_app(recorder, level_for=lambda _s, _f: None)
    t = Tournaments(recorder)
    base = load_structure(FLIGHTS)
    for flight, persons in (("1A", (1, 2, 3, 4)), ("1B", (3, 4, 5, 6))):
        t.create(flight, replace(base, days=replace(base.days, flight=flight)), DIRECTOR)
        for n in persons:
            t.register(flight, f"Player {n}", DIRECTOR, person=f"R{n}")
        t.draw_seats(flight, 1, 7, DIRECTOR)
        t.start_level(flight, DIRECTOR)
    t.create("d2", replace(base, days=replace(base.days, day=2)), DIRECTOR)
    rng = random.Random(4)
    with serve_in_thread(app) as url, Client(app, auth) as api:
        assert api.login("director").status_code == 200
        for flight in ("1A", "1B"):
            stream = _view(api, flight)["table_streams"]["1"]
            for _ in range(2):
                if len(_view(api, flight)["players"]) > 2:
                    play_hand(api, stream, rng)
        floor = new_page(browser)
        floor.goto(f"{url}/floor")
        floor.fill("#director-pin", DIRECTOR_PIN)
        floor.click("#signin-form button[type=submit]")
        bagged: dict[str, list[int]] = {}
        for flight in ("1A", "1B"):
            players = [p["player"] for p in _view(api, flight)["players"]]
            seats = t.table(flight, "1").state.seats  # type: ignore[union-attr]
            stacks = {x.player: x.stack for x in seats}
            for player in players:
                who = t.state(flight).entrant(player)
                assert who is not None
                bagged.setdefault(who.who, []).append(stacks[player])
            _bag(floor, api, flight, players[0], stacks[players[0]], f"{flight}-1")
            _end_day(floor, api, flight)
            shows(floor, "#alert")
            assert "no bag" in floor.inner_text("#alert") and "TDA 25" in floor.inner_text(
                "#alert")
            floor.click("#alert [data-action='dismiss']")
            for k, player in enumerate(players[1:], start=2):
                _bag(floor, api, flight, player, stacks[player], f"{flight}-{k}")
            shows(floor, f".days-desk li[data-player='{players[-1]}']")
            _end_day(floor, api, flight)
            settle(floor)
            v = _view(api, flight)
            assert v["finished"] and v["days"]["ended"]
            assert len(v["days"]["bags"]) == len(players)
        _current(floor, api, "d2")
        form = "[data-form='next-day'][data-t='d2']"
        shows(floor, form)
        floor.fill(f"{form} input[name='sources']", "1A, 1B")
        floor.click(f"{form} button")
        settle(floor)
        _current(floor, api, "d2")
        draw = "[data-form='draw'][data-t='d2']"
        shows(floor, draw)
        floor.click(f"{draw} button")
        settle(floor)
        v = _view(api, "d2")
        assert v["days"]["started"] and v["days"]["sources"] == ["1A", "1B"]
        assert v["entries"] == len(bagged) and v["money"]["carried_in"] == 8 * 2000
        d2 = t.state("d2")
        stacks = {x.player: x.stack for table in d2.tables
                  for x in t.table("d2", table).state.seats}  # type: ignore[union-attr]
        assert {e.who: stacks[e.player] for e in d2.entrants} == {
            p: max(v) for p, v in bagged.items()}
        _current(floor, api, "d2")
        floor.locator("button[data-action='t-cmd'][data-t='d2'][data-type='start_level']").click()
        settle(floor)
        for _ in range(500):
            v = _view(api, "d2")
            if v["prizes"]:
                break
            play_hand(api, v["table_streams"][v["tables"][0]], rng)
        assert _view(api, "d2")["prizes"]
        assert floor.errors == []
    runner = CliRunner()
    replayed = runner.invoke(cli, ["replay", "--db", recorder.store.url])
    assert replayed.exit_code == 0, replayed.output
    event = json.loads(runner.invoke(cli, ["tournament", "event", "main", "--json", "--db",
                                           recorder.store.url]).output)
    assert event["money"]["unaccounted"] == 0 and event["money"]["prizes_paid"] == 8 * 2000
    assert [d["tournament"] for d in event["days"]] == ["1A", "1B", "d2"]
    recorder.store.close()
