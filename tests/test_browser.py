"""The tablet and floor pages in a real browser (Debian's chromium through Playwright): a dealer
records whole hands by taps alone, refusals show their rule, Undo, a stale tablet's conflict,
lost answers retried once, viewers without hole cards, the floor's tournament controls.

Screenshots go to test-artifacts/ (gitignored)."""

from __future__ import annotations

import re
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from web_support import (
    CHROMIUM,
    CHROMIUM_ARGS,
    DIRECTOR_PIN,
    LEVEL,
    make_app,
    make_recorder,
    open_table,
    record,
    require_chromium,
)

from handlog.engine.cards import parse_cards
from handlog.engine.commands import DealHole, KillHand
from handlog.engine.profiles import room_profile_ref
from handlog.engine.table_commands import StartHand
from handlog.recorder.auth import Auth
from handlog.recorder.cli_serve import serve_in_thread
from handlog.recorder.floor import setup_demo
from handlog.recorder.service import Actor, Recorder
from handlog.recorder.tournament_service import Tournaments

pytestmark = pytest.mark.browser

STREAM = "table-1"
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
LAPTOP = {"width": 1280, "height": 800}
PORTRAIT = {"width": 768, "height": 1024}
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    require_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                              args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@dataclass
class Site:
    base: str
    auth: Auth
    recorder: Recorder

    def stream_types(self, stream: str = STREAM) -> list[str]:
        return [e.type for e in self.recorder.store.read(stream)]


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    recorder = make_recorder(tmp_path)
    open_table(recorder, STREAM)  # Ann 1000 (button), Bob 3000 (SB), Cy 3000 (BB)
    app, auth = make_app(recorder)
    with serve_in_thread(app) as base:
        yield Site(base, auth, recorder)
    recorder.store.close()


def shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


# The pages' test hooks (window.handlogTable, __latencies, __floorPending...) exist only behind
# this flag (common.js), set before any page script runs.
TEST_FLAG = "try { localStorage.setItem('handlog.test', '1'); } catch (e) {}"


def new_page(browser: Any, viewport: dict[str, int] = LAPTOP) -> Any:
    context = browser.new_context(viewport=viewport)
    context.add_init_script(TEST_FLAG)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
    return page


def dealer(browser: Any, site: Site, viewport: dict[str, int] = LAPTOP,
           stream: str = STREAM, name: str = "", fake_clock: bool = False) -> Any:
    """A tablet joined as the table's dealer by tapping the PIN on the keypad. `fake_clock`:
    the page's time (Date, timers, intervals) is Playwright's, moved on by page.clock."""
    page = new_page(browser, viewport)
    if fake_clock:
        page.clock.install()
    page.goto(f"{site.base}/dealer/{stream}")
    if name:
        page.fill("#signin-name", name)
    for digit in site.auth.table_pin(stream):
        page.click(f"[data-pin='{digit}']")
    page.click("[data-pin='join']")
    page.wait_for_selector("#actions .btn")
    return page


def settled(page: Any, version: str | None) -> None:
    page.wait_for_function(
        "v => document.body.dataset.version !== v && window.handlogTable.outbox().length === 0",
        arg=version)


def shows(page: Any, selector: str, timeout: float = 30.0) -> None:
    """Wait until `selector` (a Playwright selector) is on the page; if the page shows a
    refusal instead, fail with what it says (rule and message), not with a bare timeout."""
    deadline = time.monotonic() + timeout
    while page.locator(selector).count() == 0:
        if page.locator("#alert").is_visible():
            raise AssertionError(f"waiting for {selector}, the page refused: "
                                 f"{page.inner_text('#alert')!r}")
        if time.monotonic() > deadline:
            raise AssertionError(f"{selector} did not show within {timeout} s")
        page.wait_for_timeout(50)


def tap(page: Any, selector: str) -> None:
    """Tap a button that records, and wait for the screen to show the recorded state."""
    version = page.get_attribute("body", "data-version")
    page.click(selector)
    settled(page, version)


def to_act(page: Any) -> str:
    return str(page.inner_text(".to-act-title")).split(" to act")[0]


def stacks(page: Any) -> dict[str, str]:
    result = {}
    for seat in page.query_selector_all(".seat:not(.empty)"):
        name = seat.query_selector(".name").inner_text()
        result[name] = seat.query_selector(".stack").inner_text()
    return result


def totals(page: Any) -> dict[str, int]:
    """Each player's chips: his stack and what he has in front of him (the blinds of a hand
    that started by itself)."""
    return {s["player"]: s["stack"] + (s.get("bet") or 0)
            for s in page.evaluate("() => window.handlogTable.state().seats") if s["player"]}


def pick_cards(page: Any, cards: str, confirm: str) -> None:
    """Pick the cards; the board and a shown hand are recorded on the last card, other picks
    (hole cards, preselected cards) are confirmed with `confirm`."""
    version = page.get_attribute("body", "data-version")
    for i in range(0, len(cards), 2):
        page.click(f".pick[data-card='{cards[i:i + 2]}']")
    button = page.locator(f".sheet:not([hidden]) [data-action='{confirm}']:not([disabled])")
    if button.count():
        button.click()
    settled(page, version)


