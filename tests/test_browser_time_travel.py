"""Time travel, find and what-if in a real browser, on a 12-player demo tournament:

- a table's page with `?at=`, `?hand=` or `?time=` shows the table as it stood then, read-only
  and marked "As of ...", line for line what `handlog table show` prints;
- the floor page with `?time=` shows the room then (who was out, with places);
- the floor page's find box finds a player's all-ins;
- the replayer's what-if of another award moves a place and a prize.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from click.testing import CliRunner
from test_browser import browser, new_page, shot  # noqa: F401  (browser is a fixture)
from web_support import DIRECTOR_PIN, Client, make_app

from handlog.recorder.cli import cli
from handlog.recorder.cli_serve import serve_in_thread
from handlog.recorder.hand_views import registered_names
from handlog.recorder.service import Recorder
from handlog.replay.hands import table_hands
from handlog.schema.store import open_store

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def demo_db(tmp_path_factory: Any) -> str:
    url = f"sqlite:///{tmp_path_factory.mktemp('asof') / 'demo.db'}"
    result = CliRunner().invoke(cli, ["demo", "--players", "12", "--tables", "2", "--seed", "7",
                                      "--db", url])
    assert result.exit_code == 0, result.output
    return url


@pytest.fixture(scope="module")
def site(demo_db: str) -> Iterator[tuple[str, Any]]:
    recorder = Recorder(open_store(demo_db))
    app, auth = make_app(recorder)
    with serve_in_thread(app) as url:
        yield url, (app, auth)
    recorder.store.close()


def _cli_json(*args: str) -> Any:
    result = CliRunner().invoke(cli, [*args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def _hands(url: str) -> list[Any]:
    with open_store(url) as store:
        return [h for head in store.streams() if head.kind == "table"
                for h in table_hands(head.stream_id, store.read(head.stream_id))]


def _names(url: str) -> dict[str, str]:
    with open_store(url) as store:
        return {k: v for head in store.streams() if head.kind == "tournament"
                for k, v in registered_names(store.read(head.stream_id)).items()}


def _lines(page: Any) -> list[str]:
    return [" ".join(line.split()) for line in page.locator("#lines li").all_inner_texts()]


def _said(view: dict[str, Any]) -> list[str]:
    return [" ".join(line.split()) for line in view["lines"]]


def test_a_table_page_at_a_version_shows_the_table_then_read_only(
        browser: Any, site: tuple[str, Any], demo_db: str) -> None:  # noqa: F811
    base, _ = site
    hand = next(h for h in _hands(demo_db) if len(h.steps[-1].pots) > 1)
    step = max(hand.steps, key=lambda s: len(s.pots) if s.phase == "betting" else 0)
    expected = _cli_json("table", "show", hand.stream, "--at", str(step.version),
                         "--db", demo_db)
    page = new_page(browser)
    page.goto(f"{base}/view/{hand.stream}?at={step.version}")
    page.wait_for_selector("#lines li")
    banner = page.inner_text("#asof")
    assert banner.startswith(f"As of version {step.version}: version {step.version} of ")
    assert "Read-only" in banner
    # The last entry in words (as the table's log words it), not its event type's name.
    said = expected["last_event"]["text"]
    assert said and "_" not in said and f'"{said}" by ' in banner
    assert _lines(page) == _said(expected)
    assert any(line.startswith("pots in all: ") for line in _lines(page))
    # Read-only: the live tablet page is not loaded, nothing follows the table.
    assert page.evaluate("typeof window.handlogTable") == "undefined"
    assert page.locator("#actions, [data-pin]").count() == 0
    # One entry later is one click away.
    page.click(f"a[data-version='{step.version + 1}']")
    page.wait_for_function("v => document.body && document.body.dataset.version === v",
                           arg=str(step.version + 1))
    shot(page, "viewer-as-of-version")
    assert page.errors == []


def test_a_table_page_at_a_hand_and_at_a_time(
        browser: Any, site: tuple[str, Any], demo_db: str) -> None:  # noqa: F811
    """`?hand=N`: the dead button on the empty seat with TDA 32; `?time=`: the same cut as
    `table show --time`. A hand that does not exist is refused with the reason."""
    base, _ = site
    hand = next(h for h in _hands(demo_db) if h.start.button_seat not in h.start.seats)
    page = new_page(browser)
    page.goto(f"{base}/view/{hand.stream}?hand={hand.number}")
    page.wait_for_selector("#lines li")
    assert page.inner_text("#asof").startswith(f"As of the start of hand #{hand.number}")
    text = "\n".join(_lines(page))
    assert f"dead button: seat {hand.start.button_seat} is empty" in text and "TDA 32" in text
    moment = hand.steps[3].recorded_at.isoformat()
    expected = _cli_json("table", "show", hand.stream, "--time", moment, "--db", demo_db)
    page.goto(f"{base}/view/{hand.stream}?time={moment.replace('+', '%2B')}")
    page.wait_for_selector("#lines li")
    assert page.get_attribute("body", "data-version") == str(expected["version"])
    assert _lines(page) == _said(expected)
    page.goto(f"{base}/view/{hand.stream}?hand=99999")
    page.wait_for_selector("#alert:not([hidden])")
    assert "has no hand #99999" in page.inner_text("#alert")
    assert page.errors == []


def test_the_floor_at_a_time_shows_who_was_out_then(
        browser: Any, site: tuple[str, Any], demo_db: str) -> None:  # noqa: F811
    base, _ = site
    now = _cli_json("floor", "show", "--db", demo_db)
    with open_store(demo_db) as store:
        tournament = next(h.stream_id for h in store.streams() if h.kind == "tournament")
        out = [e for e in store.read(tournament) if e.type == "player_eliminated"]
    assert len(out) > 3
    moment = (out[2].recorded_at + timedelta(microseconds=1)).isoformat()
    then = _cli_json("floor", "show", "--time", moment, "--db", demo_db)
    out_then = [o["name"] for o in then["tournaments"][0]["out"]]
    assert 0 < len(out_then) < len(now["tournaments"][0]["out"])
    page = new_page(browser)
    assert page.request.post(f"{base}/api/session",
                             data={"role": "director", "pin": DIRECTOR_PIN}).ok
    page.goto(f"{base}/floor?time={moment.replace('+', '%2B')}")
    page.wait_for_selector("#tables .table-card")
    assert page.inner_text("#asof").startswith("As of ")
    assert "read-only" in page.inner_text("#asof")
    names = [t.split(". ", 1)[1].split(" table ")[0].strip()
             for t in page.locator(".eliminations li").all_inner_texts()]
    assert names == out_then
    cards = page.locator("#tables .table-card")
    assert cards.count() == len(then["tables"])
    for view in then["tables"]:
        card = page.locator(f".table-card[data-stream='{view['stream']}']")
        assert card.get_attribute("data-version") == str(view["version"])
    # Read-only: no command, no live stream, no find box.
    assert page.locator("[data-action='t-cmd'], #find-hands").count() == 0
    shot(page, "floor-as-of-time")
    assert page.errors == []


def test_the_floor_find_box_finds_a_players_all_ins(
        browser: Any, site: tuple[str, Any], demo_db: str) -> None:  # noqa: F811
    base, _ = site
    all_ins = _cli_json("hands", "--all-in", "--db", demo_db)["hands"]
    player = all_ins[0]["all_in"][0]
    expected = _cli_json("hands", "--player", player, "--all-in", "--db", demo_db)["hands"]
    assert 0 < len(expected) < len(_cli_json("hands", "--player", player, "--db", demo_db)["hands"])
    page = new_page(browser)
    page.goto(f"{base}/view")  # a viewer's floor
    page.wait_for_selector("#find-form")
    page.fill("#find-player", player)
    page.check("#find-all_in")
    page.click("#find-form button[type=submit]")
    page.wait_for_selector("#found-hands li[data-hand]")
    rows = page.locator("#found-hands li[data-hand]")
    found = [(rows.nth(i).get_attribute("data-stream"), int(rows.nth(i).get_attribute("data-hand")))
             for i in range(rows.count())]
    assert found == [(h["stream"], h["hand"]) for h in expected]
    assert all("all-in:" in text for text in rows.all_inner_texts())
    # Unticked, the same player's search finds more hands (not only all-ins).
    page.uncheck("#find-all_in")
    page.click("#find-form button[type=submit]")
    page.wait_for_function("n => Number(document.querySelector('#found-hands').dataset.count)"
                           " > n", arg=len(found))
    page.check("#find-all_in")
    page.click("#find-form button[type=submit]")
    page.wait_for_function("n => Number(document.querySelector('#found-hands').dataset.count)"
                           " === n", arg=len(found))
    page.locator("#found-hands li[data-hand] a").first.click()
    page.wait_for_selector("#pot-total")
    assert f"hand={found[0][1]}" in page.url
    assert page.errors == []


def _award_that_moves_a_prize(demo_db: str,
                              director: Client) -> tuple[str, Any, str, Any, Any]:
    """A one-pot hand whose award put a paid player out, and what awarding it to him gives."""
    names = _names(demo_db)
    for hand in _hands(demo_db):
        awards = [s for s in hand.steps if s.event.TYPE == "pot_awarded"]
        if len(awards) != 1 or len(awards[0].event.eligible) != 2:
            continue
        step = awards[0]
        loser = [p for p in step.event.eligible if p not in step.event.winners]
        if not loser or step.stacks[loser[0]] != 0:
            continue
        victim = names[hand.players[loser[0]]]
        answer = director.http.post(f"/api/tables/{hand.stream}/whatif",
                                    json={"at": step.version, "award": [[victim]]},
                                    headers={"X-CSRF-Token": director.csrf})
        assert answer.status_code == 200, answer.text
        mine = next(p for p in answer.json()["places"] if p["player"] == victim)
        if mine["recorded_prize"] and mine["whatif_prize"] != mine["recorded_prize"] \
                and mine["whatif_place"] != mine["recorded_place"]:
            return hand.stream, hand, victim, mine, answer.json()
    raise AssertionError("no award in the demo puts a paid player out")


def test_the_whatif_of_another_award_moves_a_place_and_a_prize(
        browser: Any, site: tuple[str, Any], demo_db: str) -> None:  # noqa: F811
    base, (app, auth) = site
    with Client(app, auth) as director:
        assert director.login("director").status_code == 200
        stream, hand, victim, mine, view = _award_that_moves_a_prize(demo_db, director)
    page = new_page(browser)
    assert page.request.post(f"{base}/api/session",
                             data={"role": "director", "pin": DIRECTOR_PIN}).ok
    page.goto(f"{base}/replayer?table={stream}&hand={hand.number}")
    page.wait_for_selector("#whatif-form select[data-pot='0']")
    page.select_option("select[data-pot='0']", victim)
    page.click("#whatif-form [data-kind='award']")
    page.wait_for_selector("#whatif-places")
    row = page.locator(f"#whatif-places tr[data-player='{victim}']")

    def money(cents: int) -> str:
        return f"{cents / 100:,.2f}"

    recorded = row.locator("td").nth(1).inner_text()
    whatif = row.locator(".whatif-place").inner_text()
    assert recorded == f"{mine['recorded_place']} ({money(mine['recorded_prize'])})"
    assert whatif == mine["whatif_text"] == (
        f"{mine['whatif_place']} ({money(mine['whatif_prize'])})" if mine["whatif_place"]
        else f"open, {mine['whatif_stack']:,} chips")
    # The verdict is the server's words; entries decided otherwise are listed under it.
    assert page.locator("#whatif-verdict").inner_text() == view["verdict"]
    assert page.locator("#whatif-unfit li").count() == len(view["unfit"])
    for other in view["places"]:
        if not other["at_this_table"] and not other["whatif_place"]:
            cell = page.locator(f"#whatif-places tr[data-player='{other['player']}'] "
                                ".whatif-place").inner_text()
            assert cell == "playing at another table (as recorded)", cell
    assert whatif != recorded and money(mine["recorded_prize"]) not in whatif
    shot(page, "replayer-whatif-place-and-prize")
    assert page.errors == []
