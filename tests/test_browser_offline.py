"""The dealer's tablet on bad Wi-Fi: no tap lost (taps made while a command is on its way are
queued in order and all recorded), and offline first (a service worker serves the pages, the
tablet keeps queueing through an outage and a reload, and the queue is sent once, in order,
when the network returns: nothing lost, nothing doubled, checked in the server's log)."""

from __future__ import annotations

import os
import time
from datetime import UTC, datetime
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
    to_act,
)
from test_browser_a11y import violations
from web_support import DIRECTOR_PIN, LEVEL, make_app, make_recorder, open_table

from handlog.engine.table import Level
from handlog.recorder.auth import Auth
from handlog.recorder.cli_serve import serve_in_thread

pytestmark = pytest.mark.browser

def require_pyodide() -> None:
    """Pyodide comes from npm (web/, .ci/run); CI must have it, elsewhere the test skips."""
    from handlog.recorder.offline import pyodide_installed

    if pyodide_installed():
        return
    reason = "Pyodide is not installed (npm ci --prefix web --no-audit --no-fund)"
    if os.environ.get("HANDLOG_REQUIRE_BROWSER") == "1":
        pytest.fail(f"HANDLOG_REQUIRE_BROWSER=1 but {reason}", pytrace=False)
    pytest.skip(reason)


FIVE = [(1, "Ann", 2000), (2, "Bob", 2000), (3, "Cy", 2000), (4, "Dee", 2000), (5, "Eve", 2000)]


