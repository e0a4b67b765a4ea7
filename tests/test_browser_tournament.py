"""A whole tournament run from the floor page alone, in a real browser, while the hands are
recorded through the API (issues 12 and 24): Octobermuck from its structure file, 30 entrants
and one late entry on 4 tables (31: no table break is due before the first player is out, so
the floor's move by hand calls for balancing), the high-hand fee ticked per player and one
paid later, the draw, levels, breaks, color-ups, balancing, tables broken down to the final
table, a penalty served, bounties, a chip count at a break and one at the final table (a 0
refused) settled after the finish, hand-for-hand at the bubble, an ICM deal at three with
every amount shown before the consents, the jackpot awarded, the payouts; `handlog replay`
exits 0 and the report's money has nothing unaccounted. The same under the TDA on
PostgreSQL."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from test_api_tournament import play_hand
from test_browser import browser, new_page, shows  # noqa: F401 - the browser fixture
from web_support import DIRECTOR_PIN, Client, make_app, make_recorder

from handlog.recorder.cli import cli
from handlog.recorder.cli_serve import serve_in_thread
from handlog.recorder.service import Recorder
from handlog.schema.store import open_store

pytestmark = pytest.mark.browser

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
T = "oct"


def settle(floor: Any) -> None:
    """Wait until the floor's commands are answered; fail with the refusal if one came."""
    floor.wait_for_function("() => window.__floorPending === 0")
    if floor.locator("#alert").is_visible():
        raise AssertionError(f"the floor refused: {floor.inner_text('#alert')!r}")


def current(floor: Any, api: Client) -> None:
    """Wait until the floor shows the tournament as it is now (the hands recorded through the
    API move it on): a director clicks on what he sees."""
    shows(floor, f".tournament[data-tournament='{T}'][data-version='{view(api)['version']}']")


def click(floor: Any, kind: str, api: Client | None = None) -> None:
    if api is not None:
        current(floor, api)
    selector = f"button[data-action='t-cmd'][data-t='{T}'][data-type='{kind}']"
    shows(floor, selector)
    floor.locator(selector).first.click()
    settle(floor)


def view(api: Client) -> dict[str, Any]:
    tournaments = api.http.get("/api/floor").json()["tournaments"]
    found: dict[str, Any] = next(t for t in tournaments if t["id"] == T)
    return found


def advance(floor: Any, api: Client,
            at_break: Callable[[dict[str, Any]], None] | None = None) -> None:
    """The next level, after whatever the schedule wants first, each a click (`at_break`:
    what the floor does at a break before it ends it)."""
    for _ in range(6):
        v = view(api)
        if v["finished"]:
            return
        if v["on_break"]:
            if at_break is not None:
                at_break(v)
            click(floor, "end_break", api)
            continue
        if v["next"]["ok"]:
            click(floor, "start_level", api)
            return
        legal = " ".join(v["next"].get("legal", []))
        if "decide antes" in legal:
            click(floor, "decide_antes", api)
        elif "color-up" in legal:
            click(floor, "color_up", api)
        elif "break" in legal:
            click(floor, "start_break", api)
        else:
            return


def play_gently(client: Client, stream: str, rng: random.Random) -> None:
    """One hand of folds, checks and calls (no raise), tapped in through the API."""
    table = client.ok(stream, {"type": "start_hand"})["table"]
    deck = [f"{r}{s}" for r in "23456789TJQKA" for s in "cdhs"]
    rng.shuffle(deck)
    shown: set[int] = set()
    for _ in range(200):
        if not table["hand_in_progress"]:
            return
        hand = table["hand"]
        legal = hand.get("legal")
        if hand["phase"] == "betting" and legal:
            fold = legal.get("call") and rng.random() < 0.7
            command = {"type": "fold" if fold else "check_call", "player": legal["player"]}
        elif hand["phase"] == "board":
            count = 3 if not hand["board"] else 1
            command = {"type": "deal_board", "cards": "".join(deck.pop() for _ in range(count))}
        else:
            unshown = [p for p in hand["showdown"]["order"] if p not in shown]
            if hand["showdown"]["proposed"] is None and unshown:
                shown.add(unshown[0])
                command = {"type": "show_cards", "player": unshown[0],
                           "cards": deck.pop() + deck.pop()}
            else:
                command = {"type": "award_pots"}
        table = client.ok(stream, command)["table"]
    raise AssertionError("the hand did not end")