def test_a_dealer_records_a_hand_with_a_side_pot_and_a_split_pot_by_taps_alone(
        browser: Any, site: Site) -> None:
    """Start, all-in short stack, calls, the board from the picker, a keypad bet, checks, the
    shown hands, the engine's award per pot confirmed; the floor then shows the new stacks."""
    page = dealer(browser, site, name="Dana")
    shot(page, "dealer-1280x800-between-hands")
    tap(page, "[data-action='start']")
    assert to_act(page) == "Ann"
    assert page.inner_text("[data-action='call']") == "Call 100"
    tap(page, "[data-action='allin']")
    tap(page, "[data-action='call']")  # Bob calls 950
    tap(page, "[data-action='call']")  # Cy calls 900
    page.wait_for_selector(".sheet .picker")  # the flop is due: the picker opens by itself
    shot(page, "dealer-1280x800-card-picker")
    pick_cards(page, "AhKhQd", "deal")
    assert to_act(page) == "Bob"
    for key in "500":
        page.click(f"[data-action='key'][data-key='{key}']")
    assert page.inner_text("[data-action='raise']") == "Bet 500"
    shot(page, "dealer-1280x800-betting")
    tap(page, "[data-action='raise']")
    tap(page, "[data-action='call']")
    pick_cards(page, "2c", "deal")
    tap(page, "[data-action='check']")
    tap(page, "[data-action='check']")
    assert page.is_disabled(".pick[data-card='Ah']")  # cards already seen are greyed out
    pick_cards(page, "3c", "deal")
    tap(page, "[data-action='check']")
    tap(page, "[data-action='check']")
    assert [n.inner_text() for n in page.query_selector_all(".showdown li .name")] == [
        "Bob", "Cy", "Ann"]  # TDA 16: no bet on the river, first left of the button
    # Ann is all-in: every hand is tabled (TDA 16), so the page offers Show and no Muck.
    # The refusal's rule in words (rule_words), not its identifier.
    note = page.inner_text(".panel-note")
    assert "TDA 16" in note and "tda-16" not in note
    assert page.query_selector_all("[data-action='muck']") == []
    for player, cards in (("0", "JhTh"), ("1", "JcTc"), ("2", "4d5d")):
        page.click(f"[data-action='open-show'][data-player='{player}']")
        pick_cards(page, cards, "show")
    awards = [a.inner_text() for a in page.query_selector_all(".award")]
    assert awards[0].startswith("Main pot 3,000 → Bob 1,500, Cy 1,500")
    assert awards[1].startswith("Side pot 1 1,000 → Bob 500, Cy 500")
    shot(page, "dealer-1280x800-showdown")
    tap(page, "[data-action='award']")
    # The pots pushed, the next hand starts by itself (no level, break or move due): hand #2,
    # heads-up, its blinds in front of Bob and Cy.
    page.wait_for_function("() => window.handlogTable.state().hand.number === 2")
    assert totals(page) == {"Ann": 0, "Bob": 3500, "Cy": 3500}
    assert site.stream_types().count("pot_awarded") == 2
    device = page.evaluate("() => localStorage.getItem('handlog.device')")
    mine = site.recorder.store.read(STREAM)[5:]  # after the set-up through the Recorder
    assert {(e.actor, e.device) for e in mine} == {("Dana", device)}
    assert page.errors == []

    floor = new_page(browser)
    floor.goto(f"{site.base}/floor")
    floor.fill("#director-pin", DIRECTOR_PIN)
    floor.click("#signin-form button[type=submit]")
    floor.wait_for_selector(".table-card")
    rows = {r.get_attribute("data-player"): r.query_selector(".stack").inner_text()
            for r in floor.query_selector_all(".table-card tr")}
    assert rows["Ann"] == "0" and set(rows) == {"Ann", "Bob", "Cy"}
    assert "Hand #2" in floor.inner_text(".table-card")
    shot(floor, "floor-1280x800-tables")


def floor_as_director(browser: Any, base: str, viewport: dict[str, int] = LAPTOP) -> Any:
    """The floor page, signed in with the director PIN."""
    floor = new_page(browser, viewport)
    floor.goto(f"{base}/floor")
    floor.fill("#director-pin", DIRECTOR_PIN)
    floor.click("#signin-form button[type=submit]")
    floor.wait_for_selector(".tournament")
    return floor


def director_tablet(browser: Any, site: Site) -> Any:
    """The tournament director signs in on the table's tablet with his PIN."""
    page = new_page(browser)
    page.goto(f"{site.base}/dealer/{STREAM}")
    page.click("[data-pin='mode-director']")
    for digit in DIRECTOR_PIN:
        page.click(f"[data-pin='{digit}']")
    page.click("[data-pin='join']")
    page.wait_for_selector("#actions .btn")
    return page