def round_trip(page: Any, latency_ms: int) -> None:
    """Every request of the page takes `latency_ms` more to answer (Chromium's network
    emulation through the DevTools protocol)."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", {"offline": False, "latency": latency_ms,
                                                  "downloadThroughput": -1,
                                                  "uploadThroughput": -1})


def drained(page: Any, timeout: float = 30_000) -> None:
    page.wait_for_function("() => window.handlogTable.outbox().length === 0 && "
                           "document.body.dataset.version === "
                           "String(window.handlogTable.state().version)", timeout=timeout)


def test_four_fast_folds_at_a_300_ms_round_trip_are_all_recorded_in_order(
        browser: Any, site: Site) -> None:  # noqa: F811
    open_table(site.recorder, "table-2", players=FIVE)
    page = dealer(browser, site, stream="table-2")
    tap(page, "[data-action='start']")
    assert to_act(page) == "Dee"  # the button on seat 1: Bob SB, Cy BB, Dee first
    seat_of = {s["position"]: s["seat"] for s in page.evaluate(
        "() => window.handlogTable.state().seats") if s.get("position") is not None}
    round_trip(page, 300)
    for i in range(4):
        page.click("[data-action='fold']")
        if i == 1:
            # Taps made while the first fold is on its way wait in the outbox, shown as such.
            assert page.locator(".outbox .pending li").count() >= 1
            shot(page, "dealer-1280x800-taps-waiting")
        page.wait_for_timeout(150)
    drained(page)
    events = site.recorder.store.read("table-2")
    folds = [e for e in events if e.type == "player_folded"]
    # One fold per player, in turn: Dee, Eve, Ann, then Bob in the small blind; none doubled.
    assert [seat_of[e.payload["player"]] for e in folds] == [4, 5, 1, 2]
    assert [e.version for e in folds] == list(range(folds[0].version, folds[0].version + 4))
    assert page.locator(".outbox").is_hidden()
    assert page.errors == []


def controlled(page: Any) -> None:
    """Wait until the service worker has installed the pages and controls this one."""
    page.wait_for_function("() => navigator.serviceWorker && navigator.serviceWorker.controller",
                           timeout=60_000)


def go_offline(page: Any) -> None:
    """Cut the network and wait until the page knows it (navigator.onLine): a tap made before
    that could still reach the server, as on a real tablet in the moment the Wi-Fi drops."""
    page.context.set_offline(True)
    # Chromium's emulated outage can miss a page's first request just after a reload under a
    # service worker; a real outage misses nothing, so the API is cut here as well.
    page.context.route("**/api/**", lambda route: route.abort("internetdisconnected"))
    page.wait_for_function("() => !navigator.onLine")


def go_online(page: Any) -> None:
    page.context.unroute("**/api/**")
    page.context.set_offline(False)


@pytest.fixture
def no_pyodide(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    """A server without Pyodide (only the README's first command ran)."""
    from handlog.recorder import offline

    monkeypatch.setattr(offline, "PYODIDE", tmp_path / "no-pyodide")
    offline._service_worker.cache_clear()
    yield
    offline._service_worker.cache_clear()


def test_an_outage_mid_hand_with_a_reload_loses_nothing_and_doubles_nothing(
        browser: Any, site: Site, no_pyodide: Any) -> None:  # noqa: F811
    """The network goes in the middle of a hand: the dealer records several actions, reloads
    the page (served by the service worker), and records more; back online, the queue goes to
    the server once, in order, each entry with the event id it got on the tablet. (Without
    the tablet's engine here, so the screen stays on the last view the server sent; the
    engine's own run is the next test.)"""
    page = dealer(browser, site)
    controlled(page)
    tap(page, "[data-action='start']")
    assert to_act(page) == "Ann"
    go_offline(page)
    page.click("[data-action='call']")  # Ann calls 100
    page.click("[data-action='call']")  # next to act (Bob, the small blind) completes
    page.wait_for_selector(".outbox .pending li >> nth=1")
    assert "Offline" in page.inner_text(".outbox")
    before = page.evaluate("() => window.handlogTable.outbox()")
    page.reload()  # no network: the page comes from the service worker, the queue from storage
    page.wait_for_selector(".outbox .pending li >> nth=1")
    assert page.inner_text("#status-text").startswith("offline")
    # The last view the tablet had, its entries queued as tapped (the server decides them).
    assert "Ann to act" in page.inner_text(".felt-note")
    assert page.inner_text(".queue-title") == "Offline: rules not checked here"
    # Next to act (Cy, the big blind): check/call is one command, so on Ann's screen the Call
    # button records Cy's check.
    page.click("[data-action='call']")
    page.wait_for_selector(".outbox .pending li >> nth=2")
    shot(page, "dealer-1280x800-offline-after-reload")
    queued = page.evaluate("() => window.handlogTable.outbox()")
    assert [q["event_id"] for q in queued[:2]] == [q["event_id"] for q in before]
    recorded = site.stream_types()
    assert recorded[-1] == "blind_posted" or "player_called" not in recorded, " ".join(recorded[5:])
    go_online(page)
    drained(page)
    page.wait_for_selector(".sheet .picker")  # the flop is due: the server's view again
    events = site.recorder.store.read(STREAM)
    mine = [e for e in events if str(e.event_id) in {q["event_id"] for q in queued}]
    assert [e.type for e in mine] == ["player_called", "player_called", "player_checked"]
    assert [str(e.event_id) for e in mine] == [q["event_id"] for q in queued]
    assert len({e.event_id for e in events}) == len(events)
    assert page.errors == []


def test_every_page_reloads_with_no_network(browser: Any, site: Site) -> None:  # noqa: F811
    page = dealer(browser, site)
    controlled(page)
    context = page.context
    for path, selector in (("/floor", "#director-pin, .tournament, .table-card"),
                           ("/join", "#keys"), ("/replayer", "body"),
                           (f"/view/{STREAM}", "#ring")):
        page.goto(f"{site.base}{path}")  # online: the service worker may refresh the page
        context.set_offline(True)
        page.reload()
        page.wait_for_selector(selector, state="attached")
        assert "handlog" in page.title().lower() or page.locator("#ring").count()
        go_online(page)


def test_offline_the_tablets_own_engine_decides_and_shows_who_is_next(
        browser: Any, site: Site) -> None:  # noqa: F811
    """Offline, the dealer page runs the engine package with Pyodide: a raise below the minimum
    is refused on the tablet with the engine's rule, the screen moves on to the next player,
    a reload offline keeps it; back online the server records the queue once, in order."""
    require_pyodide()
    page = dealer(browser, site)
    controlled(page)
    tap(page, "[data-action='start']")
    go_offline(page)
    page.click("[data-action='call']")  # Ann calls 100 (queued whatever the engine's state)
    page.wait_for_selector(".outbox .engine[data-engine='ready']", timeout=120_000)
    page.wait_for_function("() => document.querySelector('.to-act-title') && "
                           "document.querySelector('.to-act-title').innerText.startsWith('Bob')")
    for key in "150":
        page.click(f"[data-action='key'][data-key='{key}']")
    # The minimum comes from the tablet's engine (TDA 43: a raise to 200 over the 100 blind):
    # 150 cannot be sent, the button says what the minimum is, and nothing is queued.
    raise_button = page.locator("[data-action='raise']")
    assert raise_button.is_disabled()
    assert "200" in raise_button.inner_text()
    assert "below the minimum 200" in page.inner_text(".amount")
    assert len(page.evaluate("() => window.handlogTable.outbox()")) == 1  # nothing queued
    page.click("[data-action='call']")  # Bob completes the small blind
    page.wait_for_function("() => document.querySelector('.to-act-title').innerText"
                           ".startsWith('Cy')")
    page.reload()  # offline: the page from the service worker, the engine starts again
    page.wait_for_function("() => document.querySelector('.to-act-title') && document"
                           ".querySelector('.to-act-title').innerText.startsWith('Cy')",
                           timeout=120_000)
    page.click("[data-action='check']")  # Cy checks: on screen because the engine said so
    shot(page, "dealer-1280x800-offline-engine")
    queued = page.evaluate("() => window.handlogTable.outbox()")
    assert [q["label"] for q in queued] == ["Ann: call 100", "Bob: call 50", "Cy: check"]
    go_online(page)
    drained(page, timeout=60_000)
    events = site.recorder.store.read(STREAM)
    mine = [e for e in events if str(e.event_id) in {q["event_id"] for q in queued}]
    assert [e.type for e in mine] == ["player_called", "player_called", "player_checked"]
    assert "raise_made" not in [e.type for e in events]
    assert page.errors == []


def test_an_action_out_of_turn_is_recorded_from_the_action_panel(
        browser: Any, site: Site) -> None:  # noqa: F811
    """Ann is to act and Cy folds first: the dealer records it under "Out of turn…"; the
    engine holds it and, when the action reaches Cy, it binds (TDA 53)."""
    page = dealer(browser, site)
    tap(page, "[data-action='start']")
    assert to_act(page) == "Ann"
    page.click("[data-action='out-of-turn']")
    names = [b.inner_text() for b in page.query_selector_all(".out-of-turn-players .toggle")]
    assert names == ["Bob", "Cy"]  # not Ann, whose turn it is
    assert page.is_disabled("[data-action='oot-fold']")  # who first
    page.click(".out-of-turn-players .toggle:has-text('Cy')")
    tap(page, "[data-action='oot-fold']")
    assert site.stream_types()[-1] == "acted_out_of_turn"
    assert to_act(page) == "Ann"  # the turn stays with Ann
    assert page.errors == []


def test_without_pyodide_the_page_says_so_and_still_queues_every_tap(
        browser: Any, site: Site, no_pyodide: Any) -> None:  # noqa: F811
    """A server that ran only the README's first command has no Pyodide: offline, the dealer
    page says plainly that entries are not checked on the tablet, and queues them all."""
    page = dealer(browser, site)
    controlled(page)
    tap(page, "[data-action='start']")
    go_offline(page)
    page.click("[data-action='call']")
    page.click("[data-action='fold']")
    page.wait_for_selector(".outbox .engine[data-engine='missing']", timeout=60_000)
    text = page.inner_text(".outbox .engine")
    assert text.startswith("Not checked on this tablet") and "Pyodide" in text
    assert len(page.evaluate("() => window.handlogTable.outbox()")) == 2
    go_online(page)
    drained(page)
    types = site.stream_types()
    assert types[-2:] == ["player_called", "player_folded"]
    assert page.errors == []


def test_offline_the_pot_nobody_contests_is_pushed_and_the_next_hand_starts_on_the_tablet(
        browser: Any, site: Site) -> None:  # noqa: F811
    """Two folds offline end the hand: the tablet's engine pushes the pot to Cy and starts the
    next hand by itself (button and blinds moved on); back online the server has them all."""
    require_pyodide()
    page = dealer(browser, site)
    controlled(page)
    tap(page, "[data-action='start']")
    go_offline(page)
    page.wait_for_function("() => window.handlogTable.engine() === 'ready'", timeout=120_000)
    page.click("[data-action='fold']")  # Ann
    page.wait_for_function("() => document.querySelector('.to-act-title').innerText"
                           ".startsWith('Bob')")
    page.click("[data-action='fold']")  # Bob: Cy is alone
    page.wait_for_function("() => window.handlogTable.state().hand.number === 2")
    labels = [q["label"] for q in page.evaluate("() => window.handlogTable.outbox()")]
    assert labels == ["Ann: fold", "Bob: fold", "push the pot (nobody left to contest it)",
                      "start the next hand"]
    assert to_act(page) == "Bob"  # the button on Bob: Cy small blind, Ann big blind
    go_online(page)
    drained(page)
    types = site.stream_types()
    second = len(types) - types[::-1].index("hand_started") - 1
    first_hand = types[types.index("hand_started"):second]
    assert [t for t in first_hand if t in ("player_folded", "pot_awarded")] == [
        "player_folded", "player_folded", "pot_awarded"]
    assert to_act(page) == "Bob"
    assert page.errors == []


# What a view holds that the tablet's engine does not compute (the stream's facts).
STREAM_KEYS = ("stream", "version", "role", "events", "offline_hand", "offline_table",
               "predicted")


def offline_tap(page: Any, selector: str) -> None:
    """Tap while offline and wait until the entry is queued (the engine decided it)."""
    count = len(page.evaluate("() => window.handlogTable.outbox()"))
    page.click(selector)
    page.wait_for_function(f"() => window.handlogTable.outbox().length > {count}")


def pick(page: Any, cards: str) -> None:
    """Tap the cards on the card pad (a board or a shown hand is recorded on its last card)."""
    count = len(page.evaluate("() => window.handlogTable.outbox()"))
    page.wait_for_selector(".sheet .picker")
    for k in range(0, len(cards), 2):
        page.click(f"[data-action='pick'][data-card='{cards[k:k + 2]}']")
    page.wait_for_function(f"() => window.handlogTable.outbox().length > {count}")


def test_a_whole_hand_and_the_next_offline_with_a_reload_are_recorded_once_in_order(
        browser: Any, site: Site) -> None:  # noqa: F811
    """The network goes in the middle of a hand and stays gone: the dealer finishes the hand on
    the tablet (the board, both hands shown on the card pad, the pot pushed as the engine
    proposes), the next hand starts by itself, he plays it, reloads the page, plays on. Back
    online the server's log holds exactly what was tapped, in order, once each, and the table
    it shows is the one the offline screen showed."""
    require_pyodide()
    page = dealer(browser, site)
    controlled(page)
    tap(page, "[data-action='start']")  # Ann (button) 1000, Bob SB 3000, Cy BB 3000, 50/100
    go_offline(page)
    page.wait_for_function("() => window.handlogTable.engine() === 'ready'", timeout=120_000)
    offline_tap(page, "[data-action='call']")  # Ann calls 100
    offline_tap(page, "[data-action='fold']")  # Bob folds
    offline_tap(page, "[data-action='check']")  # Cy checks: the flop is due
    for board in ("2c7d9h", "Js", "Qd"):
        pick(page, board)
        offline_tap(page, "[data-action='check']")  # Cy
        offline_tap(page, "[data-action='check']")  # Ann
    # The showdown: the card pad opens on the first hand to show, then on the next.
    pick(page, "AsAh")
    pick(page, "KsKh")
    page.wait_for_selector(".awards .award")
    assert "Push the pot" in page.inner_text("[data-action='award']")
    offline_tap(page, "[data-action='award']")  # the pot, as the engine proposes
    page.wait_for_function("() => window.handlogTable.state().hand.number === 2")
    assert "Offline" in page.inner_text(".outbox")
    assert "move the director records" in page.inner_text(".outbox .engine")
    assert to_act(page) == "Bob"  # the button moved on: Bob, Cy SB, Ann BB
    offline_tap(page, "[data-action='call']")  # Bob calls 100
    offline_tap(page, "[data-action='call']")  # Cy completes: 50
    offline_tap(page, "[data-action='check']")  # Ann checks
    before = page.evaluate("() => window.handlogTable.outbox()")
    page.reload()  # no network: the page from the service worker, the queue from storage
    page.wait_for_function("() => window.handlogTable.engine() === 'ready' && "
                           "window.handlogTable.state().predicted", timeout=120_000)
    assert [q["event_id"] for q in page.evaluate("() => window.handlogTable.outbox()")] == [
        q["event_id"] for q in before]
    pick(page, "3c8dTh")  # the flop of hand 2, after the reload
    for key in "300":
        page.click(f"[data-action='key'][data-key='{key}']")
    offline_tap(page, "[data-action='raise']")  # Cy bets 300
    offline_tap(page, "[data-action='call']")  # Ann calls 300
    offline_tap(page, "[data-action='fold']")  # Bob folds
    page.wait_for_selector(".sheet .picker")  # the turn is due
    shot(page, "dealer-1280x800-offline-second-hand")
    queued = page.evaluate("() => window.handlogTable.outbox()")
    shown = page.evaluate("() => window.handlogTable.state()")
    assert "pot_awarded" not in site.stream_types()  # nothing reached the server

    go_online(page)
    drained(page, timeout=120_000)
    events = site.recorder.store.read(STREAM)
    assert len({e.event_id for e in events}) == len(events)
    ids = [q["event_id"] for q in queued]
    mine = sorted((e for e in events if str(e.event_id) in ids), key=lambda e: e.version)
    assert [str(e.event_id) for e in mine] == ids  # each entry once, in the order tapped
    called, checked, dealt = "player_called", "player_checked", "board_dealt"
    assert [(e.type, e.payload.get("amount", e.payload.get("to"))) for e in mine] == [
        (called, 100), ("player_folded", None), (checked, None),
        (dealt, None), (checked, None), (checked, None),
        (dealt, None), (checked, None), (checked, None),
        (dealt, None), (checked, None), (checked, None),
        ("cards_shown", None), ("cards_shown", None), ("pot_awarded", 250),
        ("hand_started", None), (called, 100), (called, 50), (checked, None),
        (dealt, None), ("bet_made", 300), (called, 300), ("player_folded", None)]
    after = page.evaluate("() => window.handlogTable.state()")
    assert {k: v for k, v in after.items() if k not in STREAM_KEYS} == {
        k: v for k, v in shown.items() if k not in STREAM_KEYS}
    assert page.errors == []


def test_a_conflict_with_what_the_table_recorded_offline_is_shown_with_names(
        browser: Any, site: Site) -> None:  # noqa: F811
    """While this tablet is offline another tablet records on the server: the first offline
    entry meets the conflict, shown with the names of what the table recorded and what to do;
    re-applied on the table as it is now, the server refuses it (named) and holds the rest (the
    push and the next hand) until the dealer sends or discards them. Nothing is doubled."""
    require_pyodide()
    page = dealer(browser, site)
    controlled(page)
    tap(page, "[data-action='start']")
    go_offline(page)
    page.wait_for_function("() => window.handlogTable.engine() === 'ready'", timeout=120_000)
    offline_tap(page, "[data-action='fold']")  # Ann
    offline_tap(page, "[data-action='fold']")  # Bob: the pot to Cy, the next hand starts
    page.wait_for_function("() => window.handlogTable.outbox().length === 4")
    other = dealer(browser, site)  # another tablet at the table, online
    tap(other, "[data-action='call']")  # Ann calls 100 there
    recorded = site.stream_types()
    go_online(page)
    page.wait_for_selector(".outbox.conflict", timeout=30_000)
    text = page.inner_text(".outbox")
    assert "Not recorded: the table changed" in text
    assert "Ann calls 100" in text and "Ann: fold" in text and "start the next hand" in text
    assert "Discard mine" in text and "Re-apply mine" in text  # what to do, said
    shot(page, "dealer-1280x800-offline-conflict")
    page.click("[data-action='reapply']")  # Ann's fold again, on the table as it is now
    page.wait_for_selector(".outbox.held", timeout=30_000)
    alert = page.inner_text("#alert")
    assert "Refused: Ann: fold" in alert
    held = page.inner_text(".outbox")
    assert "3 entries tapped after \"Ann: fold\"" in held and "push the pot" in held
    page.click("[data-action='discard-held']")
    page.wait_for_selector(".outbox", state="hidden")
    assert to_act(page) == "Bob"  # the table as the server has it
    assert site.stream_types() == recorded  # nothing of this tablet's was recorded
    assert page.errors == []


def test_a_new_level_while_offline_the_server_starts_the_hand_at_it_and_holds_the_rest(
        browser: Any, tmp_path: Any) -> None:  # noqa: F811
    """The tablet starts the next hand offline at the level it knows; meanwhile the
    tournament's next level begins. Back online the server starts that hand at the new level
    (it decides every entry again), and the betting tapped for the hand as the tablet showed
    it is held, said so, until the dealer sends it on the table as it is now or discards it."""
    require_pyodide()
    level = [LEVEL]
    recorder = make_recorder(tmp_path)
    open_table(recorder, STREAM)
    app, auth = make_app(recorder, level_for=lambda _stream, _fold: level[0])
    with serve_in_thread(app) as base:
        here = Site(base, auth, recorder)
        page = dealer(browser, here)
        controlled(page)
        tap(page, "[data-action='start']")
        go_offline(page)
        page.wait_for_function("() => window.handlogTable.engine() === 'ready'",
                               timeout=120_000)
        offline_tap(page, "[data-action='fold']")  # Ann
        offline_tap(page, "[data-action='fold']")  # Bob: the pot to Cy, the next hand starts
        page.wait_for_function("() => window.handlogTable.state().hand.number === 2")
        offline_tap(page, "[data-action='call']")  # Bob calls 100 (the blind the tablet knows)
        level[0] = Level(100, 200, number=2)  # the director's clock moves on meanwhile
        go_online(page)
        page.wait_for_selector(".outbox.held", timeout=30_000)
        assert "the server decided differently" in page.inner_text(".outbox")
        assert "Decided differently by the server: start the next hand" in page.inner_text(
            "#alert")
        events = recorder.store.read(STREAM)
        started = [e for e in events if e.type == "hand_started"][-1]
        assert started.payload["min_bet"] == 200  # the server's level, not the tablet's
        assert events[-1].type != "player_called"  # Bob's call waits for the dealer
        page.click("[data-action='discard-held']")
        page.wait_for_selector(".outbox", state="hidden")
        assert to_act(page) == "Bob" and "Call 200" in page.inner_text("[data-action='call']")
        assert "player_called" not in [e.type for e in recorder.store.read(STREAM)
                                       if e.version > started.version]
        assert page.errors == []
        recorder.store.close()


def queued_tap(page: Any, selector: str) -> None:
    """Tap while offline (no engine here) and wait until the entry is in the queue."""
    count = len(page.evaluate("() => window.handlogTable.outbox()"))
    page.click(selector)
    page.wait_for_function(f"() => window.handlogTable.outbox().length > {count}")


def queued_cards(page: Any, opener: str, cards: str) -> None:
    """Open a picker offline and tap the cards (recorded on the last one)."""
    count = len(page.evaluate("() => window.handlogTable.outbox()"))
    page.click(opener)
    page.wait_for_selector(".sheet .picker")
    for k in range(0, len(cards), 2):
        page.click(f"[data-action='pick'][data-card='{cards[k:k + 2]}']")
    page.wait_for_function(f"() => window.handlogTable.outbox().length > {count}")


def queued_show(page: Any, name: str, cards: str) -> None:
    """Show or muck…, the player's name, the two cards."""
    seat = next(s["seat"] for s in page.evaluate("() => window.handlogTable.state().seats")
                if s.get("player") == name)
    page.click("[data-action='queue-show']")
    queued_cards(page, f".sheet [data-action='queue-pick'][data-seat='{seat}']", cards)


def test_without_pyodide_two_whole_hands_offline_with_a_reload_are_recorded_once_in_order(
        browser: Any, site: Site, no_pyodide: Any) -> None:  # noqa: F811
    """The README's first command only (no Pyodide: /vendor/pyodide/ answers 404). The network
    goes in the first hand and stays gone for the rest of it and the next: the page says it
    cannot check the rules, offers every entry (the betting for whoever is to act, the amount
    as typed, the board, the shows by seat, the push, the next hand) and queues each tap;
    a reload offline keeps the queue; back online the server's log holds every tap once, in
    the order tapped, each with the event id it got on the tablet."""
    page = dealer(browser, site)
    controlled(page)
    assert page.evaluate("async () => (await fetch('/vendor/pyodide/pyodide.mjs')).status") == 404
    tap(page, "[data-action='start']")  # Ann (button) 1000, Bob SB 3000, Cy BB 3000, 50/100
    go_offline(page)
    queued_tap(page, "[data-action='call']")  # Ann calls 100
    page.wait_for_selector(".outbox .engine[data-engine='missing']", timeout=60_000)
    assert page.inner_text(".queue-title") == "Offline: rules not checked here"
    assert page.inner_text(".outbox .engine").startswith("Not checked on this tablet")
    queued_tap(page, "[data-action='fold']")  # Bob folds
    queued_tap(page, "[data-action='check']")  # Cy checks
    for street in ("2c7d9h", "Js", "Qd"):
        queued_cards(page, "[data-action='open-board']", street)
        queued_tap(page, "[data-action='check']")  # Cy
        queued_tap(page, "[data-action='check']")  # Ann
    queued_show(page, "Cy", "KsKh")  # Cy shows first
    queued_show(page, "Ann", "AsAh")  # Ann wins
    queued_tap(page, "[data-action='award']")
    queued_tap(page, "[data-action='start']")  # hand 2: Bob button, Cy SB, Ann BB
    queued_tap(page, "[data-action='call']")  # Bob calls 100
    queued_tap(page, "[data-action='call']")  # Cy completes
    queued_tap(page, "[data-action='check']")  # Ann checks
    before = page.evaluate("() => window.handlogTable.outbox()")
    page.reload()  # no network: the page from the service worker, the queue from storage
    page.wait_for_selector(".outbox .engine[data-engine='missing']", timeout=60_000)
    assert [q["event_id"] for q in page.evaluate("() => window.handlogTable.outbox()")] == [
        q["event_id"] for q in before]
    queued_cards(page, "[data-action='open-board']", "3c8dTh")
    for key in "300":
        page.click(f"[data-action='key'][data-key='{key}']")
    queued_tap(page, "[data-action='raise']")  # Cy bets 300
    queued_tap(page, "[data-action='allin']")  # Ann all-in: 1050 (1150 after hand 1, BB 100)
    queued_tap(page, "[data-action='fold']")  # Bob folds
    queued_tap(page, "[data-action='call']")  # Cy calls
    shot(page, "dealer-1280x800-offline-queued-as-tapped")
    assert violations(page) == []  # axe: nothing serious or critical on the queueing panel
    queued = page.evaluate("() => window.handlogTable.outbox()")
    assert len(queued) == 24
    assert "pot_awarded" not in site.stream_types()  # nothing reached the server

    go_online(page)
    drained(page, timeout=120_000)
    assert page.locator(".outbox").is_hidden()  # nothing refused, nothing held
    events = site.recorder.store.read(STREAM)
    assert len({e.event_id for e in events}) == len(events)
    ids = [q["event_id"] for q in queued]
    mine = sorted((e for e in events if str(e.event_id) in ids), key=lambda e: e.version)
    assert [str(e.event_id) for e in mine] == ids  # every tap once, in the order tapped
    called, checked, dealt, shown = "player_called", "player_checked", "board_dealt", "cards_shown"
    assert [(e.type, e.payload.get("amount", e.payload.get("to"))) for e in mine] == [
        (called, 100), ("player_folded", None), (checked, None),
        (dealt, None), (checked, None), (checked, None),
        (dealt, None), (checked, None), (checked, None),
        (dealt, None), (checked, None), (checked, None),
        (shown, None), (shown, None), ("pot_awarded", 250),
        ("hand_started", None), (called, 100), (called, 50), (checked, None),
        (dealt, None), ("bet_made", 300), ("raise_made", 1050), ("player_folded", None),
        (called, 750)]
    assert page.errors == []


def test_without_pyodide_a_tap_the_server_refuses_is_named_to_the_dealer(
        browser: Any, site: Site, no_pyodide: Any) -> None:  # noqa: F811
    """Queued as tapped offline, a raise below the minimum reaches the server when the network
    returns: it is refused, and the dealer sees which tap, whose, and the rule; the taps after
    it are held for him (sent or discarded), not dropped."""
    page = dealer(browser, site)
    controlled(page)
    tap(page, "[data-action='start']")
    go_offline(page)
    queued_tap(page, "[data-action='call']")  # Ann calls 100
    page.wait_for_selector(".outbox .engine[data-engine='missing']", timeout=60_000)
    for key in "150":
        page.click(f"[data-action='key'][data-key='{key}']")
    queued_tap(page, "[data-action='raise']")  # Bob "raises to 150": below the minimum 200
    queued_tap(page, "[data-action='fold']")
    go_online(page)
    page.wait_for_selector(".alert.refused")
    assert page.inner_text(".alert .alert-title") == "Refused: Bob: bet/raise to 150"
    assert "Held: 1 entry" in page.inner_text(".outbox")
    assert site.stream_types()[-1] == "player_called"
    page.click(".outbox [data-action='send-held']")
    drained(page)
    assert site.stream_types()[-1] == "player_folded"
    assert page.errors == []


def test_without_pyodide_ten_minutes_offline_hand_after_hand_lose_nothing_and_double_nothing(
        browser: Any, tmp_path: Any, no_pyodide: Any) -> None:  # noqa: F811
    """The README's first command only, and an outage of more than ten minutes: the dealer
    plays a hand to the showdown and a walk offline; ten and a half minutes pass on the
    tablet (its timers, retries and intervals all run: Playwright's clock) and on the server
    (its sessions' clock, injected); he plays two more hands, reloads offline in the middle of
    one; back online every tap is in the server's log once, in the order tapped."""
    now = [time.time()]
    recorder = make_recorder(tmp_path)
    open_table(recorder, STREAM)  # Ann 1000 (button), Bob 3000 (SB), Cy 3000 (BB)
    recorder.clock = lambda: datetime.fromtimestamp(now[0], UTC)
    app, auth = make_app(recorder, auth=Auth(director_pin=DIRECTOR_PIN, clock=lambda: now[0]),
                         clock=recorder.clock)
    with serve_in_thread(app) as base:
        here = Site(base, auth, recorder)
        page = dealer(browser, here, fake_clock=True)
        controlled(page)
        tap(page, "[data-action='start']")
        go_offline(page)
        started = page.evaluate("() => Date.now()")
        queued_tap(page, "[data-action='call']")  # Ann calls 100
        page.wait_for_selector(".outbox .engine[data-engine='missing']", timeout=60_000)
        queued_tap(page, "[data-action='fold']")  # Bob folds
        queued_tap(page, "[data-action='check']")  # Cy checks
        for street in ("2c7d9h", "Js", "Qd"):
            queued_cards(page, "[data-action='open-board']", street)
            queued_tap(page, "[data-action='check']")  # Cy
            queued_tap(page, "[data-action='check']")  # Ann
        queued_show(page, "Cy", "KsKh")
        queued_show(page, "Ann", "AsAh")  # Ann wins 250
        queued_tap(page, "[data-action='award']")
        queued_tap(page, "[data-action='start']")  # hand 2: Bob button, Cy SB, Ann BB
        queued_tap(page, "[data-action='fold']")  # Bob folds
        queued_tap(page, "[data-action='fold']")  # Cy folds: a walk, Ann wins 100
        queued_tap(page, "[data-action='award']")

        page.clock.run_for("10:30")  # every timer of the page runs: retries, intervals
        now[0] += 630
        assert page.evaluate("() => Date.now()") - started >= 630_000
        assert page.locator(".outbox .pending li").count() == 19  # all still waiting
        assert page.inner_text(".outbox .alert-title") == "Offline: 19 entries waiting"
        assert page.locator("#signin").is_hidden()

        queued_tap(page, "[data-action='start']")  # hand 3: Cy button, Ann SB, Bob BB
        queued_tap(page, "[data-action='call']")  # Cy calls 100
        queued_tap(page, "[data-action='call']")  # Ann completes
        queued_tap(page, "[data-action='check']")  # Bob checks
        before = page.evaluate("() => window.handlogTable.outbox()")
        page.reload()  # offline, ten minutes in
        page.wait_for_selector(".outbox .engine[data-engine='missing']", timeout=60_000)
        assert [q["event_id"] for q in page.evaluate("() => window.handlogTable.outbox()")] == [
            q["event_id"] for q in before]
        queued_cards(page, "[data-action='open-board']", "3c8dTh")
        for key in "300":
            page.click(f"[data-action='key'][data-key='{key}']")
        queued_tap(page, "[data-action='raise']")  # Ann bets 300
        queued_tap(page, "[data-action='call']")  # Bob calls
        queued_tap(page, "[data-action='fold']")  # Cy folds
        for street in ("4s", "5h"):
            queued_cards(page, "[data-action='open-board']", street)
            queued_tap(page, "[data-action='check']")  # Ann
            queued_tap(page, "[data-action='check']")  # Bob
        queued_show(page, "Ann", "AcAd")
        queued_show(page, "Bob", "KcKd")
        queued_tap(page, "[data-action='award']")  # Ann wins 900
        queued_tap(page, "[data-action='start']")  # hand 4
        page.clock.run_for("01:00")
        queued = page.evaluate("() => window.handlogTable.outbox()")
        assert len(queued) == 37
        assert "pot_awarded" not in here.stream_types()  # nothing reached the server

        go_online(page)
        drained(page, timeout=120_000)
        assert page.locator(".outbox").is_hidden()  # nothing refused, nothing held
        assert page.locator("#signin").is_hidden()
        events = recorder.store.read(STREAM)
        assert len({e.event_id for e in events}) == len(events)
        ids = [q["event_id"] for q in queued]
        mine = sorted((e for e in events if str(e.event_id) in ids), key=lambda e: e.version)
        assert [str(e.event_id) for e in mine] == ids  # every tap once, in the order tapped
        called, checked, dealt, shown = ("player_called", "player_checked", "board_dealt",
                                         "cards_shown")
        folded, awarded, begun = "player_folded", "pot_awarded", "hand_started"
        assert [(e.type, e.payload.get("amount", e.payload.get("to"))) for e in mine] == [
            (called, 100), (folded, None), (checked, None),
            (dealt, None), (checked, None), (checked, None),
            (dealt, None), (checked, None), (checked, None),
            (dealt, None), (checked, None), (checked, None),
            (shown, None), (shown, None), (awarded, 250),
            (begun, None), (folded, None), (folded, None), (awarded, 100),  # 50 returned
            (begun, None), (called, 100), (called, 50), (checked, None),
            (dealt, None), ("bet_made", 300), (called, 300), (folded, None),
            (dealt, None), (checked, None), (checked, None),
            (dealt, None), (checked, None), (checked, None),
            (shown, None), (shown, None), (awarded, 900),
            (begun, None)]
        assert page.errors == []
        recorder.store.close()


def test_without_pyodide_a_hand_started_offline_at_a_level_gone_by_is_said_and_waits(
        browser: Any, tmp_path: Any, no_pyodide: Any) -> None:  # noqa: F811
    """The README's first command only. Offline, the dealer starts the next hand at the level
    his tablet shows (1: 50/100) and taps a call; meanwhile the director's next level began
    (2: 100/200). Back online the server deals that hand at level 2 (a new level applies from
    the next hand started, and the server decides every entry when it arrives): the page says
    so at that hand, with both levels, and holds the call for the dealer, who sends it on the
    table as it is now. Nothing is dropped, nothing doubled."""
    level = [LEVEL]
    recorder = make_recorder(tmp_path)
    open_table(recorder, STREAM)
    app, auth = make_app(recorder, level_for=lambda _stream, _fold: level[0])
    with serve_in_thread(app) as base:
        here = Site(base, auth, recorder)
        page = dealer(browser, here)
        controlled(page)
        tap(page, "[data-action='start']")
        go_offline(page)
        queued_tap(page, "[data-action='fold']")  # Ann
        page.wait_for_selector(".outbox .engine[data-engine='missing']", timeout=60_000)
        queued_tap(page, "[data-action='fold']")  # Bob: Cy takes the blinds
        queued_tap(page, "[data-action='award']")
        assert "Level 1 · 50/100" in page.inner_text("#info")  # the level the tablet shows
        queued_tap(page, "[data-action='start']")  # hand 2, as the tablet shows it: 50/100
        queued_tap(page, "[data-action='call']")  # Bob calls
        level[0] = Level(100, 200, number=2)  # the director's next level, meanwhile
        go_online(page)
        page.wait_for_selector(".outbox.held", timeout=30_000)
        alert = page.inner_text("#alert")
        assert "Decided differently by the server: start the next hand" in alert
        assert ("Hand #2 started at Level 2 · 100/200, not Level 1 · 50/100 as this tablet "
                "showed") in alert
        assert "a new level applies from the next hand started" in alert
        assert "1 later entry held" in alert
        events = recorder.store.read(STREAM)
        started = [e for e in events if e.type == "hand_started"][-1]
        assert started.payload["min_bet"] == 200
        assert "player_called" not in [e.type for e in events if e.version > started.version]
        shot(page, "dealer-1280x800-offline-new-level")
        page.click("[data-action='send-held']")  # on the table as it is now: Bob calls 200
        drained(page)
        called = recorder.store.read(STREAM)[-1]
        assert (called.type, called.payload["amount"]) == ("player_called", 200)
        queued_ids = [e.event_id for e in recorder.store.read(STREAM)]
        assert len(set(queued_ids)) == len(queued_ids)
        assert page.errors == []
        recorder.store.close()


def test_an_outage_longer_than_the_idle_limit_keeps_the_queue_until_the_dealer_signs_in(
        browser: Any, tmp_path: Any, no_pyodide: Any) -> None:  # noqa: F811
    """The one limit an outage can reach: the server ends a session unused for longer than
    its idle limit (`serve --idle-minutes`, here 5). Six minutes offline: back online the first
    entry is answered 401, the page asks the dealer to sign in again and keeps the queue; once
    he has, it is sent, once, in order."""
    now = [time.time()]
    recorder = make_recorder(tmp_path)
    open_table(recorder, STREAM)
    auth = Auth(director_pin=DIRECTOR_PIN, clock=lambda: now[0], idle_seconds=300)
    app, auth = make_app(recorder, auth=auth)
    with serve_in_thread(app) as base:
        here = Site(base, auth, recorder)
        page = dealer(browser, here, fake_clock=True)
        controlled(page)
        tap(page, "[data-action='start']")
        go_offline(page)
        queued_tap(page, "[data-action='call']")  # Ann calls 100
        queued_tap(page, "[data-action='fold']")  # Bob folds
        page.clock.run_for("06:00")
        now[0] += 360
        queued = page.evaluate("() => window.handlogTable.outbox()")
        go_online(page)
        page.wait_for_selector("#signin:not([hidden])", timeout=30_000)
        assert "sign in again to send the waiting entries" in page.inner_text("#signin")
        assert [q["event_id"] for q in page.evaluate("() => window.handlogTable.outbox()")] == [
            q["event_id"] for q in queued]
        pin = auth.table_pin(STREAM)
        for digit in pin[:-1]:
            page.click(f"[data-pin='{digit}']")
        page.clock.run_for("00:10")  # the page's retries while he types leave his keypad alone
        page.click(f"[data-pin='{pin[-1]}']")
        page.click("[data-pin='join']")
        drained(page)
        events = recorder.store.read(STREAM)
        mine = [e for e in events if str(e.event_id) in {q["event_id"] for q in queued}]
        assert [e.type for e in mine] == ["player_called", "player_folded"]
        assert [str(e.event_id) for e in mine] == [q["event_id"] for q in queued]
        assert page.errors == []
        recorder.store.close()


def test_without_pyodide_a_clock_called_before_the_outage_stops_when_the_player_acts(
        browser: Any, site: Site, no_pyodide: Any) -> None:  # noqa: F811
    """The dealer calls the clock on Ann, the network goes, Ann calls (queued as tapped): the
    clock stops there, and a minute later no expiry is queued behind her call (it would be
    refused when the network returns and hold every later tap)."""
    page = dealer(browser, site, fake_clock=True)
    controlled(page)
    tap(page, "[data-action='start']")
    assert to_act(page) == "Ann"
    page.click("#tools [data-action='clock']")
    page.wait_for_selector("#clock:not([hidden])")
    go_offline(page)
    queued_tap(page, "[data-action='call']")  # Ann calls 100
    page.clock.run_for("01:00")
    assert [q["label"] for q in page.evaluate("() => window.handlogTable.outbox()")] == [
        "Ann: call 100"]
    assert page.locator("#clock").is_hidden()
    go_online(page)
    drained(page)
    assert site.stream_types()[-1] == "player_called"
    assert page.locator("#alert").is_hidden()
    assert page.errors == []