def register(floor: Any, name: str, high_hand: bool = False) -> None:
    form = f"[data-form='register'][data-t='{T}']"
    shows(floor, form)
    floor.fill(f"{form} input[name='name']", name)
    box = floor.locator(f"{form} input[name='high_hand']")
    if high_hand:
        box.check()
    elif box.count():
        assert not box.is_checked()  # cleared after the last registration, not left ticked
    floor.click(f"{form} button")
    settle(floor)


def pay_fee_later(floor: Any, api: Client, name: str) -> None:
    """The director records on the page a fee paid after the entry."""
    current(floor, api)
    form = f"[data-form='high-hand-fee'][data-t='{T}']"
    shows(floor, form)
    player = next(f["player"] for f in view(api)["high_hand"]["fees"] if f["name"] == name)
    floor.select_option(f"{form} select[name='player']", player)
    floor.select_option(f"{form} select[name='paid']", "paid")
    floor.click(f"{form} button")
    settle(floor)


def deal_at_three(floor: Any, api: Client) -> None:
    """ICM at three, $10.00 kept to play for: before any consent the page shows every
    player's amount under each method (the server's, for the stacks now); then each agrees."""
    form = f"[data-form='deal'][data-t='{T}']"
    current(floor, api)
    shows(floor, form)
    floor.select_option(f"{form} select[name='method']", "icm")
    floor.fill(f"{form} input[name='kept']", "10.00")
    floor.dispatch_event(f"{form} input[name='kept']", "change")
    expected = api.http.get(f"/api/tournaments/{T}/deal?kept=1000").json()
    icm = next(o for o in expected["offers"] if o["method"] == "icm")
    for player, amount in zip(expected["players"], icm["amounts"], strict=True):
        cell = f"{form} tr[data-player='{player['player']}'] td[data-method='icm']"
        floor.wait_for_selector(f"{cell}[data-amount='{amount}']", timeout=15000)
        assert f"{amount / 100:.2f}" in floor.inner_text(cell)
        for method in ("chip_chop", "chip_chop_last_guaranteed"):
            other = f"{form} tr[data-player='{player['player']}'] td[data-method='{method}']"
            assert floor.get_attribute(other, "data-amount")
    assert "Kept to play for (USD)" in floor.inner_text(form)
    for box in floor.locator(f"{form} input[type=checkbox]").all():
        box.check()
    floor.click(f"{form} button[type=submit]")
    settle(floor)
    shown = view(api)["deal"]
    assert shown["method"] == "icm" and shown["kept"] == 1000
    assert sorted(x["amount"] for x in shown["shares"]) == sorted(icm["amounts"])


def award_the_jackpot(floor: Any, api: Client) -> None:
    """After the finish: the jackpot to the best hand shown (ticked already), or to the
    entrant the director ticks when no flush was shown."""
    form = f"[data-form='award-high-hand'][data-t='{T}']"
    current(floor, api)
    shows(floor, form)
    ticked = floor.locator(f"{form} input[type=checkbox]:checked").count()
    if not ticked:
        floor.locator(f"{form} input[type=checkbox]").first.check()
    floor.click(f"{form} button")
    settle(floor)
    assert view(api)["high_hand"]["awarded"]