def test_the_director_kills_a_hand_awards_by_ruling_voids_and_amends_entries(
        browser: Any, site: Site) -> None:
    """At the table, signed in on the tablet, the director rules: a hand killed, the pot
    awarded against the cards by a ruling, an entry voided, a raise's amount corrected, a hand
    void; each needs its rule and reason, and the log keeps them."""
    page = director_tablet(browser, site)
    tap(page, "[data-action='start']")
    assert to_act(page) == "Ann"
    page.click("[data-action='director']")
    page.click(".director-kill .toggle:has-text('Ann')")
    page.click("[data-action='d-kill']")
    assert "A ruling needs its rule and its reason" in page.inner_text("#alert")
    page.fill("#d-rule", "TDA 65")
    page.fill("#d-reason", "exposed both cards to another player")
    shot(page, "dealer-1280x800-director")
    tap(page, "[data-action='d-kill']")
    assert site.stream_types()[-1] == "hand_killed"
    assert to_act(page) == "Bob"
    tap(page, "[data-action='call']")  # Bob completes the small blind
    tap(page, "[data-action='check']")  # Cy
    pick_cards(page, "AhKhQd", "deal")
    for board in ("2c", "3c", None):
        tap(page, "[data-action='check']")
        tap(page, "[data-action='check']")
        if board:
            pick_cards(page, board, "deal")
    for player, cards in (("0", "JcTc"), ("1", "4d5d")):
        page.click(f"[data-action='open-show'][data-player='{player}']")
        pick_cards(page, cards, "show")
    assert page.inner_text(".award").startswith("Main pot 200 → Bob 200")  # Broadway wins
    page.click("[data-action='director']")
    page.fill("#d-rule", "TDA 1")
    page.fill("#d-reason", "Bob's cards went off the table: his hand is fouled")
    page.click(".award-pot .toggle:has-text('Cy')")
    page.click(".award-pot .toggle:has-text('Bob')")
    tap(page, "[data-action='d-award']")
    page.wait_for_function("() => window.handlogTable.state().hand.number === 2")  # by itself
    assert totals(page) == {"Ann": 1000, "Bob": 2900, "Cy": 3100}
    (award,) = [e for e in site.recorder.store.read(STREAM) if e.type == "pot_awarded"]
    assert award.payload["winners"] == [1] and award.payload["ruling"].startswith("TDA 1: ")
    first = to_act(page)
    tap(page, "[data-action='call']")
    page.click("[data-action='director']")
    page.click(".void-list .toggle >> nth=0")  # the newest entry: the call
    page.fill("#d-rule", "TDA 1")
    page.fill("#d-reason", "keyed for the wrong player")
    tap(page, "[data-action='d-void-events']")
    assert site.stream_types()[-1] == "event_voided"
    assert to_act(page) == first  # the call no longer counts
    for key in "300":
        page.click(f"[data-action='key'][data-key='{key}']")
    tap(page, "[data-action='raise']")
    page.click("[data-action='director']")  # 400 was raised, the dealer keyed 300
    page.click(".amend-list .toggle >> nth=0")
    page.fill("#d-to", "400")
    page.fill("#d-rule", "TDA 1")
    page.fill("#d-reason", "the dealer keyed 300; 400 was raised")
    assert page.inner_text("[data-action='d-amend-amount']").endswith("to 400")
    tap(page, "[data-action='d-amend-amount']")
    assert site.stream_types()[-1] == "event_amended"
    assert page.evaluate("window.handlogTable.state().hand.current_bet") == 400
    tap(page, "[data-action='call']")
    page.click("[data-action='director']")  # a foreign-back card turns up: the hand is void
    page.fill("#d-rule", "TDA 35")
    page.fill("#d-reason", "a red-backed card in the blue deck")
    tap(page, "[data-action='d-void-hand']")
    assert site.stream_types()[-1] == "hand_voided"
    assert stacks(page) == {"Ann": "1,000", "Bob": "2,900", "Cy": "3,100"}  # every bet back
    assert page.errors == []
    dealer_page = dealer(browser, site)
    assert dealer_page.query_selector("[data-action='director']") is None  # the director's


def test_an_amount_below_the_minimum_cannot_be_sent_and_a_huge_one_asks_once(
        browser: Any, site: Site) -> None:
    """150 keyed for a 200 minimum: the Raise button reads the minimum and is off, the note
    says why, nothing is sent. 2000 keyed (over ten times the pot of 150) asks once."""
    page = dealer(browser, site)
    tap(page, "[data-action='start']")
    before = site.stream_types()
    for key in "150":
        page.click(f"[data-action='key'][data-key='{key}']")
    assert page.inner_text("#amount") == "150"
    assert page.is_disabled("[data-action='raise']")
    assert page.inner_text("[data-action='raise']") == "Raise to 200 min"
    assert "below the minimum 200" in page.inner_text("#amount-note")
    shot(page, "dealer-1280x800-below-minimum")
    page.click("[data-action='key'][data-key='00']")  # 15000: above all-in, still off
    assert page.is_disabled("[data-action='raise']")
    assert site.stream_types() == before
    tap(page, "[data-action='fold']")
    assert to_act(page) == "Bob"
    for key in "2000":  # over ten times the pot of 150: asks once
        page.click(f"[data-action='key'][data-key='{key}']")
    page.click("[data-action='raise']")
    assert "tap again to confirm" in page.inner_text("[data-action='raise']")
    assert site.stream_types()[-1] == "player_folded"
    tap(page, "[data-action='raise']")
    assert site.stream_types()[-1] == "raise_made"


def test_undo_voids_the_last_entry_as_a_correction(browser: Any, site: Site) -> None:
    page = dealer(browser, site)
    tap(page, "[data-action='start']")
    tap(page, "[data-action='fold']")
    assert to_act(page) == "Bob"
    tap(page, "[data-action='undo']")
    assert to_act(page) == "Ann"
    first, second = page.query_selector_all(".events li")[:2]
    assert "correction" in first.inner_text() and "voided" in first.inner_text()
    assert "Ann folds" in second.inner_text() and "voided" in second.get_attribute("class")
    assert site.stream_types()[-2:] == ["player_folded", "event_voided"]


def test_the_dealers_undo_of_a_directors_kill_is_refused_saying_a_director_must_do_it(
        browser: Any, site: Site) -> None:
    """A director's event ends the dealer's undo: the tablet shows the refusal with its rule
    and what to do, and nothing is recorded."""
    page = dealer(browser, site)
    tap(page, "[data-action='start']")
    record(site.recorder, STREAM, KillHand(0, "foul", "TDA 66"),
           Actor("Floor", "director", "floor"))
    page.reload()
    page.wait_for_selector("[data-action='undo']")
    before = site.stream_types()
    page.click("[data-action='undo']")
    page.wait_for_selector(".alert.refused")
    assert page.inner_text(".alert-rule") == "undo"
    assert "a director must do it" in page.inner_text(".alert-text")
    assert "call the director" in page.inner_text(".alert-legal")
    shot(page, "dealer-1280x800-undo-refused")
    assert site.stream_types() == before == site.stream_types()
    assert page.errors == []


def test_a_stale_tablet_gets_the_conflict_not_a_double_entry(browser: Any, site: Site) -> None:
    """Tablet B taps while offline; tablet A records first; B back online shows the conflict
    with what A recorded, and discards or re-applies; nothing is recorded twice."""
    a = dealer(browser, site)
    tap(a, "[data-action='start']")
    b = dealer(browser, site)
    assert to_act(b) == "Ann"
    b.context.set_offline(True)
    b.click("[data-action='call']")  # Ann calls: queued, not sent
    b.wait_for_selector(".outbox:not(.conflict)")
    assert "Ann: call 100" in b.inner_text(".outbox")
    assert b.is_enabled("[data-action='fold']")  # a tap more would queue behind it
    tap(a, "[data-action='fold']")  # meanwhile tablet A records Ann's fold
    b.context.set_offline(False)
    b.wait_for_selector(".outbox.conflict", timeout=10_000)
    text = b.inner_text(".outbox")
    assert "Not recorded: the table changed" in text
    assert "Ann folds" in text and "Ann: call 100" in text
    shot(b, "dealer-1280x800-conflict")
    types = site.stream_types()
    assert types.count("player_folded") == 1 and "player_called" not in types
    b.click("[data-action='discard']")
    b.wait_for_selector(".outbox", state="hidden")
    assert to_act(b) == "Bob"
    assert site.stream_types() == types

    # A second stale entry, still legal on the table as it is now: re-applied, once.
    b.context.set_offline(True)
    b.click(".seat[data-seat='5']")
    b.click("[data-action='absence'][data-value='1']")
    tap(a, "[data-action='call']")  # Bob calls
    b.context.set_offline(False)
    b.wait_for_selector(".outbox.conflict", timeout=10_000)
    b.click("[data-action='reapply']")
    b.wait_for_selector(".outbox", state="hidden")
    b.wait_for_selector(".seat[data-seat='5'].absent")
    types = site.stream_types()
    assert types.count("seat_absence_changed") == 1 and types.count("player_called") == 1


def test_a_lost_answer_is_retried_with_the_same_event_id_and_recorded_once(
        browser: Any, site: Site) -> None:
    page = dealer(browser, site)
    tap(page, "[data-action='start']")
    lost: list[str] = []

    def drop_answer(route: Any) -> None:
        if not lost:
            route.fetch()  # the server records it...
            lost.append(route.request.post_data or "")
            route.abort()  # ...and the answer never reaches the tablet
        else:
            route.continue_()

    page.route("**/api/tables/*/commands", drop_answer)
    page.click("[data-action='call']")
    page.wait_for_function("() => window.handlogTable.outbox().length === 0", timeout=15_000)
    page.wait_for_function("() => document.body.dataset.version === String(window.handlogTable"
                           ".state().version) && window.handlogTable.state().hand.legal"
                           ".name === 'Bob'")
    assert lost
    assert site.stream_types().count("player_called") == 1
    event_id = uuid.UUID(re.search(r'"event_id":"([^"]+)"', lost[0]).group(1))  # type: ignore[union-attr]
    called = [e for e in site.recorder.store.read(STREAM) if e.type == "player_called"]
    assert called[0].event_id == event_id


def test_the_queue_survives_a_closed_page_and_is_sent_once_back_online(
        browser: Any, site: Site) -> None:
    """Entries tapped offline wait in localStorage with their event ids; the next page of the
    same tablet sends them when the network is back."""
    page = dealer(browser, site)
    tap(page, "[data-action='start']")
    context = page.context
    context.set_offline(True)
    page.click("[data-action='call']")
    page.wait_for_selector(".outbox")
    queued = page.evaluate("() => window.handlogTable.outbox()")
    assert [item["label"] for item in queued] == ["Ann: call 100"]
    page.close()
    context.set_offline(False)
    again = context.new_page()
    again.goto(f"{site.base}/dealer/{STREAM}")
    again.wait_for_function("() => window.handlogTable.state() && "
                            "window.handlogTable.outbox().length === 0")
    again.wait_for_selector(".to-act-title")
    assert to_act(again) == "Bob"
    called = [e for e in site.recorder.store.read(STREAM) if e.type == "player_called"]
    assert len(called) == 1 and str(called[0].event_id) == queued[0]["event_id"]