def count_a_table(floor: Any, api: Client, recorder: Any, v: dict[str, Any]) -> str:
    """At the break: the floor counts a table's stacks, one 500 over the log's; the
    difference is listed with both numbers; the director corrects the stack. Returns the
    player corrected."""
    current(floor, api)
    table = v["tables"][0]
    pick = f"[data-form='count-table'][data-t='{T}']"
    shows(floor, pick)
    floor.select_option(f"{pick} select[name='table']", table)
    floor.click(f"{pick} button")
    form = f"[data-form='count'][data-t='{T}'][data-table='{table}']"
    shows(floor, form)
    seats = recorder.table(v["table_streams"][table]).state.seats
    off = seats[0].player
    for seat in seats:
        floor.fill(f"{form} input[name='stack:{seat.player}']",
                   str(seat.stack + (500 if seat.player == off else 0)))
    floor.click(f"{form} button")
    settle(floor)
    row = f".count-differences li[data-player='{off}']"
    shows(floor, row)
    assert "the log says" in floor.inner_text(row)
    floor.fill(f"{row} input[name='reason:{off}']", "a 500 chip under his cards")
    floor.click(f"{row} button")
    settle(floor)
    shows(floor, ".count-corrections li")
    assert view(api)["chip_counts"]["open"] == []
    return str(off)


def count_the_final_table(floor: Any, api: Client, recorder: Any, v: dict[str, Any]) -> str:
    """Between hands at the final table, an end-of-day count: a 0 typed for a stack is
    refused with both numbers; then one stack is counted 100 over the log's and left open
    (settled after the finish). Returns that player."""
    current(floor, api)
    (table,) = v["tables"]
    pick = f"[data-form='count-table'][data-t='{T}']"
    floor.select_option(f"{pick} select[name='table']", table)
    floor.click(f"{pick} button")
    form = f"[data-form='count'][data-t='{T}'][data-table='{table}']"
    shows(floor, form)
    assert floor.input_value(f"{form} select[name='occasion']") == "end_of_day"
    seats = recorder.table(v["table_streams"][table]).state.seats
    off = seats[0].player
    for seat in seats:
        floor.fill(f"{form} input[name='stack:{seat.player}']",
                   "0" if seat.player == off else str(seat.stack))
    floor.click(f"{form} button")
    floor.wait_for_function("() => window.__floorPending === 0")
    shows(floor, "#alert")
    assert f"counted 0 chips but the log gives him {seats[0].stack}" in floor.inner_text("#alert")
    floor.click("#alert [data-action='dismiss']")
    floor.fill(f"{form} input[name='stack:{off}']", str(seats[0].stack + 100))
    floor.click(f"{form} button")
    settle(floor)
    shows(floor, f".count-differences li[data-player='{off}']")
    return str(off)


def settle_after_the_finish(floor: Any, api: Client, off: str) -> None:
    """The tournament is over: the open difference is settled on the page with the log's
    stack (no stack can change any more)."""
    current(floor, api)
    row = f".count-differences li[data-player='{off}']"
    shows(floor, row)
    assert "the log's stack stands" in floor.inner_text(row)
    floor.fill(f"{row} input[name='reason:{off}']", "recounted after the finish: the log holds")
    floor.click(f"{row} button")
    settle(floor)
    assert view(api)["chip_counts"]["open"] == []


def test_a_whole_octobermuck_tournament_from_the_floor_page(browser: Any,  # noqa: F811
                                                             tmp_path: Path) -> None:
    run_event(browser, tmp_path, make_recorder(tmp_path), "octobermuck.toml", 30, 4)


def test_a_whole_tda_tournament_from_the_floor_page_on_postgresql(
        browser: Any, tmp_path: Path, pg_url: str) -> None:  # noqa: F811
    """The same event under the TDA (no deal, no jackpot; the chip race) on PostgreSQL."""
    run_event(browser, tmp_path, Recorder(open_store(pg_url, upgrade=True)), "tda-demo.toml",
              23, 3)