def test_the_test_hooks_exist_only_behind_the_test_flag(browser: Any, site: Site) -> None:
    """A tablet as shipped has no window.handlogTable, __latencies, __renderMs or the floor's
    counters; `?test=1` (or the localStorage flag the tests set) turns them on."""
    context = browser.new_context(viewport=LAPTOP)
    page = context.new_page()
    hooks = ("handlogTable", "__latencies", "__renderMs", "__floorUpdates", "__floorPending")
    present = "names => names.filter(n => n in window)"
    page.goto(f"{site.base}/dealer/{STREAM}")
    page.wait_for_selector("[data-pin='join']")
    assert page.evaluate(present, list(hooks)) == []
    page.goto(f"{site.base}/floor")
    page.wait_for_selector("#director-pin")
    assert page.evaluate(present, list(hooks)) == []
    page.goto(f"{site.base}/view/{STREAM}")
    page.wait_for_function("() => document.body.dataset.version > '0'")
    assert page.evaluate(present, list(hooks)) == []
    page.goto(f"{site.base}/view/{STREAM}?test=1")
    page.wait_for_function("() => document.body.dataset.version > '0'")
    assert page.evaluate(present, list(hooks)) == ["handlogTable", "__latencies", "__renderMs"]
    context.close()


def test_a_reload_shows_the_same_state_from_the_server(browser: Any, site: Site) -> None:
    page = dealer(browser, site)
    tap(page, "[data-action='start']")
    tap(page, "[data-action='call']")
    before = (page.get_attribute("body", "data-version"), stacks(page), to_act(page))
    page.reload()
    page.wait_for_selector(".to-act-title")
    assert (page.get_attribute("body", "data-version"), stacks(page), to_act(page)) == before


def test_other_screens_of_the_table_update_live_without_a_reload(browser: Any,
                                                                 site: Site) -> None:
    """A viewer's screen follows the dealer's entries as they are recorded (server-sent
    events). How fast is measured by benchmarks/tablet_latency.py, not here: a loaded CI
    machine must not fail this on timing."""
    page = dealer(browser, site)
    viewer = new_page(browser)
    viewer.goto(f"{site.base}/view/{STREAM}")
    viewer.wait_for_selector(".seat")
    tap(page, "[data-action='start']")
    viewer.wait_for_selector(".seat.to-act", timeout=10_000)
    assert viewer.inner_text(".seat.to-act .name") == "Ann"
    assert viewer.query_selector("[data-action='fold']") is None  # read-only


def test_a_viewer_never_sees_hole_cards_that_were_not_shown(browser: Any, site: Site) -> None:
    record(site.recorder, STREAM, StartHand(LEVEL))
    hole = {0: "JhTh", 1: "QsKs", 2: "AhAs"}
    for position, cards in hole.items():
        record(site.recorder, STREAM, DealHole(position, parse_cards(cards)))
    viewer = new_page(browser)
    payloads: list[str] = []
    viewer.on("response", lambda r: payloads.append(r.text())
              if "/api/" in r.url and "/events" not in r.url else None)
    viewer.goto(f"{site.base}/view/{STREAM}")
    viewer.wait_for_selector(".seat.to-act")
    page = dealer(browser, site)
    assert "J♥" in page.inner_text("#ring")  # the dealer's tablet has them (the test can fail)
    tap(page, "[data-action='call']")
    tap(page, "[data-action='fold']")  # Bob folds: his cards are never shown
    tap(page, "[data-action='check']")
    for board in ("2c3d4s", "7c", "8d"):
        pick_cards(page, board, "deal")
        tap(page, "[data-action='check']")
        tap(page, "[data-action='check']")
    viewer.wait_for_selector(".showdown, .viewer-note")
    text = viewer.inner_text("body") + viewer.content()
    for symbol in ("J♥", "10♥", "Q♠", "K♠", "A♥", "A♠"):
        assert symbol not in viewer.inner_text("#ring"), symbol
    page.click("[data-action='open-show'][data-player='1']")
    assert page.is_visible(".pick.picked[data-card='Qs']")  # the dealt cards, preselected
    tap(page, "[data-action='show']")
    viewer.wait_for_function("() => document.querySelector('#ring').innerText.includes('K♠')")
    ring = viewer.inner_text("#ring")
    assert "Q♠" in ring and "K♠" in ring  # shown at showdown: public
    assert "J♥" not in ring and "A♥" not in ring
    for payload in payloads:
        for cards in ("JhTh", "AhAs"):
            assert not re.search(rf"(?<![A-Za-z0-9])({cards[:2]}|{cards[2:]})(?![A-Za-z0-9])",
                                 payload), payload[:300]
    assert "JhTh" not in text


def test_misdeal_absent_exposed_card_and_clock(browser: Any, site: Site) -> None:
    page = dealer(browser, site)
    page.clock.install()
    tap(page, "[data-action='start']")
    page.click(".seat[data-seat='5']")
    tap(page, "[data-action='absence'][data-value='1']")
    assert page.is_visible(".seat[data-seat='5'].absent")
    page.click(".seat[data-seat='5']")
    tap(page, "[data-action='absence'][data-value='0']")
    page.click("[data-action='exposed']")
    page.click("[data-action='expose-player'][data-player='2']")
    page.click(".pick[data-card='9d']")
    tap(page, "[data-action='expose']")
    assert "9d exposed" in page.inner_text(".events li:first-child")
    profile = page.evaluate("() => window.handlogTable.state().profile")
    page.click("[data-action='clock']")
    assert page.inner_text(".clock span") == "Clock on Ann"
    page.clock.fast_forward(profile["clock_seconds"] * 1000 + 500)
    page.wait_for_selector(".clock.countdown")  # the final countdown (TDA 29)
    shot(page, "dealer-1280x800-clock")
    page.clock.fast_forward(profile["clock_countdown_seconds"] * 1000 + 500)
    page.wait_for_function("() => window.handlogTable.state().hand.legal && "
                           "window.handlogTable.state().hand.legal.name === 'Bob'")
    assert "hand_killed" in site.stream_types()  # facing the big blind: dead (TDA 29)
    page.click("[data-action='misdeal']")
    tap(page, "[data-action='declare-misdeal'][data-reason='wrong number of cards']")
    assert "Misdeal: re-deal the same hand" in page.inner_text("#actions")
    tap(page, "[data-action='start']")
    assert "Hand #1" in page.inner_text("#info")


@pytest.mark.parametrize(("viewport", "name"), [(PORTRAIT, "768x1024"), (PHONE, "390x844"),
                                               (LAPTOP, "1280x800")])
def test_pages_fit_the_screen_with_big_targets(browser: Any, site: Site,
                                               viewport: dict[str, int], name: str) -> None:
    """No sideways scrolling; every button of the tablet at least 48 px both ways."""
    page = dealer(browser, site, viewport)
    tap(page, "[data-action='start']")
    shot(page, f"dealer-{name}-betting")
    sizes = page.evaluate("""() => Array.from(document.querySelectorAll(
            '#panel .btn, .seat:not(.empty)'))
        .filter(b => b.offsetParent !== null)
        .map(b => { const r = b.getBoundingClientRect();
                    return [b.textContent.trim(), r.width, r.height]; })""")
    small = [s for s in sizes if s[1] < 48 or s[2] < 48]
    assert not small, small
    assert page.evaluate("() => document.scrollingElement.scrollWidth <= window.innerWidth")
    tap(page, "[data-action='call']")
    tap(page, "[data-action='call']")
    tap(page, "[data-action='check']")
    page.wait_for_selector(".sheet .picker")
    picks = page.evaluate("""() => Array.from(document.querySelectorAll('.pick'))
        .map(b => { const r = b.getBoundingClientRect(); return [r.width, r.height]; })""")
    assert len(picks) == 52 and min(min(p) for p in picks) >= 48
    assert page.evaluate("""() => { const r = document.querySelector('.sheet')
        .getBoundingClientRect(); return r.right <= window.innerWidth + 1; }""")
    shot(page, f"dealer-{name}-card-picker")
    floor = new_page(browser, viewport)
    floor.goto(f"{site.base}/view")
    floor.wait_for_selector(".table-card")
    assert floor.evaluate("() => document.scrollingElement.scrollWidth <= window.innerWidth")
    shot(floor, f"floor-{name}-viewer")


def test_the_floor_runs_the_tournament_and_pairs_a_tablet(browser: Any, tmp_path: Path) -> None:
    """Levels and the clock, registration, a ruling with its rule, a pairing code that joins a
    tablet to its table; the dealer's hand then shows on the floor."""
    recorder = make_recorder(tmp_path)
    tournament = setup_demo(recorder, players=10, tables=2, seed=5)
    app, auth = make_app(recorder, level_for=lambda _s, _f: None)
    with serve_in_thread(app) as base:
        for viewport, name in ((LAPTOP, "1280x800"), (PORTRAIT, "768x1024")):
            floor = floor_as_director(browser, base, viewport)
            assert "Level 1 · 25/50" in floor.inner_text(".clock-label")
            assert re.fullmatch(r"\d+:\d\d", floor.inner_text(".clock-big"))
            shot(floor, f"floor-{name}-director")
        floor.fill("[data-form='register'] input[name='name']", "Zelda")
        floor.click("[data-form='register'] button")
        shows(floor, "#tournament :text('Zelda'), #tables :text('Zelda')")
        floor.fill("[data-form='ruling'] input[name='rule']", "TDA 45")
        floor.fill("[data-form='ruling'] input[name='text']", "verbal raise binding")
        floor.click("[data-form='ruling'] button")
        shows(floor, ".rulings li:has-text('verbal raise binding')")
        assert "TDA 45" in floor.inner_text(".rulings")
        version = floor.get_attribute("body", "data-version")
        floor.click("[data-action='t-cmd'][data-type='start_level']")
        floor.wait_for_function("v => document.body.dataset.version !== v", arg=version)
        floor.wait_for_function(
            "() => document.querySelector('.clock-label').innerText.includes('Level 2')")
        stream = f"table-{tournament}-1"
        floor.click(f"[data-action='pair'][data-stream='{stream}']")
        code_el = floor.wait_for_selector(f".table-card[data-stream='{stream}'] .code")
        code = code_el.inner_text()
        tablet = new_page(browser, PORTRAIT)
        tablet.goto(f"{base}/join")
        for digit in code:
            tablet.click(f"[data-key='{digit}']")
        tablet.click("#join")
        tablet.wait_for_url(f"**/dealer/{stream}")
        tablet.wait_for_selector("[data-action='start']")
        assert "50/100" in tablet.inner_text("#actions")  # the tournament's level 2
        tap(tablet, "[data-action='start']")
        floor.wait_for_selector(f".table-card[data-stream='{stream}'].in-hand", timeout=10_000)
        assert "Hand #1" in floor.inner_text(f".table-card[data-stream='{stream}']")
        shot(floor, "floor-768x1024-in-hand")
        assert auth.pairing_codes() == []  # used once
    recorder.store.close()