def run_event(page_maker: Any, tmp_path: Path, recorder: Recorder, structure: str,
              entrants: int, tables: int) -> None:
    """The event from the floor page alone (hands through the tablets' API): `entrants` and
    a late entry drawn over `tables`; then replay and the report."""
    app, auth = make_app(recorder, level_for=lambda _s, _f: None)
    jackpot = structure == "octobermuck.toml"
    rng = random.Random(12)
    done: dict[str, int] = {"breaks": 0, "balances": 0, "levels": 0, "hand_for_hand": 0}
    with serve_in_thread(app) as base, Client(app, auth) as api:
        assert api.login("director").status_code == 200
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
        # The readings in force are on the floor, each with its sentence.
        reading = f".tournament[data-tournament='{T}'] [data-reading='deals_allowed']"
        floor.wait_for_selector(reading, state="attached")
        assert f"= {'true' if jackpot else 'false'}" in floor.text_content(reading)
        # ... the readings the director chooses among them (issue 24 item 5).
        for name, value in (("payout_percents_not_100", "scale_to_pool"),
                            ("raise_after_a_short_all_in", "a_full_raise_over_it")):
            shown = floor.text_content(f".tournament[data-tournament='{T}'] "
                                       f"[data-reading='{name}']")
            assert f"= {value}" in shown and ("Octobermuck" in shown or not jackpot), shown
        for k in range(entrants):  # the fee ticked for every other player (issue 24)
            register(floor, f"Player {k + 1:02d}", high_hand=jackpot and k % 2 == 0)
        if jackpot:
            ticked = (entrants + 1) // 2
            assert view(api)["money"]["high_hand_pool"] == ticked * 500
            pay_fee_later(floor, api, "Player 02")
            assert view(api)["money"]["high_hand_pool"] == (ticked + 1) * 500
        draw = f"[data-form='draw'][data-t='{T}']"
        shows(floor, draw)
        assert floor.input_value(f"{draw} input[name='tables']") == "3"  # 23-30 entries
        floor.fill(f"{draw} input[name='tables']", str(tables))
        floor.click(f"{draw} button")
        settle(floor)
        click(floor, "start_level")
        register(floor, "Late Lou")  # a late entry: seated at once
        assert not view(api)["unseated"]
        # The floor moves a player by hand (table 1 to table 2): the tables are out of
        # balance and the floor offers to balance them.
        mover = next(p for p in view(api)["players"] if p["table"] == "1")
        current(floor, api)
        move = f"[data-form='move'][data-t='{T}']"
        floor.select_option(f"{move} select[name='player']", mover["player"])
        floor.select_option(f"{move} select[name='to_table']", "2")
        floor.click(f"{move} button")
        settle(floor)
        assert view(api)["needs_balancing"]
        hands = rounds = 0
        penalty_given = False
        counted: list[str] = []
        final_count: list[str] = []

        def at_break(v: dict[str, Any]) -> None:
            if not counted:
                counted.append(count_a_table(floor, api, recorder, v))

        for _ in range(3000):  # the seat draw is the floor's own (random): some runs are long
            v = view(api)
            if v["prizes"]:
                break
            if v["bounties_referred"]:
                click(floor, "assign_bounty", api)
                continue
            if v["finished"]:
                break
            if v["table_break"]:
                click(floor, "break_table", api)
                done["breaks"] += 1
                continue
            if v["needs_balancing"]:
                click(floor, "balance", api)
                done["balances"] += 1
                continue
            if v["on_break"]:
                advance(floor, api, at_break)
                continue
            # Hand-for-hand at the last two tables (Octobermuck's bubble, six paid, falls at
            # the final table of ten: here the director plays the two tables' stage so), off
            # at the final table.
            if not v["hand_for_hand"] and len(v["tables"]) == 2 and not done["hand_for_hand"]:
                click(floor, "hand_for_hand", api)
                shows(floor, ".hand-for-hand")
                done["hand_for_hand"] = 1
                continue
            if v["hand_for_hand"] and len(v["tables"]) == 1:
                click(floor, "hand_for_hand", api)
                continue
            if v["deals_allowed"] and v["remaining"] == 3:
                deal_at_three(floor, api)
                continue
            # The end-of-day count comes after the break's: a later count of the same table
            # supersedes a difference still open, so a break's count at the final table
            # after this one would leave nothing to settle after the finish. The seat draw
            # is random: the first break falls at five players left or at three or fewer.
            if len(v["tables"]) == 1 and v["remaining"] <= 3 and counted and not final_count:
                final_count.append(count_the_final_table(floor, api, recorder, v))
                continue
            if hands >= 4 and not penalty_given:
                form = f"[data-form='penalty'][data-t='{T}']"
                current(floor, api)
                shows(floor, form)
                floor.select_option(f"{form} select[name='penalty']", "hands")
                floor.fill(f"{form} input[name='count']", "1")
                floor.fill(f"{form} input[name='reason']", "soft play")
                floor.click(f"{form} button")
                settle(floor)
                shows(floor, ".penalties .serving")
                penalty_given = True
            for table in v["tables"]:
                if len([p for p in v["players"] if p["table"] == table]) >= 2:
                    # Down to six, the play calms down so that the field passes through
                    # three (the deal) rather than losing several players in one hand.
                    if 3 < v["remaining"] <= 6 or (v["remaining"] == 3 and not v["deal"]):
                        play_gently(api, v["table_streams"][table], rng)
                    else:
                        play_hand(api, v["table_streams"][table], rng)
                    hands += 1
            rounds += 1
            if rounds % 2 == 0:  # a level every two rounds of hands
                advance(floor, api, at_break)
                done["levels"] += 1
        if jackpot:
            award_the_jackpot(floor, api)
        assert final_count
        settle_after_the_finish(floor, api, final_count[0])
        v = view(api)
        shows(floor, ".money [data-money='unaccounted']")
        # The page shows the payout once its live update of the last command has come in.
        floor.wait_for_function(
            "() => (document.querySelector(\".money [data-money='unaccounted']\") || {})"
            ".textContent.includes('USD 0.00')", timeout=15000)
        assert "unaccounted USD 0.00" in floor.inner_text(".money [data-money='unaccounted']")
        assert floor.errors == []
    assert v["finished"] and v["prizes"], v
    if jackpot:  # Octobermuck allows deals; the TDA does not (the page offers none)
        assert v["deal"] is not None and len(v["deal"]["shares"]) == 3
        assert v["high_hand"]["awarded"]
    else:
        assert v["deal"] is None and not v["deals_allowed"]
    assert v["money"]["unaccounted"] == 0
    assert done["breaks"] == tables - 1  # down to the final table
    assert done["balances"] >= 1, done
    types = [e.type for e in recorder.store.read(f"tournament-{T}")]
    assert counted
    for fact in ("break_started", "chips_colored_up", "penalty_recorded",
                 *(("deal_recorded", "high_hand_awarded", "high_hand_fee_recorded")
                   if jackpot else ()),
                 "prizes_awarded", "stacks_counted", "stack_corrected", "hand_for_hand_started",
                 "hand_for_hand_ended"):
        assert fact in types, fact
    killed = [e for e in recorder.store.read_all() if e.type == "hand_killed"
              and e.payload["reason"] == "penalty"]
    assert len(killed) == 1
    runner = CliRunner()
    replayed = runner.invoke(cli, ["replay", "--db", recorder.store.url])
    assert replayed.exit_code == 0, replayed.output
    out = tmp_path / "report.json"
    assert runner.invoke(cli, ["report", "--db", recorder.store.url, "--format", "json",
                               "--out", str(out)]).exit_code == 0
    (tournament,) = json.loads(out.read_text())["tournaments"]
    assert tournament["money"]["unaccounted"] == 0
    assert [c["amount"] for c in tournament["chip_counts"]["corrections"]] == [500, 0]
    recorder.store.close()