def test_the_director_creates_a_tournament_on_the_floor_from_a_structure_file(
        browser: Any, tmp_path: Path) -> None:
    """The floor's New tournament form takes a structure file: a wrong one is refused with
    the file and the field named; the right one shows up with its house rules, ready for
    registration. Viewers do not see the form."""
    recorder = make_recorder(tmp_path)
    app, _auth = make_app(recorder)
    examples = Path(__file__).resolve().parent.parent / "examples"
    wrong = tmp_path / "wrong.toml"
    wrong.write_text((examples / "bse.toml").read_text().replace(
        "starting_stack = 4000", "starting_stack = -4000", 1))
    with serve_in_thread(app) as base:
        floor = new_page(browser)
        floor.goto(f"{base}/floor")
        floor.fill("#director-pin", DIRECTOR_PIN)
        floor.click("#signin-form button[type=submit]")
        floor.wait_for_selector("#new-tournament:not([hidden])")
        floor.fill("#new-tournament-form input[name='id']", "league-night")
        floor.set_input_files("#new-tournament-form input[name='structure']", str(wrong))
        floor.click("#new-tournament-form button")
        floor.wait_for_selector("#alert:not([hidden])")
        assert "wrong.toml: starting_stack" in floor.inner_text("#alert")
        floor.click("#alert [data-action='dismiss']")
        floor.set_input_files("#new-tournament-form input[name='structure']",
                              str(examples / "bse.toml"))
        floor.click("#new-tournament-form button")
        shows(floor, ".tournament[data-tournament='league-night']")
        assert "bse rules" in floor.inner_text(".tournament[data-tournament='league-night']")
        assert floor.locator("[data-form='register'][data-t='league-night']").count() == 1
        assert floor.errors == []
        viewer = new_page(browser)
        viewer.goto(f"{base}/floor")
        viewer.click("#as-viewer")
        viewer.wait_for_selector("#status[data-state='live']")
        assert viewer.locator("#new-tournament").is_hidden()
    assert Tournaments(recorder).tournaments() == ["league-night"]
    recorder.store.close()


def test_a_command_clicked_while_the_last_is_still_recording_waits_for_it(
        browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A late entry (his entry and his seat, one transaction) takes a while to record. A
    ruling clicked meanwhile waits for the entry's answer and goes with the version it brings:
    not refused as stale when it arrives just after (the failure CI once saw)."""
    recorder = make_recorder(tmp_path)
    tournament = setup_demo(recorder, players=10, tables=2, seed=5)
    app, _auth = make_app(recorder, level_for=lambda _s, _f: None)
    record_many = Recorder.record_many

    def slow_record_many(self: Recorder, *args: Any, **kwargs: Any) -> Any:
        time.sleep(1.5)  # the entry is still being recorded when the ruling is clicked
        return record_many(self, *args, **kwargs)

    monkeypatch.setattr(Recorder, "record_many", slow_record_many)
    with serve_in_thread(app) as base:
        floor = floor_as_director(browser, base)
        floor.fill("[data-form='register'] input[name='name']", "Zelda")
        floor.click("[data-form='register'] button")
        floor.fill("[data-form='ruling'] input[name='rule']", "TDA 45")
        floor.fill("[data-form='ruling'] input[name='text']", "verbal raise binding")
        floor.click("[data-form='ruling'] button")
        shows(floor, ".rulings li:has-text('verbal raise binding')")
        assert floor.locator("#alert").is_hidden()
        assert floor.errors == []
    types = [e.type for e in recorder.store.read(f"tournament-{tournament}")]
    assert types[-3:] == ["player_registered", "seats_drawn", "ruling_recorded"]
    recorder.store.close()


def test_a_floor_command_whose_answer_is_lost_is_sent_again_and_recorded_once(
        browser: Any, tmp_path: Path) -> None:
    """The floor page makes one event id per click: the ruling whose answer never came is sent
    again with that id (and the version on screen), and the log holds it once."""
    recorder = make_recorder(tmp_path)
    tournament = setup_demo(recorder, players=10, tables=2, seed=5)
    app, _auth = make_app(recorder, level_for=lambda _s, _f: None)
    lost: list[str] = []
    answers: list[Any] = []

    def drop_answer(route: Any) -> None:
        if not lost:
            route.fetch()  # the server records it...
            lost.append(route.request.post_data or "")
            route.abort()  # ...and the answer never reaches the floor
        else:
            response = route.fetch()
            answers.append(response.json())
            route.fulfill(response=response)

    with serve_in_thread(app) as base:
        floor = floor_as_director(browser, base)
        floor.route("**/api/tournaments/*/commands", drop_answer)
        floor.fill("[data-form='ruling'] input[name='rule']", "TDA 45")
        floor.fill("[data-form='ruling'] input[name='text']", "verbal raise binding")
        floor.click("[data-form='ruling'] button")
        floor.wait_for_selector(".rulings li:has-text('verbal raise binding')", timeout=10_000)
        for _ in range(100):
            if answers:
                break
            floor.wait_for_timeout(100)
        assert [a.get("retried") for a in answers] == [True]  # the same command, not a new one
        floor.wait_for_function("() => document.querySelector('#alert').hidden")
        assert floor.errors == []
    assert lost
    sent = re.search(r'"event_id":"([^"]+)","expected_version":(\d+)', lost[0])
    assert sent is not None
    rulings = [e for e in recorder.store.read(f"tournament-{tournament}")
               if e.type == "ruling_recorded"]
    assert [(e.event_id, e.version) for e in rulings] == [
        (uuid.UUID(sent.group(1)), int(sent.group(2)) + 1)]
    recorder.store.close()


def test_the_chip_tray_records_one_chip_several_chip_and_string_bet_entries_per_profile(
        browser: Any, site: Site) -> None:
    """The dealer taps what he sees pushed, chip by chip, motion by motion; the engine rules it
    under the table's house rules and the tablet says so. Facing the 100 big blind, a 100 and a
    20 chip silently: TDA 45, a call (short of 50% of a raise over it); BSE 'a raise for the
    total', held to a raise to 200. A string bet (two motions): the first motion counts. After
    the flop one 100 chip with no bet to face: TDA 44, a bet of 100; BSE 'any single chip ...
    a call', a check."""
    # BSE's rules, three-handed (a room profile on bse: its tables play down to two players).
    bse = room_profile_ref("bse three-handed", "bse", {"min_players_per_table": 2})
    open_table(site.recorder, "table-2", profile=bse)
    expected = {
        STREAM: ["ruled a call: several chips short of 50%", "ruled a call: chips in several",
                 "ruled a bet of 100: one chip"],
        "table-2": ["ruled a raise to 200: several chips, nothing said: a raise for the total",
                    "ruled a call: chips in several", "ruled a check: one chip"],
    }
    for stream, lines in expected.items():
        page = dealer(browser, site, stream=stream)
        tap(page, "[data-action='start']")
        assert to_act(page) == "Ann"
        if not page.locator("[data-action='chip']").count():
            page.click("[data-action='tray-toggle']")  # the tray is one tap away
        page.click("[data-action='chip'][data-value='100']")
        page.click("[data-action='chip'][data-value='20']")
        assert page.inner_text("#tray") == "1 x 100 + 1 x 20"
        tap(page, "[data-action='push']")
        assert to_act(page) == "Bob"
        for chip in ("20", "20"):
            page.click(f"[data-action='chip'][data-value='{chip}']")
        page.click("[data-action='motion']")
        page.click("[data-action='chip'][data-value='100']")
        assert page.inner_text("#tray") == "2 x 20 | 1 x 100"
        tap(page, "[data-action='push']")
        assert to_act(page) == "Cy"
        tap(page, "[data-action='check']" if page.locator("[data-action='check']").count()
            else "[data-action='call']")
        page.wait_for_selector(".sheet .picker")
        pick_cards(page, "AhKhQd", "deal")
        assert to_act(page) == "Bob"
        page.click("[data-action='chip'][data-value='100']")
        tap(page, "[data-action='push']")
        log = page.inner_text("#events")
        for line in lines:
            assert line in log, (stream, line, log)
        shot(page, f"dealer-chip-tray-{stream}")
        assert page.errors == []
    pushed = [e.decode() for e in site.recorder.store.read("table-2") if e.type == "chips_pushed"]
    assert [(p.ruled, p.rule) for p in pushed] == [
        ("raise", "bse-betting"), ("call", "bse-betting"), ("check", "bse-betting")]


def test_the_chip_tray_offers_the_chips_in_play_at_a_tournament_table(
        browser: Any, site: Site) -> None:
    """TDA 25 (chips in play): at a tournament table the tray's chips are the level's
    denominations that hand_started recorded, not multiples of the smallest chip."""
    from handlog.recorder.floor import setup_demo
    from handlog.recorder.tournament_service import table_stream

    tournament = setup_demo(site.recorder, players=6, tables=1)
    stream = table_stream(tournament, "1")
    page = dealer(browser, site, stream=stream)
    if page.locator("[data-action='start']").count():
        tap(page, "[data-action='start']")
    page.wait_for_selector("[data-action='tray-toggle']")
    page.click("[data-action='tray-toggle']")
    page.wait_for_selector("[data-action='chip']")
    hand = page.evaluate("() => window.handlogTable.state().hand")
    assert hand["denominations"], "the demo structure lists its chips"
    offered = [int(v) for v in page.eval_on_selector_all(
        "[data-action='chip']", "els => els.map(e => e.dataset.value)")]
    assert offered == sorted(hand["denominations"])
    assert page.errors == []
